import { describe, expect, it } from '@jest/globals';
import type { ProviderAccountSummary } from '@social/contracts';
import type { DataSource } from 'typeorm';
import type { ProviderClient } from '../sync/provider-client.js';
import { AccountDirectory, NO_SUCH_ACCOUNT } from './account-directory.js';

const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const ACCOUNT = '0190a000-0000-7000-8000-0000000000b1';

const summary = (values: Partial<ProviderAccountSummary> = {}): ProviderAccountSummary =>
  ({ id: ACCOUNT, workspace_id: WORKSPACE, platform: 'mastodon', username: 'ada', avatar_url: '', ...values }) as ProviderAccountSummary;

/** Insights' accounts table (`known`) and publishing's listing (`listed`); records remembered accounts and questions. */
function directory(known: unknown[], listed: ProviderAccountSummary[]) {
  const remembered: unknown[][] = [];
  const asked: unknown[] = [];
  const dataSource = {
    query: async () => known,
    manager: {
      query: async (_sql: string, params: unknown[][]) => {
        remembered.push(params[0]);
        return [];
      },
    },
  } as unknown as DataSource;
  const provider = {
    listAccounts: async (request: unknown) => {
      asked.push(request);
      return { accounts: listed, next_after_id: '' };
    },
  } as unknown as ProviderClient;
  return { accounts: new AccountDirectory(dataSource, provider), remembered, asked };
}

describe("whether an account is the workspace's", () => {
  it('is answered from what insights knows, without asking publishing', async () => {
    const known = { id: ACCOUNT, workspaceId: WORKSPACE, platform: 'x', username: 'ada' };
    const { accounts, asked } = directory([known], []);
    expect(await accounts.require(WORKSPACE, ACCOUNT)).toBe(known);
    expect(asked).toEqual([]);
  });

  it('is asked of publishing otherwise, and the answer remembered', async () => {
    const { accounts, asked, remembered } = directory([], [summary()]);
    expect(await accounts.require(WORKSPACE, ACCOUNT)).toEqual({
      id: ACCOUNT,
      workspaceId: WORKSPACE,
      platform: 'mastodon',
      username: 'ada',
    });
    expect(asked).toEqual([{ workspace_id: WORKSPACE, account_ids: [ACCOUNT], limit: 1 }]);
    expect(remembered).toEqual([[ACCOUNT]]);
  });

  it('matches ids whatever their case', async () => {
    const { accounts } = directory([], [summary({ id: ACCOUNT.toUpperCase(), workspace_id: WORKSPACE.toUpperCase() })]);
    expect((await accounts.require(WORKSPACE, ACCOUNT)).platform).toBe('mastodon');
  });

  it("is 404 for another workspace's account, even if publishing lists it", async () => {
    const other = '0190a000-0000-7000-8000-0000000000a2';
    const { accounts, remembered } = directory([], [summary({ workspace_id: other })]);
    await expect(accounts.require(WORKSPACE, ACCOUNT)).rejects.toMatchObject({ status: 404, detail: NO_SUCH_ACCOUNT });
    expect(remembered).toEqual([]);
  });

  it('is 404 for an account publishing does not list', async () => {
    await expect(directory([], []).accounts.require(WORKSPACE, ACCOUNT)).rejects.toMatchObject({ status: 404 });
  });
});
