import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { workspaceToken } from '../support/admin.js';
import { call, eventually, expectProblem, locations, registerUser } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const THEMES = [
  { id: 'classic', kind: 'built_in', version: 1, name: 'Classic' },
  { id: 'midnight', kind: 'built_in', version: 1, name: 'Midnight' },
  { id: 'studio', kind: 'built_in', version: 1, name: 'Studio' },
  { id: 'sunrise', kind: 'built_in', version: 1, name: 'Sunrise' },
];
const getSettings = (token: string, organizationId: string) =>
  call('GET', `/theme-settings/organization?organization_id=${organizationId}`, { token });
const putSettings = (token: string, body: unknown) => call('PUT', '/theme-settings/organization', { token, body });
const midnight = (organizationId: string, locked = true) => ({
  organization_id: organizationId,
  assignments_locked: locked,
  default_reference: { id: 'midnight', kind: 'built_in', version: 1 },
});

describe('creative: themes and organization theme defaults (E12)', () => {
  const db = testDatabase();

  it('GET /themes lists the built-in catalogue to members of the organization', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const response = await call('GET', `/themes?organization_id=${organizationId}`, { token: owner.token });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'ThemeList');
    expect(response.body).toEqual({ $schema: expect.stringMatching(/ThemeList\.json$/), themes: THEMES });
    const member = await joinWorkspace(owner, workspaceId, 'viewer');
    expect((await call('GET', `/themes?organization_id=${organizationId}`, { token: member.token })).body.themes).toEqual(THEMES);
    const stranger = await registerUser();
    for (const id of [organizationId, randomUUID()])
      expectProblem(await call('GET', `/themes?organization_id=${id}`, { token: stranger.token }), 403, 'organization_forbidden');
    expect(locations(expectProblem(await call('GET', '/themes', { token: owner.token }), 422))).toEqual(['query.organization_id']);
    expect(locations(expectProblem(await call('GET', '/themes?organization_id=x', { token: owner.token }), 422))).toEqual([
      'query.organization_id',
    ]);
  });

  it('the settings default to the first built-in theme, unlocked; E12 by the owner replaces them', async () => {
    const { owner, organizationId } = await createTenant();
    const initial = await getSettings(owner.token, organizationId);
    expect(initial.status).toBe(200);
    await expectMatchesOwnSchema(initial.body, 'OrganizationThemeSettings');
    expect(initial.body).toEqual({
      $schema: expect.stringMatching(/OrganizationThemeSettings\.json$/),
      organization_id: organizationId,
      assignments_locked: false,
      default_reference: { id: 'classic', kind: 'built_in', version: 1 },
    });
    const response = await putSettings(owner.token, midnight(organizationId.toUpperCase()));
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'OrganizationThemeSettings');
    expect(response.body).toEqual({
      ...initial.body,
      assignments_locked: true,
      default_reference: { id: 'midnight', kind: 'built_in', version: 1 },
    });
    expect((await getSettings(owner.token, organizationId)).body).toEqual(response.body);
    const back = await putSettings(owner.token, {
      ...midnight(organizationId, false),
      default_reference: { id: 'studio', kind: 'built_in', version: 1 },
    });
    expect(back.body).toEqual({
      ...response.body,
      assignments_locked: false,
      default_reference: { id: 'studio', kind: 'built_in', version: 1 },
    });
  });

  it(
    'E12 is for organization owners and admins: ' + 'a plain member is 403 insufficient_role, an outsider 403 organization_forbidden',
    async () => {
      const { owner, organizationId, workspaceId } = await createTenant();
      const member = await joinWorkspace(owner, workspaceId, 'admin');
      expectProblem(await putSettings(member.token, midnight(organizationId)), 403, 'insufficient_role');
      // Members read the settings.
      expect((await getSettings(member.token, organizationId)).status).toBe(200);
      const promoted = await call('PATCH', `/organizations/${organizationId}/members/${member.id}`, {
        token: owner.token,
        body: { role: 'admin' },
      });
      expect(promoted.status).toBe(200);
      const response = await putSettings(member.token, midnight(organizationId));
      expect(response.status).toBe(200);
      expect(response.body.default_reference.id).toBe('midnight');
      const stranger = await createTenant();
      for (const id of [organizationId, randomUUID()]) {
        expectProblem(await putSettings(stranger.owner.token, midnight(id, false)), 403, 'organization_forbidden');
        expectProblem(await getSettings(stranger.owner.token, id), 403, 'organization_forbidden');
      }
      expectProblem(await putSettings(await workspaceToken(owner), midnight(organizationId, false)), 403, 'workspace_token_forbidden');
      expectProblem(await getSettings(await workspaceToken(owner), organizationId), 403, 'workspace_token_forbidden');
      expect((await getSettings(owner.token, organizationId)).body).toEqual(response.body);
    },
  );

  it.each([
    ['an unknown theme id', { id: 'neon', kind: 'built_in', version: 1 }, 'body.default_reference.id'],
    ['a version the theme does not have', { id: 'midnight', kind: 'built_in', version: 2 }, 'body.default_reference.version'],
    ['an unknown kind', { id: 'midnight', kind: 'custom', version: 1 }, 'body.default_reference.kind'],
    ['a version of 0', { id: 'midnight', kind: 'built_in', version: 0 }, 'body.default_reference.version'],
    ['a reference without an id', { kind: 'built_in', version: 1 }, 'body.default_reference.id'],
    ['a reference with an extra member', { id: 'midnight', kind: 'built_in', version: 1, extra: 1 }, 'body.default_reference.extra'],
  ])('E12 refuses %s (422, nothing changes)', async (_label, reference, location) => {
    const { owner, organizationId } = await createTenant();
    const before = (await getSettings(owner.token, organizationId)).body;
    const problem = expectProblem(
      await putSettings(owner.token, { ...midnight(organizationId), default_reference: reference }),
      422,
      'validation_failed',
    );
    expect(new Set(locations(problem))).toEqual(new Set([location]));
    expect((await getSettings(owner.token, organizationId)).body).toEqual(before);
  });

  it('E12 refuses bodies missing members or of the wrong types (422 at each)', async () => {
    const { owner, organizationId } = await createTenant();
    expect(new Set(locations(expectProblem(await putSettings(owner.token, {}), 422)))).toEqual(
      new Set(['body.organization_id', 'body.assignments_locked', 'body.default_reference']),
    );
    expect(
      new Set(
        locations(
          expectProblem(
            await putSettings(owner.token, { ...midnight(organizationId), assignments_locked: 'yes', default_reference: 'midnight' }),
            422,
          ),
        ),
      ),
    ).toEqual(new Set(['body.assignments_locked', 'body.default_reference']));
    expectProblem(
      await call('PUT', '/theme-settings/organization', {
        token: owner.token,
        rawBody: '{"organization_id":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
  });

  it('another tenant replays every theme route on the organization: 403, and nothing the owner sees changes', async () => {
    const { owner, organizationId } = await createTenant();
    const intruder = await createTenant();
    expect((await putSettings(owner.token, midnight(organizationId))).status).toBe(200);
    await expectTenantIsolation({
      url: `/organizations/${organizationId}`,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [`/theme-settings/organization?organization_id=${organizationId}`, `/themes?organization_id=${organizationId}`],
      attempts: [
        { method: 'GET', path: `/themes?organization_id=${organizationId}`, status: 403 },
        { method: 'GET', path: `/theme-settings/organization?organization_id=${organizationId}`, status: 403 },
        { method: 'PUT', path: '/theme-settings/organization', body: midnight(organizationId, false), status: 403 },
      ],
    });
  });

  it('organization deletion purges its theme settings', async () => {
    const { owner, organizationId } = await createTenant();
    expect((await putSettings(owner.token, midnight(organizationId))).status).toBe(200);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM creative.organization_theme_settings WHERE organization_id = $1', [
      organizationId,
    ]);
    expect(rows[0].n).toBe(1);
    expect((await call('DELETE', `/organizations/${organizationId}`, { token: owner.token })).status).toBe(202);
    await eventually(async () => {
      const { rows: left } = await db.query(
        'SELECT count(*)::int AS n FROM creative.organization_theme_settings WHERE organization_id = $1',
        [organizationId],
      );
      expect(left[0].n).toBe(0);
    }, 15_000);
    expectProblem(await getSettings(owner.token, organizationId), 403, 'organization_forbidden');
  });
});
