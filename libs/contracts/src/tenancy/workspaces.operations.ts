import { checkedByService, nothing, operation } from '../common/operation.js';
import {
  CreateWorkspaceRequest,
  ListWorkspacesQuery,
  UpdateWorkspaceMemberRequest,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceList,
  WorkspaceMember,
  WorkspaceMemberList,
} from './workspaces.dto.js';

const NO_SUCH_MEMBER = 'No such member.';

/** Workspaces and their members (accounts service); the service checks the caller's role in the workspace. */
export const WorkspaceOperations = {
  create: operation({ subject: 'accounts.workspaces.create', caller: 'account', body: CreateWorkspaceRequest, answer: Workspace }),
  list: operation({ subject: 'accounts.workspaces.list', query: ListWorkspacesQuery, answer: WorkspaceList }),
  get: operation({ subject: 'accounts.workspaces.get', params: { id: null }, answer: Workspace }),
  update: operation({ subject: 'accounts.workspaces.update', params: { id: null }, body: UpdateWorkspaceRequest, answer: Workspace }),
  listMembers: operation({ subject: 'accounts.workspaceMembers.list', params: { id: null }, answer: WorkspaceMemberList }),
  /** The member id is checked after the caller's access to the workspace. */
  updateMember: operation({
    subject: 'accounts.workspaceMembers.update',
    params: { id: null, user_id: checkedByService },
    body: UpdateWorkspaceMemberRequest,
    answer: WorkspaceMember,
  }),
  /** The member id first: whether the caller is leaving decides the role the workspace asks of them. */
  removeMember: operation({ subject: 'accounts.workspaceMembers.remove', params: { user_id: NO_SUCH_MEMBER, id: null }, answer: nothing }),
};
