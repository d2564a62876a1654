import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { ClaimLoop, type LeasedWork, openServiceDatabase } from '../index.js';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import pino from 'pino';
import type { DataSource } from 'typeorm';

// The spec of libs/platform/src/database/claim-loop.ts (here for the harness, see durable-events.spec.ts).
describe('ClaimLoop', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;
  const loops: ClaimLoop[] = [];
  const logger = pino({ level: 'silent' });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  async function until(check: () => boolean, ms = 5_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await sleep(10);
    }
  }

  function loop(
    pass: () => Promise<number | null>,
    renew?: (entries: Array<[string, LeasedWork]>) => Promise<void>,
    gatherMs?: number,
  ): ClaimLoop {
    const created = new ClaimLoop(dataSource, {
      gatherMs,
      channelOf: (schema) => `${schema}_claim_loop_spec`,
      logger,
      who: 'spec loop',
      claimFailed: 'spec loop could not claim',
      pass,
      renew: renew ? { ms: 600, leases: renew } : undefined,
    });
    loops.push(created);
    return created;
  }

  beforeAll(async () => {
    db = await createTemporaryDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'claim_loop_spec');
    dataSource = await openServiceDatabase({ url: db.url, schema: 'claim_loop_spec', entities: [], migrations: [], poolSize: 4 });
  });

  afterEach(async () => {
    await Promise.all(loops.splice(0).map((l) => l.stop()));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('sleeps what a pass returns, goes on at once after null, and a NOTIFY on its channel cuts the sleep short', async () => {
    const passes: number[] = [];
    const claims = loop(async () => {
      passes.push(Date.now());
      // Two passes go on at once, then a long sleep only a NOTIFY ends.
      return passes.length < 3 ? null : 60_000;
    });
    claims.start();
    await until(() => passes.length === 3);
    await sleep(200);
    expect(passes).toHaveLength(3);
    await dataSource.query(`SELECT pg_notify(current_schema() || '_claim_loop_spec', '')`);
    await until(() => passes.length === 4, 2_000);
  });

  it('after a failing pass the backoff holds: wakes do not cut it short', async () => {
    let passes = 0;
    const claims = loop(async () => {
      passes += 1;
      if (passes === 1) throw new Error('connection refused');
      return 60_000;
    });
    claims.start();
    await until(() => passes === 1);
    const failedAt = Date.now();
    // The first backoff is 500 ms.
    while (Date.now() - failedAt < 350) {
      claims.wake();
      await sleep(20);
    }
    expect(passes).toBe(1);
    await until(() => passes === 2, 1_000);
  });

  it('tracks work in flight by id (never in the claim twice), renews its leases while it runs, and stop waits for it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const renewed: string[][] = [];
    let finished = false;
    const claims = loop(
      async () => {
        if (claims.inFlight.size === 0 && !finished) {
          claims.run('row-1', { lease: 'owner/1' }, async () => {
            await gate;
            finished = true;
          });
        }
        return 50;
      },
      async (entries) => {
        renewed.push(entries.map(([id, entry]) => `${id}:${entry.lease}`));
      },
    );
    claims.start();
    await until(() => renewed.length >= 2, 3_000);
    expect(claims.inFlightIds).toEqual(['row-1']);
    expect(renewed[0]).toEqual(['row-1:owner/1']);
    const stopped = claims.stop();
    await sleep(100);
    expect(finished).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(true);
    expect(claims.inFlight.size).toBe(0);
  });

  it('finished work wakes the loop while more may be due, and not after a claim that came back short', async () => {
    const passes: number[] = [];
    let release!: () => void;
    const claims = loop(async () => {
      passes.push(Date.now());
      if (passes.length <= 2) {
        const gate = new Promise<void>((resolve) => (release = resolve));
        claims.run(`row-${passes.length}`, { lease: 'owner/1' }, () => gate);
      }
      // The second claim "came back short": its finish must not bring a pass.
      claims.moreDue = passes.length < 2;
      return 60_000;
    });
    claims.start();
    await until(() => passes.length === 1);
    release();
    await until(() => passes.length === 2, 2_000);
    release();
    await until(() => claims.inFlight.size === 0, 2_000);
    await sleep(200);
    expect(passes).toHaveLength(2);
    claims.wake();
    await until(() => passes.length === 3, 2_000);
  });

  it('with gatherMs, claims that long after a wake, and wakes meanwhile bring no extra pass', async () => {
    const passes: number[] = [];
    const claims = loop(
      async () => {
        passes.push(Date.now());
        return 60_000;
      },
      undefined,
      300,
    );
    claims.start();
    await until(() => passes.length === 1);
    const wokenAt = Date.now();
    claims.wake();
    await sleep(50);
    claims.wake();
    await until(() => passes.length === 2, 2_000);
    expect(passes[1] - wokenAt).toBeGreaterThanOrEqual(290);
    await sleep(400);
    expect(passes).toHaveLength(2);
  });
});
