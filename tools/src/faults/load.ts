/**
 * A steady stream of idempotent writes (E15 `POST /publications`, E17 `POST /media/upload-session`), each
 * logical write with its own Idempotency-Key,
 * retried with the SAME key and body on network errors, 5xx, 429 and 409 `idempotency_in_flight` until it is
 * acknowledged (2xx) or gives up. Every attempt is recorded.
 */
import { randomUUID } from 'node:crypto';

export interface Attempt {
  key: string;
  target: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status; 0 when the request failed without an answer (refused, reset, aborted). */
  status: number;
  /** Problem code or network error, for failures. */
  detail?: string;
}

/** An API write that takes an Idempotency-Key and stores the key where the check can count it. */
export interface WriteTarget {
  name: string;
  path: string;
  body(workspaceId: string, key: string): Record<string, unknown>;
  /** The answer's field naming the resource. */
  idField: string;
  /** Table and column holding the key (a publication's title, a media item's filename). */
  table: string;
  keyColumn: string;
  /** The column's value for a key. */
  stored(key: string): string;
}

export const PUBLICATIONS: WriteTarget = {
  name: 'publications',
  path: '/publications',
  body: (workspaceId, key) => ({
    workspace_id: workspaceId,
    content_profile: 'thread',
    title: key,
    source_text: 'A write under a fault: it must exist exactly once once acknowledged.',
  }),
  idField: 'id',
  table: 'publishing.publications',
  keyColumn: 'title',
  stored: (key) => key,
};

export const UPLOAD_SESSIONS: WriteTarget = {
  name: 'upload sessions',
  path: '/media/upload-session',
  body: (workspaceId, key) => ({ workspace_id: workspaceId, filename: `${key}.png`, size: 1024, mime_type: 'image/png' }),
  idField: 'media_id',
  table: 'media.media_items',
  keyColumn: 'filename',
  stored: (key) => `${key}.png`,
};

export interface LogicalWrite {
  key: string;
  target: WriteTarget;
  body: Record<string, unknown>;
  /** The acknowledged publication's id; undefined when the write gave up (or was refused with a 4xx). */
  id?: string;
  /** When the acknowledgement arrived. */
  acknowledgedAt?: number;
  attempts: number;
  /** A 4xx other than 409 in-flight / 429: the platform refused the write itself (a bug under faults). */
  refused?: string;
}

/**
 * A signed-in user as a client holds it: the access token every request sends, and the refresh token that
 * trades it for a new pair (POST /auth/refresh; the old refresh token dies, so the new one is kept).
 */
export class Session {
  constructor(
    public token: string,
    private refreshToken: string,
  ) {}

  async refresh(baseUrl: string): Promise<void> {
    const res = await fetch(`${baseUrl}/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: this.refreshToken }),
    });
    const answer = (await res.json().catch(() => undefined)) as { access_token?: string; refresh_token?: string } | undefined;
    if (res.status !== 200 || !answer?.access_token || !answer.refresh_token)
      throw new Error(`POST /auth/refresh answered ${res.status}: ${JSON.stringify(answer)}`);
    this.token = answer.access_token;
    this.refreshToken = answer.refresh_token;
  }
}

export interface LoadOptions {
  baseUrl: string;
  /** Read at every attempt: a refreshed token is used from the next one on. */
  session: Session;
  workspaceId: string;
  /** Each new logical write goes to the next of these, round robin (repeat one to weigh it). */
  targets: WriteTarget[];
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
    const target = this.options.targets[this.writes.length % this.options.targets.length];
    // The key is stored with the resource (title, filename): the database check counts rows per key.
    const body = target.body(this.options.workspaceId, key);
    const write: LogicalWrite = { key, target, body, attempts: 0 };
    this.writes.push(write);
    const deadline = Date.now() + this.options.giveUpMs;
    let backoff = 100;
    while (Date.now() < deadline) {
      write.attempts++;
      const answer = await this.post(target, key, body);
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
  async post(
    target: WriteTarget,
    key: string,
    body: Record<string, unknown>,
    record = true,
  ): Promise<{ status: number; code?: string; id?: string; replayed: boolean }> {
    const startedAt = Date.now();
    let status = 0;
    let code: string | undefined;
    let id: string | undefined;
    let replayed = false;
    try {
      const res = await fetch(`${this.options.baseUrl}${target.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.session.token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.attemptAbortMs),
      });
      status = res.status;
      replayed = res.headers.get('idempotent-replayed') === 'true';
      const answer = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
      id = typeof answer?.[target.idField] === 'string' ? (answer[target.idField] as string) : undefined;
      code = typeof answer?.code === 'string' ? answer.code : undefined;
    } catch (error) {
      code = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.name) : String(error);
    }
    if (record) this.attempts.push({ key, target: target.name, startedAt, endedAt: Date.now(), status, detail: code });
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
  /** Answers 401: the token was refused (a key rotation must never cause one). */
  unauthorized = 0;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly baseUrl: string,
    readonly session: Session,
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
        headers: { authorization: `Bearer ${this.session.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `fault event ${n}` }),
        signal: AbortSignal.timeout(this.attemptAbortMs),
      });
      await res.arrayBuffer();
      if (res.status === 201) this.acknowledged++;
      else this.failed++;
      if (res.status === 401) this.unauthorized++;
    } catch {
      this.failed++;
    }
  }
}
