import type { WorkspaceRole } from '../../workspace/workspace';

export const ROLES: { value: WorkspaceRole; label: string }[] = [
  { value: 'admin', label: 'Admin: members, invitations, settings' },
  { value: 'editor', label: 'Editor: writes and publishes' },
  { value: 'viewer', label: 'Viewer: reads only' },
];

export const roleName = (role: WorkspaceRole) => role[0].toUpperCase() + role.slice(1);
