import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  callControl,
  startFakeTelegram,
  type FakeServer,
  type FakeTelegramChat,
  type FakeTelegramMember,
  type FakeTelegramMessage,
} from '@social/testing';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { DeliveryError, type OutgoingPost, type ProviderAccount } from '../social-provider.js';
import { TelegramProvider } from './telegram.provider.js';

const BOT = { token: '4242:AAE-secret-bot-token', id: 4242, username: 'publishing_bot', first_name: 'Publishing' };
const CHANNEL: FakeTelegramChat = {
  id: -1001234567890,
  type: 'channel',
  title: 'Release notes',
  username: 'release_notes',
  member_count: 1200,
};
const GROUP: FakeTelegramChat = { id: -4001234567, type: 'group', title: 'Team room' };

let fake: FakeServer;
let provider: TelegramProvider;
const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
const messages = async () => (await control('GET', '/messages')) as FakeTelegramMessage[];
const post = (parts: OutgoingPost['parts']): OutgoingPost => ({ marker: crypto.randomUUID(), parts });
const signal = () => AbortSignal.timeout(2_000);
const member = (chat: FakeTelegramChat, extra: Partial<FakeTelegramMember>) =>
  control('POST', '/members', { chat_id: chat.id, user_id: BOT.id, status: 'administrator', can_post_messages: true, ...extra });

async function refusal(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Connected as ProviderAccounts hands it over: the sealed grant with the provider app's bot token. */
async function connected(chat: FakeTelegramChat = CHANNEL): Promise<ProviderAccount> {
  const signedIn = await provider.connect(
    { destination: chat.username ? `@${chat.username}` : String(chat.id), botToken: BOT.token },
    signal(),
  );
  return {
    id: crypto.randomUUID(),
    platform: 'telegram',
    externalId: signedIn.identity.externalId,
    username: signedIn.identity.username,
    instanceUrl: '',
    grant: { ...signedIn.grant, accessToken: BOT.token },
  };
}

beforeAll(async () => {
  fake = await startFakeTelegram();
  provider = new TelegramProvider({ telegram: fake.origin }, 2_000);
});
afterAll(() => fake.stop());
beforeEach(async () => {
  await control('DELETE', '/state');
  await control('POST', '/bots', BOT);
  await control('POST', '/chats', CHANNEL);
  await control('POST', '/chats', GROUP);
});

describe('TelegramProvider.connect', () => {
  it('takes a channel where the bot is an administrator allowed to post: the chat id, @username and title; no token kept', async () => {
    await member(CHANNEL, {});
    const signedIn = await provider.connect({ destination: '@release_notes', botToken: BOT.token }, signal());
    expect(signedIn.identity).toEqual({
      externalId: String(CHANNEL.id),
      username: '@release_notes',
      displayName: 'Release notes',
      avatarUrl: '',
    });
    expect(signedIn.grant).toEqual({ accessToken: '', chatUsername: 'release_notes', chatType: 'channel' });
    expect(JSON.stringify(signedIn)).not.toContain(BOT.token);
  });

  it('takes a group where the bot is a member, named by its id; the title is its name', async () => {
    await member(GROUP, { status: 'member', can_post_messages: undefined });
    const signedIn = await provider.connect({ destination: String(GROUP.id), botToken: BOT.token }, signal());
    expect(signedIn.identity).toMatchObject({ externalId: String(GROUP.id), username: 'Team room', displayName: 'Team room' });
  });

  it.each([
    [
      'an administrator without can_post_messages in a channel',
      CHANNEL,
      { can_post_messages: false },
      /administrator of the channel allowed to post/,
    ],
    ['a plain member of a channel', CHANNEL, { status: 'member' }, /administrator of the channel/],
    ['a bot kicked from a group', GROUP, { status: 'kicked' }, /member of the group allowed to send/],
    ['a restricted bot that may not send', GROUP, { status: 'restricted', can_send_messages: false }, /member of the group/],
  ])('refuses %s', async (_case, chat, extra, reason) => {
    await member(chat, extra as Partial<FakeTelegramMember>);
    const error = await refusal(provider.connect({ destination: String(chat.id), botToken: BOT.token }, signal()));
    expect(error).toMatchObject({ failure: 'refused', message: expect.stringMatching(reason) });
  });

  it('refuses a chat Telegram does not know, and a private chat', async () => {
    expect(await refusal(provider.connect({ destination: '@nobody_here', botToken: BOT.token }, signal()))).toMatchObject({
      failure: 'refused',
      message: expect.stringContaining('no such chat'),
    });
    await control('POST', '/chats', { id: 777, type: 'private', title: '' });
    await control('POST', '/members', { chat_id: 777, user_id: BOT.id, status: 'member' });
    expect(await refusal(provider.connect({ destination: '777', botToken: BOT.token }, signal()))).toMatchObject({
      message: expect.stringContaining('private chat'),
    });
  });

  it("tells a bot token Telegram refuses (401) apart: the provider app's, not the destination's", async () => {
    const error = await refusal(provider.connect({ destination: '@release_notes', botToken: '1:wrong' }, signal()));
    expect(error).toMatchObject({ failure: 'refused', networkCode: 'bot_token_rejected' });
  });
});

describe('TelegramProvider.publish', () => {
  beforeEach(() => member(CHANNEL, {}));

  it('sends plain text (no parse_mode: <, > and & arrive as written) and answers the t.me link of a public channel', async () => {
    const account = await connected();
    const published = await provider.publish(account, post([outgoingPart('1 < 2 & <b>bold</b>', { link: 'https://example.com' })]));
    const [message] = await messages();
    expect(message).toMatchObject({ method: 'sendMessage', text: '1 < 2 & <b>bold</b>\n\nhttps://example.com', parse_mode: null });
    expect(published).toEqual({
      externalId: String(message.message_id),
      externalUrl: `https://t.me/release_notes/${message.message_id}`,
      parts: [{ externalId: String(message.message_id), externalUrl: `https://t.me/release_notes/${message.message_id}` }],
    });
  });

  it('answers no link in a chat without a public username', async () => {
    await member(GROUP, { status: 'member' });
    expect((await provider.publish(await connected(GROUP), post([outgoingPart('Hi team')]))).externalUrl).toBe('');
  });

  it('sends one photo with the text as its caption, one video with its sides and duration', async () => {
    const account = await connected();
    await provider.publish(account, post([outgoingPart('A picture', { media: [outgoingMedia(Buffer.alloc(512, 3), 'image/png')] })]));
    const video = { ...outgoingMedia(Buffer.alloc(4096, 1), 'video/mp4', '', { width: 640, height: 360 }), durationMs: 3_200 };
    await provider.publish(account, post([outgoingPart('A video', { media: [video] })]));
    const [photo, clip] = await messages();
    expect(photo).toMatchObject({
      method: 'sendPhoto',
      text: 'A picture',
      media: [{ type: 'photo', size: 512, content_type: 'image/png' }],
    });
    expect(clip).toMatchObject({
      method: 'sendVideo',
      text: 'A video',
      media: [{ type: 'video', size: 4096, video: { width: '640', height: '360', duration: '3', supports_streaming: 'true' } }],
    });
  });

  it('sends 2–10 media as one album (attach:// parts), the caption on its first item', async () => {
    const account = await connected();
    const media = [
      outgoingMedia(Buffer.alloc(100, 1), 'image/jpeg'),
      outgoingMedia(Buffer.alloc(200, 2), 'image/png'),
      outgoingMedia(Buffer.alloc(300, 3), 'video/mp4'),
    ];
    const published = await provider.publish(account, post([outgoingPart('An album', { media })]));
    const sent = await messages();
    expect(sent.map((message) => [message.method, message.text, message.media[0].type, message.media[0].size])).toEqual([
      ['sendMediaGroup', 'An album', 'photo', 100],
      ['sendMediaGroup', '', 'photo', 200],
      ['sendMediaGroup', '', 'video', 300],
    ]);
    expect(new Set(sent.map((message) => message.media_group_id)).size).toBe(1);
    expect(published.externalId).toBe(String(sent[0].message_id));
  });

  it('sends a text longer than a caption (1,024) as its own message after the media', async () => {
    const account = await connected();
    const text = 'x'.repeat(1_500);
    await provider.publish(account, post([outgoingPart(text, { media: [outgoingMedia(Buffer.alloc(64, 1), 'image/png')] })]));
    const sent = await messages();
    expect(sent.map((message) => [message.method, message.text.length])).toEqual([
      ['sendPhoto', 0],
      ['sendMessage', 1_500],
    ]);
  });

  it('is retryable after a 429 for the retry_after Telegram names in its body (no header)', async () => {
    const account = await connected();
    await control('POST', '/failures', {
      path: '/sendMessage',
      status: 429,
      body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 17', parameters: { retry_after: 17 } },
    });
    const error = await refusal(provider.publish(account, post([outgoingPart('Later')])));
    expect((error as DeliveryError).failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited', retryAfterMs: 17_000 });
  });

  it('rejects as auth a bot removed from the chat (403), as validation a message Telegram refuses (400)', async () => {
    const account = await connected();
    await member(CHANNEL, { status: 'kicked' });
    expect(((await refusal(provider.publish(account, post([outgoingPart('x')])))) as DeliveryError).failure).toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
      httpStatus: 403,
    });
    await member(CHANNEL, {});
    expect(((await refusal(provider.publish(account, post([outgoingPart(' ')])))) as DeliveryError).failure).toMatchObject({
      outcome: 'rejected',
      kind: 'validation',
      httpStatus: 400,
    });
  });

  it('never sends again once part of a post went out: a failed text after its media is ambiguous', async () => {
    const account = await connected();
    await control('POST', '/failures', {
      path: '/sendMessage',
      status: 500,
      body: { ok: false, error_code: 500, description: 'Internal Server Error' },
    });
    const error = await refusal(
      provider.publish(account, post([outgoingPart('y'.repeat(1_100), { media: [outgoingMedia(Buffer.alloc(64, 1), 'image/png')] })])),
    );
    expect((error as DeliveryError).failure).toMatchObject({ outcome: 'ambiguous', code: 'provider_partially_published' });
    expect(await messages()).toHaveLength(1);
  });

  it('keeps the bot token out of every failure message', async () => {
    const account = await connected();
    await control('POST', '/failures', { path: '/sendMessage', drop: true });
    const error = await refusal(provider.publish(account, post([outgoingPart('x')])));
    expect((error as Error).message).not.toContain(BOT.token);
  });
});

describe('TelegramProvider reads', () => {
  beforeEach(() => member(CHANNEL, {}));

  it("counts the chat's members as followers (getChatMemberCount); following and posts are unknown to a bot: 0", async () => {
    expect(await provider.fetchAccountMetrics(await connected())).toEqual({ followers: 1200, following: 0, posts: 0 });
  });

  it('cannot tell whether a lost answer made a message (the Bot API reads no history)', async () => {
    expect(await provider.findPost(await connected(), post([outgoingPart('x')]), new Date())).toBe('unknown');
  });

  it('refuses post metrics as unavailable', async () => {
    await expect(provider.fetchPostMetrics(await connected(), ['1'])).rejects.toMatchObject({ code: 'provider_capability_unavailable' });
  });
});
