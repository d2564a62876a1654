import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Global, Inject, Injectable, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { PrivateNats, startPrivateNats, waitFor } from '@social/testing';
import pino from 'pino';
import { connectNats, DurableEventHandler, ServiceEvents } from '../index.js';

// runService's event wiring (libs/platform/src/events/service-events.ts); here for the harness, see durable-events.spec.ts.

const SEEN = Symbol('seen');

/** Listed in a feature module: resolved from there, with that module's providers. */
@Injectable()
class FeatureHandler implements DurableEventHandler {
  constructor(@Inject(SEEN) private readonly seen: string[]) {}
  async handle(subject: string) {
    this.seen.push(`feature:${subject}`);
  }
}

/** Listed nowhere: built by runService with the root injector (global providers). */
class UnlistedHandler implements DurableEventHandler {
  constructor(@Inject(SEEN) private readonly seen: string[]) {}
  async handle(subject: string) {
    this.seen.push(`unlisted:${subject}`);
  }
}

@Global()
@Module({ providers: [{ provide: SEEN, useValue: [] }], exports: [SEEN] })
class SeenModule {}

@Module({ providers: [FeatureHandler] })
class FeatureModule {}

@Module({ imports: [SeenModule, FeatureModule] })
class RootModule {}

describe('ServiceEvents', () => {
  let nats: PrivateNats;
  let nc: NatsConnection;
  let app: INestApplicationContext;

  beforeAll(async () => {
    nats = await startPrivateNats();
    nc = await connectNats(nats.url, 'service-events-spec');
    app = await NestFactory.createApplicationContext(RootModule, { logger: false });
  });

  afterAll(async () => {
    await app?.close();
    await nc?.close();
    await nats?.stop();
  });

  it('resolves handlers from the Nest container and delivers each event to the consumer for its subjects', async () => {
    const events = new ServiceEvents('spec', nc, pino({ level: 'silent' }));
    await events.startConsumers(app, [
      { durable: 'spec-feature', subjects: ['durable.feature.>'], handler: FeatureHandler },
      { durable: 'spec-unlisted', subjects: ['durable.unlisted.>'], handler: UnlistedHandler },
    ]);
    const seen = app.get<string[]>(SEEN);
    try {
      await jetstream(nc).publish('durable.feature.done', '{}');
      await jetstream(nc).publish('durable.unlisted.done', '{}');
      await waitFor('both events', async () => seen.length >= 2, 5_000);
      expect([...seen].sort()).toEqual(['feature:durable.feature.done', 'unlisted:durable.unlisted.done']);
    } finally {
      await events.stop();
    }
  });

  it('refuses a durable name that is not "<service>-<purpose>"', async () => {
    const events = new ServiceEvents('spec', nc, pino({ level: 'silent' }));
    await expect(
      events.startConsumers(app, [{ durable: 'organization-deleted', subjects: ['durable.x.>'], handler: UnlistedHandler }]),
    ).rejects.toThrow('spec-<purpose>');
  });
});
