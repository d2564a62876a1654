import { randomUUID } from 'node:crypto';
import { callControl, startFakeTelegram, type FakeTelegramMessage } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { TelegramProvider } from './telegram.provider.js';

const CHANNEL_ID = -1001234567890;
const BOT = { token: `4242:${randomUUID().replace(/-/g, '')}`, id: 4242, username: 'publishing_bot', first_name: 'Publishing' };

/** The Bot API's documented answers (README.md beside this file: `{ok: false, error_code, description, parameters}`). */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    // Telegram names the wait in the body only.
    rate_limited: {
      status: 429,
      body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } },
    },
    server_error: { status: 500, body: { ok: false, error_code: 500, description: 'Internal Server Error' } },
    auth: { status: 403, body: { ok: false, error_code: 403, description: 'Forbidden: bot was kicked from the channel chat' } },
    validation: { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' } },
    answer_lost: { drop_after_handling: true },
  })[failure];

/** Telegram's Bot API against the fake (libs/testing): a channel where the bot is an administrator allowed to post. */
export const conformance: ProviderConformanceCase = {
  platform: 'telegram',
  supports: { textOnly: true, images: true, videos: true, threads: false, reconcile: 'unknown', accountMetrics: true, postMetrics: false },
  async start() {
    const fake = await startFakeTelegram();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new TelegramProvider({ telegram: fake.origin }, 2_000);
    return {
      provider,
      async connect() {
        await control('POST', '/bots', BOT);
        await control('POST', '/chats', {
          id: CHANNEL_ID,
          type: 'channel',
          title: 'Release notes',
          username: 'release_notes',
          member_count: 1200,
        });
        await control('POST', '/members', { chat_id: CHANNEL_ID, user_id: BOT.id, status: 'administrator', can_post_messages: true });
        const connected = await provider.connect({ destination: '@release_notes', botToken: BOT.token }, AbortSignal.timeout(2_000));
        // What ProviderAccounts hands the adapter: the sealed grant with the provider app's bot token.
        return connectedAccount('telegram', connected.identity, { ...connected.grant, accessToken: BOT.token }, connected.instanceUrl);
      },
      async posts() {
        const messages = (await control('GET', '/messages')) as FakeTelegramMessage[];
        return messages.map((message) => ({
          externalId: String(message.message_id),
          text: message.text,
          media: message.media.length,
          replyTo: null,
        }));
      },
      async fail(failure) {
        // The failure cases publish text: sendMessage.
        await control('POST', '/failures', { path: '/sendMessage', method: 'POST', ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
