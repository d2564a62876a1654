import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { call, expectProblem, PASSWORD, registerUser, TestUser } from '../support/api.js';
import { adminCall, locations, registerAdmin, workspaceToken } from '../support/admin.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createOrganization, createWorkspace, joinWorkspace } from '../support/tenancy.js';

interface User {
  id: string;
  email: string;
  display_name: string;
  created_at: string;
  last_active_at: string;
}

describe('admin: user directory (E9) and overview (E7)', () => {
  let admin: TestUser;
  const tag = `dir${randomUUID().slice(0, 8)}`;
  const members: TestUser[] = [];
  const users = (query: string, token = admin.token) => adminCall('GET', `/admin/users${query}`, { token });

  beforeAll(async () => {
    admin = await registerAdmin();
    // Three users only this suite can find: display names share the tag; emails sort differently.
    for (const name of ['Charlie', 'alice', 'Bob']) {
      const email = `${name.toLowerCase()}-${tag}@example.com`;
      const response = await call('POST', '/auth/register', {
        body: { email, password: PASSWORD, display_name: `${name} ${tag.toUpperCase()}` },
      });
      expect(response.status).toBe(201);
      members.push({
        email,
        password: PASSWORD,
        token: response.body.access_token,
        refreshToken: response.body.refresh_token,
        id: response.body.user.id,
      });
    }
    // Charlie owns an organization with two workspaces and brings alice into one of them; Bob has none.
    const organizationId = await createOrganization(members[0]);
    const workspaceId = await createWorkspace(members[0], organizationId, 'One');
    await createWorkspace(members[0], organizationId, 'Two');
    await joinWorkspace(members[0], workspaceId, 'viewer', members[1]);
  });

  it('answers the newest users first, 25 a page, with usage counts', async () => {
    const response = await users('');
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'InstanceUserPage');
    expect(response.body).toMatchObject({ page: 1, per_page: 25, usage_complete: true });
    expect(response.body.total).toBeGreaterThanOrEqual(4);
    expect(response.body.total_pages).toBe(Math.ceil(response.body.total / 25));
    const created = response.body.users.map((u: User) => u.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const newest = response.body.users.find((u: User) => u.id === members[2].id);
    expect(newest).toEqual({
      id: members[2].id,
      email: members[2].email,
      display_name: `Bob ${tag.toUpperCase()}`,
      avatar_url: '',
      is_admin: false,
      created_at: expect.stringMatching(/Z$/),
      last_active_at: expect.stringMatching(/Z$/),
      organization_count: 0,
      workspace_count: 0,
      publication_count: 0,
      social_account_count: 0,
      media_item_count: 0,
      media_bytes: 0,
      video_project_count: 0,
      image_design_count: 0,
      plan_ids: [],
    });
    // Memberships are counted by accounts for the whole page at once.
    const mine = (await users(`?search=${tag}`)).body.users;
    const counts = (id: string) => mine.find((u: User) => u.id === id);
    expect(counts(members[0].id)).toMatchObject({ organization_count: 1, workspace_count: 2 });
    expect(counts(members[1].id)).toMatchObject({ organization_count: 1, workspace_count: 1 });
  });

  it('searches email or display name case-insensitively, pages, sorts and orders', async () => {
    const all = await users(`?search=${tag.toUpperCase()}`);
    expect(all.body).toMatchObject({ total: 3, total_pages: 1 });
    expect(all.body.users.map((u: User) => u.id)).toEqual([members[2].id, members[1].id, members[0].id]);
    const byEmail = await users(`?search=alice-${tag}&sort=email`);
    expect(byEmail.body.users.map((u: User) => u.id)).toEqual([members[1].id]);

    const pageOne = await users(`?search=${tag}&per_page=2&sort=display_name&direction=asc`);
    expect(pageOne.body).toMatchObject({ page: 1, per_page: 2, total: 3, total_pages: 2 });
    expect(pageOne.body.users.map((u: User) => u.display_name.split(' ')[0])).toEqual(['alice', 'Bob']);
    const pageTwo = await users(`?search=${tag}&per_page=2&page=2&sort=display_name&direction=asc`);
    expect(pageTwo.body.users.map((u: User) => u.display_name.split(' ')[0])).toEqual(['Charlie']);
    const beyond = await users(`?search=${tag}&per_page=2&page=3`);
    expect(beyond.body).toMatchObject({ page: 3, total: 3, users: [] });

    const emailDesc = await users(`?search=${tag}&sort=email&direction=desc`);
    expect(emailDesc.body.users.map((u: User) => u.email.split('-')[0])).toEqual(['charlie', 'bob', 'alice']);
    const oldest = await users(`?search=${tag}&direction=asc`);
    expect(oldest.body.users.map((u: User) => u.id)).toEqual(members.map((m) => m.id));

    // Signing in makes a user the most recently active.
    expect((await call('POST', '/auth/login', { body: { email: members[0].email, password: PASSWORD } })).status).toBe(200);
    const active = await users(`?search=${tag}&sort=last_active_at`);
    expect(active.body.users[0].id).toBe(members[0].id);
    const byWorkspaces = await users(`?search=${tag}&sort=workspace_count`);
    expect(byWorkspaces.body.users.map((u: User) => u.id)).toEqual([members[0].id, members[1].id, members[2].id]);
    const byWorkspacesAsc = await users(`?search=${tag}&sort=workspace_count&direction=asc`);
    expect(byWorkspacesAsc.body.users.map((u: User) => u.id)).toEqual([members[2].id, members[1].id, members[0].id]);
    // Accounts cannot order by a count publishing owns: the tie-breaker (created_at, then id) orders, newest first either way.
    for (const direction of ['asc', 'desc']) {
      const byPublications = await users(`?search=${tag}&sort=publication_count&direction=${direction}`);
      expect(byPublications.body.total).toBe(3);
      expect(byPublications.body.users.map((u: User) => u.id)).toEqual([members[2].id, members[1].id, members[0].id]);
    }
    // LIKE wildcards are matched literally.
    expect((await users('?search=%25%25%25')).body.total).toBe(0);
    expect((await users(`?search=${'a'.repeat(200)}`)).status).toBe(200);
  });

  it.each([
    ['page=0', 'query.page'],
    ['page=-1', 'query.page'],
    ['page=abc', 'query.page'],
    ['page=1.5', 'query.page'],
    ['page=99999999999999999999', 'query.page'],
    // Past the documented cap of 2^53−1, still below 2^63−1.
    ['page=9007199254740992', 'query.page'],
    ['page=9223372036854775807', 'query.page'],
    ['per_page=0', 'query.per_page'],
    ['per_page=101', 'query.per_page'],
    ['per_page=ten', 'query.per_page'],
    [`search=${'s'.repeat(201)}`, 'query.search'],
    ['sort=password_hash', 'query.sort'],
    ['direction=sideways', 'query.direction'],
    ['page=1&page=2', 'query.page'],
    ['role=admin', 'query.role'],
  ])('refuses ?%s with 422 at %s', async (query, location) => {
    const problem = expectProblem(await users(`?${query}`), 422, 'validation_failed');
    expect(new Set(locations(problem))).toEqual(new Set([location]));
  });

  it('E7 answers totals and 30 daily points ending today (UTC)', async () => {
    const response = await adminCall('GET', '/admin/overview', { token: admin.token });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'InstanceOverview');
    const body = response.body;
    // Publication totals come from publishing (the shared stack holds other
    // suites' publications): publishing/reporting.e2e-spec.ts counts them.
    expect(body).toMatchObject({
      total_publications: expect.any(Number),
      published_last_30_days: expect.any(Number),
      usage_complete: true,
    });
    expect(body.total_organizations).toBeGreaterThanOrEqual(1);
    expect(body.total_workspaces).toBeGreaterThanOrEqual(2);
    // Counted live: one more organization with one workspace shows at once.
    const organizationId = await createOrganization(admin);
    await createWorkspace(admin, organizationId, 'Counted');
    const after = (await adminCall('GET', '/admin/overview', { token: admin.token })).body;
    expect(after.total_organizations).toBe(body.total_organizations + 1);
    expect(after.total_workspaces).toBe(body.total_workspaces + 1);
    expect(body.total_users).toBe((await users('')).body.total);
    for (const trend of [body.user_registration_trend, body.publication_trend]) {
      expect(trend).toHaveLength(30);
      expect(trend[29].date).toBe(new Date().toISOString().slice(0, 10));
      expect(trend[0].date).toBe(new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10));
    }
    expect(body.user_registration_trend[29].value).toBeGreaterThanOrEqual(4);
    expect(body.new_users_last_30_days).toBe(body.user_registration_trend.reduce((n: number, p: { value: number }) => n + p.value, 0));
    // Delivery suites publish on the shared stack, so the trend is counted, not assumed empty: it adds up to published_last_30_days.
    expect(body.publication_trend.every((p: { value: number }) => Number.isInteger(p.value) && p.value >= 0)).toBe(true);
    expect(body.published_last_30_days).toBe(body.publication_trend.reduce((n: number, p: { value: number }) => n + p.value, 0));
  });

  it('a usage report that does not come in time leaves its counts at 0 and says so; the page still answers', async () => {
    // A silent member of the accounts queue group: NATS hands it some of the usage requests, which then time out.
    const nats = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
    const silent = [
      nats.subscribe('accounts.usage.for-users', { queue: 'accounts', callback: () => undefined }),
      nats.subscribe('accounts.usage.totals', { queue: 'accounts', callback: () => undefined }),
    ];
    try {
      let page: any;
      for (let attempt = 0; attempt < 12 && page?.usage_complete !== false; attempt++) page = (await users(`?search=${tag}`)).body;
      expect(page).toMatchObject({ total: 3, usage_complete: false });
      expect(page.users.map((u: User) => u.id)).toEqual([members[2].id, members[1].id, members[0].id]);
      expect(page.users.every((u: { workspace_count: number }) => u.workspace_count === 0)).toBe(true);
      let overview: any;
      for (let attempt = 0; attempt < 12 && overview?.usage_complete !== false; attempt++) {
        overview = (await adminCall('GET', '/admin/overview', { token: admin.token })).body;
      }
      expect(overview).toMatchObject({ usage_complete: false, total_users: 0 });
      expect(overview.user_registration_trend).toHaveLength(30);
    } finally {
      silent.forEach((subscription) => subscription.unsubscribe());
      await nats.drain();
    }
  }, 60_000);

  it('answers 403 to a user who is not an instance admin, and to a workspace-bound token', async () => {
    const user = await registerUser();
    expectProblem(await users('', user.token), 403, 'admin_required');
    expectProblem(await adminCall('GET', '/admin/overview', { token: user.token }), 403, 'admin_required');
    // Authorization comes before validation: a non-admin learns nothing from bad input either.
    expectProblem(await users('?per_page=1000', user.token), 403);
    const token = await workspaceToken(admin);
    expectProblem(await users('', token), 403, 'workspace_token_forbidden');
    expectProblem(await adminCall('GET', '/admin/overview', { token }), 403, 'workspace_token_forbidden');
  });
});
