import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { MEASUREMENT_OFFSETS_MS, measurementJobs } from '../renditions/rendition-store.js';
import { backoffAt } from './job-runner.js';
import { dedupeKey, enqueueJob, type JobSpec, syncChannel } from './sync-jobs.js';

const HOUR = 3_600_000;
const NOW = new Date('2030-06-01T12:00:00.000Z');

afterEach(() => {
  jest.useRealTimers();
});

const atNow = () => jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });

/**
 * A transaction over sync_jobs: the insert succeeds unless a job with that dedupe key is queued
 * (`queued`), as the partial unique index decides.
 */
function jobsTable(queued: Record<string, string> = {}) {
  const inserted: unknown[][] = [];
  let notified = 0;
  const db = {
    query: async (sql: string, params: unknown[] = []) => {
      if (sql.includes('pg_notify')) notified += 1;
      else if (sql.trimStart().startsWith('INSERT')) {
        if (queued[params[3] as string]) return [];
        inserted.push(params);
        return [{ id: params[0] }];
      } else return queued[params[0] as string] ? [{ id: queued[params[0] as string] }] : [];
      return [];
    },
  } as unknown as EntityManager;
  return { db, inserted, notified: () => notified };
}

describe('sync job deduplication', () => {
  const account = { workspaceId: 'w1', accountId: 'a1' };

  it('keeps one queued refresh and one metrics job per account', () => {
    expect(dedupeKey({ kind: 'growth_refresh', ...account })).toBe('growth_refresh:a1');
    expect(dedupeKey({ kind: 'account_metrics', ...account })).toBe('account_metrics:a1');
    expect(dedupeKey({ kind: 'account_metrics', ...account, runAt: NOW })).toBe('account_metrics:a1');
  });

  it('keeps one measurement per rendition and due time, and one follow per recommendation', () => {
    expect(dedupeKey({ kind: 'rendition_metrics', ...account, renditionId: 'r1', runAt: NOW })).toBe(
      'rendition_metrics:r1:2030-06-01T12:00:00.000Z',
    );
    expect(dedupeKey({ kind: 'follow', ...account, growthItemId: 'g1' })).toBe('follow:g1');
  });

  it('queues a new job and wakes the workers', async () => {
    const { db, inserted, notified } = jobsTable();
    const job = await enqueueJob(db, { kind: 'growth_refresh', ...account, runAt: NOW });
    expect(job.created).toBe(true);
    expect(inserted).toEqual([[job.id, 'w1', 'growth_refresh', 'growth_refresh:a1', 'a1', null, null, NOW]]);
    expect(notified()).toBe(1);
  });

  it('answers the job already queued instead of queueing another', async () => {
    const { db, inserted, notified } = jobsTable({ 'growth_refresh:a1': 'queued-job' });
    expect(await enqueueJob(db, { kind: 'growth_refresh', ...account })).toEqual({ id: 'queued-job', created: false });
    expect(inserted).toEqual([]);
    expect(notified()).toBe(0);
  });

  it('names the workers’ channel after the schema', () => {
    expect(syncChannel('insights')).toBe('insights_sync_jobs');
  });
});

describe('measurement schedule of a published rendition', () => {
  const rendition = (publishedAt: Date) => ({
    rendition_id: 'r1',
    workspace_id: 'w1',
    social_account_id: 'a1',
    published_at: publishedAt.toISOString(),
  });
  const dueTimes = (jobs: JobSpec[]) => jobs.map((job) => job.runAt!.toISOString());

  it('measures at once, then after an hour, a day and a week', async () => {
    atNow();
    const jobs = measurementJobs(rendition(NOW), true);
    expect(MEASUREMENT_OFFSETS_MS).toEqual([0, HOUR, 24 * HOUR, 7 * 24 * HOUR]);
    expect(dueTimes(jobs)).toEqual([
      '2030-06-01T12:00:00.000Z',
      '2030-06-01T13:00:00.000Z',
      '2030-06-02T12:00:00.000Z',
      '2030-06-08T12:00:00.000Z',
    ]);
    expect(jobs.map(dedupeKey)).toEqual(dueTimes(jobs).map((at) => `rendition_metrics:r1:${at}`));
  });

  it('folds the measurements long past of a backfilled rendition into the immediate one', async () => {
    atNow();
    expect(dueTimes(measurementJobs(rendition(new Date(NOW.getTime() - 2 * 24 * HOUR)), true))).toEqual([
      '2030-05-30T12:00:00.000Z',
      '2030-06-06T12:00:00.000Z',
    ]);
  });

  it('leaves the immediate measurement to a caller that measures itself', async () => {
    atNow();
    expect(dueTimes(measurementJobs(rendition(NOW), false))).toEqual([
      '2030-06-01T13:00:00.000Z',
      '2030-06-02T12:00:00.000Z',
      '2030-06-08T12:00:00.000Z',
    ]);
  });
});

describe('retry backoff', () => {
  it('starts at 2 s and doubles per attempt', () => {
    atNow();
    const delay = (attempts: number) => backoffAt(attempts).getTime() - NOW.getTime();
    expect([0, 1, 2, 3].map(delay)).toEqual([2_000, 4_000, 8_000, 16_000]);
  });

  it('never waits more than ten minutes', () => {
    atNow();
    expect(backoffAt(9).getTime() - NOW.getTime()).toBe(600_000);
    expect(backoffAt(50).getTime() - NOW.getTime()).toBe(600_000);
  });
});
