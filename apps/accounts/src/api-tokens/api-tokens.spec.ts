import { describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { type Principal, SESSION_REVOKED_SUBJECT } from '@social/contracts';
import { AccessControl, Problem } from '@social/platform';
import type { DataSource } from 'typeorm';
import { ApiTokenEntity } from './api-token.entity.js';
import { ApiTokensService, toApiToken } from './api-tokens.service.js';

const token = (values: Partial<ApiTokenEntity>): ApiTokenEntity =>
  Object.assign(new ApiTokenEntity(), {
    id: '0190a000-0000-7000-8000-000000000001',
    userId: '0190a000-0000-7000-8000-0000000000aa',
    name: 'deploy bot',
    tokenHash: 'f'.repeat(64),
    workspaceId: null,
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...values,
  });

const unused = () => {
  throw new Error('not expected to be reached');
};

function service() {
  const published: Array<{ subject: string; event: unknown }> = [];
  const nats = { publish: (subject: string, data: string) => published.push({ subject, event: JSON.parse(data) }) };
  const dataSource = { getRepository: unused, transaction: unused } as unknown as DataSource;
  const access = { requireWorkspace: unused } as unknown as AccessControl;
  return { tokens: new ApiTokensService(dataSource, nats as unknown as NatsConnection, access), published };
}

const principal: Principal = { userId: 'u', sessionId: 's', isAdmin: false, tokenKind: 'session', workspaceId: null };

describe('toApiToken', () => {
  it('publishes neither the secret nor its hash', () => {
    const published = toApiToken(token({}));
    expect(published).toEqual({
      id: '0190a000-0000-7000-8000-000000000001',
      name: 'deploy bot',
      workspace_id: '',
      created_at: '2030-01-01T00:00:00.000Z',
      expires_at: null,
      last_used_at: null,
    });
    expect(JSON.stringify(published)).not.toContain('f'.repeat(64));
  });

  it('shows the workspace, expiry and last use when there are some', () => {
    expect(
      toApiToken(
        token({
          workspaceId: '0190a000-0000-7000-8000-0000000000bb',
          expiresAt: new Date('2031-01-01T00:00:00.000Z'),
          lastUsedAt: new Date('2030-06-01T12:00:00.000Z'),
        }),
      ),
    ).toMatchObject({
      workspace_id: '0190a000-0000-7000-8000-0000000000bb',
      expires_at: '2031-01-01T00:00:00.000Z',
      last_used_at: '2030-06-01T12:00:00.000Z',
    });
  });
});

describe('API token rules', () => {
  it('refuses an expiry that is not in the future, before anything is stored', async () => {
    const refusal = await service()
      .tokens.create(principal, { name: 'x', expires_at: '2000-01-01T00:00:00Z' })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(Problem);
    expect(refusal).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.expires_at', message: 'must be in the future' }] },
    });
  });

  it('answers a token id that is not a UUID like a missing token', async () => {
    await expect(service().tokens.delete('u', 'not-a-uuid')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('announces each revoked token for two minutes, longer than gateways keep a verified token (30 s)', () => {
    const { tokens, published } = service();
    tokens.announceRevoked(['t1', 't2'], new Date('2030-01-01T10:00:00.000Z'));
    expect(published).toEqual([
      { subject: SESSION_REVOKED_SUBJECT, event: { sessionId: 't1', until: '2030-01-01T10:02:00.000Z' } },
      { subject: SESSION_REVOKED_SUBJECT, event: { sessionId: 't2', until: '2030-01-01T10:02:00.000Z' } },
    ]);
  });
});
