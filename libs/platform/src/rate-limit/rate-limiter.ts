import type { DataSource, EntityManager } from 'typeorm';
import { problems } from '../problems/problem.js';

/** The table a service's migration creates to use `RateLimiter` (shared by all its replicas). */
export const RATE_LIMIT_TABLE_SQL = `
  CREATE TABLE rate_limit_counters (
    key text NOT NULL,
    window_start timestamptz NOT NULL,
    count integer NOT NULL,
    PRIMARY KEY (key, window_start)
  )`;

export interface RateLimit {
  /** e.g. `login:email:ada@example.com`. */
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL, so a limit holds across every replica.
 * `hit` counts one event and throws 429 (with Retry-After) once the window's
 * count passes the limit.
 */
export class RateLimiter {
  constructor(private readonly dataSource: DataSource) {}

  async hit(rule: RateLimit, db: EntityManager = this.dataSource.manager): Promise<void> {
    const windowStart = this.windowStart(rule);
    const rows: Array<{ count: number }> = await db.query(
      `INSERT INTO rate_limit_counters (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
       RETURNING count`,
      [rule.key, windowStart],
    );
    if (rows[0].count > rule.limit) throw this.refusal(rule, windowStart);
  }

  /**
   * Takes back one event counted by `hit` in the current window: for limits on
   * failures, an attempt is counted before it is judged (so parallel attempts
   * cannot slip past the limit) and released when it succeeds.
   */
  async release(rule: RateLimit, db: EntityManager = this.dataSource.manager): Promise<void> {
    await db.query(`UPDATE rate_limit_counters SET count = count - 1 WHERE key = $1 AND window_start = $2 AND count > 0`, [
      rule.key,
      this.windowStart(rule),
    ]);
  }

  /** Drops windows that ended long ago; cheap enough to call now and then. */
  async prune(olderThanSeconds = 86_400): Promise<void> {
    await this.dataSource.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - make_interval(secs => $1)`, [
      olderThanSeconds,
    ]);
  }

  private windowStart(rule: RateLimit): Date {
    const size = rule.windowSeconds * 1000;
    return new Date(Math.floor(Date.now() / size) * size);
  }

  private refusal(rule: RateLimit, windowStart: Date) {
    const retryAfter = (windowStart.getTime() + rule.windowSeconds * 1000 - Date.now()) / 1000;
    return problems.tooManyRequests(retryAfter);
  }
}
