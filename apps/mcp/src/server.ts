import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSession } from './tools/tool-session.js';

const INSTRUCTIONS =
  'Drafts and schedules posts on the social publishing platform with the permissions of the API token this server ' +
  'was given. Find ids with list_workspaces, list_social_accounts, list_social_sets and list_media. Every write needs ' +
  'an idempotency_key (new per change, the same when retrying). Before schedule_publication or publish_now, call ' +
  'preview_publication with the same targets, show the preview to the person, and pass the revision it names.';

/**
 * An MCP server (one per session) whose tools are the session's platform operations. The SDK's low-level `Server`
 * (its docs keep it for such cases): `McpServer` takes Zod schemas, and ours are JSON Schemas from the OpenAPI document.
 */
export function createMcpServer(session: ToolSession, version: string): Server {
  const server = new Server({ name: 'social-publishing', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: session.list() }));
  server.setRequestHandler(CallToolRequestSchema, (request) => session.call(request.params.name, request.params.arguments ?? {}));
  return server;
}
