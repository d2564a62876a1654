import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { sandboxFollowRecommendations, sandboxFollowState } from '@social/contracts';
import { call, expectProblem, locations, RFC3339_MS } from '../support/api.js';
import { growthUrl, growthWhen, sandboxExternalId } from '../support/insights.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('insights: growth recommendations (E23, docs/decisions.md)', () => {
  /** A tenant with one sandbox account whose recommendations were refreshed. */
  async function refreshed() {
    const tenant = await createTenant();
    const username = `grower_${randomUUID().slice(0, 8)}`;
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, username);
    const accepted = await call('POST', '/growth/refresh', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, account_id: account.id },
    });
    expect(accepted.status).toBe(202);
    const body = await growthWhen(tenant.owner.token, tenant.workspaceId, account.id, (b) => b.sync_state.status === 'ok');
    return { ...tenant, account, username, body };
  }

  it('lists nothing and an idle sync state before the first refresh', async () => {
    const tenant = await createTenant();
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const response = await call('GET', growthUrl(tenant.workspaceId, account.id), { token: tenant.owner.token });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'ListResult');
    expect(response.body).toEqual({
      $schema: expect.any(String),
      items: [],
      follow_updates: [],
      sync_state: {
        id: expect.stringMatching(UUID),
        workspace_id: tenant.workspaceId,
        social_account_id: account.id,
        platform: 'sandbox',
        status: 'idle',
        current_generation_id: '',
        error_code: '',
        error_message: '',
        created_at: expect.stringMatching(RFC3339_MS),
        updated_at: expect.stringMatching(RFC3339_MS),
        last_attempted_at: null,
        last_success_at: null,
      },
    });
  });

  it('refresh answers 202 with the queued job, and the sandbox recommendations are stored exactly, best first', async () => {
    const tenant = await createTenant();
    const username = `grower_${randomUUID().slice(0, 8)}`;
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, username);
    const accepted = await call('POST', '/api/v1/growth/refresh', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, account_id: account.id },
    });
    expect(accepted.status).toBe(202);
    await expectMatchesOwnSchema(accepted.body, 'SyncJobAccepted');
    expect(accepted.body).toEqual({ $schema: expect.any(String), job_id: expect.stringMatching(UUID), status: 'queued' });

    const body = await growthWhen(tenant.owner.token, tenant.workspaceId, account.id, (b) => b.sync_state.status === 'ok');
    await expectMatchesOwnSchema(body, 'ListResult');
    const expected = sandboxFollowRecommendations(sandboxExternalId(username), 20);
    expect(body.items).toHaveLength(20);
    const generation = body.sync_state.current_generation_id;
    expect(generation).toMatch(UUID);
    expect(body.sync_state).toMatchObject({
      error_code: '',
      last_attempted_at: expect.stringMatching(RFC3339_MS),
      last_success_at: expect.stringMatching(RFC3339_MS),
    });
    body.items.forEach((item: any, index: number) => {
      const want = expected[index];
      expect(item).toEqual({
        id: expect.stringMatching(UUID),
        workspace_id: tenant.workspaceId,
        social_account_id: account.id,
        platform: 'sandbox',
        generation_id: generation,
        remote_account_id: want.remoteAccountId,
        handle: want.handle,
        display_name: want.displayName,
        avatar_url: want.avatarUrl,
        bio: want.bio,
        profile_url: want.profileUrl,
        follow_state: 'idle',
        follow_error_code: '',
        follow_error_message: '',
        followers_count: want.followersCount,
        following_count: want.followingCount,
        mutual_count: want.mutualCount,
        mutual_exact: false,
        follows_viewer: false,
        score: want.score,
        signals: want.signals,
        mutuals: want.mutuals,
        created_at: expect.stringMatching(RFC3339_MS),
        last_seen_at: expect.stringMatching(RFC3339_MS),
        updated_at: expect.stringMatching(RFC3339_MS),
      });
    });
    expect(body.follow_updates).toEqual([]);
  });

  it("every sandbox recommendation names 1–3 mutuals with the interface's capitalised keys, and counts at least as many", async () => {
    const { body, username } = await refreshed();
    const counts = new Set<number>();
    for (const item of body.items) {
      expect(item.mutuals.length).toBeGreaterThanOrEqual(1);
      expect(item.mutuals.length).toBeLessThanOrEqual(3);
      expect(item.mutual_count).toBeGreaterThanOrEqual(item.mutuals.length);
      counts.add(item.mutuals.length);
      for (const mutual of item.mutuals) {
        expect(Object.keys(mutual).sort()).toEqual(['AvatarURL', 'DisplayName', 'Handle', 'RemoteID']);
        expect(mutual).toEqual({
          RemoteID: expect.stringMatching(/^sandbox-[0-9a-f]{16}$/),
          Handle: expect.stringMatching(/^[a-z]+_[a-z]+_[0-9a-f]{4}$/),
          DisplayName: expect.stringMatching(/^\S+ \S+$/),
          AvatarURL: `https://sandbox.invalid/avatars/${mutual.RemoteID}.png`,
        });
      }
      // Different people within one recommendation, none of them the recommended account.
      expect(new Set(item.mutuals.map((m: { RemoteID: string }) => m.RemoteID)).size).toBe(item.mutuals.length);
      expect(item.mutuals.map((m: { RemoteID: string }) => m.RemoteID)).not.toContain(item.remote_account_id);
    }
    // Not one fixed number for every item.
    expect(counts.size).toBeGreaterThan(1);
    // Deterministic: exactly what the sandbox computes for the account.
    expect(body.items.map((i: { mutuals: unknown }) => i.mutuals)).toEqual(
      sandboxFollowRecommendations(sandboxExternalId(username), 20).map((r) => r.mutuals),
    );
  });

  it(
    'follow runs as a job and ends following or requested as the sandbox answers; ' + 'dismiss hides an item, even after another refresh',
    async () => {
      const { owner, workspaceId, account, body } = await refreshed();
      const [first, second, third] = body.items;
      for (const item of [first, second]) {
        const accepted = await call('POST', `/growth/${item.id}/follow`, { token: owner.token });
        expect(accepted.status).toBe(202);
        expect(accepted.body).toEqual({ $schema: expect.any(String), job_id: expect.stringMatching(UUID), status: 'queued' });
      }
      const after = await growthWhen(
        owner.token,
        workspaceId,
        account.id,
        (b) => b.follow_updates.length === 2 && b.follow_updates.every((u: any) => u.follow_state !== 'pending'),
      );
      const states = Object.fromEntries(after.follow_updates.map((u: any) => [u.id, u]));
      for (const item of [first, second]) {
        expect(states[item.id]).toEqual({
          id: item.id,
          generation_id: item.generation_id,
          follow_state: sandboxFollowState(item.remote_account_id),
          follow_error_code: '',
          follow_error_message: '',
          updated_at: expect.stringMatching(RFC3339_MS),
        });
        expect(after.items.find((i: any) => i.id === item.id).follow_state).toBe(sandboxFollowState(item.remote_account_id));
      }
      expectProblem(await call('POST', `/growth/${first.id}/follow`, { token: owner.token }), 409, 'already_following');

      const dismissed = await call('POST', `/growth/${third.id}/dismiss`, { token: owner.token });
      expect(dismissed.status).toBe(204);
      expect(dismissed.body).toBe('');
      const listed = await call('GET', growthUrl(workspaceId, account.id), { token: owner.token });
      expect(listed.body.items.map((i: any) => i.id)).not.toContain(third.id);
      expect(listed.body.items).toHaveLength(19);
      const previousSuccess = listed.body.sync_state.last_success_at;
      expect(
        (await call('POST', '/growth/refresh', { token: owner.token, body: { workspace_id: workspaceId, account_id: account.id } })).status,
      ).toBe(202);
      const again = await growthWhen(
        owner.token,
        workspaceId,
        account.id,
        (b) => b.sync_state.status === 'ok' && b.sync_state.last_success_at !== previousSuccess,
      );
      expect(again.items.map((i: any) => i.id)).not.toContain(third.id);
      expect(again.items).toHaveLength(19);
      // Follows survive a refresh.
      expect(again.items.find((i: any) => i.id === first.id).follow_state).toBe(sandboxFollowState(first.remote_account_id));
    },
  );

  it('refuses bad input with the location of each problem, never a 500', async () => {
    const { owner, workspaceId, account } = await refreshed();
    expect(
      locations(expectProblem(await call('GET', `/growth?workspace_id=${workspaceId}`, { token: owner.token }), 422, 'validation_failed')),
    ).toEqual(['query.account_id']);
    expect(
      locations(expectProblem(await call('GET', `/growth?workspace_id=nope&account_id=${account.id}`, { token: owner.token }), 422)),
    ).toEqual(['query.workspace_id']);
    expect(
      locations(expectProblem(await call('GET', `/growth?workspace_id=${workspaceId}&account_id=x&extra=1`, { token: owner.token }), 422)),
    ).toEqual(expect.arrayContaining(['query.account_id', 'query.extra']));
    const body = (b: unknown) => call('POST', '/growth/refresh', { token: owner.token, body: b });
    expect(locations(expectProblem(await body({ workspace_id: workspaceId }), 422))).toEqual(['body.account_id']);
    expect(locations(expectProblem(await body({ workspace_id: workspaceId, account_id: account.id, force: true }), 422))).toEqual([
      'body.force',
    ]);
    expect(locations(expectProblem(await body({ workspace_id: workspaceId, account_id: 7 }), 422))).toEqual(['body.account_id']);
    expectProblem(
      await call('POST', '/growth/refresh', {
        token: owner.token,
        rawBody: '{"workspace_id":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
    expectProblem(
      await call('POST', '/growth/refresh', { token: owner.token, rawBody: 'x', headers: { 'content-type': 'text/plain' } }),
      415,
    );
    // An account that is not the workspace's: unknown, or connected elsewhere.
    expectProblem(await call('GET', growthUrl(workspaceId, randomUUID()), { token: owner.token }), 404, 'not_found');
    expectProblem(await body({ workspace_id: workspaceId, account_id: randomUUID() }), 404);
    // Path ids that are not growth items.
    expectProblem(await call('POST', `/growth/not-a-uuid/follow`, { token: owner.token }), 404);
    expectProblem(await call('POST', `/growth/${randomUUID()}/dismiss`, { token: owner.token }), 404);
    // A workspace the caller is not a member of, named in the query or body.
    const other = await createTenant();
    expectProblem(await call('GET', growthUrl(other.workspaceId, account.id), { token: owner.token }), 403, 'workspace_forbidden');
    expectProblem(await body({ workspace_id: other.workspaceId, account_id: account.id }), 403);
    expectProblem(await call('GET', growthUrl(workspaceId, account.id)), 401);
  });

  it('viewers read but cannot refresh, follow or dismiss', async () => {
    const { owner, workspaceId, account, body } = await refreshed();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expect((await call('GET', growthUrl(workspaceId, account.id), { token: viewer.token })).status).toBe(200);
    expectProblem(
      await call('POST', '/growth/refresh', { token: viewer.token, body: { workspace_id: workspaceId, account_id: account.id } }),
      403,
      'insufficient_role',
    );
    expectProblem(await call('POST', `/growth/${body.items[0].id}/follow`, { token: viewer.token }), 403, 'insufficient_role');
    expectProblem(await call('POST', `/growth/${body.items[0].id}/dismiss`, { token: viewer.token }), 403, 'insufficient_role');
    const unchanged = await call('GET', growthUrl(workspaceId, account.id), { token: owner.token });
    expect(unchanged.body.items).toEqual(body.items);
  });

  it('another tenant cannot read or act on the account or its recommendations (isolation replay of every insights route)', async () => {
    const { owner, workspaceId, account, body } = await refreshed();
    const intruder = await createTenant();
    const item = body.items[0].id;
    await expectTenantIsolation({
      // The intruder names its own workspace with the owner's account: 404, as for any account it cannot see.
      url: growthUrl(intruder.workspaceId, account.id),
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [growthUrl(workspaceId, account.id)],
      attempts: [
        { method: 'POST', path: `/growth/${item}/follow` },
        { method: 'POST', path: `/growth/${item}/dismiss` },
        { method: 'POST', path: '/growth/refresh', body: { workspace_id: intruder.workspaceId, account_id: account.id } },
        { method: 'GET', path: `/analytics?workspace_id=${intruder.workspaceId}&account_id=${account.id}` },
        { method: 'POST', path: '/analytics/refresh', body: { workspace_id: intruder.workspaceId, account_id: account.id } },
        { method: 'GET', path: growthUrl(workspaceId, account.id), status: 403 },
        { method: 'POST', path: '/growth/refresh', body: { workspace_id: workspaceId, account_id: account.id }, status: 403 },
        { method: 'GET', path: `/analytics?workspace_id=${workspaceId}`, status: 403 },
        { method: 'POST', path: '/analytics/refresh', body: { workspace_id: workspaceId }, status: 403 },
      ],
    });
  });
});
