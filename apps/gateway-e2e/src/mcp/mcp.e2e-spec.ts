import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { baseUrl, call } from '../support/api.js';
import { inMs, publicationWhen } from '../support/delivery.js';
import { uploadImage } from '../support/publication-media.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { createTenant, joinWorkspace, type Tenant } from '../support/tenancy.js';

// The MCP server as a client such as an agent's runs it: the built apps/mcp spawned over stdio (and once over
// streamable HTTP), with an API token, against the e2e stack. Needs `npm run build`.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = join(ROOT, 'apps/mcp/dist/main.js');
const DOCUMENT = JSON.parse(readFileSync(join(ROOT, 'libs/sdk/openapi.json'), 'utf8'));

/** A new API token of the tenant's owner, or of `user` (what a person hands to an agent). */
async function apiToken(tenant: Tenant, user = tenant.owner): Promise<string> {
  const response = await call('POST', '/api-tokens', { token: user.token, body: { name: `mcp ${randomUUID()}` } });
  expect(response.status).toBe(201);
  return response.body.token;
}

/** An MCP client session with the server spawned over stdio, acting with `token`. */
async function stdioSession(token: string): Promise<Client> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN],
    env: { PATH: process.env.PATH ?? '', SOCIAL_API_URL: baseUrl(), SOCIAL_TOKEN: token },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport).catch((error: Error) => {
    throw new Error(`the MCP server did not start: ${error.message}; its stderr: ${stderr}`);
  });
  return client;
}

const text = (result: unknown) => (result as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const data = (result: unknown) => {
  expect([(result as CallToolResult).isError, text(result).slice(0, 300)]).toEqual([undefined, expect.any(String)]);
  return (result as CallToolResult).structuredContent as Record<string, any>;
};

describe('apps/mcp: the MCP server over the platform API', () => {
  let tenant: Tenant;
  let token: string;
  let account: { id: string };
  let client: Client;

  beforeAll(async () => {
    tenant = await createTenant();
    token = await apiToken(tenant);
    account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, `mcp_${Date.now()}`);
    client = await stdioSession(token);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists the tools, each with the input schema of its operation (required members from OpenAPI)', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining([
        'list_workspaces',
        'list_social_accounts',
        'list_social_sets',
        'list_publications',
        'get_publication',
        'create_draft',
        'update_draft',
        'attach_media',
        'preview_publication',
        'schedule_publication',
        'publish_now',
        'cancel_publication',
        'list_media',
      ]),
    );
    const required = (name: string) => (DOCUMENT.components.schemas[name].required as string[]).slice().sort();
    expect(byName.get('create_draft')!.inputSchema.required!.slice().sort()).toEqual(
      [...required('CreatePublicationRequest'), 'idempotency_key'].sort(),
    );
    expect(byName.get('schedule_publication')!.inputSchema.required!.slice().sort()).toEqual(
      ['id', 'idempotency_key', ...required('SchedulePublicationRequest')].sort(),
    );
    expect(byName.get('list_publications')!.inputSchema).toMatchObject({
      type: 'object',
      required: ['workspace_id'],
      properties: { workspace_id: { type: 'string', format: 'uuid' } },
    });
    expect(byName.get('preview_publication')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('creates a draft, previews it, schedules it to a sandbox account, and the API shows it published', async () => {
    const key = randomUUID();
    const draftArguments = {
      workspace_id: tenant.workspaceId,
      content_profile: 'short_text',
      title: 'Drafted by an agent',
      source_text: 'Hello from the MCP server.',
      idempotency_key: key,
    };
    const draft = data(await client.callTool({ name: 'create_draft', arguments: draftArguments }));
    expect(draft).toMatchObject({ status: 'draft', revision: 1, title: 'Drafted by an agent', workspace_id: tenant.workspaceId });
    // A retry with the same key is answered by the platform's idempotency record: still one draft.
    const retried = await client.callTool({ name: 'create_draft', arguments: draftArguments });
    expect(text(retried)).toMatch(/^Replayed by the platform: nothing new\./);
    expect(data(retried).id).toBe(draft.id);

    const at = inMs(5_000);
    const scheduleArguments = {
      id: draft.id,
      expected_revision: 1,
      scheduled_at: at,
      account_ids: [account.id],
      idempotency_key: randomUUID(),
    };
    const unpreviewed = (await client.callTool({ name: 'schedule_publication', arguments: scheduleArguments })) as CallToolResult;
    expect(unpreviewed.isError).toBe(true);
    expect(text(unpreviewed)).toMatch(/^Not previewed: Only after preview_publication of the same publication at the same revision/);

    const preview = data(await client.callTool({ name: 'preview_publication', arguments: { id: draft.id, account_ids: [account.id] } }));
    expect(preview).toMatchObject({
      publication_id: draft.id,
      revision: 1,
      renditions: [expect.objectContaining({ social_account_id: account.id })],
    });

    const scheduled = data(await client.callTool({ name: 'schedule_publication', arguments: scheduleArguments }));
    expect(scheduled).toMatchObject({ id: draft.id, status: 'scheduled', revision: 2, scheduled_at: at });

    const seen = await call('GET', `/publications/${draft.id}`, { token: tenant.owner.token });
    expect(seen.body).toMatchObject({
      status: 'scheduled',
      scheduled_at: at,
      renditions: [expect.objectContaining({ social_account_id: account.id })],
    });
    const list = await call('GET', `/publications?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token });
    expect(list.body.publications.filter((p: any) => p.title === 'Drafted by an agent')).toHaveLength(1);
    const published = await publicationWhen(tenant.owner.token, draft.id, (p) => p.status === 'published' || p.status === 'failed');
    expect(published.status).toBe('published');
  }, 60_000);

  it('refuses a write without idempotency_key, sending nothing', async () => {
    const result = (await client.callTool({
      name: 'create_draft',
      arguments: { workspace_id: tenant.workspaceId, content_profile: 'short_text', title: 'No key', source_text: '' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^idempotency_key is required for create_draft/);
    const list = await call('GET', `/publications?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token });
    expect(list.body.publications.filter((p: any) => p.title === 'No key')).toEqual([]);
  });

  it("answers the platform's refusals as tool errors: bad input (422) names the argument, no stack trace", async () => {
    const result = (await client.callTool({
      name: 'create_draft',
      arguments: { workspace_id: tenant.workspaceId, content_profile: 'novel', title: 'x', source_text: '', idempotency_key: randomUUID() },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^422 validation_failed: .+\(request \S+\)\n- content_profile: /);
    expect(text(result)).not.toMatch(/at .*\.js:\d+/);
  });

  it("acts with its token's permissions only: another tenant's token cannot see the first tenant's publication", async () => {
    const draft = data(
      await client.callTool({
        name: 'create_draft',
        arguments: {
          workspace_id: tenant.workspaceId,
          content_profile: 'short_text',
          title: 'Private',
          source_text: '',
          idempotency_key: randomUUID(),
        },
      }),
    );
    const other = await stdioSession(await apiToken(await createTenant()));
    try {
      const shown = (await other.callTool({ name: 'get_publication', arguments: { id: draft.id } })) as CallToolResult;
      expect(shown.isError).toBe(true);
      expect(text(shown)).toMatch(/^404 not_found: /);
      const listed = (await other.callTool({
        name: 'list_publications',
        arguments: { workspace_id: tenant.workspaceId },
      })) as CallToolResult;
      expect(listed.isError).toBe(true);
      expect(text(listed)).toMatch(/^403 /);
      expect(text(listed)).not.toContain('Private');
    } finally {
      await other.close();
    }
  }, 60_000);

  it('lists the media library and attaches an item to a draft by its id', async () => {
    const image = await uploadImage(tenant.owner.token, tenant.workspaceId);
    const library = data(await client.callTool({ name: 'list_media', arguments: { workspace_id: tenant.workspaceId } }));
    expect(library.items.map((item: any) => item.id)).toContain(image.id);
    const draft = data(
      await client.callTool({
        name: 'create_draft',
        arguments: {
          workspace_id: tenant.workspaceId,
          content_profile: 'image_post',
          title: 'Pictured',
          source_text: 'Look.',
          idempotency_key: randomUUID(),
        },
      }),
    );
    const media = [{ media_id: image.id, alt_text: 'A test picture' }];
    const attached = data(
      await client.callTool({
        name: 'attach_media',
        arguments: { id: draft.id, expected_revision: 1, media, idempotency_key: randomUUID() },
      }),
    );
    expect(attached).toMatchObject({ revision: 2, media: [expect.objectContaining({ id: image.id, alt_text: 'A test picture' })] });
    const seen = await call('GET', `/publications/${draft.id}`, { token: tenant.owner.token });
    expect(seen.body.media).toEqual([expect.objectContaining({ id: image.id, alt_text: 'A test picture', display_order: 0 })]);
  }, 60_000);

  it("a viewer's token reads through the tools but every write is refused as the API refuses it (403)", async () => {
    const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    const session = await stdioSession(await apiToken(tenant, viewer));
    try {
      const listed = data(await session.callTool({ name: 'list_publications', arguments: { workspace_id: tenant.workspaceId } }));
      expect(listed.publications.length).toBeGreaterThan(0);
      const refused = (await session.callTool({
        name: 'create_draft',
        arguments: {
          workspace_id: tenant.workspaceId,
          content_profile: 'short_text',
          title: 'Viewer',
          source_text: '',
          idempotency_key: randomUUID(),
        },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^403 \w+: /);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('refuses to start without its settings, saying which, with no stack trace', async () => {
    const start = (env: Record<string, string>, mode = 'stdio') =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [MAIN, mode], {
          env: { PATH: process.env.PATH ?? '', ...env },
          stdio: ['pipe', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    expect(await start({})).toEqual({ code: 1, stderr: 'social-mcp: invalid configuration:\n  - SOCIAL_API_URL is required\n' });
    expect(await start({ SOCIAL_API_URL: baseUrl() })).toEqual({
      code: 1,
      stderr: 'social-mcp: SOCIAL_TOKEN is required for stdio: an API token (spk_…) of the platform\n',
    });
    expect((await start({ SOCIAL_API_URL: baseUrl(), SOCIAL_TOKEN: token }, 'http')).stderr).toMatch(
      /^social-mcp: SOCIAL_TOKEN is for stdio only/,
    );
  });

  describe('over streamable HTTP', () => {
    let server: ChildProcess;
    let url: URL;

    beforeAll(async () => {
      server = spawn(process.execPath, [MAIN, 'http'], {
        env: { PATH: process.env.PATH ?? '', SOCIAL_API_URL: baseUrl(), MCP_PORT: '0' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      url = await new Promise<URL>((resolve, reject) => {
        let stderr = '';
        server.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const found = /streamable HTTP on (\S+)/.exec(stderr);
          if (found) resolve(new URL(found[1]));
        });
        server.once('exit', (code) => reject(new Error(`the MCP server exited (${code}): ${stderr}`)));
      });
    }, 30_000);

    afterAll(async () => {
      if (!server || server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    });

    const initialize = (authorization?: string, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });

    it("calls a tool with the request's bearer token", async () => {
      const http = new Client({ name: 'e2e-http', version: '1.0.0' });
      await http.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      try {
        const listed = data(await http.callTool({ name: 'list_social_accounts', arguments: { workspace_id: tenant.workspaceId } }));
        expect(listed.accounts).toEqual([expect.objectContaining({ id: account.id, platform: 'sandbox' })]);
      } finally {
        await http.close();
      }
    });

    it('refuses a request without a token, or with one the platform refuses (401), and has no token of its own', async () => {
      const none = await initialize();
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      const bad = await initialize('Bearer spk_not-a-token');
      expect(bad.status).toBe(401);
      expect(await bad.json()).toMatchObject({ error: { message: 'The platform refused this token (unknown, expired or revoked).' } });
    });

    it('refuses a request from a web page of another origin, even with a valid token (403)', async () => {
      const fromPage = await initialize(`Bearer ${token}`, { origin: 'https://evil.example' });
      expect(fromPage.status).toBe(403);
      expect(await fromPage.json()).toMatchObject({
        error: { message: 'Origin https://evil.example is not allowed (MCP_ALLOWED_ORIGINS).' },
      });
    });

    it("refuses a session's requests made with another token (403)", async () => {
      const opened = await initialize(`Bearer ${token}`);
      expect(opened.status).toBe(200);
      const sessionId = opened.headers.get('mcp-session-id')!;
      await opened.text();
      const intruder = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${await apiToken(await createTenant())}`,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(intruder.status).toBe(403);
    });
  });
});
