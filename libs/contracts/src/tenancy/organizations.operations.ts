import { checkedByService, nothing, operation } from '../common/operation.js';
import {
  CreateOrganizationRequest,
  Organization,
  OrganizationDeletion,
  OrganizationDeletionPreview,
  OrganizationList,
  OrganizationMember,
  OrganizationMemberList,
  UpdateOrganizationMemberRequest,
} from './organizations.dto.js';

/**
 * Organizations, their members and their deletion (accounts service): account-level, refused to workspace-bound
 * tokens. An organization the caller is not in is 404; a member id is checked after the caller's own membership.
 */
export const OrganizationOperations = {
  create: operation({ subject: 'accounts.organizations.create', caller: 'account', body: CreateOrganizationRequest, answer: Organization }),
  list: operation({ subject: 'accounts.organizations.list', caller: 'account', answer: OrganizationList }),
  get: operation({ subject: 'accounts.organizations.get', caller: 'account', params: { id: null }, answer: Organization }),
  previewDeletion: operation({
    subject: 'accounts.organizations.previewDeletion',
    caller: 'account',
    params: { id: null },
    answer: OrganizationDeletionPreview,
  }),
  delete: operation({ subject: 'accounts.organizations.delete', caller: 'account', params: { id: null }, answer: OrganizationDeletion }),
  listMembers: operation({
    subject: 'accounts.organizationMembers.list',
    caller: 'account',
    params: { id: null },
    answer: OrganizationMemberList,
  }),
  updateMember: operation({
    subject: 'accounts.organizationMembers.update',
    caller: 'account',
    params: { id: null, user_id: checkedByService },
    body: UpdateOrganizationMemberRequest,
    answer: OrganizationMember,
  }),
  removeMember: operation({
    subject: 'accounts.organizationMembers.remove',
    caller: 'account',
    params: { id: null, user_id: checkedByService },
    answer: nothing,
  }),
};
