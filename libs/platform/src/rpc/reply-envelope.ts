/**
 * The JSON of a service's NATS reply, in the shape of Nest's NATS transport (`{id, isDisposed, response | err}`),
 * written with `response` last. A caller that only passes an answer on (the gateway, for a large page) can then take
 * the answer's bytes as they came, without parsing and serializing them again.
 */

/**
 * The reply's JSON text. A response (with Nest's `id` and `isDisposed`, and nothing else) is written
 * `{"id":…,"isDisposed":…,"response":…}`, in that order; anything else in another order.
 */
export function serializeReply(packet: Record<string, unknown>): string {
  const { response, id, isDisposed, ...rest } = packet;
  if (response === undefined) return JSON.stringify(packet);
  // `response` first: never taken for the head below, so always parsed whole.
  if (typeof id !== 'string' || typeof isDisposed !== 'boolean' || Object.keys(rest).length > 0)
    return JSON.stringify({ response, ...packet });
  return `{"id":${JSON.stringify(id)},"isDisposed":${isDisposed},"response":${JSON.stringify(response)}}`;
}

// The head serializeReply writes. The id is a JSON string (its quotes escaped), so the head cannot end early; a reply
// of another writer (Nest's own puts `response` first, then `id`) does not start with it and is parsed whole.
const RESPONSE_HEAD = /^\{"id":"(?:[^"\\]|\\.)*","isDisposed":(?:true|false),"response":/;
/** Bytes decoded to find the head: an id is at most a few hundred characters. */
const HEAD_PROBE_BYTES = 512;
const CLOSING_BRACE = 0x7d;

/**
 * The bytes of the reply's `response` member (its JSON as the service wrote it), or undefined when the reply is not
 * a response written by serializeReply (an error, another writer): the caller then parses it whole.
 */
export function responseBytes(reply: Uint8Array): Uint8Array | undefined {
  const head = RESPONSE_HEAD.exec(Buffer.from(reply.buffer, reply.byteOffset, Math.min(reply.length, HEAD_PROBE_BYTES)).toString());
  if (!head || reply[reply.length - 1] !== CLOSING_BRACE) return undefined;
  // The head is ASCII but for the id, which may not be: its length in bytes, not characters.
  const start = Buffer.byteLength(head[0]);
  return reply.subarray(start, reply.length - 1);
}
