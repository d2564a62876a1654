import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, registerUser } from '../support/api.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const connect = (token: string, body: unknown) => call('POST', '/social-accounts/connect', { token, body });

describe('publishing: connected social accounts (sandbox)', () => {
  it('connects a sandbox account at once (201, Location, every field) and lists and reads it', async () => {
    const { owner, workspaceId } = await createTenant();
    const response = await connect(owner.token, { workspace_id: workspaceId, provider: 'sandbox', username: 'acme.news' });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'SocialAccount');
    expect(response.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/SocialAccount\.json$/),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      workspace_id: workspaceId,
      platform: 'sandbox',
      username: 'acme.news',
      display_name: 'Sandbox acme.news',
      avatar_url: '',
      status: 'active',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      posts_published: 0,
    });
    expect(response.headers.get('location')).toBe(`/social-accounts/${response.body.id}`);
    const { $schema: _ignored, ...account } = response.body;

    const list = await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token });
    expect(list.status).toBe(200);
    await expectMatchesOwnSchema(list.body, 'SocialAccountList');
    expect(list.body.accounts).toEqual([account]);
    const one = await call('GET', `/social-accounts/${account.id}`, { token: owner.token });
    expect(one.body).toEqual(response.body);
  });

  it('derives a handle when none is given, and refuses the same handle twice in a workspace (409)', async () => {
    const { owner, workspaceId } = await createTenant();
    const derived = await connectSandboxAccount(owner.token, workspaceId);
    expect(derived.username).toMatch(/^sandbox_[0-9a-f]{8}$/);
    await connectSandboxAccount(owner.token, workspaceId, 'Twice');
    expectProblem(
      await connect(owner.token, { workspace_id: workspaceId, provider: 'sandbox', username: 'twice' }),
      409,
      'account_already_connected',
    );
    // Another workspace may connect the same handle.
    const other = await createTenant();
    await connectSandboxAccount(other.owner.token, other.workspaceId, 'twice');
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toHaveLength(2);
  });

  it('refuses bad input with 422 naming each location', async () => {
    const { owner, workspaceId } = await createTenant();
    const bad = expectProblem(await connect(owner.token, { workspace_id: 'nope', provider: 'myspace', username: 'a b', extra: 1 }), 422);
    expect(bad.errors.map((e: { location: string }) => e.location).sort()).toEqual(
      ['body.extra', 'body.provider', 'body.username', 'body.workspace_id'].sort(),
    );
    const missing = expectProblem(await connect(owner.token, {}), 422);
    expect(missing.errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.provider', 'body.workspace_id']);
    // A username is the sandbox's own: real networks tell us who connected.
    const username = expectProblem(await connect(owner.token, { workspace_id: workspaceId, provider: 'x', username: 'me' }), 422);
    expect(username.errors[0].location).toBe('body.username');
    const query = expectProblem(await call('GET', '/social-accounts?workspace_id=nope', { token: owner.token }), 422);
    expect(query.errors[0].location).toBe('query.workspace_id');
    expectProblem(await call('GET', '/social-accounts', { token: owner.token }), 422);
    expectProblem(await call('GET', '/social-accounts/not-a-uuid', { token: owner.token }), 404, 'not_found');
  });

  it('lets viewers read but not connect or disconnect (403); strangers get 403 for a named workspace', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: viewer.token })).body.accounts).toHaveLength(1);
    expectProblem(await connect(viewer.token, { workspace_id: workspaceId, provider: 'sandbox' }), 403, 'insufficient_role');
    expectProblem(await call('DELETE', `/social-accounts/${account.id}`, { token: viewer.token }), 403, 'insufficient_role');
    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    expect((await connect(editor.token, { workspace_id: workspaceId, provider: 'sandbox' })).status).toBe(201);

    const stranger = await registerUser();
    expectProblem(await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: stranger.token }), 403, 'workspace_forbidden');
    expectProblem(
      await call('GET', `/social-accounts?workspace_id=${randomUUID()}`, { token: stranger.token }),
      403,
      'workspace_forbidden',
    );
    expectProblem(await connect(stranger.token, { workspace_id: workspaceId, provider: 'sandbox' }), 403, 'workspace_forbidden');
  });

  it('keeps accounts to their tenant', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    await expectTenantIsolation({
      url: `/social-accounts/${account.id}`,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      attempts: [
        { method: 'DELETE' },
        { method: 'GET', path: `/social-accounts?workspace_id=${workspaceId}`, status: 403 },
        { method: 'POST', path: '/social-accounts/connect', body: { workspace_id: workspaceId, provider: 'sandbox' }, status: 403 },
      ],
      ownerView: [`/social-accounts/${account.id}`, `/social-accounts?workspace_id=${workspaceId}`],
    });
  });

  it('disconnects an account (204); it is gone', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    expect((await call('DELETE', `/social-accounts/${account.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(await call('GET', `/social-accounts/${account.id}`, { token: owner.token }), 404, 'not_found');
    expectProblem(await call('DELETE', `/social-accounts/${account.id}`, { token: owner.token }), 404, 'not_found');
    expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toEqual([]);
  });
});
