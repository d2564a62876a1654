import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createPlatformClient } from '@social/sdk';
import { createMcpServer } from './server.js';
import type { PlatformTool } from './tools/platform-tools.js';
import { ToolSession } from './tools/tool-session.js';

export interface HttpOptions {
  apiUrl: string;
  tools: ReadonlyMap<string, PlatformTool>;
  version: string;
  /** Browser origins allowed (exactly, e.g. `https://agent.example.com`); any other Origin header is refused. */
  allowedOrigins?: readonly string[];
  /** A session unused this long is closed (its previews and keys forgotten). */
  idleMs?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  /** SHA-256 of the bearer token that opened it: every later request must present the same one. */
  tokenDigest: Buffer;
  usedAt: number;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Streamable HTTP at `/mcp`. The server holds no token of its own: each session acts with the bearer token of the
 * request that opened it (checked with the platform before the session starts), and a request presenting another
 * token is refused, so one caller can never use another's session.
 */
export function createMcpHttpServer(options: HttpOptions): HttpServer {
  const sessions = new Map<string, Session>();
  const idleMs = options.idleMs ?? 30 * 60_000;
  const sweep = setInterval(() => {
    for (const session of sessions.values()) if (Date.now() - session.usedAt > idleMs) void session.transport.close();
  }, 60_000).unref();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (new URL(request.url ?? '/', 'http://mcp').pathname !== '/mcp') return refuse(response, 404, 'Not found: the MCP endpoint is /mcp.');
    const origin = request.headers.origin;
    if (origin !== undefined && !(options.allowedOrigins ?? []).includes(origin)) {
      return refuse(response, 403, `Origin ${origin} is not allowed (MCP_ALLOWED_ORIGINS).`);
    }
    const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return refuse(response, 401, 'An API token is required: Authorization: Bearer spk_…');
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return refuse(response, 404, 'Unknown or expired session: initialize a new one.');
      if (!timingSafeEqual(session.tokenDigest, digest(token))) return refuse(response, 403, 'This session belongs to another token.');
      session.usedAt = Date.now();
      return session.transport.handleRequest(request, response);
    }
    if (request.method !== 'POST') return refuse(response, 400, 'Open a session with an initialize request first.');
    const client = createPlatformClient({ baseUrl: options.apiUrl, token });
    const me = await client.GET('/auth/me').catch(() => undefined);
    if (!me) return refuse(response, 502, `The platform at ${options.apiUrl} did not answer.`);
    if (me.response.status === 401) return refuse(response, 401, 'The platform refused this token (unknown, expired or revoked).');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: (id) => void sessions.set(id, { transport, tokenDigest: digest(token), usedAt: Date.now() }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer(new ToolSession(client, options.tools, options.apiUrl), options.version).connect(transport);
    await transport.handleRequest(request, response);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) refuse(response, 500, 'The MCP server failed on this request.');
      else response.end();
    });
  });
  server.on('close', () => {
    clearInterval(sweep);
    for (const session of sessions.values()) void session.transport.close();
  });
  return server;
}

const digest = (token: string) => createHash('sha256').update(token).digest();

/** A JSON-RPC error body, as MCP clients read a refused HTTP request. */
function refuse(response: ServerResponse, status: number, message: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  response.writeHead(status, headers).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}
