import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ENVIRONMENT_PROVIDER_APPS } from '@social/testing';
import { adminCall, locations, registerAdmin } from '../support/admin.js';
import { ApiResponse, baseUrl, call, eventually, expectProblem, registerUser, schemaUrlFor, TestUser } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { Approval, approveAtNetwork, clearNetworkFailures, failNext, networkRequests } from '../support/fake-network.js';
import { fakeControl } from '../support/fake-control.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const X_CLIENT_ID = 'e2e-x-client';
const X_SECRET = `x-secret-${randomUUID()}`;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Authorization {
  authorization_url: string;
  state: string;
}

/** Every answer of connect and the callback, to prove no token or secret ever comes back. */
const answersSeen: string[] = [];
const remembered = (response: ApiResponse) => {
  answersSeen.push(`${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${JSON.stringify(response.body)}`);
  return response;
};
const connect = async (token: string, body: unknown) => remembered(await call('POST', '/social-accounts/connect', { token, body }));
const callback = async (token: string, provider: string, query: Record<string, string>) =>
  remembered(await call('GET', `/social-accounts/callback/${provider}?${new URLSearchParams(query)}`, { token }));
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const freshTokens = () => ({ access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` });
const xProfile = (id: string, name = 'Ada Lovelace') => ({
  data: { id, username: `ada_${id}`, name, profile_image_url: 'https://pbs.twimg.com/profile_images/ada.jpg' },
});

/** Every token and secret the suite handed the network, to prove none comes back or reaches a log. */
const secretsSeen: string[] = [X_SECRET];
/** Codes and states of callbacks: answered by design (the state), but never logged. */
const redirectCredentials: string[] = [];

async function startConnection(
  token: string,
  workspaceId: string,
  provider = 'x',
  extra: Record<string, unknown> = {},
): Promise<Authorization> {
  const response = await connect(token, { workspace_id: workspaceId, provider, ...extra });
  expect(response.status).toBe(200);
  return response.body;
}

/** The user approves at the network and the client app passes the redirect's code and state on. */
async function finishX(token: string, started: Authorization, externalId: string, approval: Partial<Approval> = {}): Promise<ApiResponse> {
  const tokens = freshTokens();
  secretsSeen.push(tokens.access_token, tokens.refresh_token);
  const code = await approveAtNetwork(started.authorization_url, {
    client_secret: X_SECRET,
    ...tokens,
    profile: xProfile(externalId),
    ...approval,
  });
  // The code and state are credentials too: the access log redacts them.
  redirectCredentials.push(code, started.state);
  return callback(token, 'x', { code, state: started.state });
}

describe('publishing: connecting accounts of OAuth networks', () => {
  const db = testDatabase();
  let admin: TestUser;
  const savedApps = new Set<string>();

  const saveApp = async (body: Record<string, unknown>) => {
    const response = await adminCall('POST', '/admin/provider-apps', { token: admin.token, body });
    expect(response.status).toBe(200);
    savedApps.add(response.body.app.id);
    if (typeof body.client_secret === 'string' && body.client_secret) secretsSeen.push(body.client_secret);
    return response.body.app;
  };

  beforeAll(async () => {
    admin = await registerAdmin();
    await saveApp({
      provider: 'x',
      client_id: X_CLIENT_ID,
      client_secret: X_SECRET,
      redirect_uri: '',
      connection_mode: 'oauth',
      is_active: true,
    });
  });

  afterAll(async () => {
    await clearNetworkFailures();
    // The admin suites share this stack and expect the apps they create to be new.
    for (const id of savedApps) await adminCall('DELETE', `/admin/provider-apps/${id}`, { token: admin.token });
  });

  it(
    'connect answers where to send the user: the X authorization URL with client, ' + 'redirect URI, scopes, state and PKCE challenge',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const response = await connect(owner.token, { workspace_id: workspaceId, provider: 'x' });
      expect(response.status).toBe(200);
      await expectMatchesOwnSchema(response.body, 'SocialAccountAuthorization');
      expect(response.body).toEqual({
        $schema: schemaUrlFor('SocialAccountAuthorization'),
        authorization_url: expect.stringMatching(/^https:\/\/x\.com\/i\/oauth2\/authorize\?/),
        state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(response.headers.get('location')).toBeNull();
      const url = new URL(response.body.authorization_url);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        response_type: 'code',
        client_id: X_CLIENT_ID,
        redirect_uri: `${baseUrl()}/social-accounts/callback/x`,
        scope: 'tweet.read tweet.write users.read media.write follows.write offline.access',
        state: response.body.state,
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: 'S256',
      });

      // Only the state's hash is kept, bound to user, workspace and network; the PKCE verifier is sealed.
      const { rows } = await db.query(`SELECT * FROM publishing.oauth_states WHERE state_hash = $1`, [sha256(response.body.state)]);
      expect(rows).toEqual([
        {
          id: expect.stringMatching(UUID),
          state_hash: sha256(response.body.state),
          user_id: owner.id,
          workspace_id: workspaceId,
          platform: 'x',
          instance_url: '',
          redirect_uri: `${baseUrl()}/social-accounts/callback/x`,
          sealed_code_verifier: expect.stringMatching(/^v2\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/),
          created_at: expect.any(Date),
          expires_at: expect.any(Date),
          used_at: null,
        },
      ]);
      expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBe(10 * 60_000);
      expect(JSON.stringify(rows[0])).not.toContain(response.body.state);
    },
  );

  it("uses the app's own redirect_uri when it has one", async () => {
    await saveApp({ provider: 'x', client_id: X_CLIENT_ID, redirect_uri: 'https://app.example.com/oauth/x' });
    try {
      const { owner, workspaceId } = await createTenant();
      const started = await startConnection(owner.token, workspaceId);
      expect(new URL(started.authorization_url).searchParams.get('redirect_uri')).toBe('https://app.example.com/oauth/x');
      // The code is traded against the same redirect URI.
      expect((await finishX(owner.token, started, randomUUID())).status).toBe(201);
    } finally {
      await saveApp({ provider: 'x', client_id: X_CLIENT_ID, redirect_uri: '' });
    }
  });

  it(
    'the callback connects the account (201, Location, every field); ' + 'the network saw the request X expects; tokens are sealed at rest',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const started = await startConnection(owner.token, workspaceId);
      const externalId = `${Date.now()}`;
      const tokens = freshTokens();
      secretsSeen.push(tokens.access_token, tokens.refresh_token);
      const code = await approveAtNetwork(started.authorization_url, { client_secret: X_SECRET, ...tokens, profile: xProfile(externalId) });
      const response = await callback(owner.token, 'x', { code, state: started.state });
      expect(response.status).toBe(201);
      await expectMatchesOwnSchema(response.body, 'SocialAccount');
      expect(response.body).toEqual({
        $schema: schemaUrlFor('SocialAccount'),
        id: expect.stringMatching(UUID),
        workspace_id: workspaceId,
        platform: 'x',
        username: `ada_${externalId}`,
        display_name: 'Ada Lovelace',
        avatar_url: 'https://pbs.twimg.com/profile_images/ada.jpg',
        status: 'active',
        created_at: expect.stringMatching(ISO_TIME),
        posts_published: 0,
      });
      expect(response.headers.get('location')).toBe(`/social-accounts/${response.body.id}`);
      const { $schema: _schema, ...account } = response.body;
      expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toEqual([account]);
      expect((await call('GET', `/social-accounts/${account.id}`, { token: owner.token })).body).toEqual(response.body);

      const requests = await networkRequests();
      const exchange = requests.filter((request) => request.form.code === code);
      const verifier = exchange[0].form.code_verifier;
      expect(exchange).toEqual([
        expect.objectContaining({
          method: 'POST',
          path: '/2/oauth2/token',
          form: {
            grant_type: 'authorization_code',
            code,
            redirect_uri: `${baseUrl()}/social-accounts/callback/x`,
            code_verifier: verifier,
          },
          headers: expect.objectContaining({
            authorization: `Basic ${Buffer.from(`${X_CLIENT_ID}:${X_SECRET}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          }),
        }),
      ]);
      expect(createHash('sha256').update(verifier).digest('base64url')).toBe(
        new URL(started.authorization_url).searchParams.get('code_challenge'),
      );
      expect(requests.filter((request) => request.headers.authorization === `Bearer ${tokens.access_token}`)).toEqual([
        expect.objectContaining({ method: 'GET', path: '/2/users/me', query: { 'user.fields': 'profile_image_url' } }),
      ]);

      const { rows } = await db.query(`SELECT * FROM publishing.social_accounts WHERE id = $1`, [account.id]);
      expect(rows[0]).toMatchObject({ external_id: externalId, connected_by: owner.id, instance_url: '' });
      expect(rows[0].credentials).toMatch(/^v2\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
      const stored = JSON.stringify(rows[0]);
      for (const secret of [tokens.access_token, tokens.refresh_token, X_SECRET]) expect(stored).not.toContain(secret);
      const state = (await db.query(`SELECT * FROM publishing.oauth_states WHERE state_hash = $1`, [sha256(started.state)])).rows[0];
      expect(state.used_at).toEqual(expect.any(Date));
      expect(JSON.stringify(state)).not.toContain(verifier);
    },
  );

  it('connecting the same network account again refreshes it (200, same id, new profile and tokens, active again)', async () => {
    const { owner, workspaceId } = await createTenant();
    const externalId = randomUUID();
    const first = await finishX(owner.token, await startConnection(owner.token, workspaceId), externalId);
    expect(first.status).toBe(201);
    await db.query(`UPDATE publishing.social_accounts SET status = 'reconnect_required' WHERE id = $1`, [first.body.id]);
    const before = (await db.query(`SELECT credentials FROM publishing.social_accounts WHERE id = $1`, [first.body.id])).rows[0]
      .credentials;
    const editor = await joinWorkspace(owner, workspaceId, 'editor');

    const again = await finishX(editor.token, await startConnection(editor.token, workspaceId), externalId, {
      profile: xProfile(externalId, 'Ada L.'),
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('location')).toBeNull();
    await expectMatchesOwnSchema(again.body, 'SocialAccount');
    expect(again.body).toEqual({ ...first.body, display_name: 'Ada L.', status: 'active' });
    const row = (await db.query(`SELECT credentials, connected_by FROM publishing.social_accounts WHERE id = $1`, [first.body.id])).rows[0];
    expect(row.credentials).not.toBe(before);
    expect(row.connected_by).toBe(editor.id);
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toHaveLength(1);

    // Another workspace connecting the same network account gets its own.
    const other = await createTenant();
    expect((await finishX(other.owner.token, await startConnection(other.owner.token, other.workspaceId), externalId)).status).toBe(201);
  });

  it('a state works once, for its user and network, for 10 minutes: anything else is 422 oauth_state_invalid at query.state', async () => {
    const { owner, workspaceId } = await createTenant();
    const expectInvalidState = (response: ApiResponse) =>
      expect(locations(expectProblem(response, 422, 'oauth_state_invalid'))).toEqual(['query.state']);

    expectInvalidState(await callback(owner.token, 'x', { code: 'c', state: 'never-issued' }));

    // Another member of the same workspace, or the same user at another network's callback: refused, and the state still works.
    const started = await startConnection(owner.token, workspaceId);
    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    expectInvalidState(await callback(editor.token, 'x', { code: 'c', state: started.state }));
    expectInvalidState(await callback(owner.token, 'linkedin', { code: 'c', state: started.state }));
    const externalId = randomUUID();
    expect((await finishX(owner.token, started, externalId)).status).toBe(201);
    // Used.
    expectInvalidState(await finishX(owner.token, started, externalId));

    // Spent by a callback whose exchange fails: the network refuses a wrong code, and the right one comes too late.
    const refused = await startConnection(owner.token, workspaceId);
    expectProblem(await callback(owner.token, 'x', { code: 'not-issued', state: refused.state }), 422, 'oauth_code_rejected');
    expectInvalidState(await finishX(owner.token, refused, randomUUID()));

    // Expired.
    const late = await startConnection(owner.token, workspaceId);
    await db.query(
      `UPDATE publishing.oauth_states SET created_at = now() - interval '11 minutes', expires_at = now() - interval '1 minute'
       WHERE state_hash = $1`,
      [sha256(late.state)],
    );
    expectInvalidState(await finishX(owner.token, late, randomUUID()));
  });

  it('another tenant cannot complete a connection with a state it got hold of (422), and the owner still can', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const started = await startConnection(owner.token, workspaceId);
    const response = await finishX(intruder.owner.token, started, randomUUID());
    expectProblem(response, 422, 'oauth_state_invalid');
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toEqual([]);
    expect((await finishX(owner.token, started, randomUUID())).status).toBe(201);
  });

  describe('when the network misbehaves', () => {
    afterAll(() => clearNetworkFailures());

    it('a code the network refuses is 422 oauth_code_rejected at query.code', async () => {
      const { owner, workspaceId } = await createTenant();
      const started = await startConnection(owner.token, workspaceId);
      const problem = expectProblem(await callback(owner.token, 'x', { code: 'forged', state: started.state }), 422, 'oauth_code_rejected');
      expect(locations(problem)).toEqual(['query.code']);
      expect(problem.detail).toContain('invalid_grant');
      // A wrong client secret is refused by the network the same way.
      const wrongSecret = await startConnection(owner.token, workspaceId);
      const code = await approveAtNetwork(wrongSecret.authorization_url, {
        client_secret: 'another-secret',
        ...freshTokens(),
        profile: xProfile('1'),
      });
      expectProblem(await callback(owner.token, 'x', { code, state: wrongSecret.state }), 422, 'oauth_code_rejected');
    });

    it('a profile the network will not show with the new token is 422 oauth_code_rejected', async () => {
      const { owner, workspaceId } = await createTenant();
      await failNext({ path: '/2/users/me', status: 403, body: { title: 'Forbidden' } });
      expectProblem(await finishX(owner.token, await startConnection(owner.token, workspaceId), randomUUID()), 422, 'oauth_code_rejected');
    });

    it.each([
      ['a 5xx at the token endpoint', { path: '/2/oauth2/token', status: 503 }],
      ['a dropped connection', { path: '/2/oauth2/token', drop: true }],
      ['an answer that is not JSON', { path: '/2/oauth2/token', status: 200, body: 'not json at all' }],
      ['a 5xx at the profile endpoint', { path: '/2/users/me', status: 500 }],
    ])('%s is 502 provider_unavailable', async (_name, failure) => {
      const { owner, workspaceId } = await createTenant();
      await failNext(failure);
      const problem = expectProblem(
        await finishX(owner.token, await startConnection(owner.token, workspaceId), randomUUID()),
        502,
        'provider_unavailable',
      );
      expect(problem.detail).not.toMatch(/127\.0\.0\.1|localhost/);
    });

    it('a network slower than the budget is 504 provider_timeout, well before the gateway gives up', async () => {
      const { owner, workspaceId } = await createTenant();
      await failNext({ path: '/2/oauth2/token', delay_ms: 3_000, status: 200, body: { access_token: 'late' } });
      const startedAt = Date.now();
      expectProblem(await finishX(owner.token, await startConnection(owner.token, workspaceId), randomUUID()), 504, 'provider_timeout');
      expect(Date.now() - startedAt).toBeLessThan(4_000);
    });
  });

  it('without an active app for the network, connect is 422 provider_not_configured at body.provider', async () => {
    const { owner, workspaceId } = await createTenant();
    await saveApp({ provider: 'facebook', client_id: 'fb-e2e', client_secret: `fb-${randomUUID()}`, is_active: false });
    const inactive = expectProblem(
      await connect(owner.token, { workspace_id: workspaceId, provider: 'facebook' }),
      422,
      'provider_not_configured',
    );
    expect(inactive.errors).toEqual([
      { location: 'body.provider', message: expect.stringContaining('no active facebook app'), value: 'facebook' },
    ]);
    await saveApp({ provider: 'facebook', client_id: 'fb-e2e', connection_mode: 'bot', is_active: true });
    expectProblem(await connect(owner.token, { workspace_id: workspaceId, provider: 'facebook' }), 422, 'provider_not_configured');
    await saveApp({ provider: 'facebook', client_id: 'fb-e2e', client_secret: '', connection_mode: 'oauth' });
    const secretless = expectProblem(
      await connect(owner.token, { workspace_id: workspaceId, provider: 'facebook' }),
      422,
      'provider_not_configured',
    );
    expect(secretless.errors[0].message).toContain('no client secret');
    const unknownServer = `https://nowhere-${randomUUID().slice(0, 8)}.example`;
    expectProblem(
      await connect(owner.token, { workspace_id: workspaceId, provider: 'mastodon', instance_url: unknownServer }),
      422,
      'provider_not_configured',
    );

    // An app deactivated between connect and callback: the callback says so at path.provider (the state is spent).
    await saveApp({ provider: 'facebook', client_id: 'fb-e2e', client_secret: `fb-${randomUUID()}` });
    const started = await startConnection(owner.token, workspaceId, 'facebook');
    await saveApp({ provider: 'facebook', client_id: 'fb-e2e', is_active: false });
    const gone = expectProblem(
      await callback(owner.token, 'facebook', { code: 'c', state: started.state }),
      422,
      'provider_not_configured',
    );
    expect(locations(gone)).toEqual(['path.provider']);
  });

  it('discord and telegram do not connect by OAuth: they name where to post (chat-connect.e2e-spec.ts), 422 without it', async () => {
    const { owner, workspaceId } = await createTenant();
    for (const [provider, field] of [
      ['discord', 'webhook_url'],
      ['telegram', 'chat_id'],
    ]) {
      const problem = expectProblem(await connect(owner.token, { workspace_id: workspaceId, provider }), 422, 'validation_failed');
      expect(problem.errors).toEqual([{ location: `body.${field}`, message: expect.stringContaining(`is required for ${provider}`) }]);
    }
  });

  it(
    'refuses bad input: instance_url only for mastodon (and required there), ' +
      'a callback query of code and state only, unknown networks 404',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const at = async (response: ApiResponse) => [...new Set(locations(expectProblem(response, 422, 'validation_failed')))];
      expect(await at(await connect(owner.token, { workspace_id: workspaceId, provider: 'mastodon' }))).toEqual(['body.instance_url']);
      expect(await at(await connect(owner.token, { workspace_id: workspaceId, provider: 'x', instance_url: 'https://x.example' }))).toEqual(
        ['body.instance_url'],
      );
      expect(
        await at(await connect(owner.token, { workspace_id: workspaceId, provider: 'sandbox', instance_url: 'https://x.example' })),
      ).toEqual(['body.instance_url']);
      expect(
        await at(await connect(owner.token, { workspace_id: workspaceId, provider: 'mastodon', instance_url: 'http://plain.example' })),
      ).toEqual(['body.instance_url']);
      expect(
        await at(await connect(owner.token, { workspace_id: workspaceId, provider: 'mastodon', instance_url: 'https://ex ample.com' })),
      ).toEqual(['body.instance_url']);
      expect(await at(await connect(owner.token, { workspace_id: workspaceId, provider: 'mastodon', instance_url: 42 }))).toEqual([
        'body.instance_url',
      ]);
      // app_password is bluesky's alone.
      expect(
        await at(await connect(owner.token, { workspace_id: workspaceId, provider: 'x', app_password: 'abcd-efgh-ijkl-mnop' })),
      ).toEqual(['body.app_password']);

      expect((await at(await call('GET', '/social-accounts/callback/x', { token: owner.token }))).sort()).toEqual([
        'query.code',
        'query.state',
      ]);
      expect(await at(await callback(owner.token, 'x', { code: 'c', state: 's', scope: 'tweet.read' }))).toEqual(['query.scope']);
      expect(await at(await callback(owner.token, 'x', { code: 'c', state: 's'.repeat(513) }))).toEqual(['query.state']);
      expect(await at(await callback(owner.token, 'x', { code: '', state: 's' }))).toEqual(['query.code']);
      for (const provider of ['myspace', 'sandbox', 'bluesky', 'telegram', 'discord']) {
        expectProblem(await callback(owner.token, provider, { code: 'c', state: 's' }), 404, 'not_found');
      }
      expectProblem(await call('GET', '/social-accounts/callback/x?code=c&state=s'), 401);
    },
  );

  it('only editors connect: viewers 403, strangers 403; the role is checked again at the callback', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(await connect(viewer.token, { workspace_id: workspaceId, provider: 'x' }), 403, 'insufficient_role');
    const stranger = await registerUser();
    expectProblem(await connect(stranger.token, { workspace_id: workspaceId, provider: 'x' }), 403, 'workspace_forbidden');

    // Demoted between connect and callback: 403, and the state is spent.
    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    const started = await startConnection(editor.token, workspaceId);
    expect(
      (await call('PATCH', `/workspaces/${workspaceId}/members/${editor.id}`, { token: owner.token, body: { role: 'viewer' } })).status,
    ).toBe(200);
    expectProblem(await finishX(editor.token, started, randomUUID()), 403, 'insufficient_role');
    expect(
      (await call('PATCH', `/workspaces/${workspaceId}/members/${editor.id}`, { token: owner.token, body: { role: 'editor' } })).status,
    ).toBe(200);
    expectProblem(await finishX(editor.token, started, randomUUID()), 422, 'oauth_state_invalid');

    // Removed from the workspace meanwhile: 403.
    const leaving = await startConnection(editor.token, workspaceId);
    expect((await call('DELETE', `/workspaces/${workspaceId}/members/${editor.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(await finishX(editor.token, leaving, randomUUID()), 403, 'workspace_forbidden');
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toEqual([]);
  });

  it('keeps connected accounts to their tenant', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const account = (await finishX(owner.token, await startConnection(owner.token, workspaceId), randomUUID())).body;
    await expectTenantIsolation({
      url: `/social-accounts/${account.id}`,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      attempts: [
        { method: 'DELETE' },
        { method: 'GET', path: `/social-accounts?workspace_id=${workspaceId}`, status: 403 },
        { method: 'POST', path: '/social-accounts/connect', body: { workspace_id: workspaceId, provider: 'x' }, status: 403 },
      ],
      ownerView: [`/social-accounts/${account.id}`, `/social-accounts?workspace_id=${workspaceId}`],
    });
  });

  it("purges a deleted organization's pending connections", async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    await startConnection(owner.token, workspaceId);
    expect((await call('DELETE', `/organizations/${organizationId}`, { token: owner.token })).status).toBe(202);
    await eventually(async () => {
      expect(
        (await db.query(`SELECT count(*)::int AS n FROM publishing.oauth_states WHERE workspace_id = $1`, [workspaceId])).rows[0].n,
      ).toBe(0);
    }, 10_000);
  });

  describe('each network, as it expects to be asked', () => {
    const server = `m-${randomUUID().slice(0, 8)}.example`;
    const [envYoutube] = ENVIRONMENT_PROVIDER_APPS;
    const NETWORKS: Array<{
      provider: string;
      app?: Record<string, unknown>;
      connect?: Record<string, unknown>;
      authorize: string;
      clientParameter?: string;
      scope: string;
      pkce: boolean;
      extraParameters?: Record<string, string>;
      tokenPath: string;
      profilePath: string;
      profile: unknown;
      tokenResponse?: (accessToken: string) => unknown;
      /** Set up at a network's own fake before connecting (Facebook: the Pages the person manages). */
      before?: () => Promise<unknown>;
      expected: { username: string; display_name: string; avatar_url: string };
      externalId: string;
      instanceUrl?: string;
    }> = [
      {
        provider: 'linkedin',
        app: { client_id: 'li-e2e' },
        authorize: 'https://www.linkedin.com/oauth/v2/authorization',
        scope: 'openid profile w_member_social',
        pkce: false,
        tokenPath: '/oauth/v2/accessToken',
        profilePath: '/v2/userinfo',
        profile: { sub: 'li-sub-1', name: 'Ada Lovelace', picture: 'https://media.licdn.com/ada.jpg', email: 'ada@example.com' },
        expected: { username: 'Ada Lovelace', display_name: 'Ada Lovelace', avatar_url: 'https://media.licdn.com/ada.jpg' },
        externalId: 'li-sub-1',
      },
      {
        provider: 'mastodon',
        app: { client_id: 'ma-e2e', instance_url: `https://${server}` },
        connect: { instance_url: `https://${server.toUpperCase()}/` },
        authorize: `https://${server}/oauth/authorize`,
        scope: 'read:accounts read:statuses read:follows write:statuses write:media write:follows',
        pkce: true,
        tokenPath: '/oauth/token',
        profilePath: '/api/v1/accounts/verify_credentials',
        profile: { id: '1091', username: 'ada', acct: 'ada', display_name: 'Ada', avatar: `https://${server}/avatars/ada.png` },
        expected: { username: `ada@${server}`, display_name: 'Ada', avatar_url: `https://${server}/avatars/ada.png` },
        externalId: `1091@${server}`,
        instanceUrl: `https://${server}`,
      },
      {
        provider: 'threads',
        app: { client_id: 'th-e2e' },
        authorize: 'https://threads.net/oauth/authorize',
        scope: 'threads_basic,threads_content_publish,threads_manage_insights,threads_manage_replies,threads_read_replies',
        pkce: false,
        tokenPath: '/oauth/access_token',
        profilePath: '/v1.0/me',
        profile: { id: '7001', username: 'ada.threads', name: 'Ada T', threads_profile_picture_url: 'https://scontent.example/t.jpg' },
        tokenResponse: (accessToken) => ({ access_token: accessToken, user_id: 7001 }),
        expected: { username: 'ada.threads', display_name: 'Ada T', avatar_url: 'https://scontent.example/t.jpg' },
        externalId: '7001',
      },
      {
        // The person's Pages are accounts, never the person (the fake Graph API asks the OAuth fake who they are).
        provider: 'facebook',
        app: { client_id: 'fb-e2e', is_active: true, connection_mode: 'oauth' },
        authorize: 'https://www.facebook.com/v27.0/dialog/oauth',
        scope: 'public_profile,pages_show_list,pages_read_engagement,pages_manage_posts,publish_video,read_insights',
        pkce: false,
        tokenPath: '/v27.0/oauth/access_token',
        profilePath: '/v27.0/me',
        profile: { id: '10158', name: 'Ada Lovelace', picture: { data: { url: 'https://scontent.example/f.jpg' } } },
        before: () =>
          fakeControl('E2E_FAKE_FACEBOOK_URL', 'the fake Facebook Graph API')('POST', '/users', {
            id: '10158',
            pages: [{ id: '20531', name: 'Analytical Engines', username: 'engines', access_token: `page-${randomUUID()}` }],
          }),
        expected: { username: 'engines', display_name: 'Analytical Engines', avatar_url: 'https://scontent.example/20531.jpg' },
        externalId: '20531',
      },
      {
        provider: 'instagram',
        app: { client_id: 'ig-e2e' },
        authorize: 'https://www.instagram.com/oauth/authorize',
        scope: [
          'instagram_business_basic',
          'instagram_business_content_publish',
          'instagram_business_manage_insights',
          'instagram_business_manage_comments',
        ].join(','),
        pkce: false,
        tokenPath: '/oauth/access_token',
        // The fake Instagram API asks the OAuth fake whose short-lived token it trades (ig_exchange_token).
        profilePath: '/v27.0/me',
        profile: {
          id: 'app-scoped-1',
          user_id: '17841400',
          username: 'ada.ig',
          name: 'Ada IG',
          profile_picture_url: 'https://scontent.example/i.jpg',
        },
        tokenResponse: (accessToken) => ({
          data: [{ access_token: accessToken, user_id: '17841400', permissions: 'instagram_business_basic' }],
        }),
        expected: { username: 'ada.ig', display_name: 'Ada IG', avatar_url: 'https://scontent.example/i.jpg' },
        externalId: '17841400',
      },
      {
        provider: 'tiktok',
        app: { client_id: 'tt-e2e-key', name: 'tiktok', redirect_uri: '', connection_mode: 'oauth', is_active: true },
        authorize: 'https://www.tiktok.com/v2/auth/authorize/',
        clientParameter: 'client_key',
        scope: 'user.info.basic,user.info.profile,user.info.stats,video.publish,video.list',
        pkce: false,
        tokenPath: '/v2/oauth/token/',
        profilePath: '/v2/user/info/',
        profile: {
          data: { user: { open_id: 'tt-open-1', username: 'ada.tt', display_name: 'Ada TT', avatar_url: 'https://p16.example/a.jpg' } },
          error: { code: 'ok' },
        },
        expected: { username: 'ada.tt', display_name: 'Ada TT', avatar_url: 'https://p16.example/a.jpg' },
        externalId: 'tt-open-1',
      },
      {
        // The environment's app (PROVIDER_APPS), which shadows any database one.
        provider: 'youtube',
        authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
        scope: 'https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.upload',
        pkce: true,
        extraParameters: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
        tokenPath: '/token',
        profilePath: '/youtube/v3/channels',
        profile: {
          items: [
            {
              id: 'UC-ada',
              snippet: { title: 'Ada Builds', customUrl: '@adabuilds', thumbnails: { high: { url: 'https://yt3.example/h.jpg' } } },
            },
          ],
        },
        expected: { username: '@adabuilds', display_name: 'Ada Builds', avatar_url: 'https://yt3.example/h.jpg' },
        externalId: 'UC-ada',
      },
    ];

    it.each(NETWORKS.map((network) => [network.provider, network] as const))('%s', async (provider, network) => {
      const secret = network.app ? `${provider}-secret-${randomUUID()}` : envYoutube.client_secret;
      const clientId = network.app ? String(network.app.client_id) : envYoutube.client_id;
      // Other suites may have left this network's app in another shape.
      if (network.app)
        await saveApp({ provider, redirect_uri: '', connection_mode: 'oauth', is_active: true, ...network.app, client_secret: secret });
      const { owner, workspaceId } = await createTenant();
      const started = await startConnection(owner.token, workspaceId, provider, network.connect);
      const url = new URL(started.authorization_url);
      expect(`${url.origin}${url.pathname}`).toBe(network.authorize);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        response_type: 'code',
        [network.clientParameter ?? 'client_id']: clientId,
        redirect_uri: `${baseUrl()}/social-accounts/callback/${provider}`,
        scope: network.scope,
        state: started.state,
        ...(network.pkce ? { code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), code_challenge_method: 'S256' } : {}),
        ...network.extraParameters,
      });

      const tokens = freshTokens();
      secretsSeen.push(tokens.access_token, tokens.refresh_token, secret);
      await network.before?.();
      const code = await approveAtNetwork(started.authorization_url, {
        client_secret: secret,
        ...tokens,
        profile: network.profile,
        ...(network.tokenResponse ? { token_response: network.tokenResponse(tokens.access_token) } : {}),
      });
      const response = await callback(owner.token, provider, { code, state: started.state });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        $schema: schemaUrlFor('SocialAccount'),
        id: expect.stringMatching(UUID),
        workspace_id: workspaceId,
        platform: provider,
        ...network.expected,
        status: 'active',
        created_at: expect.stringMatching(ISO_TIME),
        posts_published: 0,
      });

      const requests = await networkRequests();
      const exchange = requests.find((request) => request.form.code === code)!;
      expect(exchange).toMatchObject({ method: 'POST', path: network.tokenPath });
      expect(exchange.form).toEqual({
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${baseUrl()}/social-accounts/callback/${provider}`,
        [network.clientParameter ?? 'client_id']: clientId,
        client_secret: secret,
        ...(network.pkce ? { code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } : {}),
      });
      expect(requests.find((request) => request.headers.authorization === `Bearer ${tokens.access_token}`)).toMatchObject({
        method: 'GET',
        path: network.profilePath,
      });
      const row = (
        await db.query(`SELECT external_id, instance_url, credentials FROM publishing.social_accounts WHERE id = $1`, [response.body.id])
      ).rows[0];
      expect(row).toEqual({
        external_id: network.externalId,
        instance_url: network.instanceUrl ?? '',
        credentials: expect.stringMatching(/^v2\./),
      });
    });
  });

  it('never answers or logs a token or client secret, nor logs an authorization code or state', () => {
    const log = readFileSync(process.env.E2E_LOG_FILE!, 'utf8');
    expect(log).toContain('/social-accounts/callback/x?code=redacted&state=redacted');
    expect(answersSeen.length).toBeGreaterThan(50);
    expect(secretsSeen.filter((secret) => answersSeen.some((answer) => answer.includes(secret)))).toEqual([]);
    expect([...secretsSeen, ...redirectCredentials].filter((secret) => log.includes(secret))).toEqual([]);
  });
});
