/**
 * A steady stream of E15 writes (`POST /publications`), each logical write with its own Idempotency-Key,
 * retried with the SAME key and body on network errors, 5xx, 429 and 409 `idempotency_in_flight` until it is
 * acknowledged (2xx) or gives up. Every attempt is recorded.
 */
import { randomUUID } from 'node:crypto';

export interface Attempt {
  key: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status; 0 when the request failed without an answer (refused, reset, aborted). */
  status: number;
  /** Problem code or network error, for failures. */
  detail?: string;
}

export interface LogicalWrite {
  key: string;
  body: PublicationDraft;
  /** The acknowledged publication's id; undefined when the write gave up (or was refused with a 4xx). */
  id?: string;
  /** When the acknowledgement arrived. */
  acknowledgedAt?: number;
  attempts: number;
  /** A 4xx other than 409 in-flight / 429: the platform refused the write itself (a bug under faults). */
  refused?: string;
}

export interface PublicationDraft {
  workspace_id: string;
  content_profile: 'thread';
  title: string;
  source_text: string;
}

export interface LoadOptions {
  baseUrl: string;
  token: string;
  workspaceId: string;
  /** New logical writes per second. */
  ratePerSecond: number;
  /** Logical writes in progress at most (a write waiting for its retries counts). */
  maxInFlight: number;
  /** A logical write not acknowledged after this long is given up (and counted). */
  giveUpMs: number;
  /** Client-side abort of one attempt, far past the gateway's timeout: a true hang still ends the run. */
  attemptAbortMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Status codes the client retries with the same key (the request may or may not have happened). */
function retryable(status: number, code: string | undefined): boolean {
  return status === 0 || status >= 500 || status === 429 || (status === 409 && code === 'idempotency_in_flight');
}

export class WriteLoad {
  readonly attempts: Attempt[] = [];
  readonly writes: LogicalWrite[] = [];
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly extra: Promise<void>[] = [];

  constructor(private readonly options: LoadOptions) {}

  /**
   * Open loop: a new logical write starts every 1/rate s whatever the others are doing (a slow platform
   * gets more writes in flight, as from real clients), up to `maxInFlight` at once.
   */
  start(): void {
    this.running = true;
    const interval = 1000 / this.options.ratePerSecond;
    this.loop = (async () => {
      const inFlight = new Set<Promise<void>>();
      let next = Date.now();
      while (this.running) {
        if (inFlight.size < this.options.maxInFlight) {
          const write = this.write().finally(() => inFlight.delete(write));
          inFlight.add(write);
        }
        next += interval;
        await sleep(Math.max(0, next - Date.now()));
      }
      await Promise.all(inFlight);
    })();
  }

  /** Starts `count` more logical writes at once (so a fault lands while writes are in progress). */
  burst(count: number): void {
    this.extra.push(...Array.from({ length: count }, () => this.write()));
  }

  /** Stops starting new writes and waits for the ones in progress to be acknowledged or given up. */
  async drain(): Promise<void> {
    this.running = false;
    await this.loop;
    await Promise.all(this.extra);
  }

  private async write(): Promise<void> {
    const key = `fault-${randomUUID()}`;
    const body: PublicationDraft = {
      workspace_id: this.options.workspaceId,
      content_profile: 'thread',
      // The key in the title: the database check counts rows per key.
      title: key,
      source_text: 'A write under a fault: it must exist exactly once once acknowledged.',
    };
    const write: LogicalWrite = { key, body, attempts: 0 };
    this.writes.push(write);
    const deadline = Date.now() + this.options.giveUpMs;
    let backoff = 100;
    while (Date.now() < deadline) {
      write.attempts++;
      const answer = await this.post(key, body);
      if (answer.status >= 200 && answer.status < 300) {
        write.id = answer.id;
        write.acknowledgedAt = Date.now();
        return;
      }
      if (!retryable(answer.status, answer.code)) {
        write.refused = `${answer.status} ${answer.code ?? ''}`.trim();
        return;
      }
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 1_000);
    }
  }

  /** One attempt, recorded. */
  async post(key: string, body: PublicationDraft, record = true): Promise<{ status: number; code?: string; id?: string; replayed: boolean }> {
    const startedAt = Date.now();
    let status = 0;
    let code: string | undefined;
    let id: string | undefined;
    let replayed = false;
    try {
      const res = await fetch(`${this.options.baseUrl}/publications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.attemptAbortMs),
      });
      status = res.status;
      replayed = res.headers.get('idempotent-replayed') === 'true';
      const answer = (await res.json().catch(() => undefined)) as { id?: string; code?: string } | undefined;
      id = answer?.id;
      code = answer?.code;
    } catch (error) {
      code = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.name) : String(error);
    }
    if (record) this.attempts.push({ key, startedAt, endedAt: Date.now(), status, detail: code });
    return { status, code, id, replayed };
  }
}

/**
 * Durable events under the fault: an API token created every `intervalMs` (accounts commits it with a
 * `security.action` event in its outbox; notifications turns each event into one notification). Not retried:
 * the check counts what the database committed, whatever the client heard.
 */
export class EventLoad {
  acknowledged = 0;
  failed = 0;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly intervalMs: number,
    private readonly attemptAbortMs: number,
  ) {}

  start(): void {
    this.running = true;
    this.loop = (async () => {
      const pending = new Set<Promise<void>>();
      for (let n = 0; this.running; n++) {
        const create = this.create(n).finally(() => pending.delete(create));
        pending.add(create);
        await sleep(this.intervalMs);
      }
      await Promise.all(pending);
    })();
  }

  async drain(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async create(n: number): Promise<void> {
    try {
      const res = await fetch(`${this.baseUrl}/api-tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `fault event ${n}` }),
        signal: AbortSignal.timeout(this.attemptAbortMs),
      });
      await res.arrayBuffer();
      if (res.status === 201) this.acknowledged++;
      else this.failed++;
    } catch {
      this.failed++;
    }
  }
}
