import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { callControl, googleError, startFakeYouTube, type FakeYouTube } from '@social/testing';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderHttp } from '../provider-http.js';
import type { ProviderAccount } from '../social-provider.js';
import { YouTubeNetwork } from './youtube.network.js';
import { YouTubeProvider } from './youtube.provider.js';

let fake: FakeYouTube;
let provider: YouTubeProvider;
const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);

async function channelAccount(channel: Record<string, unknown>): Promise<ProviderAccount> {
  const accessToken = `tok-${randomUUID()}`;
  const { channels } = (await control('POST', '/accounts', { access_token: accessToken, channels: [channel] })) as { channels: string[] };
  return { id: randomUUID(), platform: 'youtube', externalId: channels[0], username: 'ada', instanceUrl: '', grant: { accessToken } };
}

beforeAll(async () => {
  fake = await startFakeYouTube();
  provider = new YouTubeProvider(new YouTubeNetwork(), new ProviderHttp({ youtube: fake.origin }), 2_000);
});

afterAll(async () => {
  await fake?.stop();
});

describe('YouTube metrics', () => {
  it("reads the channel's subscribers and videos (subscribers 0 when the channel hides them)", async () => {
    const open = await channelAccount({ title: 'Open', subscribers: 1234 });
    const media = { ...outgoingMedia(randomBytes(2048), 'video/mp4', '', { width: 640, height: 360 }), durationMs: 4_000 };
    await provider.publish(open, { marker: randomUUID(), parts: [outgoingPart('One video', { media: [media] })] });
    expect(await provider.fetchAccountMetrics(open)).toEqual({ followers: 1234, following: 0, posts: 1 });
    const hidden = await channelAccount({ title: 'Hidden', subscribers: 99, hidden_subscribers: true });
    expect(await provider.fetchAccountMetrics(hidden)).toEqual({ followers: 0, following: 0, posts: 0 });
  });

  it("reads each video's views, likes and comments (no reposts), 50 ids a call, leaving out videos YouTube no longer has", async () => {
    const account = await channelAccount({ title: 'Stats' });
    const ids: string[] = [];
    for (let index = 0; index < 51; index++) {
      const media = { ...outgoingMedia(randomBytes(512), 'video/mp4', '', { width: 640, height: 360 }), durationMs: 1_000 };
      const published = await provider.publish(account, {
        marker: randomUUID(),
        parts: [outgoingPart(`Video ${index}`, { media: [media] })],
      });
      ids.push(published.externalId);
    }
    await control('POST', `/videos/${ids[50]}/statistics`, { viewCount: 900, likeCount: 40, commentCount: 7 });
    const metrics = await provider.fetchPostMetrics(account, [...ids, 'gone0000000']);
    expect(metrics).toHaveLength(51);
    expect(metrics.find((metric) => metric.externalId === ids[50])).toEqual({
      externalId: ids[50],
      views: 900,
      likes: 40,
      comments: 7,
      reposts: 0,
    });
  });

  it('answers a spent quota as a rate limit with the wait until the reset', async () => {
    const account = await channelAccount({ title: 'Quota' });
    await control('POST', '/failures', {
      path: '/youtube/v3/channels',
      status: 403,
      body: googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'),
    });
    const error = await provider.fetchAccountMetrics(account).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ networkCode: 'quotaExceeded', call: { status: 429 } });
    expect((error as { call: { retryAfterMs: number } }).call.retryAfterMs).toBeGreaterThan(0);
  });
});
