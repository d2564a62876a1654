import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './cli.js';

/** A request as the fake API saw it. */
interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: any;
}
type Route = (request: Seen) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const problem = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  new Response(
    JSON.stringify({ type: 'about:blank', title: 'Refused', status, code, detail: `Because ${code}.`, request_id: 'r1', ...extra }),
    {
      status,
      headers: { 'content-type': 'application/problem+json' },
    },
  );

const WORKSPACE = '0199a000-0000-7000-8000-000000000001';
const ACCOUNT = '0199a000-0000-7000-8000-0000000000a1';

function publication(extra: Record<string, unknown> = {}) {
  return {
    id: 'p1',
    workspace_id: WORKSPACE,
    status: 'draft',
    revision: 1,
    title: '',
    source_text: 'Hi',
    scheduled_at: '',
    media: [],
    renditions: [],
    ...extra,
  };
}

function rendition(status: string, state: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'r1',
    social_account_id: ACCOUNT,
    platform: 'sandbox',
    status,
    external_url: '',
    error_code: '',
    error_message: '',
    error_retry_at: '',
    delivery: { state, current_attempt_number: 1, external_url: '', terminal_reason: '' },
    ...extra,
  };
}

describe('social (run against a fake API)', () => {
  let home: string;
  let seen: Seen[];
  let routes: Record<string, Route>;
  let stdout: string;
  let stderr: string;

  const social = async (args: string[], env: Record<string, string> = {}, tty = false) => {
    stdout = '';
    stderr = '';
    const io = {
      stdout: { write: (text: string) => (stdout += text), isTTY: tty },
      stderr: { write: (text: string) => (stderr += text) },
      env: { XDG_CONFIG_HOME: home, SOCIAL_API_URL: 'http://api.test', ...env },
      retryPolicy: { attempts: 3, baseDelayMs: 1, maxDelayMs: 10, sleep: async () => undefined },
      fetch: (async (target: Request | string, init?: RequestInit) => {
        const input = new Request(target, init); // API calls come as a Request, uploads as a URL and init
        const url = new URL(input.url);
        if (input.method === 'PUT') {
          seen.push({ method: 'PUT', path: url.pathname, headers: input.headers, body: Buffer.from(await input.arrayBuffer()) });
          return routes[`PUT ${url.pathname}`]!(seen[seen.length - 1]);
        }
        const text = await input.text();
        const request = {
          method: input.method,
          path: url.pathname + url.search,
          headers: input.headers,
          body: text ? JSON.parse(text) : undefined,
        };
        seen.push(request);
        const route = routes[`${request.method} ${url.pathname}`] ?? routes[`${request.method} ${request.path}`];
        return route ? route(request) : problem(404, 'not_found');
      }) as typeof fetch,
    };
    return run(args, io);
  };

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'social-cli-'));
    seen = [];
    routes = {};
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('--help is exit 0; an unknown command or a missing/invalid option is exit 2 with the reason on stderr', async () => {
    expect(await social(['--help'])).toBe(0);
    expect(stdout).toMatch(/Usage: social/);
    expect(await social(['publish'])).toBe(2);
    expect(stderr).toMatch(/unknown command 'publish'/);
    expect(await social(['pub', 'schedule', 'p1', '-w', WORKSPACE])).toBe(2);
    expect(stderr).toMatch(/required option '--at <time>'/);
    expect(await social(['pub', 'publish', 'p1', '--accounts', ACCOUNT, '--social-set', 's1'])).toBe(2);
    expect(stderr).toMatch(/cannot be used with/);
    expect(await social(['pub', 'create', '--text', 'x'])).toBe(2);
    expect(stderr).toMatch(/no workspace chosen/);
    expect(seen).toEqual([]);
  });

  it('without credentials is exit 3 and says how to sign in; a refused token is exit 3 with the problem, no stack', async () => {
    expect(await social(['pub', 'list', '-w', WORKSPACE])).toBe(3);
    expect(stderr).toMatch(/not signed in[\s\S]*social login/);
    routes['GET /publications'] = () => problem(401, 'invalid_token');
    expect(await social(['pub', 'list', '-w', WORKSPACE, '--token', 'spt_bad'])).toBe(3);
    expect(seen[0].headers.get('authorization')).toBe('Bearer spt_bad');
    expect(stderr).toMatch(/^error: Refused \(401 invalid_token\): Because invalid_token\./);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown workspace is exit 4 (the API answers 403 workspace_forbidden alike for unknown and foreign ones)', async () => {
    routes['GET /publications'] = () => problem(403, 'workspace_forbidden');
    expect(await social(['pub', 'list', '-w', WORKSPACE], { SOCIAL_TOKEN: 'spt_x' })).toBe(4);
    expect(stderr).toMatch(/social workspace list/);
    expect(await social(['workspace', 'use', 'nope'], { SOCIAL_TOKEN: 'spt_x' })).toBe(4);
  });

  it('create sends one Idempotency-Key, the same on every retry, and prints the publication as JSON', async () => {
    let tries = 0;
    routes['POST /publications'] = () => (++tries === 1 ? problem(503, 'service_unavailable') : json(201, publication()));
    expect(await social(['--json', 'pub', 'create', '--text', 'Hi', '-w', WORKSPACE], { SOCIAL_TOKEN: 'spt_x' })).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ id: 'p1', status: 'draft' });
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(seen[0].body).toEqual({ workspace_id: WORKSPACE, content_profile: 'short_text', title: '', source_text: 'Hi' });
    expect(stderr).toMatch(/retrying \(503/);
  });

  it('create --file reads the text; --idempotency-key is sent as given, and a replay says so', async () => {
    const file = join(home, 'post.txt');
    writeFileSync(file, 'From a file\n');
    routes['POST /publications'] = () => json(201, publication(), { 'idempotent-replayed': 'true' });
    expect(
      await social(['pub', 'create', '--file', file, '--idempotency-key', 'nightly-1', '-w', WORKSPACE], { SOCIAL_TOKEN: 'spt_x' }),
    ).toBe(0);
    expect(seen[0].headers.get('idempotency-key')).toBe('nightly-1');
    expect(seen[0].body.source_text).toBe('From a file\n');
    expect(stdout).toMatch(/Already created \(same idempotency key\) draft p1/);
    expect(await social(['pub', 'create', '--file', join(home, 'missing.txt'), '-w', WORKSPACE], { SOCIAL_TOKEN: 'spt_x' })).toBe(2);
    expect(stderr).toMatch(/cannot read .*missing\.txt: no such file/);
  });

  it('a 422 is exit 5 with each field error; an unreachable API is exit 6', async () => {
    routes['POST /publications/p1/schedule'] = () =>
      problem(422, 'validation_failed', { errors: [{ location: 'body.scheduled_at', message: 'must not be in the past' }] });
    routes['GET /publications/p1'] = () => json(200, publication());
    expect(await social(['pub', 'schedule', 'p1', '--at', '2020-01-01T00:00:00Z', '--accounts', ACCOUNT], { SOCIAL_TOKEN: 'spt_x' })).toBe(
      5,
    );
    expect(stderr).toMatch(/body\.scheduled_at: must not be in the past/);
    const schedule = seen.find((request) => request.method === 'POST')!;
    expect(schedule.body).toEqual({ expected_revision: 1, scheduled_at: '2020-01-01T00:00:00.000Z', account_ids: [ACCOUNT] });
    expect(schedule.headers.get('idempotency-key')).toBeTruthy();

    const refused = async () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
    routes['GET /publications/p1'] = refused;
    expect(await social(['pub', 'show', 'p1'], { SOCIAL_TOKEN: 'spt_x' })).toBe(6);
    expect(stderr).toMatch(/cannot reach http:\/\/api\.test: connection refused/);
  });

  it('a schedule retried after a lost answer that meets its own success (409 revision_conflict) reports it scheduled', async () => {
    const at = '2030-01-01T09:00:00.000Z';
    let stored = publication();
    routes['GET /publications/p1'] = () => json(200, stored);
    let tries = 0;
    routes['POST /publications/p1/schedule'] = () => {
      if (++tries === 1) {
        stored = publication({ status: 'scheduled', revision: 2, scheduled_at: at, renditions: [rendition('scheduled', 'queued')] });
        return Promise.reject(new TypeError('fetch failed')); // applied, but the answer was lost
      }
      return problem(409, 'revision_conflict', { current_revision: 2 });
    };
    expect(await social(['pub', 'schedule', 'p1', '--at', at, '--accounts', ACCOUNT], { SOCIAL_TOKEN: 'spt_x' })).toBe(0);
    expect(stdout).toMatch(/Scheduled p1 for 2030-01-01T09:00:00.000Z \(1 rendition\)/);
    expect(tries).toBe(2);
  });

  it('login keeps the session in the config file (0600), picks the only workspace, refreshes an expired token', async () => {
    const tokens = (access: string, refresh: string, expiresIn: number) =>
      json(200, {
        access_token: access,
        refresh_token: refresh,
        expires_in: expiresIn,
        token_type: 'Bearer',
        user: { id: 'u1', email: 'a@b.c' },
      });
    routes['POST /auth/login'] = () => tokens('access-1', 'refresh-1', 1); // expires at once
    routes['POST /auth/refresh'] = (request) =>
      request.body.refresh_token === 'refresh-1' ? tokens('access-2', 'refresh-2', 900) : problem(401, 'x');
    routes['GET /workspaces'] = () => json(200, { workspaces: [{ id: WORKSPACE, name: 'Main', role: 'admin', organization_id: 'o1' }] });
    expect(await social(['login', '--email', 'a@b.c'], { SOCIAL_PASSWORD: 'secret' })).toBe(0);
    expect(seen[0].body).toEqual({ email: 'a@b.c', password: 'secret' });
    expect(stdout).toMatch(/Signed in to http:\/\/api\.test as a@b\.c\.\nWorkspace: 0199a000/);

    const file = join(home, 'social', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(config).toMatchObject({
      api_url: 'http://api.test',
      workspace_id: WORKSPACE,
      session: { refresh_token: 'refresh-2', email: 'a@b.c' },
    });

    routes['GET /social-accounts'] = () =>
      json(200, { accounts: [{ id: ACCOUNT, platform: 'sandbox', username: 'alice', display_name: 'Alice', status: 'active' }] });
    seen = [];
    expect(await social(['accounts', 'list'])).toBe(0);
    expect(seen[0].path).toBe(`/social-accounts?workspace_id=${WORKSPACE}`);
    expect(seen[0].headers.get('authorization')).toBe('Bearer access-2');
    expect(stdout).toMatch(
      /^ID\s+NETWORK\s+USERNAME\s+NAME\s+STATUS\n0199a000-0000-7000-8000-0000000000a1\s+sandbox\s+alice\s+Alice\s+active\n$/,
    );
  });

  it('attach uploads each file through an upload session (size, SHA-256, Idempotency-Key), then appends it to the media', async () => {
    const photo = join(home, 'photo.jpg');
    writeFileSync(photo, Buffer.from('not really a jpeg'));
    routes['GET /publications/p1'] = () => json(200, publication({ media: [{ id: 'm0', alt_text: 'first', role: 'attachment' }] }));
    routes['POST /media/upload-session'] = () =>
      json(201, {
        media_id: 'm1',
        deduped: false,
        upload: {
          method: 'PUT',
          url: 'http://api.test/media/upload-session/m1/content?token=t',
          headers: { 'content-type': 'image/jpeg' },
        },
      });
    routes['PUT /media/upload-session/m1/content'] = () => new Response(null, { status: 204 });
    routes['POST /media/upload-session/m1/complete'] = () => json(200, { id: 'm1', status: 'ready' });
    routes['PATCH /publications/p1'] = (request) => json(200, publication({ revision: 2, media: request.body.media }));
    expect(await social(['pub', 'attach', 'p1', photo, '--alt', 'A photo', '--idempotency-key', 'k1'], { SOCIAL_TOKEN: 'spt_x' })).toBe(0);

    const [, session, put, complete, patch] = seen;
    expect(session.body).toEqual({
      workspace_id: WORKSPACE,
      filename: 'photo.jpg',
      size: 17,
      sha256: '21ac2586e213d1f490778a07bf0025a98fc57595863a282372bac594b398322b',
      mime_type: 'image/jpeg',
    });
    expect(session.headers.get('idempotency-key')).toBe('k1:upload:0');
    expect(put.headers.get('authorization')).toBeNull(); // the signed URL needs no bearer token
    expect(put.headers.get('content-type')).toBe('image/jpeg');
    expect(put.body.toString()).toBe('not really a jpeg');
    expect(complete.body).toEqual({ workspace_id: WORKSPACE });
    expect(patch.body).toEqual({
      expected_revision: 1,
      media: [
        { media_id: 'm0', alt_text: 'first', role: 'attachment' },
        { media_id: 'm1', alt_text: 'A photo', role: 'attachment' },
      ],
    });
    expect(stdout).toMatch(/Attached 1 file to p1 \(now 2 media, revision 2\)/);
    expect(await social(['pub', 'attach', 'p1', join(home, 'nope.png')], { SOCIAL_TOKEN: 'spt_x' })).toBe(2);
    expect(stderr).toMatch(/cannot read .*nope\.png: no such file/);
  });

  it('a damaged config file is exit 1 naming the file, not a JSON stack', async () => {
    mkdirSync(join(home, 'social'));
    writeFileSync(join(home, 'social', 'config.json'), '{"session": ');
    expect(await social(['pub', 'list', '-w', WORKSPACE])).toBe(1);
    expect(stderr).toMatch(/social\/config\.json is not valid: .*\n {2}Fix or delete it, then sign in again\.\n$/);
  });

  it('watch prints a line per change and exits 0 when every rendition is live, 1 when one failed', async () => {
    const states = [
      publication({ status: 'scheduled', renditions: [rendition('scheduled', 'queued')] }),
      publication({ status: 'scheduled', renditions: [rendition('scheduled', 'queued')] }),
      publication({ status: 'publishing', renditions: [rendition('publishing', 'submitted')] }),
      publication({ status: 'published', renditions: [rendition('published', 'live', { external_url: 'https://sandbox.test/p/1' })] }),
    ];
    routes['GET /publications/p1'] = () => json(200, states.length > 1 ? states.shift() : states[0]);
    routes['GET /social-accounts'] = () => json(200, { accounts: [{ id: ACCOUNT, username: 'alice' }] });
    expect(await social(['pub', 'watch', 'p1', '--interval', '0'], { SOCIAL_TOKEN: 'spt_x' })).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.map((line) => line.replace(/^\S+ {2}/, ''))).toEqual([
      'sandbox @alice  scheduled  queued',
      'sandbox @alice  publishing  submitted',
      'sandbox @alice  published  live  https://sandbox.test/p/1',
      'All live (1 rendition).',
    ]);

    const failed = rendition('failed', 'rejected', { error_code: 'sandbox_rejected', error_message: 'Rejected by the sandbox.' });
    routes['GET /publications/p1'] = () => json(200, publication({ status: 'failed', renditions: [failed] }));
    expect(await social(['--json', 'pub', 'watch', 'p1'], { SOCIAL_TOKEN: 'spt_x' })).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'failed' });

    routes['GET /publications/p1'] = () => json(200, publication());
    expect(await social(['pub', 'watch', 'p1'], { SOCIAL_TOKEN: 'spt_x' })).toBe(5);
    expect(stderr).toMatch(/no renditions to watch/);
  });

  it('watch on a terminal redraws its lines in place', async () => {
    routes['GET /publications/p1'] = () => json(200, publication({ status: 'published', renditions: [rendition('published', 'live')] }));
    expect(await social(['pub', 'watch', 'p1'], { SOCIAL_TOKEN: 'spt_x' }, true)).toBe(0);
    expect(stdout).toContain('\x1b[2K✔ sandbox');
    expect(stdout).toContain('\x1b[2A'); // up over the two lines drawn before
  });
});
