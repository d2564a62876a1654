import { describe, expect, it, jest } from '@jest/globals';
import type { ConnectSocialAccountRequest, Principal, ResolvedProviderApp } from '@social/contracts';
import { Problem } from '@social/platform';
import type { DataSource } from 'typeorm';
import type { ProviderApps } from '../providers/provider-apps.client.js';
import { ProviderError } from '../providers/provider-error.js';
import { ProviderRegistry } from '../providers/provider-registry.js';
import type { DestinationConnectProvider } from '../providers/social-provider.js';
import { CredentialConnections } from './credential-connections.service.js';
import { SocialAccountsService } from './social-accounts.service.js';

const WORKSPACE = '0190c8e2-0000-7000-8000-000000000001';
const WEBHOOK = `https://discord.com/api/webhooks/1234567890123456789/${'t'.repeat(68)}`;
const principal = { userId: 'user-1' } as Principal;
const registry = new ProviderRegistry({ PROVIDER_API_ORIGINS: {}, PROVIDER_TIMEOUT_MS: 2_000, PROVIDER_ALLOW_PRIVATE_ADDRESSES: 'true' });

async function problemOf(call: Promise<unknown>): Promise<Problem> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Problem);
  return error as Problem;
}

describe('connect: which networks take webhook_url and chat_id', () => {
  const connectDestination = jest.fn(async () => ({ status: 201, body: {}, replayed: false }));
  const service = new SocialAccountsService(
    {} as DataSource,
    { requireWorkspace: async () => ({ workspace_id: WORKSPACE }) } as never,
    registry,
    {} as never,
    {} as never,
    { connectDestination } as unknown as CredentialConnections,
  );
  const connect = (input: Partial<ConnectSocialAccountRequest>) =>
    service.connect(principal, { workspace_id: WORKSPACE, ...input } as ConnectSocialAccountRequest);

  it.each([
    ['webhook_url', 'mastodon', WEBHOOK],
    ['webhook_url', 'telegram', WEBHOOK],
    ['chat_id', 'discord', '@release_notes'],
    ['chat_id', 'bluesky', '-1001234567890'],
  ])('refuses %s on %s (422 at the member, the value never echoed)', async (field, provider, value) => {
    const problem = await problemOf(connect({ provider, [field]: value }));
    expect(problem).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(problem.options.errors).toEqual([{ location: `body.${field}`, message: expect.stringContaining('is only for') }]);
    expect(JSON.stringify(problem)).not.toContain(value);
    expect(connectDestination).not.toHaveBeenCalled();
  });

  it.each([
    ['discord', 'webhook_url'],
    ['telegram', 'chat_id'],
  ])('requires the destination of %s (%s)', async (provider, field) => {
    const problem = await problemOf(connect({ provider }));
    expect(problem.options.errors).toEqual([{ location: `body.${field}`, message: expect.stringContaining('is required') }]);
  });

  it('refuses other members on destination networks as on every non-OAuth network', async () => {
    expect((await problemOf(connect({ provider: 'discord', webhook_url: WEBHOOK, app_password: 'x' }))).options.errors).toEqual([
      expect.objectContaining({ location: 'body.app_password' }),
    ]);
    expect((await problemOf(connect({ provider: 'telegram', chat_id: '@chan_nel', instance_url: 'https://t.me' }))).options.errors).toEqual(
      [expect.objectContaining({ location: 'body.instance_url' })],
    );
  });

  it('hands the destination to the destination connection', async () => {
    await connect({ provider: 'discord', webhook_url: WEBHOOK });
    expect(connectDestination).toHaveBeenCalledWith(principal, WORKSPACE, registry.get('discord'), WEBHOOK);
  });
});

describe('CredentialConnections.connectDestination: what the checks answer', () => {
  const app = (extra: Partial<ResolvedProviderApp>): ResolvedProviderApp => ({
    id: 'app-1',
    provider: 'telegram',
    instance_url: '',
    client_id: 'bot',
    client_secret: '',
    bot_token: '4242:secret',
    redirect_uri: '',
    connection_mode: 'bot',
    source: 'database',
    ...extra,
  });
  const connections = (resolved: ResolvedProviderApp | null) =>
    new CredentialConnections({} as DataSource, {} as never, { resolve: async () => resolved } as unknown as ProviderApps, {
      PROVIDER_TIMEOUT_MS: 2_000,
    });
  const provider = (failure: unknown, usesBotToken = false) => {
    const connect = jest.fn(async () => {
      throw failure;
    });
    return {
      connect,
      adapter: {
        platform: usesBotToken ? 'telegram' : 'discord',
        destinationField: usesBotToken ? 'chat_id' : 'webhook_url',
        usesBotToken,
        connect,
      } as unknown as DestinationConnectProvider,
    };
  };

  it('answers a webhook Discord refuses 422 provider_credentials_rejected at body.webhook_url, without the URL', async () => {
    const { adapter } = provider(new ProviderError('refused', 'was refused by discord: no such webhook, or its token was reset'));
    const problem = await problemOf(connections(null).connectDestination(principal, WORKSPACE, adapter, WEBHOOK));
    expect(problem).toMatchObject({ status: 422, code: 'provider_credentials_rejected' });
    expect(problem.options.errors).toEqual([{ location: 'body.webhook_url', message: expect.stringContaining('refused by discord') }]);
    expect(JSON.stringify({ ...problem, detail: problem.detail })).not.toContain(WEBHOOK);
  });

  it('answers a URL of another shape 422 validation_failed at body.webhook_url', async () => {
    const { adapter } = provider(new ProviderError('refused', "must be a Discord channel's incoming webhook URL", 'destination_malformed'));
    const problem = await problemOf(connections(null).connectDestination(principal, WORKSPACE, adapter, 'https://example.com/hook'));
    expect(problem).toMatchObject({ status: 422, code: 'validation_failed' });
  });

  it('answers a network that is down 502 and a slow one 504', async () => {
    expect(
      await problemOf(
        connections(null).connectDestination(principal, WORKSPACE, provider(new ProviderError('unavailable', 'x')).adapter, WEBHOOK),
      ),
    ).toMatchObject({
      status: 502,
    });
    expect(
      await problemOf(
        connections(null).connectDestination(principal, WORKSPACE, provider(new ProviderError('timeout', 'x')).adapter, WEBHOOK),
      ),
    ).toMatchObject({
      status: 504,
    });
  });

  it.each([
    ['no telegram app', null],
    ['an app set up for OAuth', app({ connection_mode: 'oauth' })],
    ['an app without a bot token', app({ bot_token: '' })],
  ])('answers 422 provider_not_configured at body.provider for %s, asking Telegram nothing', async (_case, resolved) => {
    const { adapter, connect } = provider(new Error('not called'), true);
    const problem = await problemOf(connections(resolved).connectDestination(principal, WORKSPACE, adapter, '@chan_nel'));
    expect(problem).toMatchObject({ status: 422, code: 'provider_not_configured' });
    expect(problem.options.errors).toEqual([expect.objectContaining({ location: 'body.provider' })]);
    expect(connect).not.toHaveBeenCalled();
  });

  it("checks the chat as the app's bot; a bot token Telegram refuses is the app's problem, a chat it refuses the caller's", async () => {
    const refusedToken = provider(
      new ProviderError('refused', "telegram refused the telegram app's bot token", 'bot_token_rejected'),
      true,
    );
    expect(await problemOf(connections(app({})).connectDestination(principal, WORKSPACE, refusedToken.adapter, '@chan_nel'))).toMatchObject(
      {
        code: 'provider_not_configured',
      },
    );
    expect(refusedToken.connect).toHaveBeenCalledWith({ destination: '@chan_nel', botToken: '4242:secret' }, expect.any(AbortSignal));
    const refusedChat = provider(new ProviderError('refused', 'was refused: the bot must be an administrator'), true);
    const problem = await problemOf(connections(app({})).connectDestination(principal, WORKSPACE, refusedChat.adapter, '@chan_nel'));
    expect(problem).toMatchObject({ code: 'provider_credentials_rejected' });
    expect(problem.options.errors).toEqual([{ location: 'body.chat_id', message: 'was refused: the bot must be an administrator' }]);
    expect(JSON.stringify(problem.options)).not.toContain('4242:secret');
  });
});
