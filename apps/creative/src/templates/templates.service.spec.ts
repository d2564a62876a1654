import { describe, expect, it } from '@jest/globals';
import type { Principal, WorkspaceRole } from '@social/contracts';
import { AccessControl, problems } from '@social/platform';
import type { DataSource } from 'typeorm';
import { BUILT_IN_TEMPLATES } from './built-in-templates.js';
import { TemplatesService } from './templates.service.js';

const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const OTHER_WORKSPACE = '0190a000-0000-7000-8000-0000000000a2';
const TEMPLATE = '0190a000-0000-7000-8000-0000000000f1';
const principal: Principal = { userId: 'u1', sessionId: 's', isAdmin: false, tokenKind: 'session', workspaceId: null };

const stored = (workspaceId: string) => ({
  id: TEMPLATE,
  workspaceId,
  name: 'Ours',
  category: 'social',
  presetKey: 'instagram-square',
  document: BUILT_IN_TEMPLATES[0].document,
  createdAt: new Date('2030-01-01T00:00:00.000Z'),
  updatedAt: new Date('2030-01-01T00:00:00.000Z'),
});

/** The caller's role in WORKSPACE, the stored templates, and the statements run. */
function templates(role: WorkspaceRole, rows: Array<ReturnType<typeof stored>> = []) {
  const statements: string[] = [];
  const rank = { viewer: 1, editor: 2, admin: 3 };
  const check = (workspaceId: string, need: WorkspaceRole) => {
    if (workspaceId !== WORKSPACE) throw problems.notFound();
    if (rank[role] < rank[need]) throw problems.forbidden('insufficient_role', 'no');
    return { workspace_id: WORKSPACE, workspace_name: 'Team', organization_id: 'o', role };
  };
  const access = {
    requireWorkspace: async (_p: Principal, workspaceId: string, need: WorkspaceRole) => check(workspaceId, need),
    requireVisible: async <T extends { workspaceId: string }>(_p: Principal, load: () => Promise<T | null>, need: WorkspaceRole) => {
      const resource = await load();
      if (!resource) throw problems.notFound();
      check(resource.workspaceId, need);
      return resource;
    },
  } as unknown as AccessControl;
  const dataSource = {
    query: async (sql: string, params: unknown[]) => {
      statements.push(sql.trim().split(/\s+/)[0]);
      return rows.filter((row) => params.includes(row.id) || params.includes(row.workspaceId));
    },
  } as unknown as DataSource;
  return { service: new TemplatesService(dataSource, access), statements };
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('templates', () => {
  it('list the built-in set first, then the workspace’s; editing is for editors and admins', async () => {
    const asViewer = await templates('viewer', [stored(WORKSPACE)]).service.list(principal, { workspace_id: WORKSPACE });
    expect(asViewer.can_edit).toBe(false);
    expect(asViewer.templates.map((t) => t.id)).toEqual([...BUILT_IN_TEMPLATES.map((t) => t.id), TEMPLATE]);
    expect(asViewer.templates.at(-1)).toMatchObject({ built_in: false, workspace_id: WORKSPACE, preset_key: 'instagram-square' });
    expect((await templates('editor').service.list(principal, { workspace_id: WORKSPACE })).can_edit).toBe(true);
  });

  it('answer a built-in template by its key to anyone, without a lookup', async () => {
    const { service, statements } = templates('viewer');
    expect(await service.get(principal, 'youtube-thumbnail')).toBe(BUILT_IN_TEMPLATES.find((t) => t.id === 'youtube-thumbnail'));
    expect(statements).toEqual([]);
  });

  it('answer an unknown key that is not a UUID as missing, without a lookup', async () => {
    const { service, statements } = templates('admin');
    expect(await refusalOf(service.get(principal, 'my-template'))).toMatchObject({ status: 404 });
    expect(await refusalOf(service.delete(principal, 'my-template'))).toMatchObject({ status: 404 });
    expect(statements).toEqual([]);
  });

  it('never delete a built-in template, whatever the role', async () => {
    const { service, statements } = templates('admin');
    expect(await refusalOf(service.delete(principal, 'instagram-square'))).toMatchObject({ status: 409, code: 'template_built_in' });
    expect(statements).toEqual([]);
  });

  it("delete a workspace's template for its editors only", async () => {
    const asViewer = templates('viewer', [stored(WORKSPACE)]);
    expect(await refusalOf(asViewer.service.delete(principal, TEMPLATE))).toMatchObject({ status: 403 });
    expect(asViewer.statements).toEqual(['SELECT']);
    const asEditor = templates('editor', [stored(WORKSPACE)]);
    await asEditor.service.delete(principal, TEMPLATE.toUpperCase());
    expect(asEditor.statements).toEqual(['SELECT', 'DELETE']);
  });

  it("let a design start only from a built-in template or one of its own workspace's", async () => {
    const { service } = templates('editor', [stored(OTHER_WORKSPACE)]);
    expect(await service.findUsable(WORKSPACE, 'linkedin-square')).toMatchObject({ built_in: true });
    expect(await service.findUsable(WORKSPACE, TEMPLATE)).toBeNull();
    expect(await service.findUsable(OTHER_WORKSPACE, TEMPLATE)).toMatchObject({ id: TEMPLATE });
    expect(await service.findUsable(WORKSPACE, 'not-a-template')).toBeNull();
  });
});
