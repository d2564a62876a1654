import { Injectable } from '@nestjs/common';
import type { AccountDisconnectedEvent } from '@social/contracts';
import { DurableEventHandler, isUuid } from '@social/platform';
import { DataSource } from 'typeorm';

/**
 * `durable.publishing.account.disconnected` (durable `insights-account-disconnected`):
 * the account's jobs stop (queued ones are deleted; a running one finds its
 * row gone and writes nothing) and what insights stored about it goes.
 * Idempotent ("delete where…").
 */
@Injectable()
export class AccountDisconnectedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<AccountDisconnectedEvent> | null;
    if (!isUuid(event?.social_account_id)) return;
    const accountId = event.social_account_id;
    await this.dataSource.transaction(async (db) => {
      await db.query(`DELETE FROM sync_jobs WHERE account_id = $1`, [accountId]);
      await db.query(`DELETE FROM renditions WHERE social_account_id = $1`, [accountId]);
      // Snapshots, growth items and the growth sync state go with it (ON DELETE CASCADE).
      await db.query(`DELETE FROM accounts WHERE id = $1`, [accountId]);
    });
  }
}
