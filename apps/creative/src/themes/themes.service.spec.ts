import { describe, expect, it } from '@jest/globals';
import { BUILT_IN_THEMES, type OrganizationRole, type Principal, TenancyPatterns } from '@social/contracts';
import { Problem, RpcClient } from '@social/platform';
import type { DataSource } from 'typeorm';
import { ThemesService } from './themes.service.js';

const ORGANIZATION = '0190a000-0000-7000-8000-0000000000d1';
const principal: Principal = { userId: 'u1', sessionId: 's', isAdmin: false, tokenKind: 'session', workspaceId: null };

/** Accounts answers the caller's role (or a Problem); the settings table holds `stored`; writes are recorded. */
function themes(answer: OrganizationRole | Problem, stored: unknown[] = []) {
  const asked: unknown[] = [];
  const writes: unknown[][] = [];
  const rpc = {
    send: async (pattern: string, request: unknown) => {
      asked.push({ pattern, request });
      if (answer instanceof Problem) throw answer;
      return { id: ORGANIZATION, name: 'Acme', role: answer, created_at: '2030-01-01T00:00:00.000Z' };
    },
  } as unknown as RpcClient;
  const dataSource = {
    query: async (sql: string, params: unknown[]) => {
      if (sql.trimStart().startsWith('INSERT')) writes.push(params);
      return stored;
    },
  } as unknown as DataSource;
  return { service: new ThemesService(dataSource, rpc), asked, writes };
}

const update = (reference: { id: string; kind: string; version: number }) => ({
  organization_id: ORGANIZATION,
  default_reference: reference,
  assignments_locked: true,
});
const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('organization theme settings', () => {
  it.each(['owner', 'admin'] as const)('may be set by an organization %s', async (role) => {
    const { service, writes } = themes(role);
    await service.update(principal, update({ id: 'midnight', kind: 'built_in', version: 1 }));
    expect(writes).toEqual([[ORGANIZATION, 'midnight', 'built_in', 1, true, 'u1']]);
  });

  it('may not be set by a plain member', async () => {
    const { service, writes } = themes('member');
    expect(await refusalOf(service.update(principal, update({ id: 'midnight', kind: 'built_in', version: 1 })))).toMatchObject({
      status: 403,
      code: 'insufficient_role',
    });
    expect(writes).toEqual([]);
  });

  it('answers an organization the caller is not in like one that does not exist: 403', async () => {
    const { service, asked } = themes(new Problem(404, 'not_found', 'No such organization.'));
    expect(await refusalOf(service.get(principal, ORGANIZATION))).toMatchObject({ status: 403, code: 'organization_forbidden' });
    expect(asked).toEqual([
      { pattern: TenancyPatterns.getOrganization, request: expect.objectContaining({ params: { id: ORGANIZATION } }) },
    ]);
  });

  it("passes accounts' other refusals on as they are", async () => {
    const { service } = themes(new Problem(403, 'workspace_token_forbidden', 'No.'));
    expect(await refusalOf(service.list(principal, ORGANIZATION))).toMatchObject({ status: 403, code: 'workspace_token_forbidden' });
  });

  it('needs a theme of the catalogue, at one of its versions', async () => {
    const { service, writes } = themes('owner');
    expect(await refusalOf(service.update(principal, update({ id: 'neon', kind: 'built_in', version: 1 })))).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.default_reference.id', value: 'neon' }] },
    });
    expect(await refusalOf(service.update(principal, update({ id: 'midnight', kind: 'custom', version: 1 })))).toMatchObject({
      options: { errors: [{ location: 'body.default_reference.id' }] },
    });
    expect(await refusalOf(service.update(principal, update({ id: 'midnight', kind: 'built_in', version: 2 })))).toMatchObject({
      options: { errors: [{ location: 'body.default_reference.version', value: 2 }] },
    });
    expect(writes).toEqual([]);
  });

  it('defaults to the first built-in theme, unlocked', async () => {
    const { service } = themes('member');
    const [first] = BUILT_IN_THEMES;
    expect(await service.get(principal, ORGANIZATION)).toEqual({
      organization_id: ORGANIZATION,
      assignments_locked: false,
      default_reference: { id: first.id, kind: first.kind, version: first.version },
    });
  });

  it('lists the whole built-in catalogue to any member', async () => {
    const { service } = themes('member');
    expect((await service.list(principal, ORGANIZATION)).themes.map((t) => t.id)).toEqual(BUILT_IN_THEMES.map((t) => t.id));
  });
});
