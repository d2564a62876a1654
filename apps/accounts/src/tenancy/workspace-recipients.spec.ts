import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { toMember, toOrganization } from './organizations.service.js';
import { WorkspaceAccessLookup, workspaceRecipients } from './workspace-access.lookup.js';

const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const USER = '0190a000-0000-7000-8000-0000000000b1';

/** A data source answering every query with `rows`, keeping what it was asked. */
function answering(...answers: unknown[][]) {
  const asked: unknown[][] = [];
  const dataSource = {
    query: async (_sql: string, params: unknown[]) => {
      asked.push(params);
      return answers.shift() ?? [];
    },
  } as unknown as DataSource;
  return { dataSource, asked };
}

const recipient = (user_id: string, role: string) => ({
  workspace_name: 'Launch team',
  user_id,
  email: `${user_id}@example.com`,
  email_verified: true,
  role,
});

describe('workspaceRecipients', () => {
  const rows = [recipient('a', 'admin'), recipient('e', 'editor'), recipient('v', 'viewer')];

  it('answers everyone at the role asked for or above', async () => {
    const editors = await workspaceRecipients(answering(rows).dataSource, WORKSPACE, 'editor');
    expect(editors.workspace_name).toBe('Launch team');
    expect(editors.recipients.map((r) => [r.user_id, r.role])).toEqual([
      ['a', 'admin'],
      ['e', 'editor'],
    ]);
    expect((await workspaceRecipients(answering(rows).dataSource, WORKSPACE, 'admin')).recipients.map((r) => r.user_id)).toEqual(['a']);
    expect((await workspaceRecipients(answering(rows).dataSource, WORKSPACE, 'viewer')).recipients).toHaveLength(3);
  });

  it('publishes only the recipient members', async () => {
    const [first] = (await workspaceRecipients(answering(rows).dataSource, WORKSPACE, 'viewer')).recipients;
    expect(first).toEqual({ user_id: 'a', email: 'a@example.com', email_verified: true, role: 'admin' });
  });

  it('asks nothing for a workspace id that is not a UUID or a role that does not exist', async () => {
    const notUuid = answering(rows);
    expect(await workspaceRecipients(notUuid.dataSource, 'launch-team', 'viewer')).toEqual({ workspace_name: '', recipients: [] });
    const unknownRole = answering(rows);
    expect(await workspaceRecipients(unknownRole.dataSource, WORKSPACE, 'owner' as never)).toEqual({ workspace_name: '', recipients: [] });
    expect(notUuid.asked).toEqual([]);
    expect(unknownRole.asked).toEqual([]);
  });

  it('still names a workspace nobody can see', async () => {
    const { dataSource } = answering([], [{ workspace_name: 'Empty' }]);
    expect(await workspaceRecipients(dataSource, WORKSPACE, 'viewer')).toEqual({ workspace_name: 'Empty', recipients: [] });
  });
});

describe('WorkspaceAccessLookup', () => {
  const none = (workspaceId: string) => ({ workspace_id: workspaceId, workspace_name: '', organization_id: '', role: null });

  it('grants the effective role of a member', async () => {
    const { dataSource } = answering([{ id: WORKSPACE, name: 'Launch team', organization_id: 'o', role: 'editor' }]);
    expect(await new WorkspaceAccessLookup(dataSource).find(USER, WORKSPACE)).toEqual({
      workspace_id: WORKSPACE,
      workspace_name: 'Launch team',
      organization_id: 'o',
      role: 'editor',
    });
  });

  it('grants nothing to someone without a role there, even though the workspace exists', async () => {
    const { dataSource } = answering([{ id: WORKSPACE, name: 'Launch team', organization_id: 'o', role: null }]);
    expect(await new WorkspaceAccessLookup(dataSource).find(USER, WORKSPACE)).toEqual(none(WORKSPACE));
  });

  it('grants nothing, without asking, for ids that are not UUIDs', async () => {
    const { dataSource, asked } = answering([{ id: WORKSPACE, name: 'x', organization_id: 'o', role: 'admin' }]);
    const lookup = new WorkspaceAccessLookup(dataSource);
    expect(await lookup.find(USER, 'launch')).toEqual(none('launch'));
    expect(await lookup.find('someone', WORKSPACE)).toEqual(none(WORKSPACE));
    expect(asked).toEqual([]);
  });
});

describe('tenancy mappers', () => {
  it('publish organizations and members with ISO times', () => {
    const at = new Date('2030-01-01T00:00:00.000Z');
    expect(toOrganization({ id: 'o', name: 'Acme', role: 'admin', created_at: at })).toEqual({
      id: 'o',
      name: 'Acme',
      role: 'admin',
      created_at: '2030-01-01T00:00:00.000Z',
    });
    expect(toMember({ user_id: 'u', email: 'u@example.com', display_name: 'U', role: 'member', joined_at: at })).toEqual({
      user_id: 'u',
      email: 'u@example.com',
      display_name: 'U',
      role: 'member',
      joined_at: '2030-01-01T00:00:00.000Z',
    });
  });
});
