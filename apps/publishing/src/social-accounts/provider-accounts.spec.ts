import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ACCOUNT_NEEDS_ATTENTION_SUBJECT } from '@social/contracts';
import { openServiceDatabase, SecretBox } from '@social/platform';
import {
  createTemporaryDatabase,
  FakeBluesky,
  FakeSocialNetwork,
  startFakeBluesky,
  startFakeSocialNetwork,
  TemporaryDatabase,
} from '@social/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { publishingMigrations } from '../migrations/index.js';
import type { ProviderApps } from '../providers/provider-apps.client.js';
import { ProviderRegistry } from '../providers/provider-registry.js';
import { DeliveryError, type ProviderGrant } from '../providers/social-provider.js';
import { ProviderAccounts } from './provider-accounts.js';
import { SocialAccountEntity } from './social-account.entity.js';

/**
 * Grant renewal inside ProviderAccounts.find, against real PostgreSQL (the
 * row lock, the outbox) and the fake networks over real HTTP: an OAuth
 * network's refresh_token grant (the fake rotates refresh tokens) and
 * Bluesky's refreshSession.
 */
describe('ProviderAccounts: grants renewed before they expire', () => {
  const CLIENT_ID = 'x-client';
  const REDIRECT_URI = 'https://app.example/social-accounts/callback/x';
  let db: TemporaryDatabase;
  let dataSource: DataSource;
  let network: FakeSocialNetwork;
  let pds: FakeBluesky;
  let secrets: SecretBox;
  let accounts: ProviderAccounts;
  let registry: ProviderRegistry;
  const app = {
    provider: 'x',
    client_id: CLIENT_ID,
    client_secret: 'x-secret',
    instance_url: '',
    connection_mode: 'oauth',
    redirect_uri: '',
  };
  let appInEffect: (typeof app & { bot_token?: string }) | null = app;

  const networkControl = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${network.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json() as Promise<any>;
  };
  const pdsControl = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${pds.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json() as Promise<any>;
  };
  const refreshRequests = async () =>
    (await networkControl('GET', '/requests')).filter((request: any) => request.form.grant_type === 'refresh_token');

  /** An X account whose grant the fake network issued (code traded), expiring in `expiresInMs`. */
  async function xAccount(expiresInMs: number): Promise<{ id: string; grant: ProviderGrant }> {
    const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
    const { code } = await networkControl('POST', '/grants', {
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      ...tokens,
      profile: { data: { id: '1' } },
    });
    await fetch(`${network.origin}/2/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI }),
    });
    const grant = {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
    };
    return { id: await insertAccount('x', `x-${randomUUID()}`, '', grant), grant };
  }

  async function insertAccount(platform: string, externalId: string, instanceUrl: string, grant: ProviderGrant): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    await dataSource.getRepository(SocialAccountEntity).insert({
      id,
      workspaceId: randomUUID(),
      platform,
      externalId,
      username: externalId,
      displayName: '',
      avatarUrl: '',
      instanceUrl,
      status: 'active',
      credentials: secrets.seal(JSON.stringify(grant), `social_accounts:${id}`),
      connectedBy: randomUUID(),
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }

  const stored = async (id: string) => {
    const row = await dataSource.getRepository(SocialAccountEntity).findOneByOrFail({ id });
    return { status: row.status, grant: JSON.parse(secrets.open(row.credentials, `social_accounts:${id}`)) as ProviderGrant };
  };
  const failureOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    return (error as DeliveryError).failure;
  };

  beforeAll(async () => {
    db = await createTemporaryDatabase(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      'provider_accounts_spec',
    );
    dataSource = await openServiceDatabase({
      url: db.url,
      schema: 'publishing',
      entities: [SocialAccountEntity],
      migrations: publishingMigrations,
      poolSize: 6,
    });
    network = await startFakeSocialNetwork();
    pds = await startFakeBluesky();
    secrets = SecretBox.fromBase64Key(randomBytes(32).toString('base64'));
    registry = new ProviderRegistry({
      PROVIDER_API_ORIGINS: { x: network.origin, bluesky: pds.origin },
      PROVIDER_TIMEOUT_MS: 1_000,
      PROVIDER_ALLOW_PRIVATE_ADDRESSES: 'false',
    });
    const apps = { resolve: async () => appInEffect } as unknown as ProviderApps;
    accounts = new ProviderAccounts(dataSource, secrets, registry, apps, { PROVIDER_TIMEOUT_MS: 1_000 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
    await network?.stop();
    await pds?.stop();
  });

  beforeEach(async () => {
    appInEffect = app;
    await networkControl('DELETE', '/requests');
    await networkControl('DELETE', '/failures');
    await pdsControl('DELETE', '/failures');
  });

  it('hands out a grant that does not expire soon as it is', async () => {
    const { id, grant } = await xAccount(60 * 60_000);
    await expect(accounts.find(id)).resolves.toMatchObject({ id, platform: 'x', grant });
    expect(await refreshRequests()).toEqual([]);
  });

  it('refreshes a grant expiring within 5 minutes, stores the rotated tokens, and authenticates as the provider app', async () => {
    const { id, grant } = await xAccount(60_000);
    const account = await accounts.find(id);
    expect(account!.grant).toMatchObject({ accessToken: `${grant.accessToken}~1`, refreshToken: `${grant.refreshToken}~1` });
    expect(Date.parse(account!.grant!.expiresAt!)).toBeGreaterThan(Date.now() + 3_600_000);
    await expect(stored(id)).resolves.toEqual({ status: 'active', grant: account!.grant });
    const [request] = await refreshRequests();
    expect(request.form).toEqual({ grant_type: 'refresh_token', refresh_token: grant.refreshToken });
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:x-secret`).toString('base64')}`);
  });

  it('refreshes once when replicas race: the second waits for the lock and gets the new grant', async () => {
    const { id } = await xAccount(60_000);
    const [first, second, third] = await Promise.all([accounts.find(id), accounts.find(id), accounts.find(id)]);
    expect(await refreshRequests()).toHaveLength(1);
    expect(second!.grant).toEqual(first!.grant);
    expect(third!.grant).toEqual(first!.grant);
  });

  it('holds no transaction (no connection, no row lock) while the network renews', async () => {
    const { id } = await xAccount(60_000);
    await networkControl('POST', '/failures', { path: '/2/oauth2/token', delay_ms: 600 });
    const renewing = Promise.all([accounts.find(id), accounts.find(id)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Mid-call: the row can be locked at once, and no connection sits idle in a transaction.
    await dataSource.transaction(async (manager) => {
      await expect(manager.query(`SELECT id FROM social_accounts WHERE id = $1 FOR UPDATE NOWAIT`, [id])).resolves.toHaveLength(1);
    });
    const idle = await dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`,
    );
    expect(idle[0].n).toBe(0);
    const [first, second] = await renewing;
    expect(await refreshRequests()).toHaveLength(1);
    expect(second!.grant).toEqual(first!.grant);
  });

  it('marks the account reconnect_required and writes the needs-attention event when the network refuses the refresh', async () => {
    const { id } = await xAccount(60_000);
    await networkControl('POST', '/failures', { path: '/2/oauth2/token', status: 400, body: { error: 'invalid_grant' } });
    await expect(failureOf(accounts.find(id))).resolves.toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_auth_rejected',
    });
    expect((await stored(id)).status).toBe('reconnect_required');
    const [event] = await dataSource.query(
      `SELECT subject, payload FROM outbox_events WHERE subject = $1 AND payload->>'social_account_id' = $2`,
      [ACCOUNT_NEEDS_ATTENTION_SUBJECT, id],
    );
    expect(event.payload).toEqual({
      workspace_id: expect.any(String),
      social_account_id: id,
      platform: 'x',
      reason: 'grant_refresh_refused',
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    // It stays refused without asking the network again.
    await expect(failureOf(accounts.find(id))).resolves.toMatchObject({ outcome: 'rejected', kind: 'auth' });
    expect(await refreshRequests()).toHaveLength(1);
  });

  it('refuses an account that needs reconnecting even when its grant does not expire soon', async () => {
    const { id } = await xAccount(3_600_000);
    await dataSource.query(`UPDATE social_accounts SET status = 'reconnect_required' WHERE id = $1`, [id]);
    await expect(failureOf(accounts.find(id))).resolves.toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_auth_rejected',
    });
    expect(await refreshRequests()).toHaveLength(0);
  });

  it('leaves everything as it was when the network cannot be reached (retryable)', async () => {
    const { id, grant } = await xAccount(60_000);
    await networkControl('POST', '/failures', { path: '/2/oauth2/token', drop: true });
    await expect(failureOf(accounts.find(id))).resolves.toMatchObject({ outcome: 'retryable' });
    await expect(stored(id)).resolves.toEqual({ status: 'active', grant });
    const outbox = await dataSource.query(`SELECT 1 FROM outbox_events WHERE payload->>'social_account_id' = $1`, [id]);
    expect(outbox).toEqual([]);
  });

  it('refuses without changing the account when no provider app is in effect', async () => {
    const { id } = await xAccount(60_000);
    appInEffect = null;
    await expect(failureOf(accounts.find(id))).resolves.toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_not_configured',
    });
    expect((await stored(id)).status).toBe('active');
  });

  it('renews a Bluesky session near expiry, and again when the PDS says the token expired', async () => {
    const password = `app-${randomUUID()}`;
    const { did } = await pdsControl('POST', '/accounts', { handle: `u${randomBytes(4).toString('hex')}.bsky.social`, password });
    await pdsControl('POST', '/tokens', { access_ttl_seconds: 120 });
    const bluesky = registry.get('bluesky');
    if (bluesky?.connectMode !== 'credentials') throw new Error('bluesky connects with credentials');
    const signedIn = await bluesky.signIn({ instanceUrl: 'https://bsky.social', identifier: did, password }, AbortSignal.timeout(1_000));
    await pdsControl('POST', '/tokens', { access_ttl_seconds: 7200 });
    const id = await insertAccount('bluesky', did, signedIn.instanceUrl, signedIn.grant);
    const before = await pdsControl('GET', '/sessions');
    const account = await accounts.find(id);
    expect(account!.grant!.accessToken).not.toBe(signedIn.grant.accessToken);
    expect(await pdsControl('GET', '/sessions')).toEqual({ ...before, refreshed: before.refreshed + 1 });
    await expect(stored(id)).resolves.toMatchObject({ grant: account!.grant });
    // The PDS expires the token early: the adapter renews through renewGrant and publishes.
    await pdsControl('POST', '/expire-access');
    await bluesky.publish(account!, { marker: randomUUID(), parts: [{ text: 'after renewal', title: '', link: '', media: [] }] });
    expect((await pdsControl('GET', '/sessions')).refreshed).toBe(before.refreshed + 2);
    await expect(stored(id)).resolves.toMatchObject({ grant: account!.grant });
  });

  it("hands a telegram account the saved app's bot token at each use, never the sealed grant's; none without an app", async () => {
    const id = await insertAccount('telegram', '-1001234567890', '', {
      accessToken: '',
      chatUsername: 'news',
      chatType: 'channel',
    } as ProviderGrant);
    appInEffect = { ...app, provider: 'telegram', connection_mode: 'bot', bot_token: '4242:first' };
    expect((await accounts.find(id))!.grant).toMatchObject({ accessToken: '4242:first', chatUsername: 'news' });
    appInEffect = { ...app, provider: 'telegram', connection_mode: 'bot', bot_token: '4242:rotated' };
    const account = await accounts.find(id);
    expect(account!.grant!.accessToken).toBe('4242:rotated');
    expect(account!.renewGrant).toBeUndefined();
    expect((await stored(id)).grant.accessToken).toBe('');
    appInEffect = null;
    expect(await failureOf(accounts.find(id))).toMatchObject({ outcome: 'rejected', kind: 'auth', code: 'provider_not_configured' });
    expect((await stored(id)).status).toBe('active');
  });
});
