#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, loadConfig } from '@social/platform';
import { createPlatformClient } from '@social/sdk';
import { mcpSettings } from './config.js';
import { createMcpHttpServer } from './http.js';
import { createMcpServer } from './server.js';
import type { OpenApiDocument } from './tools/operation-input.js';
import { platformTools } from './tools/platform-tools.js';
import { ToolSession } from './tools/tool-session.js';

/**
 * `social-mcp` (stdio: a client starts it, with SOCIAL_TOKEN) or `social-mcp http` (streamable HTTP at /mcp, each
 * request's bearer token). stdout is the protocol in stdio mode: everything else goes to stderr.
 */
async function main(mode: string) {
  if (mode !== 'stdio' && mode !== 'http') throw new UsageError(`unknown mode "${mode}": use stdio (the default) or http`);
  const config = loadConfig(mcpSettings);
  // The tools are the SDK's own OpenAPI document: the one its types were generated from.
  const document = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('@social/sdk/openapi.json')), 'utf8')) as OpenApiDocument;
  const tools = platformTools(document);
  const version = document.info.version;

  if (mode === 'http') {
    if (config.SOCIAL_TOKEN) throw new UsageError('SOCIAL_TOKEN is for stdio only: over HTTP every request brings its own bearer token');
    const allowedOrigins = (config.MCP_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean);
    const server = createMcpHttpServer({ apiUrl: config.SOCIAL_API_URL, tools, version, allowedOrigins });
    server.listen(config.MCP_PORT, config.MCP_HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.MCP_PORT;
      process.stderr.write(`social-mcp: streamable HTTP on http://${config.MCP_HOST}:${port}/mcp\n`);
    });
    const stop = () => {
      // Open event streams would hold close() forever: a client reconnects and opens a new session.
      server.close(() => process.exit(0));
      server.closeAllConnections();
    };
    process.once('SIGTERM', stop).once('SIGINT', stop);
    return;
  }
  if (!config.SOCIAL_TOKEN) throw new UsageError('SOCIAL_TOKEN is required for stdio: an API token (spk_…) of the platform');
  const client = createPlatformClient({ baseUrl: config.SOCIAL_API_URL, token: config.SOCIAL_TOKEN });
  const server = createMcpServer(new ToolSession(client, tools, config.SOCIAL_API_URL), version);
  await server.connect(new StdioServerTransport());
}

class UsageError extends Error {}

main(process.argv[2] ?? 'stdio').catch((error: unknown) => {
  // A message, never a stack trace: what to fix is in it.
  const message = error instanceof ConfigError || error instanceof UsageError ? error.message : `failed to start: ${String(error)}`;
  process.stderr.write(`social-mcp: ${message}\n`);
  process.exit(1);
});
