import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

/**
 * The sleep of a polling loop that a PostgreSQL NOTIFY cuts short (the
 * outbox relay, the delivery scheduler): one pooled connection LISTENs on a
 * channel of the service's schema, and `pause` ends early when a notification
 * or a local `wake()` arrives, or at once on `stop()`. A lost connection is
 * logged and re-opened by the next `listen()`; until then the loop polls.
 */
export class NotifiedSleep {
  private listener?: PoolClient;
  /** A wake that arrived while the loop was not paused: the next pause returns at once. */
  private woken = false;
  private stopped = false;
  private interrupt?: (byWake: boolean) => void;

  constructor(
    private readonly dataSource: DataSource,
    /** The channel of a schema (channels are database-wide, so each schema has its own). */
    private readonly channelOf: (schema: string) => string,
    private readonly logger: Logger,
    /** Who listens, for the log line when the connection is lost. */
    private readonly who: string,
  ) {}

  /** Opens the LISTEN connection unless it is open; throws when PostgreSQL cannot be reached. */
  async listen(): Promise<void> {
    if (this.listener) return;
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    const client = await pool.connect();
    try {
      const [{ schema }] = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows;
      client.on('notification', () => this.wake());
      client.on('error', (error) => {
        // Only the listener in use is handed back here: a client that failed while LISTEN was being set up is
        // released by the catch below, and one already released (close, an earlier error) must not be released
        // twice — pg throws from inside this event, which would crash the process (seen at shutdown).
        if (this.listener !== client) return;
        this.logger.warn({ err: error }, `${this.who} lost its LISTEN connection; polling until it is back`);
        this.listener = undefined;
        client.release(error);
      });
      await client.query(`LISTEN "${this.channelOf(schema)}"`);
      this.listener = client;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /** Ends the current pause (or the next one) now. */
  wake(): void {
    this.woken = true;
    this.interrupt?.(true);
  }

  /**
   * Sleeps `ms`, or less when woken; `wakeable: false` sleeps through wakes
   * (a loop backing off after a failure must not turn a burst of NOTIFYs into
   * a busy loop). After `stop()` it returns at once.
   */
  pause(ms: number, wakeable = true): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (wakeable && this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.interrupt = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.interrupt = (byWake) => {
        if (!byWake || wakeable) done();
      };
    });
  }

  /** Every pause from now on returns at once (the loop is stopping). */
  stop(): void {
    this.stopped = true;
    this.interrupt?.(false);
  }

  /** Pauses sleep again (a stopped loop started anew). */
  resume(): void {
    this.stopped = false;
  }

  /** Drops the LISTEN connection: destroyed rather than returned, since a pooled connection must not keep listening. */
  close(): void {
    const client = this.listener;
    this.listener = undefined;
    client?.release(true);
  }
}
