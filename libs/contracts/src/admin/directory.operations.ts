import { operation } from '../common/operation.js';
import { InstanceOverview } from './overview.dto.js';
import { InstanceUserPage, ListInstanceUsersQuery } from './users.dto.js';

/** The instance's users and its overview (admin service, which asks the other services), for instance administrators. */
export const AdminDirectoryOperations = {
  listUsers: operation({ subject: 'admin.users.list', caller: 'admin', query: ListInstanceUsersQuery, answer: InstanceUserPage }),
  overview: operation({ subject: 'admin.overview.get', caller: 'admin', answer: InstanceOverview }),
};
