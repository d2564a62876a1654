import { afterEach, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { call, expectProblem, locations, registerUser, RFC3339_MS } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { clearBlueskyFailures, createBlueskyAccount, failNextAtBluesky } from '../support/fake-bluesky.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const connect = (token: string, body: unknown) => call('POST', '/social-accounts/connect', { token, body });
const uniqueHandle = () => `e2e-${randomBytes(5).toString('hex')}.bsky.social`;
const appPassword = () =>
  `${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex')}`;
/** Every app password handed to the platform, to prove none comes back or reaches a log. */
const passwordsSeen: string[] = [];
const answersSeen: string[] = [];

async function blueskyAccount(displayName = 'Ada Lovelace') {
  const handle = uniqueHandle();
  const password = appPassword();
  passwordsSeen.push(password);
  const did = await createBlueskyAccount({ handle, password, display_name: displayName });
  return { handle, password, did };
}

async function connectBluesky(token: string, body: Record<string, unknown>) {
  const response = await connect(token, { provider: 'bluesky', ...body });
  answersSeen.push(`${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${JSON.stringify(response.body)}`);
  return response;
}

describe('publishing: connecting bluesky accounts (handle + app password, against the fake PDS)', () => {
  const db = testDatabase();

  afterEach(async () => {
    await clearBlueskyFailures();
  });

  it('signs in and connects the account at once: 201, Location, every field; the session and app password sealed', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await blueskyAccount();
    const response = await connectBluesky(owner.token, {
      workspace_id: workspaceId,
      username: account.handle,
      app_password: account.password,
    });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'SocialAccount');
    expect(response.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/SocialAccount\.json$/),
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      workspace_id: workspaceId,
      platform: 'bluesky',
      username: account.handle,
      display_name: 'Ada Lovelace',
      avatar_url: expect.stringMatching(/^https:\/\/cdn\.bsky\.app\//),
      status: 'active',
      posts_published: 0,
      created_at: expect.stringMatching(RFC3339_MS),
    });
    expect(response.headers.get('location')).toBe(`/social-accounts/${response.body.id}`);
    const row = (
      await db.query(`SELECT external_id, instance_url, credentials FROM publishing.social_accounts WHERE id = $1`, [response.body.id])
    ).rows[0];
    expect(row).toEqual({ external_id: account.did, instance_url: 'https://bsky.social', credentials: expect.stringMatching(/^v2\./) });
    expect(row.credentials).not.toContain(account.password);
    const listed = await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token });
    const { $schema: _schema, ...body } = response.body;
    expect(listed.body.accounts).toEqual([body]);
  });

  it('connects the same DID again with 200: the session is replaced, the account active again', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await blueskyAccount('First name');
    const first = await connectBluesky(owner.token, {
      workspace_id: workspaceId,
      username: account.handle,
      app_password: account.password,
    });
    expect(first.status).toBe(201);
    const sealedBefore = (await db.query(`SELECT credentials FROM publishing.social_accounts WHERE id = $1`, [first.body.id])).rows[0]
      .credentials;
    await db.query(`UPDATE publishing.social_accounts SET status = 'reconnect_required' WHERE id = $1`, [first.body.id]);
    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    const again = await connectBluesky(editor.token, {
      workspace_id: workspaceId,
      username: account.handle,
      app_password: account.password,
      instance_url: 'https://bsky.social/',
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('location')).toBeNull();
    await expectMatchesOwnSchema(again.body, 'SocialAccount');
    expect(again.body).toEqual({ ...first.body, status: 'active' });
    const row = (await db.query(`SELECT credentials, connected_by FROM publishing.social_accounts WHERE id = $1`, [first.body.id])).rows[0];
    expect(row.credentials).not.toBe(sealedBefore);
    expect(row.connected_by).toBe(editor.id);
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toHaveLength(1);
    // Another workspace connects the same DID as its own account.
    const other = await createTenant();
    expect(
      (
        await connectBluesky(other.owner.token, {
          workspace_id: other.workspaceId,
          username: account.handle,
          app_password: account.password,
        })
      ).status,
    ).toBe(201);
  });

  it('refuses a wrong app password with 422 provider_credentials_rejected at body.app_password', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await blueskyAccount();
    const wrong = appPassword();
    passwordsSeen.push(wrong);
    const problem = expectProblem(
      await connectBluesky(owner.token, { workspace_id: workspaceId, username: account.handle, app_password: wrong }),
      422,
      'provider_credentials_rejected',
    );
    expect(problem.errors).toEqual([{ location: 'body.app_password', message: expect.stringContaining('refused by bluesky') }]);
    const unknown = await connectBluesky(owner.token, { workspace_id: workspaceId, username: uniqueHandle(), app_password: wrong });
    expectProblem(unknown, 422, 'provider_credentials_rejected');
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toEqual([]);
  });

  it('answers 502 provider_unavailable when the PDS is unreachable or failing, 504 provider_timeout when too slow', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await blueskyAccount();
    const body = { workspace_id: workspaceId, username: account.handle, app_password: account.password };
    await failNextAtBluesky({ path: '/xrpc/com.atproto.server.createSession', drop: true });
    const dropped = expectProblem(await connectBluesky(owner.token, body), 502, 'provider_unavailable');
    expect(dropped.detail).not.toContain(account.password);
    await failNextAtBluesky({ path: '/xrpc/com.atproto.server.createSession', status: 503 });
    expectProblem(await connectBluesky(owner.token, body), 502, 'provider_unavailable');
    await failNextAtBluesky({ path: '/xrpc/app.bsky.actor.getProfile', status: 500 });
    expectProblem(await connectBluesky(owner.token, body), 502, 'provider_unavailable');
    await failNextAtBluesky({ path: '/xrpc/com.atproto.server.createSession', delay_ms: 3_000 });
    const slow = await connectBluesky(owner.token, body);
    expectProblem(slow, 504, 'provider_timeout');
    expect(slow.headers.get('retry-after')).toBe('5');
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toEqual([]);
  });

  it('refuses bad input with 422 at each location', async () => {
    const { owner, workspaceId } = await createTenant();
    const at = async (body: Record<string, unknown>) =>
      [
        ...new Set(
          locations(expectProblem(await connectBluesky(owner.token, { workspace_id: workspaceId, ...body }), 422, 'validation_failed')),
        ),
      ].sort();
    expect(await at({})).toEqual(['body.app_password', 'body.username']);
    expect(await at({ username: 'ada.bsky.social' })).toEqual(['body.app_password']);
    expect(await at({ app_password: 'abcd-efgh-ijkl-mnop' })).toEqual(['body.username']);
    expect(await at({ username: 'ada bsky', app_password: 'x' })).toEqual(['body.username']);
    expect(await at({ username: 'ada.bsky.social', app_password: '' })).toEqual(['body.app_password']);
    expect(await at({ username: 'ada.bsky.social', app_password: 'x'.repeat(257) })).toEqual(['body.app_password']);
    expect(await at({ username: 'ada.bsky.social', app_password: 42 })).toEqual(['body.app_password']);
    expect(await at({ username: 'ada.bsky.social', app_password: 'x', instance_url: 'http://pds.example' })).toEqual(['body.instance_url']);
    expect(await at({ username: `${'a'.repeat(250)}.social`, app_password: 'x' })).toEqual(['body.username']);
    // app_password is bluesky's; the sandbox keeps its 64-character handles.
    const sandbox = expectProblem(await connect(owner.token, { workspace_id: workspaceId, provider: 'sandbox', app_password: 'x' }), 422);
    expect(locations(sandbox)).toEqual(['body.app_password']);
    const long = expectProblem(
      await connect(owner.token, { workspace_id: workspaceId, provider: 'sandbox', username: 'a'.repeat(65) }),
      422,
    );
    expect(locations(long)).toEqual(['body.username']);
  });

  it('lets only editors connect: viewers 403 insufficient_role, strangers 403 workspace_forbidden', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await blueskyAccount();
    const body = { workspace_id: workspaceId, username: account.handle, app_password: account.password };
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(await connectBluesky(viewer.token, body), 403, 'insufficient_role');
    const stranger = await registerUser();
    expectProblem(await connectBluesky(stranger.token, body), 403, 'workspace_forbidden');
    expectProblem(await connectBluesky(stranger.token, { ...body, workspace_id: randomUUID() }), 403, 'workspace_forbidden');
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toEqual([]);
  });

  it("keeps another tenant out of a connected bluesky account, and refuses connecting into another tenant's workspace", async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await blueskyAccount();
    const connected = await connectBluesky(owner.token, {
      workspace_id: workspaceId,
      username: account.handle,
      app_password: account.password,
    });
    const intruder = await createTenant();
    await expectTenantIsolation({
      url: `/social-accounts/${connected.body.id}`,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      attempts: [
        { method: 'DELETE' },
        {
          method: 'POST',
          path: '/social-accounts/connect',
          body: { workspace_id: workspaceId, provider: 'bluesky', username: account.handle, app_password: account.password },
          status: 403,
        },
      ],
      ownerView: [`/social-accounts/${connected.body.id}`, `/social-accounts?workspace_id=${workspaceId}`],
    });
  });

  it('never answers or logs an app password or a session token', () => {
    const log = readFileSync(process.env.E2E_LOG_FILE!, 'utf8');
    expect(answersSeen.length).toBeGreaterThan(10);
    expect(passwordsSeen.filter((password) => answersSeen.some((answer) => answer.includes(password)))).toEqual([]);
    expect(passwordsSeen.filter((password) => log.includes(password))).toEqual([]);
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{20,}/);
  });
});
