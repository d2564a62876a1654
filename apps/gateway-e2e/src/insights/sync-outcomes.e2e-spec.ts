import { afterEach, describe, expect, it } from '@jest/globals';
import { ACCOUNT_NEEDS_ATTENTION_SUBJECT } from '@social/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { call, eventually, RFC3339_MS } from '../support/api.js';
import {
  clearMastodonFailures,
  failNextAtMastodon,
  mastodonAccount,
  setMastodonStatusCounts,
  mastodonAppForSuite,
} from '../support/fake-mastodon.js';
import { analyticsUrl, analyticsWhen, growthUrl, growthWhen, publishNowTo } from '../support/insights.js';
import { accountEvents } from '../support/provider-insights.js';
import { connectThroughOAuth } from '../support/oauth-account.js';
import { createTenant, Tenant } from '../support/tenancy.js';

/**
 * Sync jobs against a network that answers for real (the Mastodon fake):
 * counters and follows from the server, and every provider outcome recorded
 * in the sync status — a rate limit waits for the network's reset time, a
 * refused grant is permission_required (publishing raises account
 * needs-attention).
 */
describe('insights: sync outcomes through a real network adapter (issue 15)', () => {
  const { instanceUrl, clientSecret } = mastodonAppForSuite('insights-sync');

  afterEach(async () => {
    await clearMastodonFailures();
  });

  async function connectMastodon(tenant: Tenant, counters: { followers_count?: number; following_count?: number } = {}) {
    const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
    const username = `ada_${randomBytes(4).toString('hex')}`;
    const remote = await mastodonAccount({ access_token: tokens.access_token, username, display_name: 'Ada', ...counters });
    const { account } = await connectThroughOAuth(
      tenant,
      'mastodon',
      { client_secret: clientSecret, ...tokens, profile: { id: remote.id, username } },
      { instance_url: instanceUrl },
    );
    return { account: account as { id: string; username: string }, remote };
  }

  const refreshAnalytics = (tenant: Tenant, accountId: string) =>
    call('POST', '/analytics/refresh', { token: tenant.owner.token, body: { workspace_id: tenant.workspaceId, account_id: accountId } });

  it("stores the server's counters and post metrics in E24, and a follow of a locked account ends requested", async () => {
    const tenant = await createTenant();
    const { account } = await connectMastodon(tenant, { followers_count: 431, following_count: 27 });
    const peer = await mastodonAccount({
      access_token: `at-${randomUUID()}`,
      username: `peer_${randomBytes(3).toString('hex')}`,
      locked: true,
      followers_count: 88,
    });
    const published = await publishNowTo(tenant.owner.token, tenant.workspaceId, [account.id], `Measured on mastodon ${randomUUID()}`);
    const statusId = published.renditions[0].external_id;
    await setMastodonStatusCounts(statusId, { favourites_count: 31, replies_count: 4, reblogs_count: 6 });
    expect((await refreshAnalytics(tenant, account.id)).status).toBe(202);
    const body = await analyticsWhen(
      tenant.owner.token,
      analyticsUrl(tenant.workspaceId),
      (o) => o.accounts[0]?.status === 'ok' && o.content[0]?.metrics.likes === 31,
    );
    expect(body.accounts[0]).toMatchObject({
      id: account.id,
      platform: 'mastodon',
      metrics: { followers: 431, following: 27, posts: 1 },
      follower_series: [{ date: expect.any(String), value: 431 }],
    });
    expect(body.content[0]).toMatchObject({
      rendition_id: published.renditions[0].id,
      engagement: 41,
      metrics: { views: 0, likes: 31, comments: 4, reposts: 6 },
    });

    expect(
      (
        await call('POST', '/growth/refresh', {
          token: tenant.owner.token,
          body: { workspace_id: tenant.workspaceId, account_id: account.id },
        })
      ).status,
    ).toBe(202);
    const growth = await growthWhen(tenant.owner.token, tenant.workspaceId, account.id, (b) => b.sync_state.status === 'ok');
    const item = growth.items.find((i: any) => i.remote_account_id === peer.id);
    expect(item).toMatchObject({ handle: peer.username, platform: 'mastodon', followers_count: 88, follow_state: 'idle' });
    expect((await call('POST', `/growth/${item.id}/follow`, { token: tenant.owner.token })).status).toBe(202);
    const followed = await growthWhen(tenant.owner.token, tenant.workspaceId, account.id, (b) =>
      b.follow_updates.some((u: any) => u.id === item.id && u.follow_state !== 'pending'),
    );
    expect(followed.follow_updates).toEqual([expect.objectContaining({ id: item.id, follow_state: 'requested', follow_error_code: '' })]);
  });

  it("records a rate limit and waits for the network's reset time: a second refresh answers the same queued job", async () => {
    const tenant = await createTenant();
    const { account } = await connectMastodon(tenant);
    const reset = new Date(Date.now() + 9 * 60_000).toISOString();
    await failNextAtMastodon({
      path: '/api/v1/accounts/verify_credentials',
      status: 429,
      headers: { 'x-ratelimit-reset': reset },
      body: { error: 'Too many requests' },
    });
    const first = await refreshAnalytics(tenant, account.id);
    expect(first.status).toBe(202);
    const body = await analyticsWhen(tenant.owner.token, analyticsUrl(tenant.workspaceId), (o) => o.accounts[0]?.status === 'rate_limited');
    expect(body.accounts[0]).toMatchObject({ error_code: 'provider_rate_limited', next_sync_at: reset, last_synced_at: null, stale: true });
    expect(body.coverage[0]).toMatchObject({
      status: 'failed',
      failure_code: 'provider_rate_limited',
      next_eligible_at: reset,
      last_attempted_at: expect.stringMatching(RFC3339_MS),
    });
    const second = await refreshAnalytics(tenant, account.id);
    expect(second.status).toBe(202);
    expect(second.body.job_id).toBe(first.body.job_id);
  });

  it('a rate-limited growth refresh is recorded in the sync state and stays the one queued refresh until the reset', async () => {
    const tenant = await createTenant();
    const { account } = await connectMastodon(tenant);
    const reset = new Date(Date.now() + 7 * 60_000).toISOString();
    await failNextAtMastodon({
      path: '/api/v2/suggestions',
      status: 429,
      headers: { 'x-ratelimit-reset': reset },
      body: { error: 'Too many requests' },
    });
    const refresh = () =>
      call('POST', '/growth/refresh', { token: tenant.owner.token, body: { workspace_id: tenant.workspaceId, account_id: account.id } });
    const first = await refresh();
    expect(first.status).toBe(202);
    const growth = await growthWhen(tenant.owner.token, tenant.workspaceId, account.id, (b) => b.sync_state.status === 'rate_limited');
    expect(growth).toMatchObject({
      items: [],
      sync_state: { error_code: 'provider_rate_limited', last_success_at: null, last_attempted_at: expect.stringMatching(RFC3339_MS) },
    });
    const second = await refresh();
    expect(second.status).toBe(202);
    expect(second.body).toEqual({ $schema: expect.any(String), job_id: first.body.job_id, status: 'queued' });
    // The state still tells why nothing was refreshed.
    expect((await call('GET', growthUrl(tenant.workspaceId, account.id), { token: tenant.owner.token })).body.sync_state.status).toBe(
      'rate_limited',
    );
  });

  it('a refused grant is permission_required for analytics and growth, and publishing raises account needs-attention', async () => {
    const tenant = await createTenant();
    const { account } = await connectMastodon(tenant);
    await failNextAtMastodon({ path: '/api/v1/accounts/verify_credentials', status: 401, body: { error: 'The access token was revoked' } });
    expect((await refreshAnalytics(tenant, account.id)).status).toBe(202);
    const body = await analyticsWhen(
      tenant.owner.token,
      analyticsUrl(tenant.workspaceId),
      (o) => o.accounts[0]?.status === 'permission_required',
    );
    expect(body.accounts[0]).toMatchObject({ error_code: 'provider_auth_rejected', error_message: expect.stringContaining('reconnect') });
    expect(
      (
        await call('POST', '/growth/refresh', {
          token: tenant.owner.token,
          body: { workspace_id: tenant.workspaceId, account_id: account.id },
        })
      ).status,
    ).toBe(202);
    const growth = await growthWhen(
      tenant.owner.token,
      tenant.workspaceId,
      account.id,
      (b) => b.sync_state.status === 'permission_required',
    );
    expect(growth.sync_state).toMatchObject({ error_code: 'account_reconnect_required', last_success_at: null });
    await eventually(async () => {
      const events = await accountEvents([account.id]);
      expect(events.filter((e) => e.subject === ACCOUNT_NEEDS_ATTENTION_SUBJECT)).toHaveLength(1);
    }, 10_000);
    expect((await call('GET', growthUrl(tenant.workspaceId, account.id), { token: tenant.owner.token })).status).toBe(200);
  });
});
