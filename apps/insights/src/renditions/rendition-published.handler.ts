import { Injectable } from '@nestjs/common';
import type { PublishedRenditionSummary, RenditionPublishedEvent } from '@social/contracts';
import { DurableEventHandler, isUuid, preparedQuery } from '@social/platform';
import { DataSource } from 'typeorm';
import { rememberAccounts } from '../accounts/account-directory.js';
import { ProviderClient } from '../sync/provider-client.js';
import { rememberRenditions } from './rendition-store.js';

/**
 * `durable.publishing.rendition.published` (durable `insights-rendition-published`):
 * stores the rendition (title, excerpt and profile from publishing's listing)
 * and schedules its measurements: at once, +1 h, +24 h, +7 d. Idempotent.
 * Its account's name comes from publishing the first time insights meets it (the daily planner's listing keeps it).
 * Publishing unreachable: the throw brings the event back later.
 */
@Injectable()
export class RenditionPublishedHandler implements DurableEventHandler {
  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: ProviderClient,
  ) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<RenditionPublishedEvent> | null;
    if (
      !event ||
      !isUuid(event.rendition_id) ||
      !isUuid(event.workspace_id) ||
      !isUuid(event.social_account_id) ||
      !isUuid(event.publication_id)
    )
      return;
    const page = await this.provider.listPublishedRenditions({
      workspace_id: event.workspace_id,
      rendition_ids: [event.rendition_id],
      limit: 1,
    });
    const listed = page.renditions.find((r) => r.rendition_id === event.rendition_id);
    const rendition: PublishedRenditionSummary = listed ?? {
      rendition_id: event.rendition_id,
      publication_id: event.publication_id,
      workspace_id: event.workspace_id,
      social_account_id: event.social_account_id,
      platform: event.platform ?? '',
      title: '',
      content_profile: '',
      excerpt: '',
      external_id: event.external_id ?? '',
      external_url: event.external_url ?? '',
      published_at: event.occurred_at ?? new Date().toISOString(),
    };
    // An account insights knows is still connected as far as it can tell: a disconnection deletes it here
    // (AccountDisconnectedHandler). Only an unknown one is asked about: one call to publishing fewer per post.
    const [known] = await preparedQuery(this.dataSource, 'insights.accounts.known', `SELECT 1 FROM accounts WHERE id = $1`, [
      event.social_account_id,
    ]);
    const accounts = known
      ? null
      : await this.provider.listAccounts({ workspace_id: event.workspace_id, account_ids: [event.social_account_id], limit: 1 });
    // The account was disconnected meanwhile: nothing to measure.
    if (accounts?.accounts.length === 0) return;
    // A known account: one statement, atomic by itself; a new one is stored with the rendition in one transaction.
    if (!accounts) return rememberRenditions(this.dataSource.manager, [rendition]);
    await this.dataSource.transaction(async (db) => {
      await rememberRenditions(db, [rendition]);
      await rememberAccounts(db, accounts.accounts);
    });
  }
}
