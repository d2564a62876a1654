import { beforeAll, describe, expect, it } from '@jest/globals';
import { expectProblem, registerUser, TestUser } from '../support/api.js';
import { adminCall, locations, registerAdmin, workspaceToken } from '../support/admin.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';

const KEY = 'media.alt_text';
const path = (key: string) => `/admin/ai-prompts/${encodeURIComponent(key)}`;

describe('admin: AI prompts (E8 and its siblings)', () => {
  let admin: TestUser;
  const put = (key: string, body: unknown, token = admin.token) => adminCall('PUT', path(key), { token, body });

  beforeAll(async () => {
    admin = await registerAdmin();
    // Whatever an earlier run of this suite left (the stack is shared by every suite).
    await adminCall('DELETE', path(KEY), { token: admin.token });
  });

  it('lists the catalogue: base prompts and per-platform variants', async () => {
    const response = await adminCall('GET', '/admin/ai-prompts', { token: admin.token });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'AIPromptList');
    const byKey = new Map(response.body.prompts.map((p: { key: string }) => [p.key, p]));
    for (const key of ['publication_builds.angles', 'publication_builds.draft', 'voice_profiles.analyze', 'media.alt_text']) {
      expect(byKey.get(key)).toMatchObject({ kind: 'base', platform: '' });
    }
    expect(byKey.get('publication_builds.draft@mastodon')).toMatchObject({ kind: 'platform', platform: 'mastodon' });
    expect(byKey.get(KEY)).toEqual({
      key: KEY,
      kind: 'base',
      platform: '',
      value: expect.any(String),
      overridden: false,
      default_value: expect.any(String),
      default_version: '1',
      updated_at: '',
      updated_by: '',
    });
  });

  it('E8 overrides a prompt; GET shows it; DELETE returns the default (200, overridden false)', async () => {
    const original = await adminCall('GET', path(KEY), { token: admin.token });
    expect(original.status).toBe(200);
    await expectMatchesOwnSchema(original.body, 'AIPromptResponse');
    expect(original.body.value).toBe(original.body.default_value);

    const saved = await put(KEY, { value: 'Describe the picture in one sentence.' });
    expect(saved.status).toBe(200);
    await expectMatchesOwnSchema(saved.body, 'AIPromptResponse');
    expect(saved.body).toEqual({
      ...original.body,
      value: 'Describe the picture in one sentence.',
      overridden: true,
      updated_at: expect.stringMatching(/Z$/),
      updated_by: admin.id,
    });
    expect((await adminCall('GET', path(KEY), { token: admin.token })).body).toEqual(saved.body);

    const reset = await adminCall('DELETE', path(KEY), { token: admin.token });
    expect(reset.status).toBe(200);
    await expectMatchesOwnSchema(reset.body, 'AIPromptResponse');
    expect(reset.body).toEqual(original.body);
    expect((await adminCall('GET', path(KEY), { token: admin.token })).body).toEqual(original.body);
  });

  it('saves a platform variant, up to 20,000 characters', async () => {
    const key = 'publication_builds.draft@bluesky';
    const saved = await put(key, { value: 'x'.repeat(20_000) });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ key, kind: 'platform', platform: 'bluesky', overridden: true });
    expect(saved.body.value).toHaveLength(20_000);
    expect((await adminCall('DELETE', path(key), { token: admin.token })).body.overridden).toBe(false);
  });

  it('answers 404 for a key outside the catalogue, whatever the body', async () => {
    expectProblem(await adminCall('GET', path('no.such_prompt'), { token: admin.token }), 404, 'not_found');
    expectProblem(await put('no.such_prompt', { value: 'hello' }), 404, 'not_found');
    expectProblem(await put('no.such_prompt', { value: '' }), 404, 'not_found');
    expectProblem(await put('publication_builds.draft@myspace', { value: 'hello' }), 404, 'not_found');
    expectProblem(await adminCall('DELETE', path('no.such_prompt'), { token: admin.token }), 404, 'not_found');
  });

  it('refuses an empty, blank, oversized, missing or mistyped value with 422 at body.value', async () => {
    for (const body of [{ value: '' }, { value: ' \n\t ' }, { value: 'x'.repeat(20_001) }, {}, { value: 42 }, { value: null }]) {
      const problem = expectProblem(await put(KEY, body), 422, 'validation_failed');
      expect(new Set(locations(problem))).toEqual(new Set(['body.value']));
    }
    expect(locations(expectProblem(await put(KEY, { value: 'ok', kind: 'base' }), 422))).toEqual(['body.kind']);
    expectProblem(
      await adminCall('PUT', path(KEY), { token: admin.token, rawBody: '"text"', headers: { 'content-type': 'application/json' } }),
      400,
    );
    expect((await adminCall('GET', path(KEY), { token: admin.token })).body.overridden).toBe(false);
  });

  it('answers 403 to a user who is not an instance admin, and to a workspace-bound token', async () => {
    const user = await registerUser();
    expectProblem(await adminCall('GET', '/admin/ai-prompts', { token: user.token }), 403, 'admin_required');
    expectProblem(await adminCall('GET', path(KEY), { token: user.token }), 403, 'admin_required');
    expectProblem(await put(KEY, { value: 'mine' }, user.token), 403, 'admin_required');
    expectProblem(await adminCall('DELETE', path(KEY), { token: user.token }), 403, 'admin_required');
    const token = await workspaceToken(admin);
    expectProblem(await adminCall('GET', '/admin/ai-prompts', { token }), 403, 'workspace_token_forbidden');
    expectProblem(await put(KEY, { value: 'mine' }, token), 403, 'workspace_token_forbidden');
  });
});
