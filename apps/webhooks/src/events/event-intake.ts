import { Inject, Injectable } from '@nestjs/common';
import { MediaPatterns, PublishingPatterns, type ResourceAnswer } from '@social/contracts';
import { DurableEventHandler, DurableEventMeta, RpcClient, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { eventBody, wakeDispatchers } from '../deliveries/delivery.row.js';
import { MAX_ATTEMPTS } from '../dispatch/retry-schedule.js';
import { KeyedSerial } from './keyed-serial.js';
import { type ResourceRef, type WebhookEventSource, webhookEventOf } from './webhook-events.js';

/** A body past this carries only the resource's id (`{id, truncated: true}`): receivers read the rest from the API. */
export const MAX_BODY_BYTES = 256 * 1024;

/** The webhooks of a workspace subscribed to an event type (`*` included). */
const SUBSCRIBED = `workspace_id = $1 AND active AND events && ARRAY[$2, '*']::text[]`;

/**
 * Durable platform events → one webhook event (one body, one `webhook-id`) and one delivery per subscribed
 * webhook, in one transaction. The resource is read from its owner once, when the event is turned into
 * deliveries, so every subscription gets the same body. A redelivered JetStream message finds its event
 * (unique dedupe key) and makes nothing new. Events of one publication are taken one after the other.
 */
@Injectable()
export class EventIntake implements DurableEventHandler {
  private readonly serial = new KeyedSerial();

  constructor(
    private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    const event = webhookEventOf(subject, payload, meta.eventId);
    if (!event) return;
    await this.serial.run(event.orderingKey, () => this.intake(event, meta.seq));
  }

  private async intake(event: WebhookEventSource, sequence: number): Promise<void> {
    // One round trip: nobody subscribed (most events) or already taken in (a redelivery) ends it here.
    const [check] = await this.dataSource.query<Array<{ subscribed: boolean; known: boolean }>>(
      `SELECT EXISTS (SELECT 1 FROM webhooks WHERE ${SUBSCRIBED}) AS subscribed,
              EXISTS (SELECT 1 FROM webhook_events WHERE dedupe_key = $3) AS known`,
      [event.workspaceId, event.type, event.dedupeKey],
    );
    if (!check.subscribed || check.known) return;
    const data = await this.read(event.workspaceId, event.resource);
    if (!data) {
      this.logger.info({ type: event.type, resource: event.resource }, 'the resource of a webhook event is gone; nothing to send');
      return;
    }
    let body = eventBody(event.type, event.workspaceId, data, event.occurredAt);
    if (Buffer.byteLength(body) > MAX_BODY_BYTES) {
      body = eventBody(event.type, event.workspaceId, { id: event.resource.id, truncated: true }, event.occurredAt);
    }
    await this.dataSource.transaction(async (db) => {
      const eventId = uuidv7();
      const inserted = await db.query<unknown[]>(
        `INSERT INTO webhook_events (id, dedupe_key, workspace_id, type, ordering_key, sequence, body, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now()) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
        [eventId, event.dedupeKey, event.workspaceId, event.type, event.orderingKey, sequence, body],
      );
      if (inserted.length === 0) return;
      const webhooks = await db.query<Array<{ id: string }>>(`SELECT id FROM webhooks WHERE ${SUBSCRIBED}`, [
        event.workspaceId,
        event.type,
      ]);
      await db.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, workspace_id, event_type, ordering_key, sequence, max_attempts,
           next_attempt_at, created_at)
         SELECT d.id, d.webhook_id, $3, $4, $5, $6, $7, $8, now(), now() FROM unnest($1::uuid[], $2::uuid[]) AS d (id, webhook_id)
         ON CONFLICT (event_id, webhook_id) DO NOTHING`,
        [
          webhooks.map(() => uuidv7()),
          webhooks.map((webhook) => webhook.id),
          eventId,
          event.workspaceId,
          event.type,
          event.orderingKey,
          sequence,
          MAX_ATTEMPTS,
        ],
      );
      await wakeDispatchers(db);
    });
  }

  private async read(workspaceId: string, resource: ResourceRef): Promise<object | null> {
    const answer =
      resource.owner === 'media'
        ? await this.rpc.send<ResourceAnswer>(MediaPatterns.readItem, { workspace_id: workspaceId, media_id: resource.id })
        : await this.rpc.send<ResourceAnswer>(PublishingPatterns.readResource, {
            workspace_id: workspaceId,
            kind: resource.kind,
            id: resource.id,
          });
    return answer.resource;
  }
}
