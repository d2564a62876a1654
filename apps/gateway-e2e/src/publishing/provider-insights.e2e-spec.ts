import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ACCOUNT_DISCONNECTED_SUBJECT,
  ACCOUNT_NEEDS_ATTENTION_SUBJECT,
  ProviderInsightsPatterns as P,
  sandboxAccountMetrics,
  sandboxFollowRecommendations,
  sandboxFollowState,
  sandboxPostMetrics,
} from '@social/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { call, eventually, RFC3339_MS } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { publicationWhen, publishNow, settled } from '../support/delivery.js';
import {
  clearBlueskyFailures,
  createBlueskyAccount,
  expireBlueskyAccessTokens,
  failNextAtBluesky,
  setBlueskyPostCounts,
} from '../support/fake-bluesky.js';
import {
  clearMastodonFailures,
  failNextAtMastodon,
  mastodonAccount,
  mastodonFollows,
  setMastodonStatusCounts,
  mastodonAppForSuite,
} from '../support/fake-mastodon.js';
import { clearNetworkFailures } from '../support/fake-network.js';
import { accountEvents, publishingRpc, PublishingRpc } from '../support/provider-insights.js';
import { connectThroughOAuth } from '../support/oauth-account.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { createTenant, joinWorkspace, Tenant } from '../support/tenancy.js';

/**
 * Issue 15 part 1: what publishing answers the insights service over NATS
 * (no HTTP route reaches these). Accounts are connected and posts published
 * through the gateway; the suite then asks as insights does and checks exact
 * answers: the sandbox's deterministic numbers, the fakes' counters, rate
 * limits with the network's reset time, a refused grant, another tenant's
 * account, bad payloads, and the account.disconnected event.
 */
describe('publishing: provider calls for insights (internal NATS)', () => {
  const db = testDatabase();
  let rpc: PublishingRpc;
  const { instanceUrl, clientSecret } = mastodonAppForSuite('insights');

  beforeAll(async () => {
    rpc = await publishingRpc();
  });

  afterEach(async () => {
    await clearMastodonFailures();
    await clearBlueskyFailures();
    await clearNetworkFailures();
  });

  afterAll(async () => {
    await rpc.close();
  });

  const externalIdOf = async (accountId: string): Promise<string> =>
    (await db.query(`SELECT external_id FROM publishing.social_accounts WHERE id = $1`, [accountId])).rows[0].external_id;

  /** Publishes a draft now to these accounts and waits until it settles: the publication, every rendition live. */
  async function publish(tenant: Tenant, accountIds: string[], extra: Record<string, unknown> = {}) {
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, extra);
    const started = await publishNow(tenant.owner.token, draft.id, { expected_revision: draft.revision, account_ids: accountIds });
    expect(started.status).toBe(200);
    const done = await publicationWhen(tenant.owner.token, draft.id, settled, 20_000);
    expect(done.status).toBe('published');
    return done;
  }

  const accountStatus = async (tenant: Tenant, accountId: string) =>
    (await call('GET', `/social-accounts/${accountId}`, { token: tenant.owner.token })).body.status;

  describe('listing accounts and published renditions', () => {
    let a: Tenant;
    let b: Tenant;
    let first: { id: string; username: string };
    let second: { id: string; username: string };
    let other: { id: string; username: string };

    beforeAll(async () => {
      [a, b] = await Promise.all([createTenant(), createTenant()]);
      first = await connectSandboxAccount(a.owner.token, a.workspaceId, `ins_${randomBytes(4).toString('hex')}`);
      second = await connectSandboxAccount(a.owner.token, a.workspaceId, `ins_${randomBytes(4).toString('hex')}`);
      other = await connectSandboxAccount(b.owner.token, b.workspaceId, `ins_${randomBytes(4).toString('hex')}`);
    });

    it("answers a workspace's accounts by id, every member, and pages with after_id", async () => {
      const page = await rpc.ask(P.listAccounts, { workspace_id: a.workspaceId });
      const ids = [first.id, second.id].sort();
      expect(page).toEqual({
        accounts: ids.map((id) => ({
          id,
          workspace_id: a.workspaceId,
          platform: 'sandbox',
          username: id === first.id ? first.username : second.username,
          display_name: `Sandbox ${id === first.id ? first.username : second.username}`,
          avatar_url: '',
          status: 'active',
          scopes: [],
          connected_at: expect.stringMatching(RFC3339_MS),
        })),
        next_after_id: '',
      });
      const one = await rpc.ask(P.listAccounts, { workspace_id: a.workspaceId, limit: 1 });
      expect(one.accounts.map((account: any) => account.id)).toEqual([ids[0]]);
      expect(one.next_after_id).toBe(ids[0]);
      const rest = await rpc.ask(P.listAccounts, { workspace_id: a.workspaceId, limit: 1, after_id: one.next_after_id });
      expect(rest).toEqual({ accounts: [expect.objectContaining({ id: ids[1] })], next_after_id: '' });
    });

    it("leaves another workspace's ids out when a workspace is named; account_ids alone finds them", async () => {
      const scoped = await rpc.ask(P.listAccounts, { workspace_id: a.workspaceId, account_ids: [first.id, other.id] });
      expect(scoped.accounts.map((account: any) => account.id)).toEqual([first.id]);
      const byIds = await rpc.ask(P.listAccounts, { account_ids: [other.id, first.id] });
      expect(byIds.accounts.map((account: any) => account.id).sort()).toEqual([first.id, other.id].sort());
      expect(byIds.accounts.find((account: any) => account.id === other.id).workspace_id).toBe(b.workspaceId);
    });

    it('answers published renditions oldest first with every member, filtered and keyset-paged', async () => {
      const one = await publish(a, [first.id], { title: 'First post', source_text: `Counting things ${randomUUID()}` });
      const two = await publish(a, [first.id, second.id], { title: 'Second post', source_text: `More things ${randomUUID()}` });
      await publish(b, [other.id]);
      const page = await rpc.ask(P.listPublishedRenditions, { workspace_id: a.workspaceId });
      const renditions = [...one.renditions, ...two.renditions];
      expect(page.next_after).toBeNull();
      expect(page.renditions).toHaveLength(3);
      expect(page.renditions.map((r: any) => r.rendition_id).sort()).toEqual(renditions.map((r: any) => r.id).sort());
      const sorted = [...page.renditions].sort(
        (x: any, y: any) => x.published_at.localeCompare(y.published_at) || x.rendition_id.localeCompare(y.rendition_id),
      );
      expect(page.renditions).toEqual(sorted);
      const rendition = one.renditions[0];
      const [summary] = page.renditions.filter((r: any) => r.rendition_id === rendition.id);
      const { rows } = await db.query(`SELECT body FROM publishing.renditions WHERE id = $1`, [rendition.id]);
      expect(summary).toEqual({
        rendition_id: rendition.id,
        publication_id: one.id,
        workspace_id: a.workspaceId,
        social_account_id: first.id,
        platform: 'sandbox',
        title: 'First post',
        content_profile: 'short_text',
        excerpt: rows[0].body.slice(0, 200),
        external_id: rendition.external_id,
        external_url: rendition.external_url,
        published_at: expect.stringMatching(RFC3339_MS),
      });
      expect(summary.excerpt.length).toBeGreaterThan(0);

      // One account only, one per page.
      const p1 = await rpc.ask(P.listPublishedRenditions, { social_account_id: first.id, limit: 1 });
      expect(p1.renditions).toHaveLength(1);
      expect(p1.next_after).toEqual({ published_at: p1.renditions[0].published_at, rendition_id: p1.renditions[0].rendition_id });
      const p2 = await rpc.ask(P.listPublishedRenditions, { social_account_id: first.id, limit: 1, after: p1.next_after });
      expect(p2.renditions).toHaveLength(1);
      expect(p2.next_after).toBeNull();
      const past = { published_at: p2.renditions[0].published_at, rendition_id: p2.renditions[0].rendition_id };
      expect(await rpc.ask(P.listPublishedRenditions, { social_account_id: first.id, after: past })).toEqual({
        renditions: [],
        next_after: null,
      });
      // A null cursor (the last page's next_after passed back as it is) is the first page.
      expect((await rpc.ask(P.listPublishedRenditions, { social_account_id: first.id, after: null })).renditions).toHaveLength(2);
      expect([...p1.renditions, ...p2.renditions].map((r: any) => r.social_account_id)).toEqual([first.id, first.id]);
      expect(p1.renditions[0].rendition_id).toBe(rendition.id);

      // By ids, scoped to the workspace: B's rendition is not A's.
      const byIds = await rpc.ask(P.listPublishedRenditions, { workspace_id: b.workspaceId, rendition_ids: [rendition.id] });
      expect(byIds).toEqual({ renditions: [], next_after: null });
    });

    it("a thread's excerpt is what was sent first (at most 200 characters)", async () => {
      const created = await createPublication(a.owner.token, a.workspaceId, { content_profile: 'thread', title: '', source_text: '' });
      const first = `Thread opener ${randomUUID()} ${'x'.repeat(240)}`;
      const patched = await call('PATCH', `/publications/${created.id}`, {
        token: a.owner.token,
        body: { expected_revision: created.revision, segments: [{ body: first }, { body: `Second part ${randomUUID()}` }] },
      });
      expect(patched.status).toBe(200);
      const started = await publishNow(a.owner.token, created.id, { expected_revision: patched.body.revision, account_ids: [second.id] });
      expect(started.status).toBe(200);
      const done = await publicationWhen(a.owner.token, created.id, settled, 20_000);
      expect(done.status).toBe('published');
      const { rows } = await db.query(
        `SELECT s.body FROM publishing.rendition_segments s WHERE s.rendition_id = $1 ORDER BY s.position LIMIT 1`,
        [done.renditions[0].id],
      );
      const page = await rpc.ask(P.listPublishedRenditions, { rendition_ids: [done.renditions[0].id] });
      expect(page.renditions).toEqual([
        expect.objectContaining({ rendition_id: done.renditions[0].id, content_profile: 'thread', excerpt: rows[0].body.slice(0, 200) }),
      ]);
      expect(page.renditions[0].excerpt.startsWith('Thread opener')).toBe(true);
      expect(page.renditions[0].excerpt).toHaveLength(200);
    });

    it('refuses bad payloads with 422 naming each member, never a 500 or a hang', async () => {
      const bad = await rpc.problem(P.listAccounts, { workspace_id: 'nope', limit: 0, after_id: 7, extra: true });
      expect(bad.status).toBe(422);
      expect((bad.options.errors ?? []).map((error) => error.location).sort()).toEqual([
        'body.after_id',
        'body.extra',
        'body.limit',
        'body.workspace_id',
      ]);
      const cursor = await rpc.problem(P.listPublishedRenditions, {
        after: { published_at: 'yesterday', rendition_id: first.id },
        limit: 1001,
      });
      expect((cursor.options.errors ?? []).map((error) => error.location).sort()).toEqual(['body.after.published_at', 'body.limit']);
      const metrics = await rpc.problem(P.postMetrics, {
        workspace_id: a.workspaceId,
        account_id: first.id,
        external_ids: Array.from({ length: 101 }, (_, i) => `p${i}`),
      });
      expect(metrics.status).toBe(422);
      expect((metrics.options.errors ?? []).map((error) => error.location)).toEqual(['body.external_ids']);
      const missing = await rpc.problem(P.follow, { workspace_id: a.workspaceId });
      expect((missing.options.errors ?? []).map((error) => error.location).sort()).toEqual(['body.account_id', 'body.remote_account_id']);
      const notObject = await rpc.problem(P.recommendations, ['x']);
      expect(notObject.status).toBe(422);
    });
  });

  describe('the sandbox', () => {
    let tenant: Tenant;
    let account: { id: string; username: string };
    let externalId: string;

    beforeAll(async () => {
      tenant = await createTenant();
      account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
      externalId = await externalIdOf(account.id);
    });

    const ref = () => ({ workspace_id: tenant.workspaceId, account_id: account.id });

    it('answers the deterministic counters of sandbox-metrics.ts', async () => {
      expect(await rpc.ask(P.accountMetrics, ref())).toEqual({ status: 'ok', data: sandboxAccountMetrics(externalId) });
    });

    it('answers each published post with sandboxPostMetrics(external_id), in the order asked, each once', async () => {
      const done = await publish(tenant, [account.id], { source_text: `Sandbox numbers ${randomUUID()}` });
      const postId = done.renditions[0].external_id;
      const expected = (id: string) => {
        const { externalId: external_id, ...counters } = sandboxPostMetrics(id);
        return { external_id, ...counters };
      };
      const answer = await rpc.ask(P.postMetrics, { ...ref(), external_ids: [postId, 'post-0000000000000000', postId] });
      expect(answer).toEqual({ status: 'ok', data: [expected(postId), expected('post-0000000000000000')] });
      expect(await rpc.ask(P.postMetrics, { ...ref(), external_ids: [] })).toEqual({ status: 'ok', data: [] });
    });

    it('answers sandboxFollowRecommendations and follows one with sandboxFollowState', async () => {
      const answer = await rpc.ask(P.recommendations, { ...ref(), limit: 20 });
      expect(answer).toEqual({
        status: 'ok',
        data: sandboxFollowRecommendations(externalId, 20).map((r) => ({
          remote_account_id: r.remoteAccountId,
          handle: r.handle,
          display_name: r.displayName,
          avatar_url: r.avatarUrl,
          bio: r.bio,
          profile_url: r.profileUrl,
          followers_count: r.followersCount,
          following_count: r.followingCount,
          mutual_count: r.mutualCount,
          mutuals: r.mutuals,
          score: r.score,
          signals: r.signals,
        })),
      });
      const states = new Set<string>();
      for (const recommendation of answer.data) {
        const followed = await rpc.ask(P.follow, { ...ref(), remote_account_id: recommendation.remote_account_id });
        expect(followed).toEqual({ status: 'ok', data: { follow_state: sandboxFollowState(recommendation.remote_account_id) } });
        // The documented rule, against the count the recommendation showed: odd followers approve their followers.
        expect(followed.data.follow_state).toBe(recommendation.followers_count % 2 === 1 ? 'requested' : 'following');
        states.add(followed.data.follow_state);
      }
      // Twenty peers: both outcomes occur (odd/even seeded followers; all twenty alike is a 2^-19 chance).
      expect([...states].sort()).toEqual(['following', 'requested']);
    });

    it('an account the sandbox does not have is not_found', async () => {
      expect(await rpc.ask(P.follow, { ...ref(), remote_account_id: 'someone-else' })).toEqual({
        status: 'not_found',
        code: 'provider_not_found',
        message: expect.any(String),
      });
    });

    it("another workspace's account, or none, is 404 account_not_found for every call (nothing is revealed)", async () => {
      const stranger = await createTenant();
      const requests: Array<[string, Record<string, unknown>]> = [
        [P.accountMetrics, {}],
        [P.postMetrics, { external_ids: ['post-1'] }],
        [P.recommendations, { limit: 3 }],
        [P.follow, { remote_account_id: 'sandbox-0000000000000000' }],
      ];
      for (const [pattern, extra] of requests) {
        for (const target of [
          { workspace_id: stranger.workspaceId, account_id: account.id },
          { workspace_id: tenant.workspaceId, account_id: randomUUID() },
        ]) {
          const problem = await rpc.problem(pattern, { ...target, ...extra });
          expect({ status: problem.status, code: problem.code }).toEqual({ status: 404, code: 'account_not_found' });
        }
      }
    });

    it('disconnecting writes account.disconnected once; the account is then gone for insights too', async () => {
      const gone = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
      const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
      // A viewer cannot disconnect: no event.
      expect((await call('DELETE', `/social-accounts/${gone.id}`, { token: viewer.token })).status).toBe(403);
      const deleted = await call('DELETE', `/social-accounts/${gone.id}`, { token: tenant.owner.token });
      expect(deleted.status).toBe(204);
      await eventually(async () => {
        const events = await accountEvents([gone.id]);
        expect(events).toEqual([
          {
            subject: ACCOUNT_DISCONNECTED_SUBJECT,
            payload: {
              workspace_id: tenant.workspaceId,
              social_account_id: gone.id,
              platform: 'sandbox',
              occurred_at: expect.stringMatching(RFC3339_MS),
            },
          },
        ]);
      }, 10_000);
      expect((await rpc.ask(P.listAccounts, { account_ids: [gone.id] })).accounts).toEqual([]);
      const problem = await rpc.problem(P.accountMetrics, { workspace_id: tenant.workspaceId, account_id: gone.id });
      expect(problem.code).toBe('account_not_found');
    });
  });

  it('what an adapter does not offer (TikTok follows no one) answers unsupported for every such call, never pretending', async () => {
    const tenant = await createTenant();
    // A TikTok account as the OAuth connect stores it (its grant does not matter: nothing is asked of TikTok).
    const id = randomUUID();
    await db.query(
      `INSERT INTO publishing.social_accounts (id, workspace_id, platform, external_id, username, display_name, avatar_url, instance_url,
         status, credentials, connected_by, created_at, updated_at)
       VALUES ($1, $2, 'tiktok', $3, 'ada_tiktok', 'Ada', '', '', 'active', '', $4, now(), now())`,
      [id, tenant.workspaceId, `tiktok-${randomUUID()}`, tenant.owner.id],
    );
    const ref = { workspace_id: tenant.workspaceId, account_id: id };
    const requests: Array<[string, Record<string, unknown>, string]> = [
      [P.recommendations, { limit: 3 }, 'Follow recommendations'],
      [P.follow, { remote_account_id: '12' }, 'Following accounts'],
    ];
    for (const [pattern, extra, capability] of requests) {
      expect(await rpc.ask(pattern, { ...ref, ...extra })).toEqual({
        status: 'unsupported',
        code: 'provider_capability_unavailable',
        message: `${capability} is not available for tiktok accounts yet.`,
      });
    }
    expect(await accountStatus(tenant, id)).toBe('active');
  });

  describe('mastodon', () => {
    /** A mastodon account connected through the OAuth flow; the fake server knows its token. */
    async function connectMastodon(tenant: Tenant, counters: { followers_count?: number; following_count?: number } = {}, scope?: string) {
      const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
      const username = `ada_${randomBytes(4).toString('hex')}`;
      const remote = await mastodonAccount({ access_token: tokens.access_token, username, display_name: 'Ada', ...counters });
      const tokenResponse = scope === undefined ? {} : { token_response: { ...tokens, token_type: 'bearer', expires_in: 7200, scope } };
      const { account } = await connectThroughOAuth(
        tenant,
        'mastodon',
        { client_secret: clientSecret, ...tokens, profile: { id: remote.id, username }, ...tokenResponse },
        { instance_url: instanceUrl },
      );
      return { account, remote };
    }

    it('counters, post metrics, suggestions and follows come from the server', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant, { followers_count: 431, following_count: 27 });
      const peer = await mastodonAccount({
        access_token: `at-${randomUUID()}`,
        username: `peer_${randomBytes(3).toString('hex')}`,
        locked: true,
        followers_count: 88,
      });
      const ref = { workspace_id: tenant.workspaceId, account_id: account.id };
      const done = await publish(tenant, [account.id], { source_text: `Measured on mastodon ${randomUUID()}` });
      const statusId = done.renditions[0].external_id;
      await setMastodonStatusCounts(statusId, { favourites_count: 31, replies_count: 4, reblogs_count: 6 });

      expect(await rpc.ask(P.accountMetrics, ref)).toEqual({ status: 'ok', data: { followers: 431, following: 27, posts: 1 } });
      expect(await rpc.ask(P.postMetrics, { ...ref, external_ids: [statusId, '1'] })).toEqual({
        status: 'ok',
        data: [{ external_id: statusId, views: 0, likes: 31, comments: 4, reposts: 6 }],
      });
      const suggestions = await rpc.ask(P.recommendations, { ...ref, limit: 100 });
      expect(suggestions.status).toBe('ok');
      expect(suggestions.data.find((r: any) => r.remote_account_id === peer.id)).toMatchObject({
        handle: peer.username,
        followers_count: 88,
        signals: ['featured'],
      });
      expect(suggestions.data.some((r: any) => r.remote_account_id === remote.id)).toBe(false);

      expect(await rpc.ask(P.follow, { ...ref, remote_account_id: peer.id })).toEqual({
        status: 'ok',
        data: { follow_state: 'requested' },
      });
      expect((await mastodonFollows()).filter((follow) => follow.account_id === remote.id)).toEqual([
        { account_id: remote.id, target_id: peer.id, requested: true },
      ]);
      expect(await rpc.ask(P.follow, { ...ref, remote_account_id: '31337' })).toMatchObject({ status: 'not_found' });
    });

    it('a grant without write:follows answers permission_required naming it, sends nothing, and leaves the account active', async () => {
      const tenant = await createTenant();
      const granted = 'read:accounts read:statuses read:follows write:statuses write:media';
      const { account, remote } = await connectMastodon(tenant, {}, granted);
      const peer = await mastodonAccount({ access_token: `at-${randomUUID()}`, username: `peer_${randomBytes(3).toString('hex')}` });
      expect((await rpc.ask(P.listAccounts, { account_ids: [account.id] })).accounts[0]).toMatchObject({
        platform: 'mastodon',
        scopes: granted.split(' '),
        status: 'active',
      });
      expect(await rpc.ask(P.follow, { workspace_id: tenant.workspaceId, account_id: account.id, remote_account_id: peer.id })).toEqual({
        status: 'permission_required',
        missing_scopes: ['write:follows'],
        code: 'provider_scope_missing',
        message: expect.any(String),
      });
      expect((await mastodonFollows()).filter((follow) => follow.account_id === remote.id)).toEqual([]);
      expect(await accountStatus(tenant, account.id)).toBe('active');
      // The rest still works with this grant.
      expect(await rpc.ask(P.accountMetrics, { workspace_id: tenant.workspaceId, account_id: account.id })).toMatchObject({ status: 'ok' });
    });

    it(
      "429 is rate_limited until the server's X-RateLimit-Reset; " + '5xx is temporarily_unavailable; nothing changes on the account',
      async () => {
        const tenant = await createTenant();
        const { account } = await connectMastodon(tenant);
        const ref = { workspace_id: tenant.workspaceId, account_id: account.id };
        const reset = new Date(Date.now() + 9 * 60_000).toISOString();
        await failNextAtMastodon({
          path: '/api/v1/accounts/verify_credentials',
          status: 429,
          headers: { 'x-ratelimit-reset': reset },
          body: { error: 'Too many requests' },
        });
        expect(await rpc.ask(P.accountMetrics, ref)).toEqual({
          status: 'rate_limited',
          retry_at: reset,
          code: 'provider_rate_limited',
          message: expect.any(String),
        });
        await failNextAtMastodon({ path: '/api/v2/suggestions', status: 503 });
        const before = Date.now();
        const down = await rpc.ask(P.recommendations, { ...ref, limit: 5 });
        expect(down).toEqual({
          status: 'temporarily_unavailable',
          retry_at: expect.stringMatching(RFC3339_MS),
          code: 'provider_error',
          message: 'mastodon answered HTTP 503; try again later.',
        });
        expect(Date.parse(down.retry_at)).toBeGreaterThanOrEqual(before + 59_000);
        expect(await accountStatus(tenant, account.id)).toBe('active');
        expect(await rpc.ask(P.accountMetrics, ref)).toMatchObject({ status: 'ok' });
      },
    );

    it(
      'a refused token (401) answers permission_required, ' +
        'marks the account reconnect_required with one needs-attention, and the network is not asked again',
      async () => {
        const tenant = await createTenant();
        const { account } = await connectMastodon(tenant);
        const ref = { workspace_id: tenant.workspaceId, account_id: account.id };
        await failNextAtMastodon({
          path: '/api/v1/accounts/verify_credentials',
          status: 401,
          body: { error: 'The access token was revoked' },
        });
        expect(await rpc.ask(P.accountMetrics, ref)).toEqual({
          status: 'permission_required',
          missing_scopes: [],
          code: 'provider_auth_rejected',
          message: "mastodon refused the account's authorization; reconnect the account.",
        });
        expect(await accountStatus(tenant, account.id)).toBe('reconnect_required');
        // The server would now answer 503; a reconnect_required account is answered without asking it.
        await failNextAtMastodon({ path: '/api/v1/accounts/verify_credentials', status: 503 });
        expect(await rpc.ask(P.accountMetrics, ref)).toMatchObject({ status: 'permission_required', code: 'account_reconnect_required' });
        expect((await rpc.ask(P.listAccounts, { account_ids: [account.id] })).accounts[0].status).toBe('reconnect_required');
        await eventually(async () => {
          expect(await accountEvents([account.id])).toEqual([
            {
              subject: ACCOUNT_NEEDS_ATTENTION_SUBJECT,
              payload: {
                workspace_id: tenant.workspaceId,
                social_account_id: account.id,
                platform: 'mastodon',
                reason: 'grant_rejected',
                occurred_at: expect.stringMatching(RFC3339_MS),
              },
            },
          ]);
        }, 10_000);
      },
    );
  });

  describe('bluesky', () => {
    async function connectBluesky(tenant: Tenant) {
      const handle = `ins${randomBytes(4).toString('hex')}.bsky.social`;
      const password = `app-${randomUUID()}`;
      const did = await createBlueskyAccount({ handle, password, display_name: 'Ada', followers_count: 77, follows_count: 12 });
      const connected = await call('POST', '/social-accounts/connect', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, provider: 'bluesky', username: handle, app_password: password },
      });
      expect(connected.status).toBe(201);
      return { account: connected.body, did };
    }

    it("counters, post metrics (quotes count as reposts), follows as records, and 429 until the PDS's ratelimit-reset", async () => {
      const tenant = await createTenant();
      const { account } = await connectBluesky(tenant);
      const peer = await createBlueskyAccount({
        handle: `peer${randomBytes(4).toString('hex')}.bsky.social`,
        password: `app-${randomUUID()}`,
      });
      const ref = { workspace_id: tenant.workspaceId, account_id: account.id };
      const done = await publish(tenant, [account.id], { source_text: `Measured on bluesky ${randomUUID()}` });
      const uri = done.renditions[0].external_id;
      expect(uri).toMatch(/^at:\/\//);
      await setBlueskyPostCounts(uri, { likeCount: 19, replyCount: 2, repostCount: 5, quoteCount: 1 });

      expect(await rpc.ask(P.accountMetrics, ref)).toEqual({ status: 'ok', data: { followers: 77, following: 12, posts: 1 } });
      expect(await rpc.ask(P.postMetrics, { ...ref, external_ids: [uri] })).toEqual({
        status: 'ok',
        data: [{ external_id: uri, views: 0, likes: 19, comments: 2, reposts: 6 }],
      });
      const suggestions = await rpc.ask(P.recommendations, { ...ref, limit: 100 });
      expect(suggestions.status).toBe('ok');
      expect(suggestions.data.some((r: any) => r.remote_account_id === peer)).toBe(true);
      expect(await rpc.ask(P.follow, { ...ref, remote_account_id: peer })).toEqual({ status: 'ok', data: { follow_state: 'following' } });

      const reset = Math.floor(Date.now() / 1000) + 240;
      await failNextAtBluesky({
        path: '/xrpc/app.bsky.actor.getProfile',
        status: 429,
        headers: { 'ratelimit-reset': String(reset) },
        body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
      });
      expect(await rpc.ask(P.accountMetrics, ref)).toEqual({
        status: 'rate_limited',
        retry_at: new Date(reset * 1000).toISOString(),
        code: 'provider_rate_limited',
        message: expect.any(String),
      });
    });

    it('an expired session is renewed on the way (ExpiredToken → refreshSession), and the answer is ok', async () => {
      const tenant = await createTenant();
      const { account } = await connectBluesky(tenant);
      const sealed = async () =>
        (await db.query(`SELECT credentials FROM publishing.social_accounts WHERE id = $1`, [account.id])).rows[0].credentials;
      const before = await sealed();
      await expireBlueskyAccessTokens();
      expect(await rpc.ask(P.accountMetrics, { workspace_id: tenant.workspaceId, account_id: account.id })).toEqual({
        status: 'ok',
        data: { followers: 77, following: 12, posts: 0 },
      });
      // The renewed session was stored for the next call.
      expect(await sealed()).not.toBe(before);
      expect(await accountStatus(tenant, account.id)).toBe('active');
    });

    it('a refused session (401) answers permission_required and the account reads reconnect_required', async () => {
      const tenant = await createTenant();
      const { account } = await connectBluesky(tenant);
      await failNextAtBluesky({
        path: '/xrpc/app.bsky.actor.getSuggestions',
        status: 401,
        body: { error: 'AuthenticationRequired', message: 'Authentication Required' },
      });
      expect(await rpc.ask(P.recommendations, { workspace_id: tenant.workspaceId, account_id: account.id, limit: 5 })).toMatchObject({
        status: 'permission_required',
        code: 'provider_auth_rejected',
      });
      expect(await accountStatus(tenant, account.id)).toBe('reconnect_required');
    });
  });
});
