import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isIdempotentReplay, PlatformProblem, type PlatformClient } from '@social/sdk';
import { GUARD_RULE } from './catalogue.js';
import { IDEMPOTENCY_ARGUMENT } from './operation-input.js';
import type { PlatformTool } from './platform-tools.js';
import { failure, toolAnswer, toolError } from './tool-results.js';

type Arguments = Record<string, unknown>;
interface Request {
  params: { path: Arguments; query: Arguments; header: Record<string, string> };
  body?: Arguments;
}
type LooseRequest = (method: string, path: string, init: Request) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * One MCP session's use of the platform, with one caller's token (the client is made with it): every call goes
 * through the HTTP API, so the session can do exactly what the token may and nothing more. The session remembers
 * which publication revisions it previewed (a guarded write needs one) and, for writes the platform keeps no
 * `Idempotency-Key` for, which keys it already used.
 */
export class ToolSession {
  /** `<publication id>@<revision>/<targets>` of every preview made in this session. */
  private readonly previews = new Set<string>();
  /** Writes done by key, for those the platform does not deduplicate itself; only successes are kept. */
  private readonly writes = new Map<string, { fingerprint: string; result: Promise<CallToolResult> }>();

  constructor(
    private readonly client: PlatformClient,
    private readonly tools: ReadonlyMap<string, PlatformTool>,
    private readonly baseUrl: string,
  ) {}

  list(): Tool[] {
    return [...this.tools.values()].map((entry) => entry.tool);
  }

  async call(name: string, args: Arguments = {}): Promise<CallToolResult> {
    const tool = this.tools.get(name);
    if (!tool) return toolError(`No tool named "${name}": tools/list names them.`);
    const refusal = this.checkArguments(tool, args);
    if (refusal) return toolError(refusal);
    if (tool.definition.guarded && !this.previews.has(previewKey(args, Number(args.expected_revision)))) {
      return toolError(`Not previewed: ${GUARD_RULE} Call preview_publication with id ${String(args.id)} and these targets first.`);
    }
    if (tool.definition.kind !== 'write' || tool.input.platformIdempotency) return this.perform(tool, args);
    return this.once(tool, args);
  }

  /** Unknown or missing arguments, and a write without its key, are refused before anything is sent. */
  private checkArguments(tool: PlatformTool, args: Arguments): string | undefined {
    const { properties, required } = tool.input.schema;
    const unknown = Object.keys(args).filter((argument) => !(argument in properties));
    if (unknown.length > 0)
      return `Unknown argument ${unknown.join(', ')}; ${tool.definition.name} takes ${Object.keys(properties).join(', ')}.`;
    if (tool.definition.kind === 'write') {
      const key = args[IDEMPOTENCY_ARGUMENT];
      if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
        return `${IDEMPOTENCY_ARGUMENT} is required for ${tool.definition.name}: a string of 1 to 200 characters, new for each change.`;
      }
    }
    const missing = required.filter((argument) => args[argument] === undefined);
    if (missing.length > 0) return `Missing argument ${missing.join(', ')} for ${tool.definition.name}.`;
    return undefined;
  }

  /** A write the platform does not deduplicate: the same key and arguments answer the first success again. */
  private async once(tool: PlatformTool, args: Arguments): Promise<CallToolResult> {
    const key = `${tool.definition.name}:${String(args[IDEMPOTENCY_ARGUMENT])}`;
    const fingerprint = JSON.stringify(Object.entries(args).sort(([a], [b]) => a.localeCompare(b)));
    const earlier = this.writes.get(key);
    if (earlier && earlier.fingerprint !== fingerprint) {
      return toolError(
        `idempotency_key_reused: this ${IDEMPOTENCY_ARGUMENT} was used with other arguments; use a new key for a new change.`,
      );
    }
    if (earlier) {
      const first = await earlier.result;
      return {
        ...first,
        content: [{ type: 'text', text: 'Replayed: this key was already used; nothing was sent again.' }, ...first.content],
      };
    }
    const result = this.perform(tool, args);
    this.writes.set(key, { fingerprint, result });
    forgetOldest(this.writes);
    // A refusal or no answer is not kept: the same key may try again (expected_revision keeps it from applying twice).
    if ((await result).isError) this.writes.delete(key);
    return result;
  }

  private async perform(tool: PlatformTool, args: Arguments): Promise<CallToolResult> {
    try {
      const revision = tool.definition.kind === 'preview' ? await this.currentRevision(String(args.id)) : undefined;
      const { data, error, response } = await this.send(tool, args);
      if (!response.ok) throw PlatformProblem.fromResponse(response, error);
      if (revision === undefined)
        return toolAnswer(data, isIdempotentReplay(response) ? 'Replayed by the platform: nothing new.' : undefined);
      this.previews.add(previewKey(args, revision));
      forgetOldest(this.previews);
      const note =
        `Preview of publication ${String(args.id)} at revision ${revision}: ` +
        `to schedule or publish it, pass expected_revision ${revision} and the same targets.`;
      return toolAnswer({ publication_id: args.id, revision, ...(data as Arguments) }, note);
    } catch (error) {
      return failure(error, this.baseUrl);
    }
  }

  private send(tool: PlatformTool, args: Arguments) {
    const request: Request = { params: { path: {}, query: {}, header: {} } };
    for (const [argument, value] of Object.entries(args)) {
      const place = tool.input.places.get(argument);
      if (!place || value === undefined) continue;
      if (place.in === 'body') (request.body ??= {})[place.name] = value;
      else if (place.in === 'header') {
        if (tool.input.platformIdempotency) request.params.header[place.name] = String(value);
      } else request.params[place.in][place.name] = value;
    }
    if (tool.input.hasBody) request.body ??= {};
    return (this.client.request as unknown as LooseRequest)(tool.definition.method, tool.definition.path, request);
  }

  /** The revision the preview shows (the preview's answer does not carry it). */
  private async currentRevision(id: string): Promise<number> {
    const { data, error, response } = await this.client.GET('/publications/{id}', { params: { path: { id } } });
    if (!response.ok || !data) throw PlatformProblem.fromResponse(response, error);
    return data.revision;
  }
}

/** A preview and the write after it must name the same publication, revision and targets. */
function previewKey(args: Arguments, revision: number): string {
  const accounts = Array.isArray(args.account_ids) ? [...(args.account_ids as string[])].sort().join(',') : '';
  const targets = args.social_set_id ? `set:${String(args.social_set_id)}` : accounts ? `accounts:${accounts}` : 'current';
  return `${String(args.id)}@${revision}/${targets}`;
}

/** What a session remembers is bounded: past this many entries the oldest go (a long session cannot grow without end). */
const REMEMBERED = 1_000;
function forgetOldest(entries: Set<string> | Map<string, unknown>): void {
  for (const key of entries.keys()) {
    if (entries.size <= REMEMBERED) return;
    entries.delete(key);
  }
}
