import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, locations, registerUser, RFC3339_MS } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';

const TIME = RFC3339_MS;
const members = (...ids: string[]) => ids.map((id) => ({ social_account_id: id }));
const createSet = (token: string, body: unknown) => call('POST', '/social-sets', { token, body });
const replaceSet = (token: string, id: string, body: unknown) => call('PUT', `/social-sets/${id}`, { token, body });
const getSet = (token: string, id: string) => call('GET', `/social-sets/${id}`, { token });
const listSets = (token: string, workspaceId: string) => call('GET', `/social-sets?workspace_id=${workspaceId}`, { token });

async function newSet(token: string, workspaceId: string, name: string, accountIds: string[] = [], isDefault?: boolean) {
  const response = await createSet(token, {
    workspace_id: workspaceId,
    name,
    accounts: members(...accountIds),
    ...(isDefault === undefined ? {} : { is_default: isDefault }),
  });
  expect(response.status).toBe(201);
  return response.body;
}

describe('publishing: social sets', () => {
  const db = testDatabase();

  it('creates a set (201, Location, every field) with its accounts in the order sent, and lists and reads it', async () => {
    const { owner, workspaceId } = await createTenant();
    const first = await connectSandboxAccount(owner.token, workspaceId, 'first.account');
    const second = await connectSandboxAccount(owner.token, workspaceId, 'second.account');
    const response = await createSet(owner.token, {
      workspace_id: workspaceId,
      name: 'Launch week',
      accounts: members(second.id, first.id),
    });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'SocialSet');
    const member = (id: string, username: string, order: number) => ({
      social_account_id: id,
      platform: 'sandbox',
      account_username: username,
      account_avatar_url: '',
      display_order: order,
      default_output_profile: '',
      default_settings: {},
      default_segment_settings: {},
    });
    expect(response.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/SocialSet\.json$/),
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      workspace_id: workspaceId,
      name: 'Launch week',
      is_default: false,
      accounts: [member(second.id, 'second.account', 0), member(first.id, 'first.account', 1)],
      created_at: expect.stringMatching(TIME),
      updated_at: response.body.created_at,
    });
    expect(response.headers.get('location')).toBe(`/social-sets/${response.body.id}`);

    const one = await getSet(owner.token, response.body.id);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(response.body);
    const list = await listSets(owner.token, workspaceId);
    expect(list.status).toBe(200);
    await expectMatchesOwnSchema(list.body, 'SocialSetList');
    const { $schema: _ignored, ...set } = response.body;
    expect(list.body).toEqual({ $schema: expect.stringMatching(/SocialSetList\.json$/), social_sets: [set] });
  });

  it('lists every set of the workspace by name ignoring case, and an empty workspace as []', async () => {
    const { owner, workspaceId } = await createTenant();
    expect((await listSets(owner.token, workspaceId)).body.social_sets).toEqual([]);
    for (const name of ['beta', 'Alpha', 'gamma']) await newSet(owner.token, workspaceId, name);
    const names = (await listSets(owner.token, workspaceId)).body.social_sets.map((set: { name: string }) => set.name);
    expect(names).toEqual(['Alpha', 'beta', 'gamma']);
  });

  it('E13 replaces name, default flag and membership; kept members keep their per-account defaults', async () => {
    const { owner, workspaceId } = await createTenant();
    const [a, b, c] = [
      await connectSandboxAccount(owner.token, workspaceId, 'a'),
      await connectSandboxAccount(owner.token, workspaceId, 'b'),
      await connectSandboxAccount(owner.token, workspaceId, 'c'),
    ];
    const set = await newSet(owner.token, workspaceId, 'Old name', [a.id, b.id]);
    // What a later issue will let clients set: E13 must not wipe it for members that stay.
    await db.query(
      `UPDATE publishing.social_set_accounts SET default_output_profile = 'thread', default_settings = '{"tone":"calm"}',
         default_segment_settings = '{"max":3}'
        WHERE social_set_id = $1 AND social_account_id = $2`,
      [set.id, b.id],
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    const replaced = await replaceSet(owner.token, set.id, { name: 'New name', is_default: true, accounts: members(c.id, b.id) });
    expect(replaced.status).toBe(200);
    await expectMatchesOwnSchema(replaced.body, 'SocialSet');
    expect(replaced.body).toEqual({
      $schema: expect.stringMatching(/SocialSet\.json$/),
      id: set.id,
      workspace_id: workspaceId,
      name: 'New name',
      is_default: true,
      accounts: [
        expect.objectContaining({
          social_account_id: c.id,
          account_username: 'c',
          display_order: 0,
          default_output_profile: '',
          default_settings: {},
        }),
        expect.objectContaining({
          social_account_id: b.id,
          account_username: 'b',
          display_order: 1,
          default_output_profile: 'thread',
          default_settings: { tone: 'calm' },
          default_segment_settings: { max: 3 },
        }),
      ],
      created_at: set.created_at,
      updated_at: expect.stringMatching(TIME),
    });
    expect(Date.parse(replaced.body.updated_at)).toBeGreaterThan(Date.parse(set.updated_at));
    expect((await getSet(owner.token, set.id)).body).toEqual(replaced.body);

    // A member removed and sent again starts over, without its old defaults.
    await replaceSet(owner.token, set.id, { name: 'New name', is_default: true, accounts: [] });
    const emptied = await getSet(owner.token, set.id);
    expect(emptied.body.accounts).toEqual([]);
    const refilled = await replaceSet(owner.token, set.id, { name: 'New name', is_default: false, accounts: members(b.id) });
    expect(refilled.body.accounts).toEqual([
      expect.objectContaining({ social_account_id: b.id, display_order: 0, default_settings: {}, default_output_profile: '' }),
    ]);
    expect(refilled.body.is_default).toBe(false);
  });

  it('shows an account as it is now: a renamed account shows its new handle and avatar', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId, 'before');
    const set = await newSet(owner.token, workspaceId, 'Renames', [account.id]);
    await db.query(`UPDATE publishing.social_accounts SET username = 'after', avatar_url = 'https://cdn.example/a.png' WHERE id = $1`, [
      account.id,
    ]);
    expect((await getSet(owner.token, set.id)).body.accounts[0]).toEqual(
      expect.objectContaining({ account_username: 'after', account_avatar_url: 'https://cdn.example/a.png' }),
    );
  });

  it('refuses a name already used in the workspace, ignoring case (409 duplicate_name), on create and on E13', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const first = await newSet(owner.token, workspaceId, 'Newsroom');
    expectProblem(await createSet(owner.token, { workspace_id: workspaceId, name: 'NEWSROOM', accounts: [] }), 409, 'duplicate_name');
    const second = await newSet(owner.token, workspaceId, 'Second');
    expectProblem(await replaceSet(owner.token, second.id, { name: 'newsroom', is_default: false, accounts: [] }), 409, 'duplicate_name');
    expect((await getSet(owner.token, second.id)).body).toEqual(second);
    // Its own name in another case is no conflict; another workspace may use the name.
    expect((await replaceSet(owner.token, first.id, { name: 'NewsRoom', is_default: false, accounts: [] })).body.name).toBe('NewsRoom');
    const other = await createWorkspace(owner, organizationId, 'Other');
    await newSet(owner.token, other, 'newsroom');
    // The database holds the rule, so racing creates cannot both win.
    const raced = await Promise.all([1, 2, 3].map(() => createSet(owner.token, { workspace_id: workspaceId, name: 'Race', accounts: [] })));
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const lost of raced.filter((r) => r.status === 409)) expectProblem(lost, 409, 'duplicate_name');
  });

  it('keeps one default set per workspace: setting it clears the others, in the database too', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const first = await newSet(owner.token, workspaceId, 'First', [], true);
    expect(first.is_default).toBe(true);
    const second = await newSet(owner.token, workspaceId, 'Second', [], true);
    expect(second.is_default).toBe(true);
    const firstNow = (await getSet(owner.token, first.id)).body;
    expect(firstNow.is_default).toBe(false);
    expect(Date.parse(firstNow.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.updated_at));
    expect((await replaceSet(owner.token, first.id, { name: 'First', is_default: true, accounts: [] })).body.is_default).toBe(true);
    expect((await getSet(owner.token, second.id)).body.is_default).toBe(false);
    // Unsetting the default leaves the workspace without one.
    await replaceSet(owner.token, first.id, { name: 'First', is_default: false, accounts: [] });
    expect((await listSets(owner.token, workspaceId)).body.social_sets.map((s: { is_default: boolean }) => s.is_default)).toEqual([
      false,
      false,
    ]);
    // Another workspace has its own default.
    const other = await createWorkspace(owner, organizationId, 'Other');
    await newSet(owner.token, other, 'Theirs', [], true);
    const raced = await Promise.all(
      ['R1', 'R2', 'R3', 'R4'].map((name) => createSet(owner.token, { workspace_id: workspaceId, name, accounts: [], is_default: true })),
    );
    expect(raced.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const defaults = (await listSets(owner.token, workspaceId)).body.social_sets.filter((s: { is_default: boolean }) => s.is_default);
    expect(defaults).toHaveLength(1);
    await expect(db.query(`UPDATE publishing.social_sets SET is_default = true WHERE workspace_id = $1`, [workspaceId])).rejects.toThrow(
      /social_sets_one_default_key/,
    );
  });

  it(
    'refuses accounts listed twice or that are not active accounts ' + 'of the workspace (422 at each index), on create and on E13',
    async () => {
      const { owner, organizationId, workspaceId } = await createTenant();
      const mine = await connectSandboxAccount(owner.token, workspaceId, 'mine');
      const broken = await connectSandboxAccount(owner.token, workspaceId, 'broken');
      await db.query(`UPDATE publishing.social_accounts SET status = 'reconnect_required' WHERE id = $1`, [broken.id]);
      const sibling = await connectSandboxAccount(owner.token, await createWorkspace(owner, organizationId, 'Sibling'), 'sibling');
      const stranger = await createTenant();
      const foreign = await connectSandboxAccount(stranger.owner.token, stranger.workspaceId, 'foreign');
      const unknown = randomUUID();

      const refused = expectProblem(
        await createSet(owner.token, {
          workspace_id: workspaceId,
          name: 'Bad',
          accounts: members(mine.id, mine.id.toUpperCase(), unknown, foreign.id, sibling.id, broken.id),
        }),
        422,
        'validation_failed',
      );
      expect(refused.errors).toEqual([
        { location: 'body.accounts[1].social_account_id', message: 'is listed twice', value: mine.id.toUpperCase() },
        { location: 'body.accounts[2].social_account_id', message: 'is not a social account of this workspace', value: unknown },
        { location: 'body.accounts[3].social_account_id', message: 'is not a social account of this workspace', value: foreign.id },
        { location: 'body.accounts[4].social_account_id', message: 'is not a social account of this workspace', value: sibling.id },
        { location: 'body.accounts[5].social_account_id', message: 'is reconnect_required: reconnect it first', value: broken.id },
      ]);
      expect((await listSets(owner.token, workspaceId)).body.social_sets).toEqual([]);

      const set = await newSet(owner.token, workspaceId, 'Good', [mine.id]);
      for (const [accounts, location] of [
        [members(mine.id, mine.id), 'body.accounts[1].social_account_id'],
        [members(foreign.id), 'body.accounts[0].social_account_id'],
        [members(mine.id, sibling.id), 'body.accounts[1].social_account_id'],
        [members(broken.id), 'body.accounts[0].social_account_id'],
      ] as const) {
        const problem = expectProblem(
          await replaceSet(owner.token, set.id, { name: 'Changed', is_default: true, accounts }),
          422,
          'validation_failed',
        );
        expect(locations(problem)).toEqual([location]);
      }
      expect((await getSet(owner.token, set.id)).body).toEqual(set);
      // Uppercase ids name the same account.
      expect(
        (await replaceSet(owner.token, set.id, { name: 'Good', is_default: false, accounts: members(mine.id.toUpperCase()) })).body
          .accounts[0].social_account_id,
      ).toBe(mine.id);
    },
  );

  it('drops a disconnected account from its sets; the others close ranks from 0', async () => {
    const { owner, workspaceId } = await createTenant();
    const [a, b, c] = [
      await connectSandboxAccount(owner.token, workspaceId, 'a'),
      await connectSandboxAccount(owner.token, workspaceId, 'b'),
      await connectSandboxAccount(owner.token, workspaceId, 'c'),
    ];
    const one = await newSet(owner.token, workspaceId, 'One', [a.id, b.id, c.id]);
    const two = await newSet(owner.token, workspaceId, 'Two', [b.id]);
    expect((await call('DELETE', `/social-accounts/${b.id}`, { token: owner.token })).status).toBe(204);
    const after = (await getSet(owner.token, one.id)).body;
    expect(after.accounts.map((m: { social_account_id: string; display_order: number }) => [m.social_account_id, m.display_order])).toEqual(
      [
        [a.id, 0],
        [c.id, 1],
      ],
    );
    expect((await getSet(owner.token, two.id)).body.accounts).toEqual([]);
  });

  it('deletes a set (204); its accounts stay connected', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const set = await newSet(owner.token, workspaceId, 'Doomed', [account.id], true);
    expect((await call('DELETE', `/social-sets/${set.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(await getSet(owner.token, set.id), 404, 'not_found');
    expectProblem(await call('DELETE', `/social-sets/${set.id}`, { token: owner.token }), 404, 'not_found');
    expectProblem(await replaceSet(owner.token, set.id, { name: 'x', is_default: false, accounts: [] }), 404, 'not_found');
    expect((await listSets(owner.token, workspaceId)).body.social_sets).toEqual([]);
    expect((await call('GET', `/social-accounts/${account.id}`, { token: owner.token })).status).toBe(200);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM publishing.social_set_accounts WHERE social_set_id = $1', [set.id]);
    expect(rows[0].n).toBe(0);
  });

  it('caps a set at 100 accounts (422) and a workspace at 200 sets (409 too_many_social_sets)', async () => {
    const { owner, workspaceId } = await createTenant();
    const tooMany = Array.from({ length: 101 }, () => randomUUID());
    const problem = expectProblem(
      await createSet(owner.token, { workspace_id: workspaceId, name: 'Big', accounts: members(...tooMany) }),
      422,
    );
    expect(locations(problem)).toEqual(['body.accounts']);
    await db.query(
      `INSERT INTO publishing.social_sets (id, workspace_id, name, is_default, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'bulk ' || n, false, now(), now() FROM generate_series(1, 200) AS n`,
      [workspaceId],
    );
    expectProblem(await createSet(owner.token, { workspace_id: workspaceId, name: 'One more', accounts: [] }), 409, 'too_many_social_sets');
    expect((await listSets(owner.token, workspaceId)).body.social_sets).toHaveLength(200);
  });

  it('refuses bad input with 422 naming each location', async () => {
    const { owner, workspaceId } = await createTenant();
    const set = await newSet(owner.token, workspaceId, 'Target');
    const cases: Array<[unknown, string[]]> = [
      [{}, ['body.accounts', 'body.name', 'body.workspace_id']],
      [
        { workspace_id: 'nope', name: '', accounts: 'x', is_default: 'yes', extra: 1 },
        ['body.accounts', 'body.extra', 'body.is_default', 'body.name', 'body.workspace_id'],
      ],
      [{ workspace_id: workspaceId, name: 'x'.repeat(81), accounts: [] }, ['body.name']],
      [{ workspace_id: workspaceId, name: 7, accounts: [] }, ['body.name']],
      [{ workspace_id: workspaceId, name: 'ok', accounts: null }, ['body.accounts']],
      [{ workspace_id: workspaceId, name: 'ok', accounts: [{ social_account_id: 'nope' }] }, ['body.accounts[0].social_account_id']],
      [{ workspace_id: workspaceId, name: 'ok', accounts: [{}] }, ['body.accounts[0].social_account_id']],
      [{ workspace_id: workspaceId, name: 'ok', accounts: [{ social_account_id: randomUUID(), extra: true }] }, ['body.accounts[0].extra']],
    ];
    for (const [body, expected] of cases) {
      const problem = expectProblem(await createSet(owner.token, body), 422, 'validation_failed');
      expect([...new Set(locations(problem))].sort()).toEqual(expected);
    }
    // E13 replaces the whole set: every member is required.
    const missing = expectProblem(await replaceSet(owner.token, set.id, {}), 422, 'validation_failed');
    expect(locations(missing).sort()).toEqual(['body.accounts', 'body.is_default', 'body.name']);
    const extra = expectProblem(
      await replaceSet(owner.token, set.id, { name: 'x', is_default: false, accounts: [], workspace_id: workspaceId }),
      422,
    );
    expect(locations(extra)).toEqual(['body.workspace_id']);
    expectProblem(
      await call('PUT', `/social-sets/${set.id}`, { token: owner.token, rawBody: '[1]', headers: { 'content-type': 'application/json' } }),
      400,
    );
    expect(locations(expectProblem(await call('GET', '/social-sets?workspace_id=nope', { token: owner.token }), 422))).toEqual([
      'query.workspace_id',
    ]);
    expectProblem(await call('GET', '/social-sets', { token: owner.token }), 422);
    for (const method of ['GET', 'DELETE'])
      expectProblem(await call(method, '/social-sets/not-a-uuid', { token: owner.token }), 404, 'not_found');
    expectProblem(await replaceSet(owner.token, 'not-a-uuid', { name: 'x', is_default: false, accounts: [] }), 404, 'not_found');
    expect((await getSet(owner.token, set.id)).body).toEqual(set);
  });

  it('answers odd values in an E13 body with a 4xx problem, never a 500', async () => {
    const { owner, workspaceId } = await createTenant();
    const set = await newSet(owner.token, workspaceId, 'Odd');
    const odd: unknown[] = [
      null,
      true,
      0,
      -1,
      1e308,
      '',
      'x'.repeat(5_000),
      [],
      [1],
      [null],
      [{}],
      [{ social_account_id: 1 }],
      {},
      '😀',
      'a\u0000b',
    ];
    const failures: string[] = [];
    for (const member of ['name', 'is_default', 'accounts']) {
      for (const value of odd) {
        const response = await replaceSet(owner.token, set.id, { name: 'Odd', is_default: false, accounts: [], [member]: value });
        const isProblem = (response.headers.get('content-type') ?? '').startsWith('application/problem+json');
        if (response.status >= 500 || (response.status >= 400 && !isProblem))
          failures.push(`${member}=${JSON.stringify(value).slice(0, 40)} → ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets viewers read but not write (403 insufficient_role); strangers get 403 for a named workspace', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const set = await newSet(owner.token, workspaceId, 'Shared', [account.id]);
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expect((await getSet(viewer.token, set.id)).body).toEqual(set);
    expect((await listSets(viewer.token, workspaceId)).body.social_sets).toHaveLength(1);
    expectProblem(await createSet(viewer.token, { workspace_id: workspaceId, name: 'Mine', accounts: [] }), 403, 'insufficient_role');
    expectProblem(await replaceSet(viewer.token, set.id, { name: 'Mine', is_default: true, accounts: [] }), 403, 'insufficient_role');
    expectProblem(await call('DELETE', `/social-sets/${set.id}`, { token: viewer.token }), 403, 'insufficient_role');
    expect((await getSet(owner.token, set.id)).body).toEqual(set);

    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    expect((await replaceSet(editor.token, set.id, { name: 'Edited', is_default: false, accounts: [] })).status).toBe(200);
    expect((await createSet(editor.token, { workspace_id: workspaceId, name: 'By editor', accounts: members(account.id) })).status).toBe(
      201,
    );
    expect((await call('DELETE', `/social-sets/${set.id}`, { token: editor.token })).status).toBe(204);

    const stranger = await registerUser();
    expectProblem(await listSets(stranger.token, workspaceId), 403, 'workspace_forbidden');
    expectProblem(await listSets(stranger.token, randomUUID()), 403, 'workspace_forbidden');
    expectProblem(await createSet(stranger.token, { workspace_id: workspaceId, name: 'Theirs', accounts: [] }), 403, 'workspace_forbidden');
    expectProblem(
      await createSet(stranger.token, { workspace_id: randomUUID(), name: 'Theirs', accounts: [] }),
      403,
      'workspace_forbidden',
    );
  });

  it('keeps sets to their tenant: a foreign set is 404 whatever the body says', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const theirs = await connectSandboxAccount(intruder.owner.token, intruder.workspaceId);
    const set = await newSet(owner.token, workspaceId, 'Private', [account.id], true);
    await expectTenantIsolation({
      url: `/social-sets/${set.id}`,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      attempts: [
        { method: 'PUT', body: { name: 'Taken over', is_default: false, accounts: members(theirs.id) } },
        { method: 'PUT', body: { name: 'Taken over', is_default: true, accounts: members(account.id) } },
        { method: 'DELETE' },
        { method: 'GET', path: `/social-sets?workspace_id=${workspaceId}`, status: 403 },
        { method: 'POST', path: '/social-sets', body: { workspace_id: workspaceId, name: 'Planted', accounts: [] }, status: 403 },
      ],
      ownerView: [`/social-sets/${set.id}`, `/social-sets?workspace_id=${workspaceId}`],
    });
    // Nor can the intruder put the owner's account in a set of their own.
    const problem = expectProblem(
      await createSet(intruder.owner.token, { workspace_id: intruder.workspaceId, name: 'Mixed', accounts: members(account.id) }),
      422,
    );
    expect(locations(problem)).toEqual(['body.accounts[0].social_account_id']);
  });
});
