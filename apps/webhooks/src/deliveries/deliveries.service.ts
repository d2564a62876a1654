import { Inject, Injectable } from '@nestjs/common';
import {
  ListWebhookDeliveriesQuery,
  Principal,
  WEBHOOK_DELIVERIES_PAGE_DEFAULT,
  WEBHOOK_TEST_EVENT,
  WebhookDeliveryList,
  WebhookDeliveryQueued,
} from '@social/contracts';
import { changedRows, createdAtPosition, CursorCodec, isCreatedAtPosition, problems, SERVICE_CONFIG } from '@social/platform';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { WebhooksConfig } from '../config.js';
import { MAX_ATTEMPTS } from '../dispatch/retry-schedule.js';
import { WebhooksService } from '../subscriptions/webhooks.service.js';
import { DELIVERY_COLUMNS, type DeliveryRow, eventBody, toWebhookDelivery, wakeDispatchers } from './delivery.row.js';

const NO_SUCH_DELIVERY = 'No such delivery.';

/** A webhook's delivery log, redelivery and test events (admins of the webhook's workspace only). */
@Injectable()
export class DeliveriesService {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksService,
    @Inject(SERVICE_CONFIG) config: WebhooksConfig,
  ) {
    this.cursors = CursorCodec.derive(config.SECRETS_KEY, 'webhook-deliveries');
  }

  /** Newest first (created_at, then id). */
  async list(principal: Principal, webhookId: string, query: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryList> {
    const webhook = await this.webhooks.findVisible(principal, webhookId);
    const filters = { webhook_id: webhook.id };
    const after = query.cursor ? this.cursors.decode(query.cursor, filters, isCreatedAtPosition) : undefined;
    const limit = query.limit ?? WEBHOOK_DELIVERIES_PAGE_DEFAULT;
    const values: unknown[] = [webhook.id];
    const page = after ? `AND (created_at, id) < ($${values.push(after.at)}::timestamptz, $${values.push(after.id)}::uuid)` : '';
    const rows = await this.dataSource.query<DeliveryRow[]>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 ${page}
        ORDER BY created_at DESC, id DESC LIMIT $${values.push(limit + 1)}`,
      values,
    );
    const more = rows.length > limit;
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      deliveries: shown.map(toWebhookDelivery),
      next_cursor: more ? this.cursors.encode(createdAtPosition({ createdAt: new Date(last.created_at), id: last.id }), filters) : '',
    };
  }

  /** One more attempt now, with the same `webhook-id` and body, counted in `attempts`; only that one (no retries after it). */
  async redeliver(principal: Principal, webhookId: string, deliveryId: string): Promise<WebhookDeliveryQueued> {
    const webhook = await this.webhooks.findVisible(principal, webhookId);
    if (!webhook.active) throw problems.conflict('webhook_inactive', 'The webhook is not active; set active: true first.');
    return this.dataSource.transaction(async (db) => {
      const [row] = await changedRows<DeliveryRow>(
        db,
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), max_attempts = GREATEST(max_attempts, attempts + 1)
          WHERE id = $1 AND webhook_id = $2 RETURNING ${DELIVERY_COLUMNS}`,
        [deliveryId, webhook.id],
      );
      if (!row) throw problems.notFound(NO_SUCH_DELIVERY);
      await wakeDispatchers(db);
      return { delivery: toWebhookDelivery(row) };
    });
  }

  /** A `webhook.test` event (`data` `{webhook_id}`) for this webhook alone, delivered, logged and retried like any other. */
  async test(principal: Principal, webhookId: string): Promise<WebhookDeliveryQueued> {
    const webhook = await this.webhooks.findVisible(principal, webhookId);
    if (!webhook.active) throw problems.conflict('webhook_inactive', 'The webhook is not active; set active: true first.');
    const eventId = uuidv7();
    const body = eventBody(WEBHOOK_TEST_EVENT, webhook.workspace_id, { webhook_id: webhook.id }, new Date());
    return this.dataSource.transaction(async (db) => {
      await db.query(
        `INSERT INTO webhook_events (id, dedupe_key, workspace_id, type, ordering_key, sequence, body, created_at)
         VALUES ($1, $2, $3, $4, $2, 0, $5, now())`,
        [eventId, `test:${eventId}`, webhook.workspace_id, WEBHOOK_TEST_EVENT, body],
      );
      const [row] = await db.query<DeliveryRow[]>(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, workspace_id, event_type, ordering_key, sequence, max_attempts,
           next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7, now(), now()) RETURNING ${DELIVERY_COLUMNS}`,
        [uuidv7(), webhook.id, eventId, webhook.workspace_id, WEBHOOK_TEST_EVENT, `test:${eventId}`, MAX_ATTEMPTS],
      );
      await wakeDispatchers(db);
      return { delivery: toWebhookDelivery(row) };
    });
  }
}
