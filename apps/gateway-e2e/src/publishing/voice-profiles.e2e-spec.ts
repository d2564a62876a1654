import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, locations, registerUser, RFC3339_MS } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema, expectMatchesSchema } from '../support/schemas.js';
import { createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';

const TIME = RFC3339_MS;
const createProfile = (token: string, body: unknown) => call('POST', '/voice-profiles', { token, body });
const replaceProfile = (token: string, id: string, body: unknown) => call('PUT', `/voice-profiles/${id}`, { token, body });
const assign = (token: string, id: string, accountIds: unknown) =>
  call('PUT', `/voice-profiles/${id}/assignments`, { token, body: { account_ids: accountIds } });
const getProfile = (token: string, id: string) => call('GET', `/voice-profiles/${id}`, { token });
const listProfiles = (token: string, workspaceId: string) => call('GET', `/voice-profiles?workspace_id=${workspaceId}`, { token });

const EMPTY_DEFINITION = {
  boundaries: [],
  disliked_patterns: [],
  expertise: [],
  forbidden_phrases: [],
  opinions: [],
  recurring_expressions: [],
  traits: [],
  vocabulary: [],
  formality: '',
  humor: '',
  preferred_language: '',
  identity_summary: '',
  corrections: [],
  examples: [],
  interview_answers: [],
};

const FULL_DEFINITION = {
  boundaries: ['no politics'],
  disliked_patterns: ['rhetorical questions', 'emoji walls'],
  expertise: ['distributed systems'],
  forbidden_phrases: ['synergy'],
  opinions: ['boring technology wins'],
  recurring_expressions: ['here is the thing'],
  traits: ['direct', 'warm'],
  vocabulary: ['latency', 'trade-off'],
  formality: 'casual',
  humor: 'dry',
  preferred_language: 'en-GB',
  identity_summary: 'A staff engineer who explains hard things plainly.',
  corrections: [{ lesson: 'say what it costs', original: 'It is fast.', preferred: 'It answers in 3 ms at p99.' }],
  examples: [{ platform: 'linkedin', text: 'We cut p99 in half.', why_it_fits: 'concrete and short' }],
  interview_answers: [{ question: 'Who do you write for?', answer: 'Engineers who ship.' }],
};

async function newProfile(token: string, workspaceId: string, name: string, extra: Record<string, unknown> = {}) {
  const response = await createProfile(token, { workspace_id: workspaceId, name, definition: {}, ...extra });
  expect(response.status).toBe(201);
  return response.body;
}

describe('publishing: voice profiles', () => {
  const db = testDatabase();

  it('creates a profile (201, Location, revision 1, schema_version 1, every field) and lists and reads it', async () => {
    const { owner, workspaceId } = await createTenant();
    const response = await createProfile(owner.token, { workspace_id: workspaceId, name: 'Founder voice', definition: FULL_DEFINITION });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'VoiceProfile');
    expect(response.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/VoiceProfile\.json$/),
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      workspace_id: workspaceId,
      name: 'Founder voice',
      is_default: false,
      definition: FULL_DEFINITION,
      revision: 1,
      schema_version: 1,
      assigned_account_ids: [],
      created_at: expect.stringMatching(TIME),
      updated_at: response.body.created_at,
    });
    await expectMatchesSchema(response.body.definition, 'VoiceDefinition');
    expect(response.headers.get('location')).toBe(`/voice-profiles/${response.body.id}`);
    expect((await getProfile(owner.token, response.body.id)).body).toEqual(response.body);
    const list = await listProfiles(owner.token, workspaceId);
    expect(list.status).toBe(200);
    await expectMatchesOwnSchema(list.body, 'VoiceProfileList');
    const { $schema: _ignored, ...profile } = response.body;
    expect(list.body).toEqual({ $schema: expect.stringMatching(/VoiceProfileList\.json$/), voice_profiles: [profile] });
  });

  it('completes a partial definition: members left out answer [] or "", and are stored that way', async () => {
    const { owner, workspaceId } = await createTenant();
    const empty = await newProfile(owner.token, workspaceId, 'Empty');
    expect(empty.definition).toEqual(EMPTY_DEFINITION);
    const partial = await newProfile(owner.token, workspaceId, 'Partial', { definition: { traits: ['curious'], humor: 'light' } });
    expect(partial.definition).toEqual({ ...EMPTY_DEFINITION, traits: ['curious'], humor: 'light' });
    const { rows } = await db.query('SELECT definition, revision, schema_version FROM publishing.voice_profiles WHERE id = $1', [
      partial.id,
    ]);
    expect(rows[0]).toEqual({ definition: partial.definition, revision: 1, schema_version: 1 });
  });

  it('lists the workspace profiles by name ignoring case', async () => {
    const { owner, workspaceId } = await createTenant();
    expect((await listProfiles(owner.token, workspaceId)).body.voice_profiles).toEqual([]);
    for (const name of ['beta', 'Alpha', 'gamma']) await newProfile(owner.token, workspaceId, name);
    expect((await listProfiles(owner.token, workspaceId)).body.voice_profiles.map((p: { name: string }) => p.name)).toEqual([
      'Alpha',
      'beta',
      'gamma',
    ]);
  });

  it('E14 replaces name and definition, adds 1 to revision and moves updated_at; default flag and assignments stay', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const created = await newProfile(owner.token, workspaceId, 'Draft', { definition: FULL_DEFINITION, is_default: true });
    const assigned = (await assign(owner.token, created.id, [account.id])).body;
    expect(assigned.revision).toBe(1);
    expect(assigned.updated_at).toBe(created.updated_at);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await replaceProfile(owner.token, created.id, {
      workspace_id: workspaceId,
      name: 'Final',
      definition: { traits: ['calm'] },
      expected_revision: 1,
    });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'VoiceProfile');
    expect(response.body).toEqual({
      ...created,
      name: 'Final',
      definition: { ...EMPTY_DEFINITION, traits: ['calm'] },
      revision: 2,
      assigned_account_ids: [account.id],
      updated_at: expect.stringMatching(TIME),
    });
    expect(Date.parse(response.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect((await getProfile(owner.token, created.id)).body).toEqual(response.body);
    const third = await replaceProfile(owner.token, created.id, {
      workspace_id: workspaceId.toUpperCase(),
      name: 'final',
      definition: {},
      expected_revision: 2,
    });
    expect(third.body).toEqual(expect.objectContaining({ name: 'final', revision: 3, definition: EMPTY_DEFINITION }));
  });

  it('E14 with a stale expected_revision is 409 revision_conflict with current_revision, and nothing changes', async () => {
    const { owner, workspaceId } = await createTenant();
    const profile = await newProfile(owner.token, workspaceId, 'Guarded', { definition: FULL_DEFINITION });
    await replaceProfile(owner.token, profile.id, {
      workspace_id: workspaceId,
      name: 'Guarded',
      definition: FULL_DEFINITION,
      expected_revision: 1,
    });
    const before = (await getProfile(owner.token, profile.id)).body;
    for (const stale of [1, 3, 99]) {
      const problem = expectProblem(
        await replaceProfile(owner.token, profile.id, {
          workspace_id: workspaceId,
          name: 'Overwritten',
          definition: {},
          expected_revision: stale,
        }),
        409,
        'revision_conflict',
      );
      expect(problem.current_revision).toBe(2);
    }
    expect((await getProfile(owner.token, profile.id)).body).toEqual(before);
  });

  it('of concurrent E14 requests based on the same revision exactly one wins', async () => {
    const { owner, workspaceId } = await createTenant();
    const profile = await newProfile(owner.token, workspaceId, 'Contested');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        replaceProfile(owner.token, profile.id, {
          workspace_id: workspaceId,
          name: `Writer ${i}`,
          definition: { traits: [`t${i}`] },
          expected_revision: 1,
        }),
      ),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((answer) => answer.status !== 200))
      expect(expectProblem(loser, 409, 'revision_conflict').current_revision).toBe(2);
    const stored = (await getProfile(owner.token, profile.id)).body;
    expect(stored).toEqual({ ...winners[0].body });
    expect(stored.revision).toBe(2);
  });

  it("E14 names the profile's own workspace: another one is 422 body.workspace_id; a foreign profile is 404 first", async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const profile = await newProfile(owner.token, workspaceId, 'Home');
    const sibling = await createWorkspace(owner, organizationId, 'Sibling');
    for (const other of [sibling, randomUUID()]) {
      const problem = expectProblem(
        await replaceProfile(owner.token, profile.id, { workspace_id: other, name: 'Moved', definition: {}, expected_revision: 1 }),
        422,
        'validation_failed',
      );
      expect(problem.errors).toEqual([
        { location: 'body.workspace_id', message: "must be the voice profile's own workspace", value: other },
      ]);
    }
    const intruder = await createTenant();
    for (const named of [workspaceId, intruder.workspaceId]) {
      expectProblem(
        await replaceProfile(intruder.owner.token, profile.id, { workspace_id: named, name: 'Mine', definition: {}, expected_revision: 1 }),
        404,
        'not_found',
      );
    }
    expect((await getProfile(owner.token, profile.id)).body).toEqual(profile);
  });

  it('refuses a name already used in the workspace, ignoring case (409 duplicate_name), on create and on E14', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    await newProfile(owner.token, workspaceId, 'Brand');
    expectProblem(await createProfile(owner.token, { workspace_id: workspaceId, name: 'BRAND', definition: {} }), 409, 'duplicate_name');
    const other = await newProfile(owner.token, workspaceId, 'Other');
    expectProblem(
      await replaceProfile(owner.token, other.id, { workspace_id: workspaceId, name: 'brand', definition: {}, expected_revision: 1 }),
      409,
      'duplicate_name',
    );
    expect((await getProfile(owner.token, other.id)).body).toEqual(other);
    await newProfile(owner.token, await createWorkspace(owner, organizationId, 'Elsewhere'), 'brand');
  });

  it('keeps one default profile per workspace: a new default clears the previous one', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const first = await newProfile(owner.token, workspaceId, 'First', { is_default: true });
    const second = await newProfile(owner.token, workspaceId, 'Second', { is_default: true });
    expect([first.is_default, second.is_default]).toEqual([true, true]);
    expect((await getProfile(owner.token, first.id)).body.is_default).toBe(false);
    expect((await getProfile(owner.token, second.id)).body.is_default).toBe(true);
    await newProfile(owner.token, await createWorkspace(owner, organizationId, 'Other'), 'Theirs', { is_default: true });
    expect((await getProfile(owner.token, second.id)).body.is_default).toBe(true);
    const raced = await Promise.all(
      ['R1', 'R2', 'R3'].map((name) => createProfile(owner.token, { workspace_id: workspaceId, name, definition: {}, is_default: true })),
    );
    expect(raced.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(
      (await listProfiles(owner.token, workspaceId)).body.voice_profiles.filter((p: { is_default: boolean }) => p.is_default),
    ).toHaveLength(1);
    await expect(db.query('UPDATE publishing.voice_profiles SET is_default = true WHERE workspace_id = $1', [workspaceId])).rejects.toThrow(
      /voice_profiles_one_default_key/,
    );
  });

  it('assigns accounts, replacing the list; an account has one profile, so assigning it elsewhere moves it', async () => {
    const { owner, workspaceId } = await createTenant();
    const [a, b, c] = [
      await connectSandboxAccount(owner.token, workspaceId, 'a'),
      await connectSandboxAccount(owner.token, workspaceId, 'b'),
      await connectSandboxAccount(owner.token, workspaceId, 'c'),
    ];
    const one = await newProfile(owner.token, workspaceId, 'One');
    const two = await newProfile(owner.token, workspaceId, 'Two');
    const response = await assign(owner.token, one.id, [c.id, a.id.toUpperCase(), b.id]);
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'VoiceProfile');
    // Oldest connected first, whatever the order sent; the document itself is unchanged.
    expect(response.body).toEqual({ ...one, $schema: expect.any(String), assigned_account_ids: [a.id, b.id, c.id] });
    expect((await assign(owner.token, one.id, [b.id, c.id])).body.assigned_account_ids).toEqual([b.id, c.id]);
    expect((await assign(owner.token, two.id, [c.id, a.id])).body.assigned_account_ids).toEqual([a.id, c.id]);
    expect((await getProfile(owner.token, one.id)).body.assigned_account_ids).toEqual([b.id]);
    expect((await assign(owner.token, one.id, [])).body.assigned_account_ids).toEqual([]);
    const { rows } = await db.query(
      'SELECT social_account_id, voice_profile_id, workspace_id FROM publishing.voice_profile_assignments ' +
        'WHERE workspace_id = $1 ORDER BY 1',
      [workspaceId],
    );
    expect(rows).toEqual([a.id, c.id].sort().map((id) => ({ social_account_id: id, voice_profile_id: two.id, workspace_id: workspaceId })));

    // Disconnecting an account or deleting a profile drops the assignment.
    expect((await call('DELETE', `/social-accounts/${c.id}`, { token: owner.token })).status).toBe(204);
    expect((await getProfile(owner.token, two.id)).body.assigned_account_ids).toEqual([a.id]);
    expect((await call('DELETE', `/voice-profiles/${two.id}`, { token: owner.token })).status).toBe(204);
    expect((await assign(owner.token, one.id, [a.id])).body.assigned_account_ids).toEqual([a.id]);
  });

  it("refuses assignments of accounts listed twice or not active accounts of the profile's workspace (422 at each index)", async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const mine = await connectSandboxAccount(owner.token, workspaceId, 'mine');
    const broken = await connectSandboxAccount(owner.token, workspaceId, 'broken');
    await db.query(`UPDATE publishing.social_accounts SET status = 'reconnect_required' WHERE id = $1`, [broken.id]);
    const sibling = await connectSandboxAccount(owner.token, await createWorkspace(owner, organizationId, 'Sibling'), 'sibling');
    const stranger = await createTenant();
    const foreign = await connectSandboxAccount(stranger.owner.token, stranger.workspaceId, 'foreign');
    const unknown = randomUUID();
    const profile = await newProfile(owner.token, workspaceId, 'Checked');
    await assign(owner.token, profile.id, [mine.id]);
    const problem = expectProblem(
      await assign(owner.token, profile.id, [mine.id, unknown, foreign.id, sibling.id, broken.id, mine.id]),
      422,
      'validation_failed',
    );
    expect(problem.errors).toEqual([
      { location: 'body.account_ids[1]', message: 'is not a social account of this workspace', value: unknown },
      { location: 'body.account_ids[2]', message: 'is not a social account of this workspace', value: foreign.id },
      { location: 'body.account_ids[3]', message: 'is not a social account of this workspace', value: sibling.id },
      { location: 'body.account_ids[4]', message: 'is reconnect_required: reconnect it first', value: broken.id },
      { location: 'body.account_ids[5]', message: 'is listed twice', value: mine.id },
    ]);
    expect((await getProfile(owner.token, profile.id)).body.assigned_account_ids).toEqual([mine.id]);
    // The database holds the same rule: an assignment cannot cross workspaces.
    await expect(
      db.query('INSERT INTO publishing.voice_profile_assignments (social_account_id, voice_profile_id, workspace_id) VALUES ($1, $2, $3)', [
        sibling.id,
        profile.id,
        workspaceId,
      ]),
    ).rejects.toThrow(/foreign key/);
  });

  it('refuses a malformed definition with 422 at the exact location', async () => {
    const { owner, workspaceId } = await createTenant();
    const cases: Array<[unknown, string[]]> = [
      [{ extra: 1 }, ['body.definition.extra']],
      [{ examples: [{ platform: 'x', text: 'y', why_it_fits: 'z', extra: 1 }] }, ['body.definition.examples[0].extra']],
      [
        {
          corrections: [
            { lesson: '', original: '', preferred: '' },
            { lesson: 'a', original: 'b', preferred: 'c', x: 0 },
          ],
        },
        ['body.definition.corrections[1].x'],
      ],
      [{ interview_answers: [{ question: 'q' }] }, ['body.definition.interview_answers[0].answer']],
      [{ interview_answers: [{ question: 'q', answer: 5 }] }, ['body.definition.interview_answers[0].answer']],
      [{ examples: ['text'] }, ['body.definition.examples', 'body.definition.examples[0]']],
      [{ corrections: [null] }, ['body.definition.corrections', 'body.definition.corrections[0]']],
      [
        { examples: [{ platform: 'x'.repeat(81), text: 'y'.repeat(5_001), why_it_fits: '' }] },
        ['body.definition.examples[0].platform', 'body.definition.examples[0].text'],
      ],
      [{ examples: Array.from({ length: 21 }, () => ({ platform: 'x', text: 'y', why_it_fits: 'z' })) }, ['body.definition.examples']],
      [{ traits: 'direct' }, ['body.definition.traits']],
      [{ traits: ['ok', ''] }, ['body.definition.traits']],
      [{ vocabulary: ['x'.repeat(501)] }, ['body.definition.vocabulary']],
      [{ boundaries: Array.from({ length: 51 }, (_, i) => `b${i}`) }, ['body.definition.boundaries']],
      [{ opinions: [1] }, ['body.definition.opinions']],
      [
        { formality: 'x'.repeat(81), humor: 1, preferred_language: null, identity_summary: 'x'.repeat(2_001) },
        ['body.definition.formality', 'body.definition.humor', 'body.definition.identity_summary', 'body.definition.preferred_language'],
      ],
    ];
    for (const [definition, expected] of cases) {
      const problem = expectProblem(
        await createProfile(owner.token, { workspace_id: workspaceId, name: 'Bad', definition }),
        422,
        'validation_failed',
      );
      expect([definition, [...new Set(locations(problem))].sort()]).toEqual([definition, expected]);
    }
    const traits = expectProblem(
      await createProfile(owner.token, { workspace_id: workspaceId, name: 'Bad', definition: { traits: ['ok', ''] } }),
      422,
    );
    expect(traits.errors).toEqual([{ location: 'body.definition.traits', message: 'item 1 must be a string of 1 to 500 characters' }]);
    const notList = expectProblem(
      await createProfile(owner.token, { workspace_id: workspaceId, name: 'Bad', definition: { examples: {} } }),
      422,
    );
    expect(notList.errors).toContainEqual({ location: 'body.definition.examples', message: 'must be an array' });
    for (const definition of [null, [], 'x', 1]) {
      const problem = expectProblem(await createProfile(owner.token, { workspace_id: workspaceId, name: 'Bad', definition }), 422);
      expect([...new Set(locations(problem))]).toEqual(['body.definition']);
    }
    expect((await listProfiles(owner.token, workspaceId)).body.voice_profiles).toEqual([]);
    // At the caps exactly, it is accepted.
    const atCaps = await newProfile(owner.token, workspaceId, 'x'.repeat(80), {
      definition: {
        boundaries: Array.from({ length: 50 }, () => 'b'.repeat(500)),
        formality: 'f'.repeat(80),
        identity_summary: 'i'.repeat(2_000),
        examples: Array.from({ length: 20 }, () => ({ platform: 'p'.repeat(80), text: 't'.repeat(5_000), why_it_fits: 'w'.repeat(1_000) })),
      },
    });
    expect(atCaps.definition.examples).toHaveLength(20);
  });

  it('refuses other bad input with 422 naming each location', async () => {
    const { owner, workspaceId } = await createTenant();
    const profile = await newProfile(owner.token, workspaceId, 'Target');
    const createCases: Array<[unknown, string[]]> = [
      [{}, ['body.definition', 'body.name', 'body.workspace_id']],
      [
        { workspace_id: 'nope', name: '', definition: {}, is_default: 1, extra: true },
        ['body.extra', 'body.is_default', 'body.name', 'body.workspace_id'],
      ],
      [{ workspace_id: workspaceId, name: 'x'.repeat(81), definition: {} }, ['body.name']],
    ];
    for (const [body, expected] of createCases) {
      expect([...new Set(locations(expectProblem(await createProfile(owner.token, body), 422, 'validation_failed')))].sort()).toEqual(
        expected,
      );
    }
    const replaceCases: Array<[unknown, string[]]> = [
      [{}, ['body.definition', 'body.expected_revision', 'body.name', 'body.workspace_id']],
      [{ workspace_id: workspaceId, name: 'x', definition: {}, expected_revision: 0 }, ['body.expected_revision']],
      [{ workspace_id: workspaceId, name: 'x', definition: {}, expected_revision: 1.5 }, ['body.expected_revision']],
      [{ workspace_id: workspaceId, name: 'x', definition: {}, expected_revision: '1' }, ['body.expected_revision']],
      [{ workspace_id: workspaceId, name: 'x', definition: {}, expected_revision: 2_147_483_648 }, ['body.expected_revision']],
      [{ workspace_id: workspaceId, name: 'x', definition: {}, expected_revision: 1, is_default: true }, ['body.is_default']],
    ];
    for (const [body, expected] of replaceCases) {
      expect(
        [...new Set(locations(expectProblem(await replaceProfile(owner.token, profile.id, body), 422, 'validation_failed')))].sort(),
      ).toEqual(expected);
    }
    const assignCases: Array<[unknown, string[]]> = [
      [{}, ['body.account_ids']],
      [{ account_ids: 'x' }, ['body.account_ids']],
      [{ account_ids: ['nope'] }, ['body.account_ids']],
      [{ account_ids: Array.from({ length: 101 }, () => randomUUID()) }, ['body.account_ids']],
      [{ account_ids: [], extra: 1 }, ['body.extra']],
    ];
    for (const [body, expected] of assignCases) {
      const response = await call('PUT', `/voice-profiles/${profile.id}/assignments`, { token: owner.token, body });
      expect([...new Set(locations(expectProblem(response, 422, 'validation_failed')))].sort()).toEqual(expected);
    }
    expect(locations(expectProblem(await call('GET', '/voice-profiles?workspace_id=nope', { token: owner.token }), 422))).toEqual([
      'query.workspace_id',
    ]);
    expectProblem(await call('GET', '/voice-profiles', { token: owner.token }), 422);
    for (const method of ['GET', 'DELETE'])
      expectProblem(await call(method, '/voice-profiles/not-a-uuid', { token: owner.token }), 404, 'not_found');
    expectProblem(await assign(owner.token, 'not-a-uuid', []), 404, 'not_found');
    expectProblem(await assign(owner.token, randomUUID(), []), 404, 'not_found');
    expectProblem(
      await replaceProfile(owner.token, randomUUID(), { workspace_id: workspaceId, name: 'x', definition: {}, expected_revision: 1 }),
      404,
      'not_found',
    );
    expect((await getProfile(owner.token, profile.id)).body).toEqual(profile);
  });

  it('answers odd values anywhere in E14 and assignment bodies with a 4xx problem, never a 500', async () => {
    const { owner, workspaceId } = await createTenant();
    const profile = await newProfile(owner.token, workspaceId, 'Odd');
    const odd: unknown[] = [null, true, 0, -1, 1e308, '', 'x'.repeat(5_000), [], [1], [null], [{}], {}, { a: 1 }, '😀', 'a\u0000b'];
    const failures: string[] = [];
    const check = async (label: string, path: string, body: unknown) => {
      const response = await call('PUT', path, { token: owner.token, body });
      const isProblem = (response.headers.get('content-type') ?? '').startsWith('application/problem+json');
      if (response.status >= 500 || (response.status >= 400 && !isProblem)) failures.push(`${label} → ${response.status}`);
    };
    const base = { workspace_id: workspaceId, name: 'Odd', definition: {}, expected_revision: 1 };
    for (const value of odd) {
      const shown = JSON.stringify(value).slice(0, 30);
      for (const member of Object.keys(base))
        await check(`${member}=${shown}`, `/voice-profiles/${profile.id}`, { ...base, [member]: value });
      for (const member of Object.keys(EMPTY_DEFINITION)) {
        await check(`definition.${member}=${shown}`, `/voice-profiles/${profile.id}`, {
          ...base,
          expected_revision: 99,
          definition: { [member]: value },
        });
      }
      for (const entry of ['corrections', 'examples', 'interview_answers']) {
        await check(`definition.${entry}[0]=${shown}`, `/voice-profiles/${profile.id}`, {
          ...base,
          expected_revision: 99,
          definition: { [entry]: [value] },
        });
      }
      await check(`account_ids=${shown}`, `/voice-profiles/${profile.id}/assignments`, { account_ids: value });
      await check(`account_ids[0]=${shown}`, `/voice-profiles/${profile.id}/assignments`, { account_ids: [value] });
    }
    expect(failures).toEqual([]);
  });

  it('caps a workspace at 100 profiles (409 too_many_voice_profiles)', async () => {
    const { owner, workspaceId } = await createTenant();
    await db.query(
      `INSERT INTO publishing.voice_profiles (id, workspace_id, name, definition, is_default, revision, schema_version, created_at,
         updated_at)
       SELECT gen_random_uuid(), $1, 'bulk ' || n, '{}', false, 1, 1, now(), now() FROM generate_series(1, 100) AS n`,
      [workspaceId],
    );
    expectProblem(
      await createProfile(owner.token, { workspace_id: workspaceId, name: 'One more', definition: {} }),
      409,
      'too_many_voice_profiles',
    );
  });

  it('deletes a profile (204); it is gone and its accounts are free', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const profile = await newProfile(owner.token, workspaceId, 'Doomed');
    await assign(owner.token, profile.id, [account.id]);
    expect((await call('DELETE', `/voice-profiles/${profile.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(await getProfile(owner.token, profile.id), 404, 'not_found');
    expectProblem(await call('DELETE', `/voice-profiles/${profile.id}`, { token: owner.token }), 404, 'not_found');
    expectProblem(await assign(owner.token, profile.id, []), 404, 'not_found');
    expect((await listProfiles(owner.token, workspaceId)).body.voice_profiles).toEqual([]);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM publishing.voice_profile_assignments WHERE social_account_id = $1', [
      account.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('lets viewers read but not write (403 insufficient_role); strangers get 403 for a named workspace', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const profile = await newProfile(owner.token, workspaceId, 'Shared');
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expect((await getProfile(viewer.token, profile.id)).body).toEqual(profile);
    expect((await listProfiles(viewer.token, workspaceId)).body.voice_profiles).toHaveLength(1);
    expectProblem(await createProfile(viewer.token, { workspace_id: workspaceId, name: 'Mine', definition: {} }), 403, 'insufficient_role');
    expectProblem(
      await replaceProfile(viewer.token, profile.id, { workspace_id: workspaceId, name: 'Mine', definition: {}, expected_revision: 1 }),
      403,
      'insufficient_role',
    );
    expectProblem(await assign(viewer.token, profile.id, [account.id]), 403, 'insufficient_role');
    expectProblem(await call('DELETE', `/voice-profiles/${profile.id}`, { token: viewer.token }), 403, 'insufficient_role');
    expect((await getProfile(owner.token, profile.id)).body).toEqual(profile);

    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    expect(
      (await replaceProfile(editor.token, profile.id, { workspace_id: workspaceId, name: 'Edited', definition: {}, expected_revision: 1 }))
        .status,
    ).toBe(200);
    expect((await assign(editor.token, profile.id, [account.id])).status).toBe(200);
    expect((await createProfile(editor.token, { workspace_id: workspaceId, name: 'By editor', definition: {} })).status).toBe(201);
    expect((await call('DELETE', `/voice-profiles/${profile.id}`, { token: editor.token })).status).toBe(204);

    const stranger = await registerUser();
    expectProblem(await listProfiles(stranger.token, workspaceId), 403, 'workspace_forbidden');
    expectProblem(await listProfiles(stranger.token, randomUUID()), 403, 'workspace_forbidden');
    expectProblem(
      await createProfile(stranger.token, { workspace_id: workspaceId, name: 'Theirs', definition: {} }),
      403,
      'workspace_forbidden',
    );
    expectProblem(
      await createProfile(stranger.token, { workspace_id: randomUUID(), name: 'Theirs', definition: {} }),
      403,
      'workspace_forbidden',
    );
  });

  it('keeps profiles to their tenant: a foreign profile is 404 whatever the body says', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const theirs = await connectSandboxAccount(intruder.owner.token, intruder.workspaceId);
    const profile = await newProfile(owner.token, workspaceId, 'Private', { definition: FULL_DEFINITION, is_default: true });
    await assign(owner.token, profile.id, [account.id]);
    const url = `/voice-profiles/${profile.id}`;
    await expectTenantIsolation({
      url,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      attempts: [
        { method: 'PUT', body: { workspace_id: workspaceId, name: 'Taken', definition: {}, expected_revision: 1 } },
        { method: 'PUT', body: { workspace_id: intruder.workspaceId, name: 'Taken', definition: {}, expected_revision: 1 } },
        { method: 'PUT', path: `${url}/assignments`, body: { account_ids: [theirs.id] } },
        { method: 'PUT', path: `${url}/assignments`, body: { account_ids: [] } },
        { method: 'DELETE' },
        { method: 'GET', path: `/voice-profiles?workspace_id=${workspaceId}`, status: 403 },
        {
          method: 'POST',
          path: '/voice-profiles',
          body: { workspace_id: workspaceId, name: 'Planted', definition: {}, is_default: true },
          status: 403,
        },
      ],
      ownerView: [url, `/voice-profiles?workspace_id=${workspaceId}`],
    });
    // Nor can the intruder take the owner's account onto a profile of their own.
    const own = await newProfile(intruder.owner.token, intruder.workspaceId, 'Theirs');
    expect(locations(expectProblem(await assign(intruder.owner.token, own.id, [account.id]), 422))).toEqual(['body.account_ids[0]']);
    expect((await getProfile(owner.token, profile.id)).body.assigned_account_ids).toEqual([account.id]);
  });
});
