import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPlatformClient, isIdempotentReplay, PlatformProblem, unwrap } from '@social/sdk';
import ts from 'typescript';
import { baseUrl, call } from '../support/api.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SECTION = '### Typed client (`libs/sdk`)';

/** The ```ts blocks of README's typed-client section, in order: what a reader copies. */
function readmeExamples(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(SECTION);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = readme.slice(start + SECTION.length);
  const section = rest.slice(0, rest.search(/^#{2,3} /m));
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

/** The examples as a reader's project would hold them: ES modules importing `@social/sdk` from this repository's build. */
function writeExamples(examples: string[]): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-readme-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const files = examples.map((source, index) => {
    const file = join(dir, `example-${index + 1}.mts`);
    writeFileSync(file, source);
    return file;
  });
  return { dir, files };
}

/** tsc's verdict on the examples, with the repository's compiler options (strict, nodenext). */
function typeErrors(files: string[]): string[] {
  const base = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, ROOT);
  const program = ts.createProgram(files, { ...options, noEmit: true, composite: false, incremental: false, declaration: false });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

/** Node 20 runs no TypeScript: each example is transpiled on its own and run as a process, as a reader would. */
async function runExample(file: string, env: Record<string, string>): Promise<string> {
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  const script = file.replace(/\.mts$/, '.mjs');
  writeFileSync(script, outputText);
  const { stdout } = await promisify(execFile)(process.execPath, [script], {
    env: { ...process.env, PLATFORM_URL: baseUrl(), ...env },
    timeout: 20_000,
  });
  return stdout;
}

describe('libs/sdk: the typed client and its README examples', () => {
  let examples: { dir: string; files: string[] };

  beforeAll(() => {
    examples = writeExamples(readmeExamples());
  });

  afterAll(() => {
    rmSync(examples.dir, { recursive: true, force: true });
  });

  it('serves /openapi.json exactly as the build wrote libs/sdk/openapi.json (the client is generated from it)', async () => {
    const response = await fetch(`${baseUrl()}/openapi.json`);
    expect(response.status).toBe(200);
    const { servers, ...served } = (await response.json()) as Record<string, unknown>;
    expect(servers).toEqual([{ url: baseUrl() }]);
    expect(`${JSON.stringify(served, null, 2)}\n`).toBe(readFileSync(join(ROOT, 'libs/sdk/openapi.json'), 'utf8'));
  });

  it('README has the four examples, and they type-check against @social/sdk', () => {
    expect(examples.files).toHaveLength(4);
    expect(typeErrors(examples.files)).toEqual([]);
  }, 60_000);

  it('README example 1 signs in and mints an API token that works', async () => {
    const { owner } = await createTenant();
    const stdout = await runExample(examples.files[0], { PLATFORM_EMAIL: owner.email, PLATFORM_PASSWORD: owner.password });
    const [, tokenId, secret] = /^API token (\S+): (\S+)$/m.exec(stdout) ?? [];
    expect(secret).toBeDefined();
    const tokens = await call('GET', '/api-tokens', { token: owner.token });
    expect(tokens.body.api_tokens).toEqual([expect.objectContaining({ id: tokenId, name: 'nightly import' })]);
    expect((await call('GET', '/auth/me', { token: secret })).body.id).toBe(owner.id);
  });

  it('README example 2 creates one publication, and its retry with the same Idempotency-Key replays it', async () => {
    const { owner, workspaceId } = await createTenant();
    const stdout = await runExample(examples.files[1], { PLATFORM_TOKEN: owner.token, PLATFORM_WORKSPACE_ID: workspaceId });
    const [, id] = /^publication (\S+); retry replayed: true, same: true$/m.exec(stdout) ?? [];
    expect(id).toBeDefined();
    const list = await call('GET', `/publications?workspace_id=${workspaceId}`, { token: owner.token });
    expect(list.body.publications).toEqual([expect.objectContaining({ id, title: 'Spring launch', status: 'draft' })]);
  });

  it('README example 3 follows the cursor over every page', async () => {
    const { owner, workspaceId } = await createTenant();
    for (const title of ['First', 'Second', 'Third']) {
      const created = await call('POST', '/publications', {
        token: owner.token,
        body: { workspace_id: workspaceId, content_profile: 'short_text', title, source_text: '' },
      });
      expect(created.status).toBe(201);
    }
    // Pages of two: the third draft is only reached through next_cursor.
    const stdout = await runExample(examples.files[2], { PLATFORM_TOKEN: owner.token, PLATFORM_WORKSPACE_ID: workspaceId });
    expect(stdout.trim()).toBe('3 drafts: Third, Second, First');
  });

  it('README example 4 meets revision_conflict as a PlatformProblem and leaves the first edit stored', async () => {
    const { owner, workspaceId } = await createTenant();
    const stdout = await runExample(examples.files[3], { PLATFORM_TOKEN: owner.token, PLATFORM_WORKSPACE_ID: workspaceId });
    const [, id, requestId] = /^409 revision_conflict: reload revision 2 of (\S+) and merge \(request (\S+)\)$/m.exec(stdout) ?? [];
    expect(requestId).toBeTruthy();
    const stored = await call('GET', `/publications/${id}`, { token: owner.token });
    expect(stored.body).toEqual(expect.objectContaining({ revision: 2, title: 'Release notes, v2' }));
  });

  describe('typed calls', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await createTenant();
    });

    it('answers the documented shapes: the profile, a created publication with its Location', async () => {
      const client = createPlatformClient({ baseUrl: baseUrl(), token: tenant.owner.token });
      const me = await unwrap(client.GET('/auth/me'));
      expect(me).toEqual(expect.objectContaining({ id: tenant.owner.id, email: tenant.owner.email }));
      await expectMatchesOwnSchema(me, 'UserProfile');

      const created = await client.POST('/publications', {
        body: { workspace_id: tenant.workspaceId, content_profile: 'link_share', title: 'Typed', source_text: 'from the SDK' },
      });
      expect(created.response.status).toBe(201);
      expect(created.data).toEqual(
        expect.objectContaining({ workspace_id: tenant.workspaceId, status: 'draft', revision: 1, title: 'Typed' }),
      );
      expect(created.response.headers.get('location')).toContain(`/publications/${created.data?.id}`);
      await expectMatchesOwnSchema(created.data!, 'PublicationResponse');

      // A 204 unwraps to undefined (typed so: code after it stays reachable).
      const apiToken = await unwrap(client.POST('/api-tokens', { body: { name: 'short-lived' } }));
      const deleted: undefined = await unwrap(client.DELETE('/api-tokens/{id}', { params: { path: { id: apiToken.item.id } } }));
      expect(deleted).toBeUndefined();
      expect((await unwrap(client.GET('/api-tokens'))).api_tokens.map((token) => token.id)).not.toContain(apiToken.item.id);
    });

    it('passes the Idempotency-Key through: the retry is a replay of the same publication', async () => {
      const client = createPlatformClient({ baseUrl: `${baseUrl()}/api/v1/`, token: tenant.owner.token });
      const request = {
        params: { header: { 'Idempotency-Key': randomUUID() } },
        body: { workspace_id: tenant.workspaceId, content_profile: 'short_text', title: 'Once', source_text: '' },
      } as const;
      const first = await client.POST('/publications', request);
      const retry = await client.POST('/publications', request);
      expect(isIdempotentReplay(first.response)).toBe(false);
      expect(isIdempotentReplay(retry.response)).toBe(true);
      expect(retry.data).toEqual(first.data);
    });

    it('surfaces problems as PlatformProblem: 404, 422 with errors[], 401 without a token', async () => {
      const client = createPlatformClient({ baseUrl: baseUrl(), token: tenant.owner.token });
      const missing = await unwrap(client.GET('/publications/{id}', { params: { path: { id: randomUUID() } } })).catch(
        (error: unknown) => error,
      );
      expect(missing).toBeInstanceOf(PlatformProblem);
      expect(missing).toEqual(expect.objectContaining({ status: 404, code: 'not_found', type: 'about:blank', title: 'Not Found' }));

      const tooLong = await client.POST('/publications', {
        body: { workspace_id: tenant.workspaceId, content_profile: 'short_text', title: 'x'.repeat(301), source_text: '' },
      });
      const invalid = PlatformProblem.fromResponse(tooLong.response, tooLong.error);
      expect(invalid).toEqual(
        expect.objectContaining({ status: 422, code: 'validation_failed', requestId: tooLong.response.headers.get('x-request-id') }),
      );
      expect(invalid.errors.map((error) => error.location)).toEqual(['body.title']);

      const anonymous = createPlatformClient({ baseUrl: baseUrl() });
      await expect(unwrap(anonymous.GET('/auth/me'))).rejects.toEqual(expect.objectContaining({ status: 401, name: 'PlatformProblem' }));
    });

    it('sends the bearer token through the fetch it is given, and turns a non-problem answer into unexpected_response', async () => {
      const seen: string[] = [];
      const proxy = createPlatformClient({
        baseUrl: 'http://platform.invalid',
        token: 'spk_example',
        fetch: async (request) => {
          seen.push(`${request.method} ${request.url} ${request.headers.get('authorization')}`);
          return new Response('<html>Bad Gateway</html>', {
            status: 502,
            statusText: 'Bad Gateway',
            headers: { 'content-type': 'text/html' },
          });
        },
      });
      const failure = await unwrap(proxy.GET('/workspaces')).catch((error: unknown) => error);
      expect(seen).toEqual(['GET http://platform.invalid/workspaces Bearer spk_example']);
      expect(failure).toBeInstanceOf(PlatformProblem);
      expect(failure).toEqual(
        expect.objectContaining({ status: 502, code: 'unexpected_response', title: 'Bad Gateway', detail: '<html>Bad Gateway</html>' }),
      );
    });
  });
});
