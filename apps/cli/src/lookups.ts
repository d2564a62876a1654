import { unwrap, type PlatformClient } from '@social/sdk';
import { accountNamesOf } from './format.js';

export const getPublication = (client: PlatformClient, id: string) =>
  unwrap(client.GET('/publications/{id}', { params: { path: { id } } }));

/** Account names for tables; a table without them still helps, so a failure here is not the command's. */
export async function accountNames(client: PlatformClient, workspaceId: string): Promise<Map<string, string>> {
  const answer = await client.GET('/social-accounts', { params: { query: { workspace_id: workspaceId } } }).catch(() => undefined);
  return accountNamesOf(answer?.data?.accounts ?? []);
}
