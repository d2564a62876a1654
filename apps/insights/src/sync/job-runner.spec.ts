import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ProviderCallResult } from '@social/contracts';
import { Problem } from '@social/platform';
import { fakeTransactionManager } from '@social/testing';
import type { DataSource } from 'typeorm';
import { JobRunner } from './job-runner.js';
import type { ClaimedJobRow } from './sync-job.row.js';
import type { ProviderClient } from './provider-client.js';

const NOW = new Date('2030-06-01T12:00:00.000Z');
type Failure = Exclude<ProviderCallResult<never>, { status: 'ok' }>;

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
});

afterEach(() => {
  jest.useRealTimers();
});

const job = (kind: ClaimedJobRow['kind'], attempts = 0): ClaimedJobRow => ({
  id: 'job-1',
  kind,
  workspace_id: 'w1',
  account_id: 'a1',
  rendition_id: null,
  rendition_external_id: null,
  growth_item_id: kind === 'follow' ? 'g1' : null,
  lease: 'replica-1/lease',
  attempts,
});

/**
 * A runner whose network answers `answer` (or throws it). `leaseHeld` false: another replica took the
 * job over. Records the parameters of each write made while the lease is held.
 */
function runner(answer: ProviderCallResult<unknown> | Error, leaseHeld = true) {
  const writes: unknown[][] = [];
  const respond = async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const provider = { recommendations: respond, follow: respond } as unknown as ProviderClient;
  const dataSource = {
    manager: { query: async () => [] },
    query: async () => [{ remote_account_id: 'remote-1' }],
    transaction: async (work: (db: unknown) => Promise<unknown>) => {
      let first = true;
      return work(
        fakeTransactionManager(async (_sql: string, params: unknown[]) => {
          if (first) {
            first = false;
            return leaseHeld ? [{ '?column?': 1 }] : [];
          }
          writes.push(params);
          return [];
        }),
      );
    },
  } as unknown as DataSource;
  return { jobs: new JobRunner(dataSource, provider), writes };
}

const failure = (status: Failure['status'], values: Record<string, unknown> = {}) =>
  ({ status, code: `${status}_code`, message: `${status} message`, ...values }) as Failure;

describe('a growth refresh the network refuses', () => {
  it("retries a rate limit at the network's reset time", async () => {
    const { jobs, writes } = runner(failure('rate_limited', { retry_at: '2030-06-01T12:15:00.000Z' }));
    expect(await jobs.run(job('growth_refresh'))).toEqual({ outcome: 'rate_limited', retryAt: new Date('2030-06-01T12:15:00.000Z') });
    expect(writes).toEqual([['a1', 'rate_limited', 'rate_limited_code', 'rate_limited message']]);
  });

  it('backs off when the reset time is past or unreadable', async () => {
    const past = runner(failure('temporarily_unavailable', { retry_at: '2030-06-01T11:00:00.000Z' }));
    expect(await past.jobs.run(job('growth_refresh', 3))).toEqual({
      outcome: 'temporarily_unavailable',
      retryAt: new Date(NOW.getTime() + 16_000),
    });
    const unreadable = runner(failure('rate_limited', { retry_at: 'soon' }));
    expect((await unreadable.jobs.run(job('growth_refresh', 0))).retryAt).toEqual(new Date(NOW.getTime() + 2_000));
  });

  it('does not retry an answer that will not change, and records it as failed', async () => {
    for (const status of ['unsupported', 'not_found'] as const) {
      const { jobs, writes } = runner(failure(status));
      expect(await jobs.run(job('growth_refresh'))).toEqual({ outcome: status, retryAt: undefined });
      expect(writes[0][1]).toBe('failed');
    }
    const { jobs, writes } = runner(failure('permission_required', { missing_scopes: ['read'] }));
    expect((await jobs.run(job('growth_refresh'))).retryAt).toBeUndefined();
    expect(writes[0][1]).toBe('permission_required');
  });

  it('writes nothing once another replica holds the job', async () => {
    const { jobs, writes } = runner(failure('rate_limited', { retry_at: '2030-06-01T12:15:00.000Z' }), false);
    expect((await jobs.run(job('growth_refresh'))).outcome).toBe('rate_limited');
    expect(writes).toEqual([]);
  });

  it('marks the account gone when publishing no longer knows it', async () => {
    const { jobs, writes } = runner(new Problem(404, 'not_found', 'No such account in this workspace.'));
    expect(await jobs.run(job('growth_refresh'))).toEqual({ outcome: 'not_found' });
    expect(writes).toEqual([['a1', 'The account is no longer connected to the workspace.']]);
  });

  it('passes other errors on (the claim loop retries the job)', async () => {
    const { jobs } = runner(new Error('NATS is down'));
    await expect(jobs.run(job('growth_refresh'))).rejects.toThrow('NATS is down');
  });
});

describe('a follow', () => {
  it('records the state the network answers', async () => {
    const { jobs, writes } = runner({ status: 'ok', data: { follow_state: 'requested' } });
    expect(await jobs.run(job('follow'))).toEqual({ outcome: 'ok' });
    expect(writes).toEqual([['g1', 'requested']]);
  });

  it('stays pending through a rate limit, until the retry', async () => {
    const { jobs, writes } = runner(failure('rate_limited', { retry_at: '2030-06-01T13:00:00.000Z' }));
    expect((await jobs.run(job('follow'))).retryAt).toEqual(new Date('2030-06-01T13:00:00.000Z'));
    expect(writes).toEqual([['g1', 'pending', 'rate_limited_code', 'rate_limited message']]);
  });

  it('ends failed on any other refusal', async () => {
    const { jobs, writes } = runner(failure('failed'));
    expect(await jobs.run(job('follow'))).toEqual({ outcome: 'failed', retryAt: undefined });
    expect(writes).toEqual([['g1', 'failed', 'failed_code', 'failed message']]);
  });
});
