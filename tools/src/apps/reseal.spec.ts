import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SecretBox } from '@social/platform';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

// `node apps/admin/dist/main.js reseal` after a SECRETS_KEY rotation: the built app, as the image runs it,
// re-seals what an older key sealed with the keyring's first key. Needs `npm run build` first.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const key = () => randomBytes(32).toString('base64');

function run(command: 'migrate' | 'reseal', env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const main = join(root, 'apps/admin/dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const child = spawn(process.execPath, [main, command], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done) => child.on('exit', (code) => done({ code, output })));
}

describe('reseal after a SECRETS_KEY rotation', () => {
  let db: TemporaryDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    db = await createTemporaryDatabase(adminUrl, 'reseal_spec');
    expect((await run('migrate', { DATABASE_URL: db.url })).code).toBe(0);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('seals every value again with the first key, keeps what it says, and the old key can then be dropped', async () => {
    const oldKey = key();
    const newKey = key();
    const before = SecretBox.fromBase64Key(oldKey);
    const appId = randomUUID();
    await client.query(
      `INSERT INTO admin.provider_apps (id, provider, instance_url, name, client_id, sealed_client_secret, sealed_bot_token,
         connection_mode, is_active, created_at, updated_at)
       VALUES ($1, 'mastodon', 'https://m.example', 'M', 'cid', $2, NULL, 'oauth', true, now(), now())`,
      [appId, before.seal('client-secret-1', 'provider_apps:mastodon|https://m.example:client_secret')],
    );
    await client.query(
      `INSERT INTO admin.instance_settings (key, sealed_value, updated_at, updated_by) VALUES ('smtp_url', $1, now(), $2)`,
      [before.seal('smtp://user:pw@mail', 'instance_settings:smtp_url'), randomUUID()],
    );

    const rotated = { DATABASE_URL: db.url, SECRETS_KEY: `k1:${newKey},k0:${oldKey}` };
    const first = await run('reseal', rotated);
    expect(first.code).toBe(0);
    expect(first.output).toContain('"provider_apps.sealed_client_secret":1');
    expect(first.output).toContain('"instance_settings.sealed_value":1');
    // Nothing left for a second run.
    expect((await run('reseal', rotated)).output).toContain('"provider_apps.sealed_client_secret":0');

    const after = SecretBox.fromBase64Key(`k1:${newKey}`);
    const [app] = (await client.query(`SELECT sealed_client_secret, sealed_bot_token FROM admin.provider_apps WHERE id = $1`, [appId]))
      .rows;
    expect(app.sealed_client_secret).toMatch(/^v2\.k1\./);
    expect(app.sealed_bot_token).toBeNull();
    expect(after.open(app.sealed_client_secret, 'provider_apps:mastodon|https://m.example:client_secret')).toBe('client-secret-1');
    const [setting] = (await client.query(`SELECT sealed_value FROM admin.instance_settings WHERE key = 'smtp_url'`)).rows;
    expect(after.open(setting.sealed_value, 'instance_settings:smtp_url')).toBe('smtp://user:pw@mail');

    // A keyring that cannot open a value stops with an error instead of losing it.
    const wrong = await run('reseal', { DATABASE_URL: db.url, SECRETS_KEY: key() });
    expect(wrong.code).toBe(1);
  }, 90_000);
});
