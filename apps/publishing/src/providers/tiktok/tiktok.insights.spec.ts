import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { callControl, type FakeTikTok, type FakeTikTokPost, startFakeTikTok } from '@social/testing';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderError } from '../provider-error.js';
import { ProviderHttp } from '../provider-http.js';
import type { ProviderAccount } from '../social-provider.js';
import { TikTokNetwork } from './tiktok.network.js';
import { TikTokProvider } from './tiktok.provider.js';

let fake: FakeTikTok;
let provider: TikTokProvider;
const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);

async function connect(extra: Record<string, unknown> = {}): Promise<ProviderAccount> {
  const accessToken = `act.${randomUUID()}`;
  const created = await control('POST', '/accounts', { access_token: accessToken, username: 'ada', ...extra });
  return { id: randomUUID(), platform: 'tiktok', externalId: created.open_id, username: 'ada', instanceUrl: '', grant: { accessToken } };
}

beforeAll(async () => {
  fake = await startFakeTikTok();
  provider = new TikTokProvider(new TikTokNetwork(), new ProviderHttp({ tiktok: fake.origin }), 5_000, {
    firstWaitMs: 5,
    maxWaitMs: 20,
    limitMs: 3_000,
  });
});
afterAll(() => fake.stop());

describe('TikTok metrics against the fake TikTok', () => {
  it("reads the creator's followers, following and videos from /v2/user/info/", async () => {
    const account = await connect({ follower_count: 1_234, following_count: 56 });
    expect(await provider.fetchAccountMetrics(account)).toEqual({ followers: 1_234, following: 56, posts: 0 });
  });

  it('reads each video of /v2/video/query/ (shares as reposts), leaving out ids TikTok does not list', async () => {
    const account = await connect();
    const image = outgoingMedia(randomBytes(32), 'image/jpeg', '', { width: 10, height: 10 });
    await provider.publish(account, { marker: randomUUID(), parts: [outgoingPart('Counted', { media: [image] })] });
    const [made] = ((await control('GET', '/posts')) as FakeTikTokPost[]).filter((post) => post.open_id === account.externalId);
    await control('POST', `/posts/${made.id}/counts`, { view_count: 900, like_count: 80, comment_count: 7, share_count: 3 });
    expect(await provider.fetchPostMetrics(account, [made.id, 'v_pub_file~v2-1.123'])).toEqual([
      { externalId: made.id, views: 900, likes: 80, comments: 7, reposts: 3 },
    ]);
  });

  it('fails a read the grant has no scope for as a refusal (connect again to grant user.info.stats)', async () => {
    const account = await connect({ scopes: ['user.info.basic', 'video.publish'] });
    await expect(provider.fetchAccountMetrics(account)).rejects.toMatchObject({ networkCode: 'scope_not_authorized' });
    await expect(provider.fetchAccountMetrics(account)).rejects.toBeInstanceOf(ProviderError);
  });
});
