import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, NatsConnection } from '@nats-io/transport-node';
import {
  ApiTokenOperations,
  InvitationOperations,
  NotificationMuteOperations,
  NotificationPreferenceOperations,
  OrganizationOperations,
  Principal,
  ProfileOperations,
  WorkspaceOperations,
} from '@social/contracts';
import { randomUUID } from 'node:crypto';
import { call, eventually, expectProblem } from '../support/api.js';
import { trustedBusRequest } from '../support/bus.js';
import { createTenant, createWorkspace } from '../support/tenancy.js';

const inHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('tenancy: workspace-bound API tokens', () => {
  it('sees only its workspace, never organization routes, and dies with its organization', async () => {
    const tenant = await createTenant();
    const other = await createWorkspace(tenant.owner, tenant.organizationId, 'Other');
    const created = await call('POST', '/api-tokens', {
      token: tenant.owner.token,
      body: { name: 'ci', workspace_id: tenant.workspaceId },
    });
    expect(created.status).toBe(201);
    expect(created.body.item.workspace_id).toBe(tenant.workspaceId);
    const token = created.body.token as string;

    const listed = await call('GET', '/workspaces', { token });
    expect(listed.body.workspaces.map((w: { id: string }) => w.id)).toEqual([tenant.workspaceId]);
    expect((await call('GET', `/workspaces/${tenant.workspaceId}`, { token })).body.role).toBe('admin');
    expectProblem(await call('GET', `/workspaces/${other}`, { token }), 404);
    expectProblem(await call('PATCH', `/workspaces/${other}`, { token, body: { name: 'x' } }), 404);
    // Upper-case ids name the same workspace.
    expect((await call('GET', `/workspaces/${tenant.workspaceId.toUpperCase()}`, { token })).status).toBe(200);
    // Organization and account-level operations (profile changes, notification settings) are refused outright.
    const mute = (workspaceId: string) =>
      call('POST', '/notifications/mutes', {
        token,
        body: { workspace_id: workspaceId, starts_at: new Date().toISOString(), ends_at: inHour() },
      });
    expectProblem(await mute(tenant.workspaceId), 403, 'workspace_token_forbidden');
    expectProblem(await call('GET', '/notifications/preferences', { token }), 403, 'workspace_token_forbidden');
    expectProblem(await call('PATCH', '/auth/me', { token, body: { display_name: 'Bound' } }), 403, 'workspace_token_forbidden');
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);
    expectProblem(await call('GET', '/organizations', { token }), 403, 'workspace_token_forbidden');
    expectProblem(await call('GET', `/organizations/${tenant.organizationId}/members`, { token }), 403, 'workspace_token_forbidden');
    expectProblem(
      await call('POST', '/workspaces', { token, body: { organization_id: tenant.organizationId, name: 'Sneaky' } }),
      403,
      'workspace_token_forbidden',
    );

    // Deleting the organization revokes the token on every gateway within seconds.
    expect((await call('DELETE', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token })).status).toBe(202);
    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token }), 401);
    }, 5_000);
  });

  it('can only be bound to a workspace its user belongs to (403, nothing created)', async () => {
    const tenant = await createTenant();
    const stranger = await createTenant();
    expectProblem(
      await call('POST', '/api-tokens', { token: stranger.owner.token, body: { name: 'spy', workspace_id: tenant.workspaceId } }),
      403,
      'workspace_forbidden',
    );
    expect((await call('GET', '/api-tokens', { token: stranger.owner.token })).body.api_tokens).toEqual([]);
  });
});

/** Services do not trust the gateway alone: asked over NATS directly, account-level operations refuse a bound principal too. */
describe('tenancy: account-level operations refuse a workspace-bound principal in the service itself', () => {
  let nats: NatsConnection;

  beforeAll(async () => {
    nats = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  });
  afterAll(async () => {
    await nats.drain();
  });

  it.each([
    OrganizationOperations.list.subject,
    OrganizationOperations.create.subject,
    WorkspaceOperations.create.subject,
    InvitationOperations.accept.subject,
    OrganizationOperations.previewDeletion.subject,
    ApiTokenOperations.create.subject,
    ProfileOperations.update.subject,
    NotificationPreferenceOperations.get.subject,
    NotificationMuteOperations.create.subject,
  ])('%s answers 403 workspace_token_forbidden', async (pattern) => {
    const tenant = await createTenant();
    const principal: Principal = {
      userId: tenant.owner.id,
      sessionId: randomUUID(),
      isAdmin: false,
      tokenKind: 'api_token',
      workspaceId: tenant.workspaceId,
    };
    const data = {
      principal,
      params: { id: tenant.organizationId },
      query: {},
      body: { name: 'x' },
      idempotencyKey: null,
      clientIp: '127.0.0.1',
    };
    expect(await trustedBusRequest(nats, pattern, data)).toMatchObject({ err: { status: 403, code: 'workspace_token_forbidden' } });
  });
});
