import { describe, expect, it } from '@jest/globals';
import { checkedByService, operation, replyOf, type Principal, type RpcRequest } from '@social/contracts';
import { IsString, MaxLength } from 'class-validator';
import { Problem } from '../problems/problem.js';
import { checkInput } from './handles.js';

class NameBody {
  @IsString()
  @MaxLength(5)
  name!: string;
}

class Answer {
  id!: string;
}

const ID = '0B8E5A8C-3C5C-4E4A-9D2B-7E9B1C2D3E4F';
const member: Principal = { userId: 'u1', sessionId: 's1', isAdmin: false, tokenKind: 'session', workspaceId: null };

const rename = operation({
  subject: 'test.things.rename',
  params: { id: 'No such thing.' },
  body: NameBody,
  answer: replyOf(Answer),
  idempotent: true,
});

function request(overrides: Partial<RpcRequest<unknown, unknown, unknown>> = {}): RpcRequest<unknown, unknown, unknown> {
  return {
    principal: member,
    params: { id: ID },
    query: {},
    body: { name: 'ok' },
    idempotencyKey: null,
    clientIp: '203.0.113.9',
    ...overrides,
  };
}

function refusal(run: () => unknown): Problem {
  try {
    run();
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  throw new Error('expected a problem');
}

describe('checkInput', () => {
  it('answers the principal, the lower-cased ids, the validated body and the key', () => {
    const input = checkInput(rename, request({ idempotencyKey: 'k-1' }));
    expect(input.principal).toBe(member);
    expect(input.params).toEqual({ id: ID.toLowerCase() });
    expect(input.body).toBeInstanceOf(NameBody);
    expect(input.body).toEqual({ name: 'ok' });
    expect(input.query).toBeNull();
    expect(input.idempotencyKey).toBe('k-1');
    expect(input.clientIp).toBe('203.0.113.9');
  });

  it('checks the caller first, then the ids, then the body, then the key', () => {
    expect(refusal(() => checkInput(rename, request({ principal: null, params: { id: 'x' }, body: 1 }))).status).toBe(401);
    const badId = refusal(() => checkInput(rename, request({ params: { id: 'x' }, body: 1 })));
    expect([badId.status, badId.detail]).toEqual([404, 'No such thing.']);
    const badBody = refusal(() => checkInput(rename, request({ body: { name: 'too long' }, idempotencyKey: '' })));
    expect(badBody.options.errors?.map((e) => e.location)).toEqual(['body.name']);
    const badKey = refusal(() => checkInput(rename, request({ idempotencyKey: '' })));
    expect(badKey.options.errors?.map((e) => e.location)).toEqual(['header.idempotency-key']);
  });

  it('refuses a workspace-bound token on account operations, and non-admins on admin ones', () => {
    const tokenCaller = { ...member, workspaceId: ID } as Principal;
    const account = operation({ subject: 'test.account', caller: 'account', answer: Answer });
    expect(refusal(() => checkInput(account, request({ principal: tokenCaller }))).code).toBe('workspace_token_forbidden');
    const admin = operation({ subject: 'test.admin', caller: 'admin', answer: Answer });
    expect(refusal(() => checkInput(admin, request())).code).toBe('admin_required');
    expect(checkInput(admin, request({ principal: { ...member, isAdmin: true } as Principal })).principal).toBeTruthy();
  });

  it('checks the ids in declaration order, and hands over parameters with a rule as sent', () => {
    const keyed = operation({
      subject: 'test.things.key',
      params: { key: { accepts: (key: string) => key.startsWith('k.'), notFound: 'No such key.' }, member_id: checkedByService, id: null },
      answer: Answer,
    });
    const given = { key: 'k.One', member_id: 'Not-A-Uuid', id: ID };
    expect(checkInput(keyed, request({ params: given })).params).toEqual({ ...given, id: ID.toLowerCase() });
    const badKey = refusal(() => checkInput(keyed, request({ params: { ...given, key: 'x', id: 'x' } })));
    expect([badKey.status, badKey.detail]).toEqual([404, 'No such key.']);
    expect(refusal(() => checkInput(keyed, request({ params: { ...given, id: 'x' } }))).status).toBe(404);
    expect(checkInput(keyed, request({ params: { key: 'k.1', id: ID } })).params.member_id).toBe('');
  });

  it('lets anyone call a public operation, and ignores the key of one that takes none', () => {
    const open = operation({ subject: 'test.open', caller: 'anyone', answer: Answer });
    const input = checkInput(open, request({ principal: null, idempotencyKey: '' }));
    expect(input.principal).toBeNull();
    expect(input.idempotencyKey).toBeNull();
  });
});
