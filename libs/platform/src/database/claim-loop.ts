import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { NotifiedSleep } from './notified-sleep.js';

/** What a claim loop keeps of one claimed row while its work runs: at least the claim's lease. */
export interface LeasedWork {
  lease: string;
}

export interface ClaimLoopOptions<Entry extends LeasedWork> {
  /** The NOTIFY channel of a schema that wakes the loop (see `NotifiedSleep`). */
  channelOf: (schema: string) => string;
  logger: Logger;
  /** Who claims, for log lines ("scheduler", "sync worker"). */
  who: string;
  /** Logged (with the backoff) when a pass throws, e.g. "scheduler could not claim renditions". */
  claimFailed: string;
  /**
   * One pass: claim due rows and start (`run`) or do their work. Returns how
   * long to sleep before the next pass (woken early by a NOTIFY or `wake()`),
   * or null to go on at once. A throw backs off (0.5 s doubling to 30 s) and that
   * backoff sleeps through wakes.
   */
  pass: () => Promise<number | null>;
  /**
   * Keeps the leases of the work in progress alive: called every third of
   * `ms` (at least 200 ms) while anything runs. Must not throw.
   */
  renew?: { ms: number; leases: (inFlight: Array<[string, Entry]>) => Promise<void> };
  /**
   * How long a pass waits after its sleep before it claims, so that rows arriving one by one (a burst's NOTIFYs)
   * are claimed together: for work that is not due to the millisecond. Default 0.
   */
  gatherMs?: number;
}

/**
 * The skeleton of a leased worker (the delivery scheduler, the insights sync
 * worker, the notifications mail sender): a lease owner id for this process,
 * a loop of claiming passes that a NOTIFY wakes and a failure backs off, the
 * claimed rows in progress (by id, with their lease), a heartbeat renewing
 * those leases, and a shutdown that claims nothing more and waits for the
 * work in progress. What is claimed, how one row is handled and how leases
 * are renewed stay with the worker.
 */
export class ClaimLoop<Entry extends LeasedWork = LeasedWork> {
  /** Who holds a lease: host, process and a random tag (a restarted process is someone else). */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** The claimed rows whose work is running, by id. */
  readonly inFlight = new Map<string, Entry & { task?: Promise<void> }>();
  /**
   * Whether finished work wakes the loop to claim into the freed slot (the default). A worker whose last claim came
   * back short sets it false: nothing more was due, so a finish would only claim nothing; a NOTIFY, the pass's own
   * delay or `wake()` (after a worker requeued something) brings the next pass.
   */
  moreDue = true;
  private readonly sleep: NotifiedSleep;
  private running?: Promise<void>;
  private stopped = false;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    dataSource: DataSource,
    private readonly options: ClaimLoopOptions<Entry>,
  ) {
    this.sleep = new NotifiedSleep(dataSource, options.channelOf, options.logger, options.who);
  }

  /** How often the heartbeat renews leases. */
  get renewEveryMs(): number {
    return Math.max(200, Math.floor((this.options.renew?.ms ?? 0) / 3));
  }

  /** Ids of the rows in progress: a claim must not take them again (their lease may have run out while renewals failed). */
  get inFlightIds(): string[] {
    return [...this.inFlight.keys()];
  }

  start(): void {
    this.running = this.loop();
    const { renew } = this.options;
    if (renew) {
      this.heartbeat = setInterval(() => {
        if (this.inFlight.size > 0) void renew.leases([...this.inFlight.entries()]);
      }, this.renewEveryMs);
    }
  }

  /** Claims nothing more, lets the work in progress finish, then stops listening. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.sleep.stop();
    await this.running;
    await Promise.allSettled([...this.inFlight.values()].map((entry) => entry.task));
    clearInterval(this.heartbeat);
    this.sleep.close();
  }

  /** Ends the current sleep now (a slot is free, more is due). */
  wake(): void {
    this.sleep.wake();
  }

  /**
   * Runs the work of one claimed row, tracked in `inFlight` until it settles;
   * then the loop is woken (a slot is free) while more may be due (`moreDue`).
   * `work` must not reject (the caller logs its own failures).
   */
  run(id: string, entry: Entry, work: () => Promise<void>): void {
    const tracked: Entry & { task?: Promise<void> } = entry;
    this.inFlight.set(id, tracked);
    tracked.task = work().finally(() => {
      if (this.inFlight.get(id) === tracked) this.inFlight.delete(id);
      if (this.moreDue) this.sleep.wake();
    });
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let delay: number | null;
      try {
        await this.sleep.listen();
        delay = await this.options.pass();
        failures = 0;
      } catch (error) {
        failures += 1;
        delay = Math.min(30_000, 500 * 2 ** Math.min(failures - 1, 6));
        this.options.logger.warn({ err: error, retry_in_ms: delay }, this.options.claimFailed);
      }
      // After a failure the backoff holds: neither a NOTIFY nor a finished piece of work cuts it short.
      if (delay !== null) await this.sleep.pause(delay, failures === 0);
      if (delay !== null && this.options.gatherMs) await this.sleep.pause(this.options.gatherMs, false);
    }
  }
}

/** How long to sleep until the next due time (`at`, null when nothing is due later), at most one poll interval. */
export function untilNextDue(next: Date | null | undefined, pollMs: number): number {
  return next ? Math.max(0, Math.min(pollMs, next.getTime() - Date.now() + 5)) : pollMs;
}
