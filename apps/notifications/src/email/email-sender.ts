import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { AccountsPatterns, ContactList, ListContactsRequest } from '@social/contracts';
import {
  changedRows,
  ClaimLoop,
  MailDeliveryError,
  Metrics,
  RpcClient,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  untilNextDue,
  watchJobQueue,
} from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { NotificationsConfig } from '../config.js';
import { emailChannel } from './email-channel.js';
import { NotificationsMailSettings } from './notifications-mail-settings.js';

const BATCH = 16;
const MAX_RETRY_DELAY_MS = 3_600_000;

interface Claimed {
  id: string;
  user_id: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
  lease: string;
}

/** The delay before attempt `attempts + 1`: base × 2^(attempts-1), ±20 % jitter, at most an hour. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  const delay = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 20));
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

/** A 5xx reply: the server will never take this mail for this address. Anything else may pass later. */
export const isPermanentRefusal = (error: unknown): boolean =>
  error instanceof MailDeliveryError && error.reason === 'refused' && (error.responseCode ?? 0) >= 500;

/**
 * Sends `email_deliveries` rows as they fall due, on every replica: due rows
 * are claimed with `FOR UPDATE SKIP LOCKED` under a lease of their own (a dead
 * replica's claim runs out and another takes it over), and every outcome is
 * written only while that lease is ours. The address is asked of accounts at
 * send time (an address changed meanwhile is used). A temporary failure
 * (unreachable, 4xx, SMTP not configured) is retried with exponential backoff,
 * forever; a permanent 5xx refusal records the address in
 * `suppressed_addresses` and nothing more is sent to it.
 */
@Injectable()
export class EmailSender implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly claims: ClaimLoop;

  constructor(
    private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    private readonly settings: NotificationsMailSettings,
    @Inject(SERVICE_CONFIG) private readonly config: NotificationsConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Optional() @Inject(Metrics) metrics?: Metrics,
  ) {
    // Mail due now, waiting or being sent (through email_deliveries_due_idx).
    if (metrics) {
      watchJobQueue(
        metrics,
        'notifications_email',
        dataSource,
        `SELECT count(*)::int AS depth FROM email_deliveries WHERE status = 'pending' AND next_attempt_at <= now()`,
      );
    }
    this.claims = new ClaimLoop(dataSource, {
      channelOf: emailChannel,
      logger,
      who: 'email sender',
      claimFailed: 'email sender could not claim mail',
      pass: () => this.pass(),
    });
  }

  onApplicationBootstrap(): void {
    this.claims.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.claims.stop();
  }

  /** One pass: a batch claimed and sent; a full batch goes on at once. */
  private async pass(): Promise<number | null> {
    const rows = await this.claim();
    await Promise.all(rows.map((row) => this.send(row)));
    return rows.length === BATCH ? null : this.untilNextDue(this.config.NOTIFICATIONS_EMAIL_POLL_MS);
  }

  private async claim(): Promise<Claimed[]> {
    return changedRows<Claimed>(
      this.dataSource,
      `WITH due AS (
         SELECT id FROM email_deliveries
          WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at < now())
          ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE email_deliveries d SET lease = $2 || '/' || gen_random_uuid(),
              lease_expires_at = now() + make_interval(secs => $3::int / 1000.0), attempts = d.attempts + 1
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.user_id, d.subject, d.text_body, d.html_body, d.attempts, d.lease`,
      [BATCH, this.claims.owner, this.config.NOTIFICATIONS_EMAIL_LEASE_MS],
    );
  }

  private async untilNextDue(poll: number): Promise<number> {
    const [next] = (await this.dataSource.query(
      `SELECT next_attempt_at AS at FROM email_deliveries WHERE status = 'pending' AND next_attempt_at > now()
       ORDER BY next_attempt_at LIMIT 1`,
    )) as Array<{ at: Date }>;
    return untilNextDue(next?.at, poll);
  }

  private async send(row: Claimed): Promise<void> {
    let address = '';
    try {
      const { contacts } = await this.rpc.send<ContactList>(AccountsPatterns.listContacts, {
        user_ids: [row.user_id],
      } satisfies ListContactsRequest);
      address = contacts[0]?.email.trim().toLowerCase() ?? '';
      if (!address) return await this.settle(row, 'no_address', '', 'the account has no address (it is gone)');
      const [suppressed] = (await this.dataSource.query(`SELECT reason FROM suppressed_addresses WHERE address = $1`, [address])) as Array<{
        reason: string;
      }>;
      if (suppressed) return await this.settle(row, 'suppressed', address, `the address was refused before: ${suppressed.reason}`);
      await this.settings.mailer.send({ to: address, subject: row.subject, text: row.text_body, html: row.html_body });
      await this.settle(row, 'sent', address, '');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (address && isPermanentRefusal(error)) {
        await this.dataSource.query(
          `INSERT INTO suppressed_addresses (address, user_id, reason, created_at) VALUES ($1, $2, $3, now())
           ON CONFLICT (address) DO NOTHING`,
          [address, row.user_id, message.slice(0, 500)],
        );
        this.logger.warn({ delivery_id: row.id }, 'the mail server refused the address permanently; no more mail goes to it');
        return this.settle(row, 'refused', address, message);
      }
      const delay = retryDelayMs(row.attempts, this.config.NOTIFICATIONS_EMAIL_RETRY_BASE_MS);
      this.logger.warn(
        { delivery_id: row.id, attempts: row.attempts, retry_in_ms: delay, err: message },
        'notification mail not sent; will retry',
      );
      await this.dataSource
        .query(
          `UPDATE email_deliveries SET next_attempt_at = now() + make_interval(secs => $3::int / 1000.0), lease = NULL,
                  lease_expires_at = NULL, last_error = $4 WHERE id = $1 AND lease = $2`,
          [row.id, row.lease, delay, message.slice(0, 1000)],
        )
        .catch((failure: unknown) =>
          this.logger.warn({ err: failure, delivery_id: row.id }, 'could not record the retry; the lease will run out'),
        );
    }
  }

  /** A final outcome, written only while our lease holds. */
  private async settle(
    row: Claimed,
    status: 'sent' | 'refused' | 'suppressed' | 'no_address',
    address: string,
    error: string,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE email_deliveries SET status = $3, to_address = $4, last_error = $5, lease = NULL, lease_expires_at = NULL,
              sent_at = CASE WHEN $3 = 'sent' THEN now() END
        WHERE id = $1 AND lease = $2`,
      [row.id, row.lease, status, address, error.slice(0, 1000)],
    );
  }
}
