import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { changedRows, SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { NotificationsConfig } from '../config.js';
import { emailChannel } from '../email/email-channel.js';
import { DigestLine, renderDigestMail } from '../email/mail-content.js';
import { NotificationsMailSettings } from '../email/notifications-mail-settings.js';
import { localDate, nextDigestAfter } from './digest-schedule.js';

/** Users with digest lines waiting, the oldest line's time, their digest settings, and the local days already sent. */
const WAITING = `
  SELECT w.user_id, w.oldest, coalesce(p.digest_time, '09:00') AS digest_time, coalesce(p.digest_timezone, 'UTC') AS digest_timezone,
         (SELECT coalesce(array_agg(to_char(r.local_date, 'YYYY-MM-DD')), '{}') FROM digest_runs r
           WHERE r.user_id = w.user_id AND r.local_date >= (w.oldest - interval '2 days')::date) AS sent_dates
    FROM (SELECT user_id, min(created_at) AS oldest FROM notifications WHERE digest_pending AND created_at <= now() GROUP BY user_id) w
    LEFT JOIN preferences p ON p.user_id = w.user_id`;

interface Waiting {
  user_id: string;
  oldest: Date;
  digest_time: string;
  digest_timezone: string;
  sent_dates: string[];
}

/**
 * Daily digests. A line waits (`digest_pending`) until the user's next
 * `digest_time` in `digest_timezone` after it arrived (DST-correct, see
 * digest-schedule.ts); then one replica claims the day's `digest_runs` row
 * (primary key user + local date, so a day is sent once whatever the
 * replicas) and, in the same transaction, takes every waiting line and writes
 * one `email_deliveries` row that EmailSender sends like any other mail.
 */
@Injectable()
export class DigestScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly mail: NotificationsMailSettings,
    @Inject(SERVICE_CONFIG) private readonly config: NotificationsConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.runOnce()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'digest check failed; next check at the next interval'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.config.NOTIFICATIONS_DIGEST_POLL_MS);
        });
    };
    this.timer = setTimeout(tick, Math.min(1_000, this.config.NOTIFICATIONS_DIGEST_POLL_MS));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Sends every digest that is due now; returns how many it sent. */
  async runOnce(now = new Date()): Promise<number> {
    const waiting = (await this.dataSource.query(WAITING)) as Waiting[];
    let sent = 0;
    for (const user of waiting) {
      const sentDates = new Set(user.sent_dates);
      let next = nextDigestAfter(new Date(user.oldest), user.digest_time, user.digest_timezone);
      // A day already sent (a line that committed just after that day's digest took the others) goes to the next day's.
      while (sentDates.has(next.date)) next = nextDigestAfter(next.dueAt, user.digest_time, user.digest_timezone);
      if (next.dueAt > now) continue;
      // Late (the service was down at the due time): the digest goes now, under today's date.
      const date = next.date < localDate(now, user.digest_timezone) ? localDate(now, user.digest_timezone) : next.date;
      if (sentDates.has(date)) continue;
      if (await this.send(user.user_id, date, next.dueAt)) sent += 1;
    }
    return sent;
  }

  private send(userId: string, date: string, dueAt: Date): Promise<boolean> {
    return this.dataSource.transaction(async (db) => {
      const [claimed] = (await db.query(
        `INSERT INTO digest_runs (user_id, local_date, due_at, items, created_at) VALUES ($1, $2, $3, 0, now())
         ON CONFLICT DO NOTHING RETURNING user_id`,
        [userId, date, dueAt],
      )) as Array<{ user_id: string }>;
      if (!claimed) return false;
      const lines = await changedRows<DigestLine & { created_at: Date }>(
        db,
        `UPDATE notifications SET digest_pending = false
          WHERE id IN (SELECT id FROM notifications WHERE user_id = $1 AND digest_pending AND created_at <= now() FOR UPDATE SKIP LOCKED)
        RETURNING title, body, link, created_at`,
        [userId],
      );
      const items = lines.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
      await db.query(`UPDATE digest_runs SET items = $3 WHERE user_id = $1 AND local_date = $2`, [userId, date, items.length]);
      if (items.length === 0) return false;
      const content = renderDigestMail(items, date, this.mail.publicAppUrl);
      await db.query(
        `INSERT INTO email_deliveries (id, user_id, kind, subject, text_body, html_body, next_attempt_at, created_at)
         VALUES ($1, $2, 'digest', $3, $4, $5, now(), now())`,
        [uuidv7(), userId, content.subject, content.text, content.html],
      );
      await db.query(`SELECT pg_notify($1 || current_schema(), '')`, [emailChannel('')]);
      this.logger.info({ user_id: userId, local_date: date, items: items.length }, 'daily digest written');
      return true;
    });
  }
}
