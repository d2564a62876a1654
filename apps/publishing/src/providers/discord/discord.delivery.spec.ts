import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callControl, startFakeDiscord, type FakeDiscordMessage, type FakeDiscordWebhook, type FakeServer } from '@social/testing';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderError } from '../provider-error.js';
import { DeliveryError, type OutgoingPost, type ProviderAccount } from '../social-provider.js';
import { DiscordProvider, parseWebhookUrl } from './discord.provider.js';

let fake: FakeServer;
let provider: DiscordProvider;
const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
const messages = async () => (await control('GET', '/messages')) as FakeDiscordMessage[];
const post = (parts: OutgoingPost['parts']): OutgoingPost => ({ marker: crypto.randomUUID(), parts });
const signal = () => AbortSignal.timeout(2_000);

async function connected(webhook: Partial<FakeDiscordWebhook> = {}): Promise<{ account: ProviderAccount; webhook: FakeDiscordWebhook }> {
  const created = (await control('POST', '/webhooks', { name: 'Release notes', ...webhook })) as FakeDiscordWebhook;
  const signedIn = await provider.connect({ destination: created.url }, signal());
  return {
    webhook: created,
    account: {
      id: crypto.randomUUID(),
      platform: 'discord',
      externalId: signedIn.identity.externalId,
      username: signedIn.identity.username,
      instanceUrl: signedIn.instanceUrl,
      grant: signedIn.grant,
    },
  };
}

async function refusal(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  fake = await startFakeDiscord();
  provider = new DiscordProvider({ discord: fake.origin }, 2_000);
});
afterAll(() => fake.stop());
beforeEach(() => control('DELETE', '/state'));

describe('Discord webhook URLs', () => {
  it('takes the documented shape (and the legacy host, a versioned path), nothing else', () => {
    const token = 'a'.repeat(68);
    expect(parseWebhookUrl(`https://discord.com/api/webhooks/1234567890123456789/${token}`)).toEqual({ id: '1234567890123456789', token });
    expect(parseWebhookUrl(`https://discordapp.com/api/v10/webhooks/1234567890123456789/${token}`)).toBeDefined();
    for (const url of [
      `http://discord.com/api/webhooks/1234567890123456789/${token}`,
      `https://discord.example/api/webhooks/1234567890123456789/${token}`,
      `https://discord.com.evil.example/api/webhooks/1234567890123456789/${token}`,
      `https://discord.com/api/webhooks/1234567890123456789`,
      `https://discord.com/api/webhooks/not-a-snowflake/${token}`,
    ])
      expect(parseWebhookUrl(url)).toBeUndefined();
  });
});

describe('DiscordProvider.connect', () => {
  it('reads the webhook with its token: its id, name and avatar; the URL sealed as the grant, the channel beside it', async () => {
    const created = (await control('POST', '/webhooks', {
      name: 'Release notes',
      avatar: 'abc123',
      guild_id: '111',
      channel_id: '222',
    })) as FakeDiscordWebhook;
    const signedIn = await provider.connect({ destination: created.url }, signal());
    expect(signedIn.identity).toEqual({
      externalId: created.id,
      username: 'Release notes',
      displayName: 'Release notes',
      avatarUrl: `https://cdn.discordapp.com/avatars/${created.id}/abc123.png`,
    });
    expect(signedIn.grant).toEqual({
      accessToken: `https://discord.com/api/v10/webhooks/${created.id}/${created.token}`,
      guildId: '111',
      channelId: '222',
    });
    expect(signedIn.instanceUrl).toBe('');
  });

  it('refuses a URL that is not a Discord webhook before asking anyone', async () => {
    const error = await refusal(provider.connect({ destination: 'https://hooks.example/webhooks/1/abc' }, signal()));
    expect(error).toMatchObject({ failure: 'refused', networkCode: 'destination_malformed' });
  });

  it.each([
    ['an unknown webhook (404, 10015)', (webhook: FakeDiscordWebhook) => webhook.url.replace(webhook.id, '1999999999999999999')],
    ['a reset token (401, 50027)', (webhook: FakeDiscordWebhook) => webhook.url.replace(webhook.token, 'b'.repeat(68))],
  ])('answers %s as refused, without the URL in its message', async (_case, urlOf) => {
    const webhook = (await control('POST', '/webhooks', {})) as FakeDiscordWebhook;
    const error = await refusal(provider.connect({ destination: urlOf(webhook) }, signal()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ failure: 'refused' });
    expect((error as Error).message).not.toContain(webhook.id);
  });
});

describe('DiscordProvider.publish', () => {
  it('executes the webhook with wait=true as JSON: the text, no pings; the message link in its server', async () => {
    const { account, webhook } = await connected({ guild_id: '111', channel_id: '222' });
    const published = await provider.publish(
      account,
      post([outgoingPart('Ship it @everyone <@123>', { title: 'v2', link: 'https://example.com/v2' })]),
    );
    const [message] = await messages();
    expect(message).toMatchObject({
      webhook_id: webhook.id,
      sent_as: 'json',
      content: 'v2\n\nShip it @everyone <@123>\n\nhttps://example.com/v2',
      allowed_mentions: { parse: [] },
      attachments: [],
    });
    expect(published).toEqual({
      externalId: message.id,
      externalUrl: `https://discord.com/channels/111/222/${message.id}`,
      parts: [{ externalId: message.id, externalUrl: `https://discord.com/channels/111/222/${message.id}` }],
    });
  });

  it('answers no link for a webhook outside a server (no guild_id)', async () => {
    const { account } = await connected({ guild_id: null });
    expect((await provider.publish(account, post([outgoingPart('Hello')]))).externalUrl).toBe('');
  });

  it('sends media as multipart: payload_json with attachments carrying the alt text, then files[n] in order', async () => {
    const { account } = await connected();
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    await provider.publish(
      account,
      post([
        outgoingPart('Two pictures', {
          media: [outgoingMedia(png, 'image/png', 'A red square'), outgoingMedia(Buffer.alloc(2048, 1), 'image/jpeg')],
        }),
      ]),
    );
    const [message] = await messages();
    expect(message.sent_as).toBe('multipart');
    expect(message.content).toBe('Two pictures');
    expect(message.attachments.map((file) => [file.filename, file.content_type, file.size, file.description])).toEqual([
      ['upload.png', 'image/png', png.length, 'A red square'],
      ['upload.jpg', 'image/jpeg', 2048, ''],
    ]);
  });

  it("is retryable after Discord's 429 for as long as Retry-After says", async () => {
    const { account, webhook } = await connected();
    await control('POST', '/failures', {
      path: `/api/webhooks/${webhook.id}/${webhook.token}`,
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: 6.5, global: false },
      headers: { 'retry-after': '7', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '6.5' },
    });
    const error = await refusal(provider.publish(account, post([outgoingPart('Later')])));
    expect((error as DeliveryError).failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited', retryAfterMs: 7_000 });
  });

  it('asks to reconnect once the webhook is deleted (404 Unknown Webhook), never to change the post', async () => {
    const { account, webhook } = await connected();
    await control('DELETE', `/webhooks/${webhook.id}`);
    const error = await refusal(provider.publish(account, post([outgoingPart('Gone')])));
    expect((error as DeliveryError).failure).toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_auth_rejected',
      httpStatus: 404,
    });
  });

  it('rejects what Discord refuses as content: 50035 Invalid Form Body, 40005 too large', async () => {
    const { account, webhook } = await connected();
    const path = `/api/webhooks/${webhook.id}/${webhook.token}`;
    await control('POST', '/failures', { path, status: 400, body: { code: 50035, message: 'Invalid Form Body' } });
    expect(((await refusal(provider.publish(account, post([outgoingPart('x')])))) as DeliveryError).failure).toMatchObject({
      outcome: 'rejected',
      kind: 'validation',
    });
    await control('POST', '/failures', { path, status: 413, body: { code: 40005, message: 'Request entity too large' } });
    const media = [outgoingMedia(Buffer.alloc(16), 'image/png')];
    expect(((await refusal(provider.publish(account, post([outgoingPart('x', { media })])))) as DeliveryError).failure).toMatchObject({
      outcome: 'rejected',
      kind: 'validation',
      code: 'media_too_large',
    });
    expect(await messages()).toHaveLength(0);
  });

  it('leaves a lost answer to manual resolution: findPost cannot tell', async () => {
    const { account, webhook } = await connected();
    await control('POST', '/failures', { path: `/api/webhooks/${webhook.id}/${webhook.token}`, drop_after_handling: true });
    const lost = post([outgoingPart('Lost')]);
    expect(((await refusal(provider.publish(account, lost))) as DeliveryError).failure.outcome).toBe('ambiguous');
    expect(await provider.findPost(account, lost, new Date())).toBe('unknown');
    expect(await messages()).toHaveLength(1);
  });
});
