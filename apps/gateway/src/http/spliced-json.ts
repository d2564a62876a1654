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
