import { Inject, Injectable } from '@nestjs/common';
import { MAX_WEBHOOKS_PER_WORKSPACE, MediaPatterns, PublishingPatterns, type ResourceAnswer } from '@social/contracts';
import {
  DurableEventHandler,
  DurableEventMeta,
  KeyedBatches,
  preparedQuery,
  RpcClient,
  SERVICE_LOGGER,
  togetherOrEachAlone,
} from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { deliveriesChannel, eventBody } from '../deliveries/delivery.row.js';
import { MAX_ATTEMPTS } from '../dispatch/retry-schedule.js';
import { KeyedSerial } from './keyed-serial.js';
import { type ResourceRef, type WebhookEventSource, webhookEventOf } from './webhook-events.js';

/** A body past this carries only the resource's id (`{id, truncated: true}`): receivers read the rest from the API. */
export const MAX_BODY_BYTES = 256 * 1024;

/** How long an event's check waits for other events' before its statement (a burst's arrive a few ms apart). */
const CHECK_GATHER_MS = 5;

/** An event's intake check: whether any webhook wants it, and whether a redelivery finds it taken in. */
interface IntakeCheck {
  subscribed: boolean;
  known: boolean;
}

/**
 * Durable platform events → one webhook event (one body, one `webhook-id`) and one delivery per subscribed
 * webhook, in one transaction. The resource is read from its owner once, when the event is turned into
 * deliveries, so every subscription gets the same body. A redelivered JetStream message finds its event
 * (unique dedupe key) and makes nothing new. Events of one publication are taken one after the other.
 */
@Injectable()
export class EventIntake implements DurableEventHandler {
  private readonly serial = new KeyedSerial();
  /**
   * Every durable event of the platform is checked here: the events that arrive while one check runs are checked
   * together in the next (a burst's events in a few statements, and their acknowledgements in one write to NATS).
   */
  private readonly checks = new KeyedBatches<WebhookEventSource, IntakeCheck>(
    (_key, events) => togetherOrEachAlone(events, (some) => this.check(some)),
    CHECK_GATHER_MS,
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    const event = webhookEventOf(subject, payload, meta.eventId);
    if (!event) return;
    const started = Date.now();
    await this.serial.run(event.orderingKey, () => this.intake(event, meta.seq));
    this.logger.debug(
      { type: event.type, arrived_after_ms: started - event.occurredAt.getTime(), took_ms: Date.now() - started },
      'webhook event taken in',
    );
  }

  private async intake(event: WebhookEventSource, sequence: number): Promise<void> {
    // Nobody subscribed (most events) or already taken in (a redelivery) ends it here.
    const check = await this.checks.add('', event);
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
    // One statement (atomic on its own): the event, unless a redelivery got there first, and a delivery per subscription.
    await this.dataSource.query(
      `WITH e AS (
         INSERT INTO webhook_events (id, dedupe_key, workspace_id, type, ordering_key, sequence, body, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now()) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id),
       w AS (
         SELECT id, row_number() OVER (ORDER BY id) AS n FROM webhooks
          WHERE workspace_id = $3 AND active AND events && ARRAY[$4, '*']::text[]),
       d AS (
         INSERT INTO webhook_deliveries (id, webhook_id, event_id, workspace_id, event_type, ordering_key, sequence, max_attempts,
           next_attempt_at, created_at)
         SELECT ($8::uuid[])[w.n], w.id, e.id, $3, $4, $5, $6, $9, now(), now() FROM e CROSS JOIN w
         RETURNING 1)
       SELECT pg_notify($10 || current_schema(), '') FROM (SELECT count(*) AS made FROM d) made WHERE made.made > 0`,
      [
        uuidv7(),
        event.dedupeKey,
        event.workspaceId,
        event.type,
        event.orderingKey,
        sequence,
        body,
        // An id for each subscription a workspace may have; those not needed are dropped.
        Array.from({ length: MAX_WEBHOOKS_PER_WORKSPACE }, () => uuidv7()),
        MAX_ATTEMPTS,
        deliveriesChannel(''),
      ],
    );
  }

  /** Per event: is any webhook of its workspace subscribed to its type, and was it taken in already? One round trip. */
  private check(events: WebhookEventSource[]): Promise<IntakeCheck[]> {
    return preparedQuery<IntakeCheck>(
      this.dataSource,
      'webhooks.intake.check',
      `SELECT EXISTS (SELECT 1 FROM webhooks w
                       WHERE w.workspace_id = e.workspace_id AND w.active AND w.events && ARRAY[e.type, '*']::text[]) AS subscribed,
              EXISTS (SELECT 1 FROM webhook_events k WHERE k.dedupe_key = e.dedupe_key) AS known
         FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS e (workspace_id, type, dedupe_key, n)
        ORDER BY e.n`,
      [events.map((e) => e.workspaceId), events.map((e) => e.type), events.map((e) => e.dedupeKey)],
    );
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
