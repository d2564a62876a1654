import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { GUARD_RULE, TOOL_CATALOGUE, type ToolDefinition } from './catalogue.js';
import { operationInput, type OpenApiDocument, type OperationInput } from './operation-input.js';

/** One tool: what the catalogue says, the operation's input, and how `tools/list` shows it. */
export interface PlatformTool {
  definition: ToolDefinition;
  input: OperationInput;
  tool: Tool;
}

/** The catalogue's tools over the given OpenAPI document; a tool whose operation is missing stops the server. */
export function platformTools(document: OpenApiDocument, catalogue: readonly ToolDefinition[] = TOOL_CATALOGUE): Map<string, PlatformTool> {
  const tools = new Map<string, PlatformTool>();
  for (const definition of catalogue) {
    const input = operationInput(document, definition.method, definition.path, {
      write: definition.kind === 'write',
      bodyMembers: definition.bodyMembers,
    });
    const rules = [
      definition.note,
      definition.kind === 'write' ? 'A write: idempotency_key is required (a retry with the same key does nothing twice).' : '',
      definition.guarded ? GUARD_RULE : '',
    ];
    const description = [input.operation.summary ?? definition.title, ...rules].filter(Boolean).join('\n');
    const tool: Tool = {
      name: definition.name,
      title: definition.title,
      description,
      inputSchema: input.schema as Tool['inputSchema'],
      annotations: {
        title: definition.title,
        readOnlyHint: definition.kind !== 'write',
        destructiveHint: definition.kind === 'write',
        idempotentHint: true,
        // Guarded writes reach the social networks, beyond this platform.
        openWorldHint: definition.guarded === true,
      },
    };
    tools.set(definition.name, { definition, input, tool });
  }
  return tools;
}
