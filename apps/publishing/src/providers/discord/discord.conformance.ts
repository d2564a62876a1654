import { callControl, startFakeDiscord, type FakeDiscordMessage, type FakeDiscordWebhook } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { DiscordProvider } from './discord.provider.js';

/** Discord's documented answers (README.md beside this file: rate limits, JSON error codes), scripted at the fake. */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: {
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: 2.5, global: false },
      headers: {
        'retry-after': '3',
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': '2.5',
        'x-ratelimit-scope': 'shared',
      },
    },
    server_error: { status: 502, body: { message: '502: Bad Gateway', code: 0 } },
    auth: { status: 404, body: { message: 'Unknown Webhook', code: 10015 } },
    validation: {
      status: 400,
      body: {
        message: 'Invalid Form Body',
        code: 50035,
        errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
      },
    },
    answer_lost: { drop_after_handling: true },
  })[failure];

/** Discord's channel webhooks against the fake Discord API (libs/testing). */
export const conformance: ProviderConformanceCase = {
  platform: 'discord',
  supports: { textOnly: true, images: true, videos: true, threads: false, reconcile: 'unknown', accountMetrics: false, postMetrics: false },
  async start() {
    const fake = await startFakeDiscord();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new DiscordProvider({ discord: fake.origin }, 2_000);
    let webhook: FakeDiscordWebhook;
    return {
      provider,
      async connect() {
        webhook = (await control('POST', '/webhooks', { name: 'Release notes' })) as FakeDiscordWebhook;
        const connected = await provider.connect({ destination: webhook.url }, AbortSignal.timeout(2_000));
        return connectedAccount('discord', connected.identity, connected.grant, connected.instanceUrl);
      },
      async posts() {
        const messages = (await control('GET', '/messages')) as FakeDiscordMessage[];
        return messages.map((message) => ({
          externalId: message.id,
          text: message.content,
          media: message.attachments.length,
          replyTo: null,
        }));
      },
      async fail(failure) {
        await control('POST', '/failures', {
          path: `/api/webhooks/${webhook.id}/${webhook.token}`,
          method: 'POST',
          ...failureAnswer(failure),
        });
      },
      stop: () => fake.stop(),
    };
  },
};
