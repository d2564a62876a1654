import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';

// What a user of the SDK does: `npm pack` the built libs/sdk, install the tarball into a fresh ES-module project
// outside this repository, type-check the README's examples against what was installed, and run them against a
// local server that answers like the platform. Packaging is what is under test (the e2e sdk spec runs the client
// against the real stack), so a small fake keeps this in the unit project, seconds long. Needs `npm run build`.

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const SDK = join(ROOT, 'libs/sdk');
const run = promisify(execFile);

interface FakePlatform {
  url: string;
  token: string;
  workspaceId: string;
  publications: Array<{ id: string; status: string; title: string; revision: number }>;
  requests: Array<{ method: string; url: string; authorization?: string; idempotencyKey?: string }>;
  close(): Promise<void>;
}

/**
 * Answers the three calls the README makes as the gateway does (JSON bodies, problem+json refusals, idempotent
 * replays) and records what the client sent.
 */
async function startFakePlatform(): Promise<FakePlatform> {
  const token = 'spk_readme';
  const workspaceId = randomUUID();
  const publications: FakePlatform['publications'] = [{ id: randomUUID(), status: 'draft', title: 'Hello', revision: 1 }];
  const requests: FakePlatform['requests'] = [];
  const replays = new Map<string, string>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
      requests.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, idempotencyKey });
      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        const type = status >= 400 ? 'application/problem+json' : 'application/json';
        response.writeHead(status, { 'content-type': type, ...headers }).end(JSON.stringify(json));
      };
      if (request.headers.authorization !== `Bearer ${token}`) return answer(401, problem(401, 'unauthorized', 'No valid token.'));
      const path = new URL(request.url ?? '/', 'http://fake').pathname;
      if (request.method === 'GET' && path === '/publications') return answer(200, { publications, next_cursor: '' });
      if (request.method === 'POST' && path === '/publications') {
        const replayed = idempotencyKey && replays.get(idempotencyKey);
        if (replayed) return answer(201, JSON.parse(replayed), { 'idempotent-replayed': 'true' });
        const created = { id: randomUUID(), status: 'draft', revision: 1, ...(JSON.parse(body) as { title: string }) };
        publications.push(created);
        if (idempotencyKey) replays.set(idempotencyKey, JSON.stringify(created));
        return answer(201, created);
      }
      answer(404, problem(404, 'not_found', 'No such publication.'), { 'x-request-id': 'req-404' });
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((done) => server.close(() => done()));
  return { url, token, workspaceId, publications, requests, close };
}

function problem(status: number, code: string, detail: string) {
  const request_id = status === 404 ? 'req-404' : 'req';
  return { type: 'about:blank', title: String(status), status, code, detail, request_id };
}

/** npm as the user runs it; `--prefer-offline` takes what CI's `npm ci` left in the cache (the network otherwise). */
async function npm(cwd: string, ...args: string[]): Promise<string> {
  // Without the npm_* variables of an enclosing `npm test`: they would point npm at this repository's workspace.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const { stdout } = await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env, timeout: 120_000 });
  return stdout;
}

/** The ```ts blocks of the SDK's README, in order: what a reader copies. */
function readmeExamples(): string[] {
  const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

/**
 * tsc's verdict with a user's strict settings: `@social/sdk` and openapi-fetch resolve from the fresh project's
 * node_modules (declarations checked too), Node's own types from this repository's @types/node.
 */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    strict: true,
    noEmit: true,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

describe('libs/sdk as an installable package', () => {
  let dir: string;
  let project: string;
  let packed: { filename: string; files: Array<{ path: string }>; version: string; name: string };
  let examples: string[];
  let platform: FakePlatform;

  beforeAll(async () => {
    if (!existsSync(join(SDK, 'dist/index.js'))) throw new Error('libs/sdk/dist is missing: run npm run build first');
    dir = mkdtempSync(join(tmpdir(), 'sdk-package-'));
    [packed] = JSON.parse(await npm(SDK, 'pack', '--json', '--pack-destination', dir));
    project = join(dir, 'project');
    mkdirSync(project);
    await npm(project, 'init', '-y');
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ ...manifest, type: 'module' }, null, 2));
    await npm(project, 'install', '--prefer-offline', '--ignore-scripts', join(dir, packed.filename));
    examples = readmeExamples().map((source, index) => {
      const file = join(project, `example-${index + 1}.ts`);
      writeFileSync(file, source);
      return file;
    });
    platform = await startFakePlatform();
  }, 180_000);

  afterAll(async () => {
    await platform?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** One example as a user runs it: transpiled on its own, then a process of its own in the project. */
  async function runExample(index: number, env: Record<string, string> = {}): Promise<string> {
    const { outputText } = ts.transpileModule(readFileSync(examples[index], 'utf8'), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    const script = examples[index].replace(/\.ts$/, '.js');
    writeFileSync(script, outputText);
    const { stdout } = await run(process.execPath, [script], {
      cwd: project,
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? '', PLATFORM_URL: platform.url, PLATFORM_TOKEN: platform.token, ...env },
    });
    return stdout;
  }

  it('packs the built code, its types, the OpenAPI document and README, and nothing else', () => {
    const files = packed.files.map((file) => file.path).sort();
    expect(packed.name).toBe('@social/sdk');
    expect(files).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'dist/index.d.ts', 'dist/index.js', 'openapi.json', 'package.json']),
    );
    expect(files).toEqual(expect.arrayContaining(['dist/generated/openapi.d.ts', 'dist/client.js', 'dist/problem.js']));
    expect(files.filter((file) => !/^(dist\/.*\.(js|d\.ts)|openapi\.json|README\.md|package\.json|LICENSE)$/.test(file))).toEqual([]);
  });

  it("has the API's version, no private flag, and declares what it needs at run time", () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@social/sdk/package.json'), 'utf8'));
    const document = JSON.parse(readFileSync(join(SDK, 'openapi.json'), 'utf8'));
    expect(installed.version).toBe(document.info.version);
    expect(installed.private).toBeUndefined();
    expect(installed.license).toEqual(expect.any(String));
    const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(installed.dependencies).toEqual({ 'openapi-fetch': rootManifest.dependencies['openapi-fetch'] });
    expect(existsSync(join(project, 'node_modules/openapi-fetch/package.json'))).toBe(true);
    // The fresh project depends on the tarball alone: nothing of this repository's workspace leaked in.
    expect(Object.keys(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).dependencies)).toEqual(['@social/sdk']);
  });

  it('README examples type-check against the installed package (strict, nodenext)', () => {
    expect(examples).toHaveLength(3);
    expect(typeErrors(examples)).toEqual([]);
  }, 60_000);

  it('README example 1 lists publications with the bearer token', async () => {
    const stdout = await runExample(0, { PLATFORM_WORKSPACE_ID: platform.workspaceId });
    expect(stdout.trim().split('\n')).toEqual(platform.publications.map((p) => `${p.id} ${p.status} ${p.title}`));
    expect(platform.requests.at(-1)).toMatchObject({
      method: 'GET',
      url: `/publications?workspace_id=${platform.workspaceId}&limit=20`,
      authorization: `Bearer ${platform.token}`,
    });
  });

  it('README example 2 creates one draft: its retry sends the same Idempotency-Key and is replayed', async () => {
    const before = platform.publications.length;
    const stdout = await runExample(1, { PLATFORM_WORKSPACE_ID: platform.workspaceId });
    expect(stdout).toMatch(/^draft \S+ revision 1; retry replayed: true$/m);
    expect(platform.publications).toHaveLength(before + 1);
    const [first, retry] = platform.requests.slice(-2);
    expect(first.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry.idempotencyKey).toBe(first.idempotencyKey);
  });

  it('README example 3 catches the PlatformProblem of a 404 by its code', async () => {
    const stdout = await runExample(2);
    expect(stdout.trim()).toBe('404 not_found: No such publication. (request req-404)');
  });
});
