import { describe, expect, it } from '@jest/globals';
import type { SaveProviderAppRequest } from '@social/contracts';
import type { SecretBox } from '@social/platform';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { parseProviderApps } from './environment-apps.js';
import { ProviderAppsService } from './provider-apps.service.js';

const STARTED = new Date('2030-01-01T00:00:00.000Z');
const environment = parseProviderApps(
  JSON.stringify([
    { provider: 'x', client_id: 'env-x', client_secret: 'env-secret' },
    { provider: 'mastodon', client_id: 'env-m', instance_url: 'https://Social.Example/', is_active: false },
  ]),
  STARTED,
);

/** A stored app row of the provider_apps table. */
const row = (provider: string, instanceUrl = '', values: Record<string, unknown> = {}) => ({
  id: `0190a000-0000-7000-8000-${provider.padStart(12, '0')}`,
  provider,
  instance_url: instanceUrl,
  name: provider,
  client_id: `db-${provider}`,
  sealed_client_secret: 'sealed',
  sealed_bot_token: null,
  sealed_webhook_secret: null,
  redirect_uri: '',
  connection_mode: 'oauth',
  is_active: true,
  created_at: STARTED,
  updated_at: STARTED,
  ...values,
});

/** The service over these stored rows; a transaction (a write) must not be reached. */
function service(rows: unknown[] = [], secrets = {} as SecretBox) {
  const dataSource = {
    query: async () => rows,
    transaction: async () => {
      throw new Error('no write was expected');
    },
  } as unknown as DataSource;
  return new ProviderAppsService(dataSource, secrets, environment, {} as Logger);
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);
const save = (input: Partial<SaveProviderAppRequest>) => refusalOf(service().save({ client_id: 'c', ...input } as SaveProviderAppRequest));

describe('saving a provider app', () => {
  it('needs an instance for mastodon and refuses one for other providers', async () => {
    expect(await save({ provider: 'mastodon' })).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.instance_url', message: 'is required for mastodon' }] },
    });
    expect(await save({ provider: 'tiktok', instance_url: 'https://social.example' })).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.instance_url', message: 'must not be set for tiktok', value: 'https://social.example' }] },
    });
  });

  it('refuses an instance URL WHATWG cannot read', async () => {
    expect(await save({ provider: 'mastodon', instance_url: 'https://a\uFFFDb.example.com' })).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.instance_url', message: 'must be a valid https URL' }] },
    });
  });

  it('leaves apps configured through the environment alone, whatever the spelling of their instance', async () => {
    expect(await save({ provider: 'x' })).toMatchObject({ status: 409, code: 'managed_by_environment' });
    expect(await save({ provider: 'mastodon', instance_url: 'https://SOCIAL.example/some/path' })).toMatchObject({
      status: 409,
      code: 'managed_by_environment',
    });
  });
});

describe('deleting a provider app', () => {
  it('refuses an environment app and answers a malformed id as missing', async () => {
    const [xApp] = environment.list();
    expect(await refusalOf(service().delete(xApp.id))).toMatchObject({ status: 409, code: 'managed_by_environment' });
    expect(await refusalOf(service().delete('not-an-id'))).toMatchObject({ status: 404 });
  });
});

describe('resolving the app in effect', () => {
  it('prefers the environment app, with its secret in clear', async () => {
    expect(await service([row('x')]).resolve({ provider: 'x', instance_url: '' })).toEqual({
      id: environment.get('x', '')!.app.id,
      provider: 'x',
      instance_url: '',
      client_id: 'env-x',
      client_secret: 'env-secret',
      bot_token: '',
      redirect_uri: '',
      connection_mode: 'oauth',
      source: 'environment',
    });
  });

  it("opens a stored app's bot token (telegram's bot) with its own context, and answers nothing when it cannot", async () => {
    const secrets = { open: (sealed: string, context: string) => `${sealed} opened for ${context}` } as unknown as SecretBox;
    const telegram = row('telegram', '', { sealed_client_secret: null, sealed_bot_token: 'bot', connection_mode: 'bot' });
    expect(await service([telegram], secrets).resolve({ provider: 'telegram', instance_url: '' })).toMatchObject({
      client_secret: '',
      bot_token: 'bot opened for provider_apps:telegram|:bot_token',
      connection_mode: 'bot',
    });
    const broken = {
      open: () => {
        throw new Error('wrong key');
      },
    } as unknown as SecretBox;
    const logger = { error: () => undefined } as unknown as Logger;
    const app = new ProviderAppsService({ query: async () => [telegram] } as unknown as DataSource, broken, environment, logger);
    expect(await app.resolve({ provider: 'telegram', instance_url: '' })).toBeNull();
  });

  it('answers nothing for an inactive environment app, even with an active stored one behind it', async () => {
    const stored = row('mastodon', 'https://social.example');
    expect(await service([stored]).resolve({ provider: 'mastodon', instance_url: 'https://social.example' })).toBeNull();
  });

  it('answers nothing for an inactive stored app, and for an instance URL that cannot be read', async () => {
    expect(await service([row('tiktok', '', { is_active: false })]).resolve({ provider: 'tiktok', instance_url: '' })).toBeNull();
    expect(await service([row('mastodon')]).resolve({ provider: 'mastodon', instance_url: 'https://a\uFFFDb.example' })).toBeNull();
  });
});

describe('listing provider apps', () => {
  it('says which stored apps an environment app shadows, environment first, by provider and instance', async () => {
    const apps = await service([row('x'), row('tiktok'), row('mastodon', 'https://other.example')]).list();
    expect(apps.map((app) => [app.provider, app.instance_url, app.source, app.shadowed_by_environment])).toEqual([
      ['mastodon', 'https://other.example', 'database', false],
      ['mastodon', 'https://social.example', 'environment', false],
      ['tiktok', '', 'database', false],
      ['x', '', 'environment', false],
      ['x', '', 'database', true],
    ]);
  });

  it('shows whether secrets are configured, never the secrets', async () => {
    const [app] = await service([row('tiktok', '', { sealed_bot_token: 'sealed-bot' })])
      .list()
      .then((all) => all.filter((a) => a.provider === 'tiktok'));
    expect(app).toMatchObject({ secret_configured: true, bot_token_configured: true, webhook_secret_configured: false });
    expect(JSON.stringify(app)).not.toContain('sealed');
    expect(environment.get('x', '')!.app).toMatchObject({ editable: false, deletable: false, secret_configured: true });
  });
});
