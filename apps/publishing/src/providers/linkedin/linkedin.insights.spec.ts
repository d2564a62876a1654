import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callControl, FakeLinkedIn, startFakeLinkedIn } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { Problem } from '@social/platform';
import { ProviderHttp, type FetchFunction } from '../provider-http.js';
import type { ProviderAccount } from '../social-provider.js';
import { LinkedInNetwork } from './linkedin.network.js';
import { LinkedInProvider } from './linkedin.provider.js';

/**
 * What LinkedIn's API gives a member's grant beyond posting: nothing we may read honestly (member post statistics
 * and follower counts are for approved partners; there is no follow API). Each is refused as unavailable, and
 * nothing is sent to LinkedIn for it.
 */
describe('LinkedIn insights for members (refused as unavailable)', () => {
  let fake: FakeLinkedIn;
  let provider: LinkedInProvider;
  let account: ProviderAccount;
  let calls = 0;

  beforeAll(async () => {
    fake = await startFakeLinkedIn();
    const token = `tok-${randomUUID()}`;
    await callControl(fake.controlUrl, 'POST', '/accounts', { access_token: token, person_id: 'm3mber' });
    const counting: FetchFunction = async (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    provider = new LinkedInProvider(new LinkedInNetwork(), new ProviderHttp({ linkedin: fake.origin }, undefined, counting), 2_000);
    account = {
      id: randomUUID(),
      platform: 'linkedin',
      externalId: 'm3mber',
      username: 'M',
      instanceUrl: '',
      grant: { accessToken: token },
    };
  });

  afterAll(async () => {
    await fake?.stop();
  });

  const operations: Array<[string, () => Promise<unknown>, string]> = [
    ['account metrics', () => provider.fetchAccountMetrics(account), 'Account metrics'],
    ['post metrics', () => provider.fetchPostMetrics(account, ['urn:li:share:1']), 'Post metrics'],
    ['follow recommendations', () => provider.fetchFollowRecommendations(account, 10), 'Follow recommendations'],
    ['following', () => provider.follow(account, 'urn:li:person:other'), 'Following accounts'],
  ];
  it.each(operations)('%s: 409 provider_capability_unavailable, without a call', async (_name, operation, capability) => {
    const before = calls;
    const error = await operation().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Problem);
    expect(error).toMatchObject({
      status: 409,
      code: 'provider_capability_unavailable',
      options: { extensions: { platform: 'linkedin', capability } },
    });
    expect(calls).toBe(before);
  });
});
