import { describe, expect, it } from '@jest/globals';
import { PENDING_WORK_SERVICES, pendingWorkPattern, PendingWorkReply } from '@social/contracts';
import { Problem, RpcClient } from '@social/platform';
import type { DataSource } from 'typeorm';
import type { ApiTokensService } from '../api-tokens/api-tokens.service.js';
import type { MembershipEvents } from './membership-events.js';
import { OrganizationDeletionService } from './organization-deletion.service.js';
import type { OrganizationRow, OrganizationsService } from './organizations.service.js';

const ORGANIZATION = '0190a000-0000-7000-8000-0000000000d1';
const WORKSPACES = [{ workspace_id: '0190a000-0000-7000-8000-0000000000e1', workspace_name: 'Launch team' }];
const idle: PendingWorkReply = { pending_jobs: 0, pending_cleanup_jobs: 0, pending_provider_writes: 0 };

/**
 * The caller's role in the organization, each service's pending-work answer (an Error: it did not answer),
 * and a transaction that must not be reached.
 */
function deletion(role: OrganizationRow['role'], replies: Record<string, PendingWorkReply | Error>) {
  const asked: Array<{ pattern: string; data: unknown }> = [];
  const organizations = {
    membership: async () => ({ id: ORGANIZATION, name: 'Acme', role, created_at: new Date() }),
  } as unknown as OrganizationsService;
  const dataSource = {
    query: async () => WORKSPACES,
    transaction: async () => {
      throw new Error('the deletion was not expected to start');
    },
  } as unknown as DataSource;
  const rpc = {
    send: async (pattern: string, data: unknown) => {
      asked.push({ pattern, data });
      const service = PENDING_WORK_SERVICES.find((name) => pendingWorkPattern(name) === pattern)!;
      const reply = replies[service] ?? idle;
      if (reply instanceof Error) throw reply;
      return reply;
    },
  } as unknown as RpcClient;
  const service = new OrganizationDeletionService(dataSource, organizations, rpc, {} as MembershipEvents, {} as ApiTokensService);
  return { service, asked };
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('organization deletion preview', () => {
  it.each(['admin', 'member'] as const)('is for the owner only: an %s is refused', async (role) => {
    const { service, asked } = deletion(role, {});
    const refusal = await refusalOf(service.preview('u', ORGANIZATION));
    expect(refusal).toBeInstanceOf(Problem);
    expect(refusal).toMatchObject({ status: 403, code: 'owner_only' });
    expect(asked).toEqual([]);
  });

  it('asks every service about the pending work of every workspace, and sums the answers', async () => {
    const [first, second] = PENDING_WORK_SERVICES;
    const { service, asked } = deletion('owner', {
      [first]: { pending_jobs: 2, pending_cleanup_jobs: 0, pending_provider_writes: 0 },
      [second]: { pending_jobs: 3, pending_cleanup_jobs: 0, pending_provider_writes: 0 },
    });
    const preview = await service.preview('u', ORGANIZATION);
    expect(asked.map((a) => a.pattern).sort()).toEqual(PENDING_WORK_SERVICES.map(pendingWorkPattern).sort());
    expect(asked[0].data).toEqual({ workspace_ids: [WORKSPACES[0].workspace_id] });
    expect(preview).toMatchObject({
      organization_id: ORGANIZATION,
      organization_name: 'Acme',
      workspaces: WORKSPACES,
      pending_work: { pending_jobs: 5, pending_cleanup_jobs: 0, pending_provider_writes: 0 },
      blockers: [],
      recovery_possible: false,
    });
  });

  it('is blocked by writes to networks in flight and by cleanups still running', async () => {
    const [first, second] = PENDING_WORK_SERVICES;
    const { service } = deletion('owner', {
      [first]: { pending_jobs: 0, pending_cleanup_jobs: 1, pending_provider_writes: 0 },
      [second]: { pending_jobs: 0, pending_cleanup_jobs: 2, pending_provider_writes: 4 },
    });
    const { blockers } = await service.preview('u', ORGANIZATION);
    expect(blockers.map((b) => b.code)).toEqual(['pending_external_writes', 'pending_cleanup']);
    expect(blockers[0].message).toContain('4 write(s)');
    expect(blockers[1].message).toContain('3 cleanup job(s)');
  });

  it('is blocked when a service does not answer: unknown pending work is not "none"', async () => {
    const { service } = deletion('owner', { [PENDING_WORK_SERVICES[1]]: new Error('timed out') });
    const { blockers } = await service.preview('u', ORGANIZATION);
    expect(blockers).toEqual([{ code: 'pending_work_unknown', message: expect.stringContaining('1 service(s) did not answer') }]);
  });
});

describe('organization deletion', () => {
  it('is refused while the preview shows blockers, before anything is deleted', async () => {
    const { service } = deletion('owner', { [PENDING_WORK_SERVICES[0]]: new Error('down') });
    expect(await refusalOf(service.delete('u', ORGANIZATION))).toMatchObject({
      status: 409,
      code: 'deletion_blocked',
      options: { extensions: { blockers: [expect.objectContaining({ code: 'pending_work_unknown' })] } },
    });
  });

  it('is refused to anyone but the owner', async () => {
    const { service } = deletion('admin', {});
    expect(await refusalOf(service.delete('u', ORGANIZATION))).toMatchObject({ status: 403, code: 'owner_only' });
  });
});
