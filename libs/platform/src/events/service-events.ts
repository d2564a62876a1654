import type { INestApplicationContext, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { consumeDurableEvents, DurableConsumer, type DurableEventMeta } from './durable-consumer.js';
import { OutboxRelay } from './outbox-relay.js';
import type { Metrics } from '../metrics/metrics.js';

/**
 * Handles one durable event, resolved from the service's Nest container so it
 * can inject the DataSource and the service's providers. Must be idempotent:
 * an event can arrive more than once (see `consumeDurableEvents`).
 */
export interface DurableEventHandler {
  /** `meta.eventId` is the same on every redelivery of one event: an idempotency key. */
  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void>;
}

export interface EventConsumerDefinition {
  /** `<service>-<purpose>`, e.g. `notifications-organization-deleted`; shared by the service's replicas. */
  durable: string;
  subjects: string[];
  handler: Type<DurableEventHandler>;
  /** Events this process handles at once (default 1); the handler must then tolerate running beside itself. */
  concurrency?: number;
}

/** The outbox relay and durable consumers of one service process, started and stopped by `runService`. */
export class ServiceEvents {
  private relay?: OutboxRelay;
  private consumers: DurableConsumer[] = [];

  private readonly deadLetters?: ReturnType<Metrics['counter']>;

  constructor(
    private readonly service: string,
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
    private readonly settings: { maxDeliver?: number; metrics?: Metrics } = {},
  ) {
    this.deadLetters = settings.metrics?.counter(
      'durable_events_dead_lettered_total',
      'Durable events given up after their last delivery and sent to the dead-letter stream.',
      ['durable', 'subject'],
    );
  }

  startRelay(dataSource: DataSource): void {
    this.relay = new OutboxRelay(dataSource, this.nc, this.logger.child({ component: 'outbox-relay' }));
    this.relay.start();
  }

  /** After the app listens: handlers may need every provider, and may ask other services. */
  async startConsumers(app: INestApplicationContext, definitions: EventConsumerDefinition[]): Promise<void> {
    for (const definition of definitions) {
      // One durable per service and purpose: a name shared across services would split the events between them.
      if (!definition.durable.startsWith(`${this.service}-`)) {
        throw new Error(`durable consumer "${definition.durable}" must be named "${this.service}-<purpose>"`);
      }
      const handler = await resolveHandler(app, definition.handler);
      this.consumers.push(
        await consumeDurableEvents(this.nc, {
          durable: definition.durable,
          subjects: definition.subjects,
          handle: (subject, payload, meta) => handler.handle(subject, payload, meta),
          logger: this.logger,
          concurrency: definition.concurrency,
          maxDeliver: this.settings.maxDeliver,
          onDeadLetter: (subject) => this.deadLetters?.inc({ durable: definition.durable, subject }),
        }),
      );
    }
  }

  /** Before NATS drains and the DataSource closes: in-flight events finish and are acknowledged. */
  async stop(): Promise<void> {
    await Promise.all([this.relay?.stop(), ...this.consumers.map((consumer) => consumer.stop())]);
    this.consumers = [];
    this.relay = undefined;
  }
}

/** A handler listed in a feature module comes from there; otherwise it is built with the root module's injector. */
async function resolveHandler(app: INestApplicationContext, type: Type<DurableEventHandler>): Promise<DurableEventHandler> {
  try {
    return app.get(type, { strict: false });
  } catch {
    return app.get(ModuleRef).create(type);
  }
}
