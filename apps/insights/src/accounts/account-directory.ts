import { Injectable } from '@nestjs/common';
import type { ProviderAccountSummary } from '@social/contracts';
import { problems } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { ProviderClient } from '../sync/provider-client.js';
import type { KnownAccountRow } from './known-account.row.js';

export const NO_SUCH_ACCOUNT = 'No such connected social account in this workspace.';

/** Keeps what insights needs of a connected account (publishing owns it); the name and avatar follow every listing. */
export async function rememberAccounts(db: EntityManager, accounts: ProviderAccountSummary[]): Promise<void> {
  if (accounts.length === 0) return;
  await db.query(
    `INSERT INTO accounts (id, workspace_id, platform, username, avatar_url)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[])
     ON CONFLICT (id) DO UPDATE SET platform = excluded.platform, username = excluded.username, avatar_url = excluded.avatar_url`,
    [
      accounts.map((a) => a.id),
      accounts.map((a) => a.workspace_id),
      accounts.map((a) => a.platform),
      accounts.map((a) => a.username),
      accounts.map((a) => a.avatar_url),
    ],
  );
}

/**
 * "Is this account the workspace's?" Answered from insights' own table when
 * it knows the account, else from publishing (which owns connected accounts),
 * remembering the answer. An account of another workspace, a deleted one or
 * an unknown id is 404.
 */
@Injectable()
export class AccountDirectory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: ProviderClient,
  ) {}

  async require(workspaceId: string, accountId: string): Promise<KnownAccountRow> {
    const [known] = await this.dataSource.query<KnownAccountRow[]>(
      `SELECT id, workspace_id AS "workspaceId", platform, username FROM accounts WHERE id = $1 AND workspace_id = $2`,
      [accountId, workspaceId],
    );
    if (known) return known;
    const page = await this.provider.listAccounts({ workspace_id: workspaceId, account_ids: [accountId], limit: 1 });
    const account = page.accounts.find(
      (a) => a.id.toLowerCase() === accountId.toLowerCase() && a.workspace_id.toLowerCase() === workspaceId.toLowerCase(),
    );
    if (!account) throw problems.notFound(NO_SUCH_ACCOUNT);
    await rememberAccounts(this.dataSource.manager, [account]);
    return { id: account.id, workspaceId: account.workspace_id, platform: account.platform, username: account.username };
  }

  /** Every connected account of the workspace, remembered (paged through publishing). */
  async listWorkspace(workspaceId: string): Promise<ProviderAccountSummary[]> {
    const all: ProviderAccountSummary[] = [];
    let after = '';
    do {
      const page = await this.provider.listAccounts({ workspace_id: workspaceId, limit: 500, ...(after ? { after_id: after } : {}) });
      all.push(...page.accounts);
      await rememberAccounts(this.dataSource.manager, page.accounts);
      after = page.next_after_id;
    } while (after);
    return all;
  }
}
