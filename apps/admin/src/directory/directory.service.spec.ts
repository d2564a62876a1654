import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  AccountsDirectoryPatterns,
  DirectoryUser,
  USAGE_REPORTING_SERVICES,
  usageForUsersPattern,
  UsageTotals,
  usageTotalsPattern,
} from '@social/contracts';
import type { RpcClient } from '@social/platform';
import type { Logger } from 'pino';
import { DirectoryService } from './directory.service.js';

const [ACCOUNTS, PUBLISHING, MEDIA, CREATIVE] = USAGE_REPORTING_SERVICES;

const user = (id: string): DirectoryUser => ({
  id,
  email: `${id}@example.com`,
  display_name: id,
  avatar_url: '',
  is_admin: false,
  created_at: '2030-01-01T00:00:00.000Z',
  last_active_at: '',
});

/** An RPC client answering by pattern (an Error: that service does not answer); records what was asked. */
function directory(answers: Record<string, unknown>) {
  const asked: Array<{ pattern: string; data: unknown }> = [];
  const warnings: unknown[] = [];
  const rpc = {
    send: async (pattern: string, data: unknown) => {
      asked.push({ pattern, data });
      const answer = answers[pattern];
      if (answer === undefined || answer instanceof Error) throw answer ?? new Error(`nothing answers ${pattern}`);
      return answer;
    },
  } as unknown as RpcClient;
  const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
  return { service: new DirectoryService(rpc, logger), asked, warnings };
}

afterEach(() => {
  jest.useRealTimers();
});

describe('instance users (E9)', () => {
  it('asks accounts for the page with defaults, then every reporting service for those users', async () => {
    const { service, asked } = directory({
      [AccountsDirectoryPatterns.listUsers]: { total: 2, users: [user('a'), user('b')] },
      ...Object.fromEntries(USAGE_REPORTING_SERVICES.map((s) => [usageForUsersPattern(s), { usage: {} }])),
    });
    await service.listUsers({});
    expect(asked[0]).toEqual({
      pattern: AccountsDirectoryPatterns.listUsers,
      data: { page: 1, per_page: 25, search: '', sort: 'created_at', direction: 'desc' },
    });
    expect(asked.slice(1).map((a) => a.pattern)).toEqual(USAGE_REPORTING_SERVICES.map(usageForUsersPattern));
    expect(asked[1].data).toEqual({ user_ids: ['a', 'b'] });
  });

  it("merges each service's counts into its users, 0 where a service says nothing", async () => {
    const { service } = directory({
      [AccountsDirectoryPatterns.listUsers]: { total: 51, users: [user('a'), user('b')] },
      [usageForUsersPattern(ACCOUNTS)]: { usage: { a: { organization_count: 1, workspace_count: 3 } } },
      [usageForUsersPattern(PUBLISHING)]: { usage: { a: { publication_count: 7 }, b: { social_account_count: 2 } } },
      [usageForUsersPattern(MEDIA)]: { usage: { b: { media_item_count: 4, media_bytes: 4096 } } },
      [usageForUsersPattern(CREATIVE)]: { usage: {} },
    });
    const page = await service.listUsers({ page: 3, per_page: 25 });
    expect(page).toMatchObject({ page: 3, per_page: 25, total: 51, total_pages: 3, usage_complete: true });
    expect(page.users[0]).toMatchObject({ id: 'a', organization_count: 1, workspace_count: 3, publication_count: 7, media_bytes: 0 });
    expect(page.users[1]).toMatchObject({
      id: 'b',
      organization_count: 0,
      social_account_count: 2,
      media_item_count: 4,
      media_bytes: 4096,
      video_project_count: 0,
      image_design_count: 0,
      plan_ids: [],
    });
  });

  it('still answers when a service is silent, saying the usage is incomplete', async () => {
    const { service, warnings } = directory({
      [AccountsDirectoryPatterns.listUsers]: { total: 1, users: [user('a')] },
      [usageForUsersPattern(ACCOUNTS)]: { usage: { a: { workspace_count: 2 } } },
      [usageForUsersPattern(PUBLISHING)]: new Error('timed out'),
      [usageForUsersPattern(MEDIA)]: { usage: {} },
      [usageForUsersPattern(CREATIVE)]: { usage: {} },
    });
    const page = await service.listUsers({});
    expect(page.usage_complete).toBe(false);
    expect(page.users[0]).toMatchObject({ workspace_count: 2, publication_count: 0 });
    expect(warnings).toEqual([[{ services: [PUBLISHING] }, 'usage reports missing']]);
  });

  it('asks no service about an empty page', async () => {
    const { service, asked } = directory({ [AccountsDirectoryPatterns.listUsers]: { total: 0, users: [] } });
    expect(await service.listUsers({ search: 'nobody' })).toMatchObject({ total: 0, total_pages: 0, users: [], usage_complete: true });
    expect(asked).toHaveLength(1);
  });
});

describe('instance overview (E7)', () => {
  it("sums every service's totals and fills the 30-day trends, oldest first, with zeros", async () => {
    jest.useFakeTimers({ now: new Date('2030-03-31T23:59:00.000Z'), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const totals: Record<string, UsageTotals> = {
      [ACCOUNTS]: {
        total_users: 10,
        new_users_last_30_days: 3,
        total_organizations: 2,
        total_workspaces: 4,
        user_registration_trend: [
          { date: '2030-03-31', value: 2 },
          { date: '2030-03-02', value: 1 },
          { date: '2030-03-01', value: 9 },
        ],
      },
      [PUBLISHING]: { total_publications: 5, publication_trend: [{ date: '2030-03-30', value: 5 }] },
      [MEDIA]: { total_media_items: 6, total_media_bytes: 600 },
      [CREATIVE]: { total_video_projects: 1, total_image_designs: 2 },
    };
    const { service, asked } = directory(Object.fromEntries(USAGE_REPORTING_SERVICES.map((s) => [usageTotalsPattern(s), totals[s]])));
    const overview = await service.overview();
    expect(asked.map((a) => a.data)).toEqual(USAGE_REPORTING_SERVICES.map(() => ({ days: 30 })));
    expect(overview).toMatchObject({
      total_users: 10,
      new_users_last_30_days: 3,
      total_organizations: 2,
      total_workspaces: 4,
      total_publications: 5,
      published_last_30_days: 0,
      total_media_items: 6,
      total_media_bytes: 600,
      total_video_projects: 1,
      total_image_designs: 2,
      usage_complete: true,
    });
    const registrations = overview.user_registration_trend;
    expect(registrations).toHaveLength(30);
    expect(registrations[0]).toEqual({ date: '2030-03-02', value: 1 });
    expect(registrations[29]).toEqual({ date: '2030-03-31', value: 2 });
    expect(registrations.reduce((sum, point) => sum + point.value, 0)).toBe(3);
    expect(overview.publication_trend[28]).toEqual({ date: '2030-03-30', value: 5 });
  });

  it('counts a silent service as zeros and says so', async () => {
    const { service } = directory({ [usageTotalsPattern(ACCOUNTS)]: { total_users: 4 } });
    const overview = await service.overview();
    expect(overview).toMatchObject({ total_users: 4, total_publications: 0, usage_complete: false });
  });
});
