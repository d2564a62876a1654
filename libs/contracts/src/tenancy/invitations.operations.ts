import { checkedByService, nothing, operation } from '../common/operation.js';
import {
  AcceptInvitationRequest,
  CreateInvitationRequest,
  InvitationAcceptance,
  WorkspaceInvitation,
  WorkspaceInvitationList,
} from './workspaces.dto.js';

/** The invitation id is checked after the caller's access to the workspace (admins). */
const INVITATION = { id: null, invitation_id: checkedByService };

/** A workspace's invitations (accounts service, workspace admins), and accepting one (the invited account). */
export const InvitationOperations = {
  create: operation({
    subject: 'accounts.invitations.create',
    params: { id: null },
    body: CreateInvitationRequest,
    answer: WorkspaceInvitation,
  }),
  list: operation({ subject: 'accounts.invitations.list', params: { id: null }, answer: WorkspaceInvitationList }),
  get: operation({ subject: 'accounts.invitations.get', params: INVITATION, answer: WorkspaceInvitation }),
  revoke: operation({ subject: 'accounts.invitations.revoke', params: INVITATION, answer: nothing }),
  resend: operation({ subject: 'accounts.invitations.resend', params: INVITATION, answer: WorkspaceInvitation }),
  accept: operation({
    subject: 'accounts.invitations.accept',
    caller: 'account',
    body: AcceptInvitationRequest,
    answer: InvitationAcceptance,
  }),
};
