import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTemporaryDatabase, freePort, TemporaryDatabase } from '@social/testing';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

// `node apps/<service>/dist/main.js migrate`, the Kubernetes init container of every
// service (k8s/README.md): the built apps, as the image runs them, against a fresh
// database and a NATS_URL nothing listens on. Needs `npm run build` first.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The apps that boot through runService (the gateway has no database). */
const services = readdirSync(join(root, 'apps')).filter((app) => {
  const main = join(root, 'apps', app, 'src/main.ts');
  return existsSync(main) && readFileSync(main, 'utf8').includes('runService(');
});

interface Run {
  code: number | null;
  logs: Array<{ level: string; msg: string; schema?: string; migrations?: string[] }>;
  stderr: string;
}

/** Runs one service's migrate mode with only the given environment (plus PATH). */
function migrate(service: string, env: Record<string, string>): Promise<Run> {
  const main = join(root, 'apps', service, 'dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const child = spawn(process.execPath, [main, 'migrate'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${service} migrate did not exit within 30 s: ${stdout}${stderr}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const logs = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Run['logs'][number]);
      done({ code, logs, stderr });
    });
  });
}

async function appliedInDatabase(url: string, schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM "${schema}".migrations ORDER BY id`);
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('runService migrate mode', () => {
  let db: TemporaryDatabase;
  let concurrentDb: TemporaryDatabase;
  let natsUrl: string;

  beforeAll(async () => {
    db = await createTemporaryDatabase(adminUrl, 'migrate_spec');
    concurrentDb = await createTemporaryDatabase(adminUrl, 'migrate_spec_concurrent');
    // A port that was free a moment ago: nothing answers there.
    natsUrl = `nats://127.0.0.1:${await freePort()}`;
  });

  afterAll(async () => {
    await db?.drop();
    await concurrentDb?.drop();
  });

  it('finds the eight services', () => {
    expect(services.sort()).toEqual(['accounts', 'admin', 'creative', 'insights', 'media', 'notifications', 'publishing', 'webhooks']);
  });

  it('applies every service’s migrations to a fresh database with NATS unreachable and no other setting, then exits 0', async () => {
    for (const service of services) {
      const run = await migrate(service, { DATABASE_URL: db.url, NATS_URL: natsUrl });
      expect({ service, code: run.code, stderr: run.stderr }).toEqual({ service, code: 0, stderr: '' });
      const [log] = run.logs;
      expect(run.logs).toHaveLength(1);
      expect(log).toMatchObject({ level: 'info', msg: 'migrations applied', schema: service });
      expect(log.migrations!.length).toBeGreaterThan(0);
      expect(await appliedInDatabase(db.url, service)).toEqual(log.migrations);
    }
  }, 180_000);

  it('applies nothing the second time and still exits 0', async () => {
    const service = services[0];
    const before = await appliedInDatabase(db.url, service);
    const run = await migrate(service, { DATABASE_URL: db.url, NATS_URL: natsUrl });
    expect(run.code).toBe(0);
    expect(run.logs).toEqual([expect.objectContaining({ msg: 'no pending migrations', migrations: [] })]);
    expect(await appliedInDatabase(db.url, service)).toEqual(before);
  }, 60_000);

  it('lets replicas start together: the advisory lock applies each migration once', async () => {
    const service = 'publishing';
    const runs = await Promise.all([1, 2, 3].map(() => migrate(service, { DATABASE_URL: concurrentDb.url })));
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    const applied = runs.flatMap((run) => run.logs.flatMap((log) => log.migrations ?? []));
    // One run applied them all; the others waited for the lock and found nothing pending.
    expect(applied.sort()).toEqual((await appliedInDatabase(concurrentDb.url, service)).sort());
    expect(runs.filter((run) => run.logs[0]?.msg === 'no pending migrations')).toHaveLength(2);
  }, 90_000);

  it('exits 1 with a clear message when the database is unreachable or DATABASE_URL is missing', async () => {
    const unreachable = await migrate('notifications', {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/none`,
      NATS_URL: natsUrl,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.logs).toEqual([expect.objectContaining({ level: 'fatal', msg: 'migrations failed', schema: 'notifications' })]);

    const missing = await migrate('notifications', { NATS_URL: natsUrl });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('notifications migrate: invalid configuration');
    expect(missing.stderr).toContain('DATABASE_URL is required');
  }, 60_000);
});
