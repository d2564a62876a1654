import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { callControl, type FakeInstagram, type FakeInstagramMedia, type FakeInstagramRequest, startFakeInstagram } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { failureOf } from '../graph/graph-profile.conformance.js';
import { ProviderError } from '../provider-error.js';
import { ProviderHttp } from '../provider-http.js';
import type { ConnectedIdentity, ProviderAccount } from '../social-provider.js';
import { InstagramNetwork } from './instagram.network.js';
import { InstagramProvider } from './instagram.provider.js';

/**
 * Instagram through Facebook Login (instance setting `instagram_facebook_login`) over real HTTP against the fake
 * Instagram API, which serves Facebook Login's token trade and /me/accounts too: the identities a grant connects, and
 * publishing with a Page's token at graph.facebook.com.
 */
describe('Instagram with Facebook Login (against the fake Instagram API)', () => {
  let fake: FakeInstagram;
  let http: ProviderHttp;
  const client = { clientId: 'ig-app', clientSecret: 'ig-secret', instanceUrl: '' };
  const scopes = ['instagram_basic', 'instagram_content_publish'];
  const provider = () => new InstagramProvider(new InstagramNetwork(), http, 2_000, { firstWaitMs: 10, maxWaitMs: 40, limitMs: 3_000 });
  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const requests = (): Promise<FakeInstagramRequest[]> => control('GET', '/requests');
  const signal = () => AbortSignal.timeout(5_000);

  /** A person with three Pages: two linked to professional accounts, one (in between) without. */
  async function person() {
    const tag = randomUUID().slice(0, 8);
    const userToken = `fb-short-${tag}`;
    const pages = [
      { name: 'Engines', access_token: `page-a-${tag}`, instagram: { username: `engines.${tag}`, name: 'Engines' } },
      { name: 'No Instagram', access_token: `page-b-${tag}` },
      { name: 'Looms', access_token: `page-c-${tag}`, instagram: { username: `looms.${tag}` } },
    ];
    const user = (await control('POST', '/facebook-users', { id: `person-${tag}`, access_token: userToken, pages })) as {
      pages: Array<{ id: string; access_token: string; instagram?: { id: string; username: string } }>;
    };
    return { userToken, pages: user.pages, tag };
  }

  const accountOf = (identity: ConnectedIdentity): ProviderAccount => ({
    id: randomUUID(),
    platform: 'instagram',
    externalId: identity.externalId,
    username: identity.username,
    instanceUrl: '',
    grant: identity.grant!,
  });

  beforeAll(async () => {
    fake = await startFakeInstagram();
    http = new ProviderHttp({ instagram: fake.origin });
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
  });

  afterAll(async () => {
    await fake?.stop();
  });

  it('connects every linked professional account of the Pages, page after page, each holding its Page token', async () => {
    const { userToken, pages, tag } = await person();
    await control('POST', '/listing', { size: 1 });
    const identities = await provider().fetchIdentities(client, { accessToken: userToken, scopes }, signal(), { extension: true });
    expect(identities).toEqual([
      {
        externalId: pages[0].instagram!.id,
        username: `engines.${tag}`,
        displayName: 'Engines',
        avatarUrl: expect.stringMatching(/^https:\/\//),
        grant: { accessToken: pages[0].access_token, graphHost: 'facebook', scopes },
      },
      {
        externalId: pages[2].instagram!.id,
        username: `looms.${tag}`,
        displayName: `looms.${tag}`,
        avatarUrl: expect.stringMatching(/^https:\/\//),
        grant: { accessToken: pages[2].access_token, graphHost: 'facebook', scopes },
      },
    ]);
    const calls = await requests();
    // The short-lived user token traded first (with the app's secret), then three pages of one Page each.
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/v27.0/oauth/access_token', query: { grant_type: 'fb_exchange_token' } });
    expect(calls[0].query.client_secret).toBeUndefined();
    const listings = calls.filter((call) => call.path === '/v27.0/me/accounts');
    expect(listings).toHaveLength(3);
    expect(listings.every((call) => call.token_of.startsWith('user:'))).toBe(true);
    expect(listings[1].query.after).toBeTruthy();
  });

  it('answers no_account, saying to link one, when no Page has a professional account', async () => {
    const tag = randomUUID().slice(0, 8);
    await control('POST', '/facebook-users', {
      id: `lonely-${tag}`,
      access_token: `fb-lonely-${tag}`,
      pages: [{ name: 'Bare', access_token: `bare-${tag}` }],
    });
    const error = await provider()
      .fetchIdentities(client, { accessToken: `fb-lonely-${tag}` }, signal(), { extension: true })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      failure: 'no_account',
      message: expect.stringContaining('Link the Instagram account to a Facebook Page'),
    });
  });

  it("publishes an image at graph.facebook.com with the Page's token; another Page's token is refused for it", async () => {
    const { userToken, pages } = await person();
    const [first, second] = await provider().fetchIdentities(client, { accessToken: userToken }, signal(), { extension: true });
    const { url } = (await control('POST', '/files', { name: 'square.jpg', content_type: 'image/jpeg', size: 2_048 })) as { url: string };
    const image = outgoingMedia(Buffer.alloc(2_048), 'image/jpeg', 'Alt', { width: 1080, height: 1080 }, url);
    const sent = jest.spyOn(http, 'call');
    await control('DELETE', '/requests');
    const published = await provider().publish(accountOf(first), {
      marker: randomUUID(),
      parts: [outgoingPart('Via Facebook', { media: [image] })],
    });
    const [post] = (await control('GET', '/posts')) as FakeInstagramMedia[];
    expect(post).toMatchObject({ id: published.externalId, account_id: first.externalId, caption: 'Via Facebook' });
    const origins = new Set(sent.mock.calls.map(([, request]) => new URL(request.url).origin));
    expect([...origins]).toEqual(['https://graph.facebook.com']);
    const calls = await requests();
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(
      expect.arrayContaining([
        `GET /v27.0/${first.externalId}/content_publishing_limit`,
        `POST /v27.0/${first.externalId}/media`,
        `POST /v27.0/${first.externalId}/media_publish`,
      ]),
    );
    expect(new Set(calls.map((call) => call.token_of))).toEqual(new Set([`page:${pages[0].id}`]));
    sent.mockRestore();

    // The second Page's token does not act for the first Page's account.
    const crossed = { ...accountOf(first), grant: second.grant! };
    const failure = await failureOf(
      provider().publish(crossed, { marker: randomUUID(), parts: [outgoingPart('Crossed', { media: [image] })] }),
    );
    expect(failure.outcome).toBe('rejected');
  });

  it('a refused Page token is an auth rejection (reconnect), never renewed', async () => {
    const renewGrant = jest.fn(async () => ({ accessToken: 'renewed' }));
    const account: ProviderAccount = {
      id: randomUUID(),
      platform: 'instagram',
      externalId: '17841400000000001',
      username: 'gone',
      instanceUrl: '',
      grant: { accessToken: `revoked-${randomUUID()}`, graphHost: 'facebook' },
      renewGrant,
    };
    const image = outgoingMedia(Buffer.alloc(16), 'image/jpeg', '', { width: 1080, height: 1080 }, 'https://media.invalid/a.jpg');
    const failure = await failureOf(provider().publish(account, { marker: randomUUID(), parts: [outgoingPart('x', { media: [image] })] }));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'auth' });
    expect(renewGrant).not.toHaveBeenCalled();
  });
});
