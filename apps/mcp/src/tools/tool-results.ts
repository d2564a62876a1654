import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PlatformProblem } from '@social/sdk';

/** A successful call: the platform's answer as JSON text, and as structured content when it is an object. */
export function toolAnswer(data: unknown, note?: string): CallToolResult {
  const json = JSON.stringify(data ?? null, null, 2);
  const result: CallToolResult = { content: [{ type: 'text', text: note ? `${note}\n${json}` : json }] };
  if (data && typeof data === 'object' && !Array.isArray(data)) result.structuredContent = data as Record<string, unknown>;
  return result;
}

/** A refusal the agent can act on: one line of what went wrong, never a stack trace. */
export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * A failed call in words: the platform's problem (status, code, detail, each invalid argument, the request id to
 * quote), or, when there was no answer, where it could not be reached.
 */
export function failure(error: unknown, baseUrl: string): CallToolResult {
  if (error instanceof PlatformProblem) {
    const fields = error.errors.map((field) => `\n- ${argumentOf(field.location)}: ${field.message}`).join('');
    const request = error.requestId ? ` (request ${error.requestId})` : '';
    const revision = error.code === 'revision_conflict' ? ` The current revision is ${String(error.body.current_revision)}.` : '';
    return toolError(`${error.status} ${error.code}: ${error.detail}${revision}${request}${fields}`);
  }
  const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return toolError(`The platform at ${baseUrl} did not answer: ${cause}`);
}

/** `body.scheduled_at` / `query.limit` / `path.id` name the tool's argument `scheduled_at` / `limit` / `id`. */
function argumentOf(location: string): string {
  return location.replace(/^(body|query|path)\./, '').replace(/^header\.idempotency-key$/, 'idempotency_key');
}
