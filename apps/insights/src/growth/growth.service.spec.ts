import { describe, expect, it } from '@jest/globals';
import type { Principal } from '@social/contracts';
import type { AccessControl } from '@social/platform';
import type { DataSource } from 'typeorm';
import type { AccountDirectory } from '../accounts/account-directory.js';
import { GrowthService } from './growth.service.js';

const principal: Principal = { userId: 'u1', sessionId: 's', isAdmin: false, tokenKind: 'session', workspaceId: null };

/** A recommendation the caller may act on, in `followState`; a transaction (queueing the follow) is recorded. */
function growth(followState: string) {
  const started: unknown[] = [];
  const item = { id: 'g1', workspaceId: 'w1', social_account_id: 'a1', follow_state: followState };
  const access = { requireVisible: async () => item } as unknown as AccessControl;
  const dataSource = {
    transaction: async () => {
      started.push('transaction');
      return { id: 'job-1', created: true };
    },
  } as unknown as DataSource;
  return { service: new GrowthService(dataSource, access, {} as AccountDirectory), started };
}

describe('following a recommendation', () => {
  it.each([
    ['following', 'The account is already followed.'],
    ['requested', 'The account is already requested.'],
  ])('is refused when the account is already %s', async (state, detail) => {
    const { service, started } = growth(state);
    await expect(service.follow(principal, 'g1')).rejects.toMatchObject({ status: 409, code: 'already_following', detail });
    expect(started).toEqual([]);
  });

  it.each(['idle', 'failed', 'pending'])('is queued as a job from %s', async (state) => {
    const { service, started } = growth(state);
    expect(await service.follow(principal, 'g1')).toEqual({ job_id: 'job-1', status: 'queued' });
    expect(started).toEqual(['transaction']);
  });
});
