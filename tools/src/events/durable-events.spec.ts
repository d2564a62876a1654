import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  createTemporaryDatabase,
  findNatsServer,
  freePort,
  natsAnswers,
  startProcess,
  stopProcess,
  TemporaryDatabase,
  waitFor,
} from '@social/testing';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import {
  connectNats,
  consumeDurableEvents,
  DurableConsumer,
  enqueueEvent,
  EVENT_STREAM,
  openServiceDatabase,
  OUTBOX_CONTEXT_COLUMNS_SQL,
  OUTBOX_TABLE_SQL,
  OutboxRelay,
  requestContext,
  DEAD_LETTER_HEADERS,
  DEAD_LETTER_STREAM,
  deadLetterSubject,
  OutboxRelayOptions,
} from '@social/platform';
import { listDeadLetters, replayDeadLetter } from './dead-letters.js';

// The specs of libs/platform/src/events, with the dead-letters tool they drive
// (which is why they live in tools/, beside it).
// Real PostgreSQL and a real nats-server, as in production. The nats-server is
// started here (not with startPrivateNats) so it can be restarted on the same
// port and storage, as after an outage.

class CreateOutbox1763769600000 implements MigrationInterface {
  name = 'CreateOutbox1763769600000';
  async up(db: QueryRunner) {
    await db.query(OUTBOX_TABLE_SQL);
    await db.query(OUTBOX_CONTEXT_COLUMNS_SQL);
  }
  async down(db: QueryRunner) {
    await db.query('DROP TABLE outbox_events');
  }
}

const SCHEMA = 'events_spec';
const fast: OutboxRelayOptions = { batchSize: 5, pollIntervalMs: 60_000, backoffMs: 100, maxBackoffMs: 400, publishTimeoutMs: 500 };

/** A logger whose records the test can count. */
function recordingLogger() {
  const records: Array<{ msg: string; count?: number; level: string }> = [];
  const logger = pino(
    { level: 'debug', formatters: { level: (label) => ({ level: label }) } },
    {
      write: (line: string) => void records.push(JSON.parse(line)),
    },
  );
  return { logger, records };
}

const quiet = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('durable events', () => {
  let db: TemporaryDatabase;
  let replicaA: DataSource;
  let replicaB: DataSource;
  let natsBinary: string;
  let natsPort: number;
  let natsDir: string;
  let natsProcess: ChildProcess;
  let natsUrl: string;
  let nc: NatsConnection;

  async function startNats() {
    natsProcess = startProcess(natsBinary, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', natsDir], { stdio: 'ignore' });
    await waitFor('nats-server', () => natsAnswers(natsUrl), 10_000);
  }

  async function inStream(filter: string): Promise<number> {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(EVENT_STREAM, { subjects_filter: filter });
    return Object.values(info.state.subjects ?? {}).reduce((sum, count) => sum + count, 0);
  }

  async function pending(): Promise<number> {
    const rows: Array<{ count: number }> = await replicaA.manager.query(
      'SELECT count(*)::int AS count FROM outbox_events WHERE published_at IS NULL',
    );
    return rows[0].count;
  }

  async function publish(subject: string, data: string) {
    await jetstream(nc).publish(subject, data);
  }

  beforeAll(async () => {
    natsBinary = findNatsServer()!;
    natsPort = await freePort();
    natsUrl = `nats://127.0.0.1:${natsPort}`;
    natsDir = mkdtempSync(join(tmpdir(), 'nats-events-'));
    db = await createTemporaryDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'events_spec');
    await startNats();
    const options = { url: db.url, schema: SCHEMA, entities: [], migrations: [CreateOutbox1763769600000], poolSize: 4 };
    replicaA = await openServiceDatabase(options);
    replicaB = await openServiceDatabase(options);
    nc = await connectNats(natsUrl, 'events-spec');
  });

  afterAll(async () => {
    await nc?.close();
    await replicaA?.destroy();
    await replicaB?.destroy();
    await db?.drop();
    if (natsProcess) await stopProcess(natsProcess);
    rmSync(natsDir, { recursive: true, force: true });
  });

  it('publishes each committed row exactly once with two relays, nothing of a rolled-back transaction, and wakes on NOTIFY', async () => {
    for (let batch = 0; batch < 6; batch++) {
      await replicaA.transaction(async (manager) => {
        for (let i = 0; i < 5; i++) await enqueueEvent(manager, `durable.spec-a.committed`, { n: batch * 5 + i });
      });
    }
    await expect(
      replicaA.transaction(async (manager) => {
        await enqueueEvent(manager, 'durable.spec-a.rolled-back', { n: -1 });
        throw new Error('business change failed');
      }),
    ).rejects.toThrow('business change failed');
    await expect(enqueueEvent(replicaA.manager, 'organization.deleted', {})).rejects.toThrow('durable.');
    expect(await pending()).toBe(30);

    const logs = [recordingLogger(), recordingLogger()];
    const ncB = await connectNats(natsUrl, 'events-spec-relay-b');
    const relays = [new OutboxRelay(replicaA, nc, logs[0].logger, fast), new OutboxRelay(replicaB, ncB, logs[1].logger, fast)];
    relays.forEach((relay) => relay.start());
    try {
      await waitFor('the outbox to drain', async () => (await pending()) === 0, 10_000);
      // Polling is a minute away: only the NOTIFY of the commit can wake a relay this fast.
      const started = Date.now();
      await enqueueEvent(replicaB.manager, 'durable.spec-a.committed', { n: 30 });
      await waitFor('the notified row', async () => (await pending()) === 0, 3_000);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
      await ncB.close();
    }

    expect(await inStream('durable.spec-a.committed')).toBe(31);
    expect(await inStream('durable.spec-a.rolled-back')).toBe(0);
    const publishedBy = logs.map(({ records }) =>
      records.filter((r) => r.msg === 'outbox events published').reduce((sum, r) => sum + (r.count ?? 0), 0),
    );
    // Counted at the relays, so a double publish hidden by JetStream's de-duplication still fails here.
    expect(publishedBy[0] + publishedBy[1]).toBe(31);
    expect(logs.flatMap(({ records }) => records.filter((r) => r.msg === 'outbox event was already in the stream'))).toHaveLength(0);
    const rows: Array<{ attempts: number }> = await replicaA.query(`SELECT attempts FROM outbox_events WHERE published_at IS NOT NULL`);
    expect(rows.map((r) => r.attempts)).toEqual(Array(31).fill(1));
  });

  it('delivers an event published before the consumer existed (the service was down)', async () => {
    await publish('durable.spec-b.happened', JSON.stringify({ id: 'b1' }));
    const seen: unknown[] = [];
    const consumer = await consumeDurableEvents(nc, {
      durable: 'spec-b',
      subjects: ['durable.spec-b.>'],
      handle: async (_subject, payload) => void seen.push(payload),
      logger: quiet,
    });
    try {
      await waitFor('the earlier event', async () => seen.length > 0, 5_000);
      await sleep(300);
      expect(seen).toEqual([{ id: 'b1' }]);
    } finally {
      await consumer.stop();
    }
  });

  it('redelivers an event whose handler throws until it succeeds, and dead-letters a payload that is not JSON at once', async () => {
    await publish('durable.spec-c.bad', 'not json {');
    await publish('durable.spec-c.good', JSON.stringify({ id: 'c1' }));
    const calls: string[] = [];
    const consumer = await consumeDurableEvents(nc, {
      durable: 'spec-c',
      // Two filter subjects: nats-server 2.10+ only (filter_subjects); one is enough before.
      subjects: ['durable.spec-c.>'],
      handle: async (subject) => {
        calls.push(subject);
        if (calls.length < 3) throw new Error('database unavailable');
      },
      logger: quiet,
      retryDelayMs: 50,
    });
    try {
      await waitFor('a successful third attempt', async () => calls.length >= 3, 5_000);
      await sleep(500);
      expect(calls).toEqual(['durable.spec-c.good', 'durable.spec-c.good', 'durable.spec-c.good']);
      const letter = await (
        await jetstreamManager(nc)
      ).streams.getMessage(DEAD_LETTER_STREAM, { last_by_subj: deadLetterSubject('spec-c') });
      expect(letter!.string()).toBe('not json {');
      expect(letter!.header.get(DEAD_LETTER_HEADERS.error)).toBe('payload is not JSON');
      const info = await (await jetstreamManager(nc)).consumers.info(EVENT_STREAM, 'spec-c');
      expect(info.num_ack_pending).toBe(0);
      expect(info.num_pending).toBe(0);
    } finally {
      await consumer.stop();
    }
  });

  it('dead-letters an event that fails maxDeliver times, with its error, while the events after it flow', async () => {
    await publish('durable.spec-p.poisoned', JSON.stringify({ id: 'poison' }));
    for (let i = 0; i < 5; i++) await publish('durable.spec-p.fine', JSON.stringify({ id: `fine-${i}` }));
    const attempts: string[] = [];
    const handled: string[] = [];
    const deadLettered: string[] = [];
    const consumer = await consumeDurableEvents(nc, {
      durable: 'spec-p',
      subjects: ['durable.spec-p.>'],
      handle: async (_subject, payload) => {
        const { id } = payload as { id: string };
        attempts.push(id);
        if (id === 'poison') throw new Error('handler bug: cannot read property of undefined');
        handled.push(id);
      },
      onDeadLetter: (subject) => deadLettered.push(subject),
      logger: quiet,
      retryDelayMs: 50,
      maxRetryDelayMs: 200,
      maxDeliver: 3,
    });
    try {
      // The later events do not wait for the poisoned one's retries.
      await waitFor('the events after the poisoned one', async () => handled.length === 5, 5_000);
      await waitFor('the dead letter', async () => deadLettered.length === 1, 5_000);
      await sleep(500);
      expect(attempts.filter((id) => id === 'poison')).toHaveLength(3);
      expect(deadLettered).toEqual(['durable.spec-p.poisoned']);
      const info = await (await jetstreamManager(nc)).consumers.info(EVENT_STREAM, 'spec-p');
      expect(info.num_ack_pending).toBe(0);
      expect(info.num_pending).toBe(0);
      const letter = await (
        await jetstreamManager(nc)
      ).streams.getMessage(DEAD_LETTER_STREAM, { last_by_subj: deadLetterSubject('spec-p') });
      expect(letter!.json()).toEqual({ id: 'poison' });
      expect(letter!.header.get(DEAD_LETTER_HEADERS.subject)).toBe('durable.spec-p.poisoned');
      expect(letter!.header.get(DEAD_LETTER_HEADERS.durable)).toBe('spec-p');
      expect(letter!.header.get(DEAD_LETTER_HEADERS.deliveries)).toBe('3');
      expect(letter!.header.get(DEAD_LETTER_HEADERS.error)).toBe('Error: handler bug: cannot read property of undefined');
    } finally {
      await consumer.stop();
    }

    // The handler is fixed: the replay command puts the event back, with its original event id, and removes the letter.
    const jsm = await jetstreamManager(nc);
    const letters = await listDeadLetters(jsm, 'spec-p');
    expect(letters.map((l) => [l.subject, l.deliveries])).toEqual([['durable.spec-p.poisoned', 3]]);
    const originalId = letters[0].eventId;
    const replayed: Array<[unknown, string]> = [];
    const fixed = await consumeDurableEvents(nc, {
      durable: 'spec-p',
      subjects: ['durable.spec-p.>'],
      handle: async (_subject, payload, meta) => void replayed.push([payload, meta.eventId]),
      logger: quiet,
    });
    try {
      await replayDeadLetter(nc, jsm, letters[0]);
      await waitFor('the replayed event', async () => replayed.length === 1, 5_000);
      expect(replayed).toEqual([[{ id: 'poison' }, originalId]]);
      expect(await listDeadLetters(jsm, 'spec-p')).toEqual([]);
    } finally {
      await fixed.stop();
    }
  });

  it('carries the request id and trace context of the producing request from the outbox row to the handler', async () => {
    await requestContext.run({ requestId: 'req-outbox-1' }, () =>
      replicaA.transaction((manager) => enqueueEvent(manager, 'durable.spec-r.traced', { id: 'r1' })),
    );
    const row: Array<{ request_id: string }> = await replicaA.query(
      `SELECT request_id FROM outbox_events WHERE subject = 'durable.spec-r.traced'`,
    );
    expect(row).toEqual([{ request_id: 'req-outbox-1' }]);
    const relay = new OutboxRelay(replicaA, nc, quiet, fast);
    relay.start();
    const seen: Array<string | undefined> = [];
    const consumer = await consumeDurableEvents(nc, {
      durable: 'spec-r',
      subjects: ['durable.spec-r.>'],
      handle: async () => void seen.push(requestContext.getStore()?.requestId),
      logger: quiet,
    });
    try {
      await waitFor('the traced event', async () => seen.length === 1, 10_000);
      expect(seen).toEqual(['req-outbox-1']);
    } finally {
      await consumer.stop();
      await relay.stop();
    }
  });

  it('shares one durable consumer between replicas: each event is handled once in total', async () => {
    const handled: number[] = [];
    const replicas: DurableConsumer[] = [];
    for (let i = 0; i < 2; i++) {
      replicas.push(
        await consumeDurableEvents(nc, {
          durable: 'spec-d',
          subjects: ['durable.spec-d.>'],
          handle: async (_subject, payload) => {
            await sleep(5);
            handled.push((payload as { n: number }).n);
          },
          logger: quiet,
        }),
      );
    }
    try {
      for (let n = 0; n < 40; n++) await publish('durable.spec-d.happened', JSON.stringify({ n }));
      await waitFor('every event', async () => handled.length >= 40, 10_000);
      await sleep(300);
      expect(handled).toHaveLength(40);
      expect(new Set(handled).size).toBe(40);
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  });

  it('handles up to `concurrency` events at once, acknowledges each once, passes the Nats-Msg-Id, and finishes them on stop', async () => {
    let running = 0;
    let peak = 0;
    const handled: Array<{ n: number; eventId: string }> = [];
    const consumer = await consumeDurableEvents(nc, {
      durable: 'spec-g',
      subjects: ['durable.spec-g.>'],
      handle: async (_subject, payload, meta) => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(30);
        handled.push({ n: (payload as { n: number }).n, eventId: meta.eventId });
        running -= 1;
      },
      logger: quiet,
      concurrency: 4,
    });
    try {
      const js = jetstream(nc);
      for (let n = 0; n < 20; n++) await js.publish('durable.spec-g.happened', JSON.stringify({ n }), { msgID: `spec-g-${n}` });
      await waitFor('every event', async () => handled.length >= 20, 10_000);
      await sleep(300);
      expect(handled.map((h) => h.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n));
      expect(handled.every((h) => h.eventId === `spec-g-${h.n}`)).toBe(true);
      expect(peak).toBe(4);
      const info = await (await jetstreamManager(nc)).consumers.info(EVENT_STREAM, 'spec-g');
      expect(info.num_ack_pending).toBe(0);
      expect(info.num_pending).toBe(0);
    } finally {
      await consumer.stop();
    }
    expect(running).toBe(0);
  });

  it('re-creates its durable consumer when it was deleted', async () => {
    const received: string[] = [];
    const consumer = await consumeDurableEvents(nc, {
      durable: 'spec-f',
      subjects: ['durable.spec-f.>'],
      handle: async (subject) => void received.push(subject),
      logger: quiet,
    });
    try {
      await publish('durable.spec-f.before', '{}');
      await waitFor('the first event', async () => received.length === 1, 5_000);
      await (await jetstreamManager(nc)).consumers.delete(EVENT_STREAM, 'spec-f');
      await publish('durable.spec-f.after', '{}');
      await waitFor('the event after the deletion', async () => received.includes('durable.spec-f.after'), 10_000);
      // Re-created with "deliver all": the first event comes again, which idempotent handlers allow.
      expect(received.filter((subject) => subject === 'durable.spec-f.after')).toHaveLength(1);
    } finally {
      await consumer.stop();
    }
  });

  it('survives losing its LISTEN connection: the connection is released once, and the relay listens and publishes again', async () => {
    const relay = new OutboxRelay(replicaA, nc, quiet, { ...fast, pollIntervalMs: 200 });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => void uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    const listeners = async () =>
      (await replicaB.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`)) as Array<{
        pid: number;
      }>;
    relay.start();
    try {
      await waitFor('the relay to listen', async () => (await listeners()).length === 1, 5_000);
      const [{ pid }] = await listeners();
      await replicaB.query('SELECT pg_terminate_backend($1)', [pid]);
      await enqueueEvent(replicaB.manager, 'durable.spec-g.after-loss', { n: 1 });
      await waitFor('the row to be published by polling', async () => (await pending()) === 0, 5_000);
      await waitFor('a new LISTEN connection', async () => (await listeners()).some((row) => row.pid !== pid), 5_000);
    } finally {
      await relay.stop();
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(await inStream('durable.spec-g.after-loss')).toBe(1);
  });

  it('keeps rows pending while NATS is down and publishes them once it is back; a running consumer resumes too', async () => {
    const relayConnection = await connectNats(natsUrl, 'events-spec-relay-e');
    const relay = new OutboxRelay(replicaA, relayConnection, quiet, { ...fast, pollIntervalMs: 200 });
    relay.start();
    const received: number[] = [];
    const consumer = await consumeDurableEvents(nc, {
      durable: 'spec-e',
      subjects: ['durable.spec-e.>'],
      handle: async (_subject, payload) => void received.push((payload as { n: number }).n),
      logger: quiet,
    });
    try {
      await stopProcess(natsProcess);
      await replicaA.transaction(async (manager) => {
        for (let i = 0; i < 3; i++) await enqueueEvent(manager, 'durable.spec-e.happened', { n: i });
      });
      await sleep(1_500);
      expect(await pending()).toBe(3);
      const [{ attempts }]: Array<{ attempts: number }> = await replicaA.query(
        `SELECT max(attempts) AS attempts FROM outbox_events WHERE published_at IS NULL`,
      );
      expect(attempts).toBeGreaterThan(0);
      await startNats();
      await waitFor('the outbox to drain after the outage', async () => (await pending()) === 0, 15_000);
      await waitFor('the consumer to catch up', async () => received.length >= 3, 10_000);
      await sleep(300);
      expect(received.sort()).toEqual([0, 1, 2]);
    } finally {
      await consumer.stop();
      await relay.stop();
      await relayConnection.close();
    }
    await waitFor('the test connection to reconnect', async () => !nc.isClosed() && (await inStream('durable.spec-e.>')) >= 0, 10_000);
    expect(await inStream('durable.spec-e.>')).toBe(3);
  });
});
