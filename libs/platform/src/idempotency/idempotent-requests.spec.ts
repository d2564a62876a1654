import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import pg from 'pg';
import { fingerprintOf, IDEMPOTENCY_TABLE_SQL, IdempotentRequests, openServiceDatabase, Problem } from '../index.js';

// The spec of libs/platform/src/idempotency (here for the harness, see durable-events.spec.ts),
// against real PostgreSQL: the guarantees live in its statements.

class CreateTables1764300004000 implements MigrationInterface {
  name = 'CreateTables1764300004000';
  async up(db: QueryRunner) {
    await db.query(IDEMPOTENCY_TABLE_SQL);
    await db.query(`CREATE TABLE things (id uuid PRIMARY KEY, name text NOT NULL)`);
  }
  async down(db: QueryRunner) {
    await db.query('DROP TABLE things');
    await db.query('DROP TABLE idempotency_keys');
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('IdempotentRequests', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;
  let requests: IdempotentRequests;
  const workspaceId = randomUUID();
  const userId = randomUUID();

  beforeAll(async () => {
    db = await createTemporaryDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'idempotency_spec');
    dataSource = await openServiceDatabase({
      url: db.url,
      schema: 'idempotency_spec',
      entities: [],
      migrations: [CreateTables1764300004000],
      poolSize: 12,
    });
    requests = new IdempotentRequests(dataSource, { leaseSeconds: 1 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  beforeEach(async () => {
    await dataSource.query('DELETE FROM things');
    await dataSource.query('DELETE FROM idempotency_keys');
  });

  const scope = (key: string | null, request: unknown = { name: 'a' }) => ({
    key,
    userId,
    workspaceId,
    operation: 'things.create',
    request,
  });
  const createThing = (name: string) => async (manager: EntityManager) => {
    const id = randomUUID();
    await manager.query(`INSERT INTO things (id, name) VALUES ($1, $2)`, [id, name]);
    return { status: 201, body: { id, name } };
  };
  const things = async () => (await dataSource.query(`SELECT count(*)::int AS n FROM things`))[0].n as number;
  const codeOf = async (run: Promise<unknown>) => {
    try {
      await run;
    } catch (error) {
      return (error as Problem).code;
    }
    return 'answered';
  };

  it('runs the work once per key and replays its answer; without a key it simply runs', async () => {
    const first = await requests.run(scope('k1'), createThing('a'));
    expect(first).toEqual({ status: 201, body: { id: expect.any(String), name: 'a' }, replayed: false });
    expect(await requests.run(scope('k1'), createThing('a'))).toEqual({ ...first, replayed: true });
    expect(await things()).toBe(1);
    expect((await requests.run(scope(null), createThing('a'))).replayed).toBe(false);
    expect((await requests.run(scope(null), createThing('a'))).replayed).toBe(false);
    expect(await things()).toBe(3);
  });

  it('a failed run releases its claim and keeps nothing: the same key works at once', async () => {
    const failing = requests.run(scope('k2'), async (manager) => {
      await createThing('a')(manager);
      throw new Error('provider exploded');
    });
    await expect(failing).rejects.toThrow('provider exploded');
    expect(await things()).toBe(0);
    expect(await dataSource.query(`SELECT * FROM idempotency_keys`)).toEqual([]);
    expect((await requests.run(scope('k2'), createThing('a'))).replayed).toBe(false);
    expect(await things()).toBe(1);
  });

  it('a run whose lease ran out and whose key was taken over rolls back: one answer stands', async () => {
    let release!: () => void;
    const slow = requests.run(scope('k3'), async (manager) => {
      const answer = await createThing('slow')(manager);
      await new Promise<void>((resolve) => (release = resolve));
      return answer;
    });
    await sleep(1_200); // past the 1 s lease: the claim looks abandoned
    const takeover = await requests.run(scope('k3'), createThing('takeover'));
    expect(takeover.replayed).toBe(false);
    release();
    expect(await codeOf(slow)).toBe('idempotency_in_flight');
    expect((await dataSource.query(`SELECT name FROM things`)).map((row: { name: string }) => row.name)).toEqual(['takeover']);
    expect(await requests.run(scope('k3'), createThing('again'))).toEqual({ ...takeover, replayed: true });
  });

  const waitUntilGone = async (pid: number) => {
    for (let i = 0; i < 100; i++) {
      const rows = await dataSource.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
      if (rows.length === 0) return;
      await sleep(20);
    }
    throw new Error(`backend ${pid} still running after 2 s`);
  };

  it('takes over a claim whose holder died before its lease ends; a live holder keeps its claim', async () => {
    // A long lease: only the holder's lock can tell a dead holder from a slow one here.
    const patient = new IdempotentRequests(dataSource, { leaseSeconds: 60, holderGraceSeconds: 0.3 });
    const claimAs = async (key: string, token: string) =>
      dataSource.query(
        `INSERT INTO idempotency_keys (user_id, workspace_id, operation, key, fingerprint, state, claim_token, locked_until, expires_at)
         VALUES ($1, $2, 'things.create', $3, $4, 'in_flight', $5, now() + interval '60 seconds', now() + interval '1 day')`,
        [userId, workspaceId, key, fingerprintOf({ name: 'a' }), token],
      );
    // Another process at work on k6: it holds its claim's lock in an open transaction.
    const token = randomUUID();
    await claimAs('k6', token);
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [token]);
    await sleep(400); // past the grace: still alive, so still its claim
    expect(await codeOf(patient.run(scope('k6'), createThing('a')))).toBe('idempotency_in_flight');
    // It dies (kill -9): PostgreSQL ends its session and the lock goes with it; the next retry runs the work once.
    const [{ pid }] = (await holder.query('SELECT pg_backend_pid() AS pid')).rows;
    await holder.end();
    // The client's end does not wait for the server's session to finish: the lock goes when the backend exits.
    await waitUntilGone(pid);
    const retried = await patient.run(scope('k6'), createThing('a'));
    expect(retried.replayed).toBe(false);
    expect(await patient.run(scope('k6'), createThing('a'))).toEqual({ ...retried, replayed: true });
    // A claim left behind when the database restarted (the release failed): free once the grace is over.
    await claimAs('k7', randomUUID());
    expect(await codeOf(patient.run(scope('k7'), createThing('a')))).toBe('idempotency_in_flight');
    await sleep(400);
    expect((await patient.run(scope('k7'), createThing('a'))).replayed).toBe(false);
    // A live holder of this library: others are told it is in flight until it answers, then replay.
    let release!: () => void;
    const slow = patient.run(scope('k8'), async (manager) => {
      const answer = await createThing('a')(manager);
      await new Promise<void>((resolve) => (release = resolve));
      return answer;
    });
    await sleep(400);
    expect(await codeOf(patient.run(scope('k8'), createThing('a')))).toBe('idempotency_in_flight');
    release();
    // Once it has answered (committed), the same request replays its answer.
    const answered = await slow;
    expect(await patient.run(scope('k8'), createThing('a'))).toEqual({ ...answered, replayed: true });
    expect(await things()).toBe(3);
  });

  it('holds under concurrency: of thirty racing requests with one key, one runs; the rest replay or are told it is in flight', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, () =>
        requests.run(scope('k4'), createThing('a')).then(
          (reply) => (reply.replayed ? 'replayed' : 'ran'),
          (error: Problem) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
    expect(outcomes.every((o) => ['ran', 'replayed', 'idempotency_in_flight'].includes(o))).toBe(true);
    expect(await things()).toBe(1);
  });

  it('forgets keys after the retention: an expired key runs again, and each claim prunes at most a few expired keys', async () => {
    const first = await requests.run(scope('k6'), createThing('a'));
    for (let i = 0; i < 25; i++) await requests.run(scope(`old-${i}`), createThing('old'));
    await dataSource.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`);
    // Its own expired row may be among those pruned by its claim: either way it runs afresh.
    const again = await requests.run(scope('k6', { name: 'another body' }), createThing('b'));
    expect(again.replayed).toBe(false);
    expect(again.body).not.toEqual(first.body);
    const expired = async () =>
      (await dataSource.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE expires_at <= now()`))[0].n as number;
    // Bounded: 10 per pass (a claim whose own row was pruned under it takes a second pass).
    const left = await expired();
    expect(left).toBeGreaterThanOrEqual(26 - 2 * 10);
    await requests.run(scope('k7'), createThing('c'));
    expect(await expired()).toBe(Math.max(0, left - 10));
    await requests.run(scope('k8'), createThing('c'));
    await requests.run(scope('k9'), createThing('c'));
    expect(await expired()).toBe(0);
  });

  it('refuses another body (422), a malformed key (422) and keeps keys apart per scope', async () => {
    await requests.run(scope('k5', { name: 'a', n: [1, 2] }), createThing('a'));
    // Member order does not matter; content does.
    expect((await requests.run(scope('k5', { n: [1, 2], name: 'a' }), createThing('a'))).replayed).toBe(true);
    expect(await codeOf(requests.run(scope('k5', { name: 'a', n: [2, 1] }), createThing('a')))).toBe('idempotency_key_reused');
    expect(await codeOf(requests.run(scope(''), createThing('a')))).toBe('validation_failed');
    expect(await codeOf(requests.run(scope('k'.repeat(201)), createThing('a')))).toBe('validation_failed');
    expect((await requests.run({ ...scope('k5'), operation: 'things.other' }, createThing('a'))).replayed).toBe(false);
    expect((await requests.run({ ...scope('k5'), userId: randomUUID() }, createThing('a'))).replayed).toBe(false);
    expect((await requests.run({ ...scope('k5'), workspaceId: randomUUID() }, createThing('a'))).replayed).toBe(false);
    expect(await things()).toBe(4);
  });
});
