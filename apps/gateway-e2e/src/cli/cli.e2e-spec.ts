import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { baseUrl, call } from '../support/api.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The built CLI, run as a person or a script would: `node apps/cli/dist/main.js …` (the `social` bin). */
const CLI = join(ROOT, 'apps/cli/dist/main.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `social …` as a child process against the e2e gateway, with its own config folder; never throws. */
function social(home: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: home, SOCIAL_API_URL: baseUrl(), ...env }, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A local port nobody listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** No stack trace, no internal names: what a person sees on a failure. */
function expectCleanFailure(run: Run, code: number, message: RegExp) {
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: '' });
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at |node:internal|\.js:\d+/);
}

describe('apps/cli: the social command line against the running platform', () => {
  let home: string;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'social-cli-e2e-'));
    tenant = await createTenant();
    const created = await call('POST', '/api-tokens', { token: tenant.owner.token, body: { name: 'cli e2e' } });
    expect(created.status).toBe(201);
    token = created.body.token;
  });

  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('signs in, keeps the session in a 0600 file, chooses the only workspace, refreshes an expiring token, signs out', async () => {
    const own = mkdtempSync(join(home, 'login-'));
    const login = await social(own, ['login', '--email', tenant.owner.email], { SOCIAL_PASSWORD: tenant.owner.password });
    expect(login).toMatchObject({ code: 0, stderr: '' });
    expect(login.stdout).toContain(`Signed in to ${baseUrl()} as ${tenant.owner.email}.`);
    expect(statSync(join(own, 'social', 'config.json')).mode & 0o777).toBe(0o600);

    const workspaces = await social(own, ['workspace', 'list', '--json']);
    expect(workspaces.code).toBe(0);
    expect(JSON.parse(workspaces.stdout).workspaces.map((w: { id: string }) => w.id)).toEqual([tenant.workspaceId]);
    const table = await social(own, ['workspace', 'list']);
    expect(table.stdout).toMatch(new RegExp(`^\\*\\s+${tenant.workspaceId}\\s+Main\\s+admin`, 'm'));

    // An access token about to expire is refreshed first: the rotated pair is kept, the command just works.
    const file = join(own, 'social', 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(
      file,
      JSON.stringify({ ...config, session: { ...config.session, expires_at: new Date(Date.now() - 1_000).toISOString() } }),
    );
    expect((await social(own, ['accounts', 'list'])).code).toBe(0);
    const refreshed = JSON.parse(readFileSync(file, 'utf8')).session;
    expect(refreshed.refresh_token).not.toBe(config.session.refresh_token);
    expect(Date.parse(refreshed.expires_at)).toBeGreaterThan(Date.now() + 60_000);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const logout = await social(own, ['logout']);
    expect(logout).toMatchObject({ code: 0, stdout: `Signed out ${tenant.owner.email}.\n` });
    expectCleanFailure(await social(own, ['workspace', 'list']), 3, /not signed in/);

    const wrong = await social(own, ['login', '--email', tenant.owner.email, '--password', 'not the password']);
    expectCleanFailure(wrong, 3, /401 invalid_credentials/);
  });

  it('drafts from a file, attaches a JPEG it uploads, previews, schedules to a sandbox account and watches it go live', async () => {
    const env = { SOCIAL_TOKEN: token, SOCIAL_WORKSPACE: tenant.workspaceId };
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, 'cli_e2e');
    const accounts = await social(home, ['accounts', 'list'], env);
    expect(accounts.code).toBe(0);
    expect(accounts.stdout).toMatch(new RegExp(`^${account.id}\\s+sandbox\\s+cli_e2e`, 'm'));

    const textFile = join(home, 'post.txt');
    writeFileSync(textFile, 'Spring launch: we ship on Monday.');
    const created = await social(home, ['pub', 'create', '--file', textFile, '--title', 'Launch', '--json'], env);
    expect(created.code).toBe(0);
    const draft = JSON.parse(created.stdout);
    expect(draft).toMatchObject({ status: 'draft', revision: 1, title: 'Launch', source_text: 'Spring launch: we ship on Monday.' });

    const photo = join(home, 'photo.jpg');
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } })
      .jpeg()
      .toFile(photo);
    const attached = await social(home, ['pub', 'attach', draft.id, photo, '--alt', 'A green square', '--json'], env);
    expect(attached.code).toBe(0);
    expect(attached.stderr).toMatch(/uploaded .*photo\.jpg → media /);
    const withMedia = JSON.parse(attached.stdout);
    expect(withMedia.revision).toBe(2);
    expect(withMedia.media).toEqual([
      expect.objectContaining({
        mime_type: 'image/jpeg',
        original_filename: 'photo.jpg',
        alt_text: 'A green square',
        width: 64,
        height: 48,
      }),
    ]);
    const library = await call('GET', `/media/${withMedia.media[0].id}`, { token: tenant.owner.token });
    expect(library.body).toMatchObject({ status: 'ready', workspace_id: tenant.workspaceId, size: statSync(photo).size });

    const preview = await social(home, ['pub', 'preview', draft.id, '--accounts', account.id, '--json'], env);
    expect(preview.code).toBe(0);
    expect(JSON.parse(preview.stdout).renditions).toEqual([
      expect.objectContaining({
        social_account_id: account.id,
        platform: 'sandbox',
        problems: [],
        parts: [
          expect.objectContaining({
            text: expect.stringContaining('Spring launch'),
            media: [expect.objectContaining({ mime_type: 'image/jpeg' })],
          }),
        ],
      }),
    ]);
    const previewText = await social(home, ['pub', 'preview', draft.id, '--accounts', account.id], env);
    expect(previewText.stdout).toContain('── sandbox @cli_e2e: 1 part');

    const at = new Date(Date.now() + 2_000).toISOString();
    const scheduled = await social(home, ['pub', 'schedule', draft.id, '--at', at, '--accounts', account.id, '--json'], env);
    expect(scheduled.code).toBe(0);
    expect(JSON.parse(scheduled.stdout)).toMatchObject({
      status: 'scheduled',
      scheduled_at: at,
      renditions: [{ social_account_id: account.id }],
    });

    const watched = await social(home, ['pub', 'watch', draft.id, '--interval', '0.5', '--timeout', '60'], env);
    expect(watched.code).toBe(0);
    const lines = watched.stdout.trim().split('\n');
    expect(lines[lines.length - 2]).toMatch(/sandbox @cli_e2e {2}published {2}live {2}\S+/);
    expect(lines[lines.length - 1]).toBe('All live (1 rendition).');

    const live = await call('GET', `/publications/${draft.id}`, { token: tenant.owner.token });
    expect(live.body.status).toBe('published');
    expect((await call('GET', `/social-accounts/${account.id}`, { token: tenant.owner.token })).body.posts_published).toBe(1);

    const shown = await social(home, ['pub', 'show', draft.id], env);
    expect(shown.stdout).toMatch(new RegExp(`^${draft.id}  published  revision \\d+`));
    const listed = await social(home, ['pub', 'list', '--status', 'published', '--json'], env);
    expect(JSON.parse(listed.stdout).publications.map((p: { id: string }) => p.id)).toEqual([draft.id]);
  });

  it('publish --watch exits 1 when the network rejects the post, and says which rendition failed', async () => {
    const env = { SOCIAL_TOKEN: token, SOCIAL_WORKSPACE: tenant.workspaceId };
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const created = JSON.parse((await social(home, ['pub', 'create', '--text', 'Refuse me [sandbox:reject]', '--json'], env)).stdout);
    const run = await social(home, ['pub', 'publish', created.id, '--accounts', account.id, '--watch'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/failed {2}rejected {2}.*sandbox_rejected/);
    expect(run.stdout).toMatch(/^Failed: 1 of 1 rendition\.$/m);
  });

  it('a create retried with the same idempotency key makes one publication', async () => {
    const env = { SOCIAL_TOKEN: token, SOCIAL_WORKSPACE: tenant.workspaceId };
    const text = `Only once ${randomUUID()}`;
    const args = ['pub', 'create', '--text', text, '--idempotency-key', `cli-${randomUUID()}`, '--json'];
    const first = await social(home, args, env);
    const again = await social(home, args.slice(0, -1), env);
    expect(first.code).toBe(0);
    expect(again.code).toBe(0);
    const id = JSON.parse(first.stdout).id;
    expect(again.stdout).toContain(`Already created (same idempotency key) draft ${id}`);
    // Every page, one publication a page: the three of this suite's tenant so far, this text once.
    const all = JSON.parse((await social(home, ['pub', 'list', '--limit', '1', '--all', '--json'], env)).stdout);
    expect(all).toMatchObject({ next_cursor: '' });
    expect(all.publications).toHaveLength(3);
    expect(all.publications.filter((p: { source_text: string }) => p.source_text === text)).toHaveLength(1);
  });

  it('a bad token is exit 3, an unknown workspace exit 4, an unreachable API exit 6: a clear message, no stack trace', async () => {
    expectCleanFailure(
      await social(home, ['pub', 'list', '-w', tenant.workspaceId, '--token', 'spt_not-a-token']),
      3,
      /^error: .*\(401 \w+\)/,
    );
    expectCleanFailure(
      await social(home, ['pub', 'list', '-w', randomUUID(), '--token', token]),
      4,
      /workspace_forbidden[\s\S]*social workspace list/,
    );
    expectCleanFailure(await social(home, ['workspace', 'use', randomUUID(), '--token', token]), 4, /404 not_found/);
    expectCleanFailure(await social(home, ['pub', 'list', '-w', tenant.workspaceId]), 3, /not signed in/);
    const closed = await closedPort();
    const down = await social(home, ['pub', 'show', randomUUID(), '--token', token, '--api-url', `http://127.0.0.1:${closed}`]);
    expect(down.code).toBe(6);
    expect(down.stderr).toContain(`error: cannot reach http://127.0.0.1:${closed}: connection refused`);
    expectCleanFailure(await social(home, ['pub', 'schedule', randomUUID(), '--at', 'next week', '--token', token]), 2, /--at <time>/);
  });
});
