/**
 * An answer object with one member already serialized: a video project's document, which the gateway
 * holds as the JSON text it made for the service. The schema interceptor writes it out by splicing
 * that text in, so a 5 MiB document is not serialized a second time for the client.
 */
export class SplicedJson {
  constructor(
    readonly members: Record<string, unknown>,
    readonly member: string,
    readonly json: string,
  ) {}

  /** The answer's JSON text: `first` (e.g. `$schema`), the members, then the spliced member last. */
  text(first: Record<string, unknown> = {}): string {
    const head = JSON.stringify({ ...first, ...this.members });
    return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(this.member)}:${this.json}}`;
  }
}

const OPENING_BRACE = 0x7b;

/**
 * An answer object's JSON bytes as a service wrote them, passed on to the client unparsed (Forwarder.passOn). The
 * schema interceptor writes it out with `$schema` put first.
 */
export class PassedOnJson {
  constructor(readonly json: Uint8Array) {}

  /** The answer with `first`'s members in front of the service's (the answer must be a JSON object). */
  bytes(first: Record<string, unknown>): Buffer {
    if (this.json[0] !== OPENING_BRACE) return Buffer.from(this.json);
    const head = JSON.stringify(first);
    const empty = this.json.length === 2; // `{}`
    return Buffer.concat([Buffer.from(`${head.slice(0, -1)}${empty || head.length === 2 ? '' : ','}`), this.json.subarray(1)]);
  }
}
