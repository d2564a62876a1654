import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { v7 as uuidv7 } from 'uuid';
import { Problem } from '@social/platform';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { DeliveryError, type OutgoingPost, type ProviderAccount } from '../social-provider.js';
import type { ConformanceFailure, ConformanceNetwork, ProviderConformanceCase } from './provider-conformance.js';

/**
 * One spec over every network adapter (provider-conformance.ts): each folder's `<network>.conformance.ts`
 * is found on disk, so a new network is held to the same cases without a line here.
 */
const providersDir = dirname(dirname(fileURLToPath(import.meta.url)));
const networks = readdirSync(providersDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(providersDir, entry.name, `${entry.name}.conformance.ts`)))
  .map((entry) => entry.name)
  .sort();
const cases: ProviderConformanceCase[] = [];
for (const network of networks) {
  const module = (await import(`../${network}/${network}.conformance.js`)) as { conformance: ProviderConformanceCase };
  cases.push(module.conformance);
}

const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 90 } } })
  .png()
  .toBuffer();
/** The fakes never decode a video: an MP4's first box is enough to be taken for one. */
const mp4 = Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(64 * 1024, 7)]);

/** Markers are rendition ids (UUIDv7): networks keyed by them (Bluesky's record keys) read their time. */
const post = (parts: OutgoingPost['parts']): OutgoingPost => ({ marker: uuidv7(), parts });
let sequence = 0;
/** A text no other case sends (some networks refuse the same text twice). */
const words = (label: string) => `Conformance ${label} ${++sequence} of the delivery engine`;

async function failureOf(call: Promise<unknown>): Promise<DeliveryError['failure']> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return (error as DeliveryError).failure;
}

describe('provider conformance: every network adapter against its fake', () => {
  it('finds a case for every network with an adapter of its own', () => {
    expect(cases.map((c) => c.platform)).toEqual(networks);
    expect(cases.length).toBeGreaterThan(0);
  });

  describe.each(cases.map((c) => [c.platform, c] as const))('%s', (_platform, conformance) => {
    let network: ConformanceNetwork;
    let account: ProviderAccount;

    beforeAll(async () => {
      network = await conformance.start();
      const connected = await network.connect();
      account = connected.account;
      expect(connected.identity.externalId).not.toBe('');
      expect(connected.identity.username).not.toBe('');
    });

    afterAll(async () => {
      await network?.stop();
    });

    /** The plainest post the network takes: the text alone, or with one image (else one video) on a media-first network. */
    const plainPart = (text: string) => {
      if (conformance.supports.textOnly) return outgoingPart(text);
      const media = conformance.supports.images
        ? outgoingMedia(png, 'image/png', 'A red square', { width: 64, height: 48 })
        : { ...outgoingMedia(mp4, 'video/mp4', '', { width: 360, height: 640 }), durationMs: 3_000 };
      return outgoingPart(text, { media: [media] });
    };

    it('publishes a text post once, answering its id (or refuses a text alone on a media-first network)', async () => {
      const before = (await network.posts()).length;
      if (!conformance.supports.textOnly) {
        const failure = await failureOf(network.provider.publish(account, post([outgoingPart(words('text alone'))])));
        expect(failure).toMatchObject({ outcome: 'rejected' });
        expect(failure.outcome === 'rejected' && ['validation', 'capability'].includes(failure.kind)).toBe(true);
        expect(await network.posts()).toHaveLength(before);
        return;
      }
      const text = words('text');
      const published = await network.provider.publish(account, post([outgoingPart(text)]));
      const posts = await network.posts();
      expect(posts).toHaveLength(before + 1);
      expect(posts.at(-1)).toMatchObject({ externalId: published.externalId, media: 0, replyTo: null });
      expect(posts.at(-1)!.text).toContain(text);
      expect(published.parts).toEqual([{ externalId: published.externalId, externalUrl: published.externalUrl }]);
    });

    it('publishes an image with its alt text where the network takes images', async () => {
      if (!conformance.supports.images) return;
      const published = await network.provider.publish(
        account,
        post([outgoingPart(words('image'), { media: [outgoingMedia(png, 'image/png', 'A red square', { width: 64, height: 48 })] })]),
      );
      expect((await network.posts()).at(-1)).toMatchObject({ externalId: published.externalId, media: 1 });
    });

    it('publishes a video where the network takes videos (uploads that are processed asynchronously are waited for)', async () => {
      if (!conformance.supports.videos) return;
      const video = { ...outgoingMedia(mp4, 'video/mp4', '', { width: 640, height: 360 }), durationMs: 3_000 };
      const published = await network.provider.publish(account, post([outgoingPart(words('video'), { media: [video] })]));
      expect((await network.posts()).at(-1)).toMatchObject({ externalId: published.externalId, media: 1 });
    });

    it('publishes a thread as replies in order where the network has threads', async () => {
      if (!conformance.supports.threads) return;
      const texts = [words('thread part 1'), words('thread part 2'), words('thread part 3')];
      const published = await network.provider.publish(account, post(texts.map((text) => outgoingPart(text))));
      expect(published.parts).toHaveLength(3);
      const posts = (await network.posts()).slice(-3);
      expect(posts.map((p) => p.externalId)).toEqual(published.parts.map((p) => p.externalId));
      expect(posts.map((p) => p.replyTo)).toEqual([null, posts[0].externalId, posts[1].externalId]);
      posts.forEach((p, index) => expect(p.text).toContain(texts[index]));
    });

    const expectedFailures: Array<[ConformanceFailure, Record<string, unknown>]> = [
      ['rate_limited', { outcome: 'retryable', code: 'provider_rate_limited', httpStatus: 429 }],
      ['server_error', { outcome: 'retryable', code: 'provider_error' }],
      ['auth', { outcome: 'rejected', kind: 'auth' }],
      ['validation', { outcome: 'rejected', kind: 'validation' }],
    ];
    it.each(expectedFailures)(
      'maps the network\'s documented "%s" answer to its delivery outcome, creating nothing',
      async (kind, expected) => {
        const before = (await network.posts()).length;
        await network.fail(kind);
        const failure = await failureOf(network.provider.publish(account, post([plainPart(words(kind))])));
        expect(failure).toMatchObject(expected);
        if (kind === 'rate_limited') expect(failure.outcome === 'retryable' && failure.retryAfterMs).toBeGreaterThan(0);
        expect(failure.message).not.toMatch(/token|Bearer/i);
        expect(await network.posts()).toHaveLength(before);
      },
    );

    it('leaves a lost answer ambiguous, then reconciles it without posting twice (or says it cannot tell)', async () => {
      const before = (await network.posts()).length;
      const since = new Date();
      const lost = post([plainPart(words('lost answer'))]);
      await network.fail('answer_lost');
      expect((await failureOf(network.provider.publish(account, lost))).outcome).toBe('ambiguous');
      const posts = await network.posts();
      expect(posts).toHaveLength(before + 1);
      const found = await network.provider.findPost(account, lost, since);
      if (conformance.supports.reconcile !== 'unknown') {
        expect(found).toMatchObject({ externalId: posts.at(-1)!.externalId });
      } else {
        expect(found).toBe('unknown');
      }
      expect(await network.posts()).toHaveLength(before + 1);
    });

    it('answers that nothing was made when the network shows no such post (sending again is safe)', async () => {
      if (conformance.supports.reconcile === 'unknown') return;
      const found = await network.provider.findPost(account, post([plainPart(words('never sent'))]), new Date(Date.now() - 60_000));
      expect(found).toBe(conformance.supports.reconcile === 'finds' ? null : 'unknown');
    });

    it('reads account and post metrics, or refuses them as unavailable', async () => {
      const accountMetrics = network.provider.fetchAccountMetrics(account);
      if (conformance.supports.accountMetrics) {
        const metrics = await accountMetrics;
        for (const value of [metrics.followers, metrics.following, metrics.posts]) expect(Number.isInteger(value) && value >= 0).toBe(true);
      } else {
        await expect(accountMetrics).rejects.toMatchObject({ code: 'provider_capability_unavailable' });
        await accountMetrics.catch((error: unknown) => expect(error).toBeInstanceOf(Problem));
      }
      const [latest] = (await network.posts()).slice(-1);
      const postMetrics = network.provider.fetchPostMetrics(account, [latest.externalId]);
      if (conformance.supports.postMetrics) {
        const [metrics] = await postMetrics;
        expect(metrics.externalId).toBe(latest.externalId);
        for (const value of [metrics.views, metrics.likes, metrics.comments, metrics.reposts])
          expect(Number.isInteger(value) && value >= 0).toBe(true);
      } else {
        await expect(postMetrics).rejects.toMatchObject({ code: 'provider_capability_unavailable' });
      }
    });
  });
});
