import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { NatsConnection } from '@nats-io/transport-node';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, AccountsPatterns, type Principal, type VerifiedApiToken } from '@social/contracts';
import { jwtSigningKey, Problem, type RpcClient } from '@social/platform';
import type { FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { RequiresInstanceAdmin } from './instance-admin.decorator.js';
import { Public } from './public.decorator.js';
import type { RevokedSessions } from './revoked-sessions.js';
import { RefusesWorkspaceTokens } from './workspace-tokens.decorator.js';

// ts-jest compiles one file at a time, so the guard's import of the GatewayConfig type stays a named import
// that config.ts does not export at run time; this stand-in provides it (and the injection token).
jest.unstable_mockModule('../config.js', () => ({ GATEWAY_CONFIG: Symbol('GATEWAY_CONFIG'), GatewayConfig: undefined }));
const { BearerAuthGuard } = await import('./bearer-auth.guard.js');
const { TokenRateLimiter } = await import('./token-rate-limiter.js');
type BearerAuthGuard = InstanceType<typeof BearerAuthGuard>;

class Routes {
  @Public()
  open() {
    return 'open';
  }

  plain() {
    return 'plain';
  }

  @RefusesWorkspaceTokens()
  organizationOnly() {
    return 'organization';
  }

  @RequiresInstanceAdmin()
  adminOnly() {
    return 'admin';
  }
}

@RequiresInstanceAdmin()
class AdminRoutes {
  list() {
    return 'list';
  }
}

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const ours = keyPair();
const NOW = new Date('2030-06-01T12:00:00.000Z');

/** An access token as accounts signs it, with `claims` changed. */
async function accessToken(claims: Record<string, unknown> = {}, options: { key?: string; issuer?: string; ttl?: string } = {}) {
  const { key, kid } = await jwtSigningKey(options.key ?? ours.privatePem);
  return new SignJWT({ sid: 'session-1', adm: false, ...claims })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid })
    .setSubject('user-1')
    .setIssuer(options.issuer ?? ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.ttl ?? '15m')
    .sign(key);
}

/** The guard with a real reflector and in-memory rate limits; accounts answers API tokens from `apiTokens`. */
function guard(limits: { perToken?: number; failedPerAddress?: number } = {}, apiTokens: Record<string, VerifiedApiToken> = {}) {
  const revoked = new Set<string>();
  const asked: unknown[] = [];
  const config = {
    JWT_PUBLIC_KEY: ours.publicPem,
    TOKEN_RATE_LIMIT_PER_MINUTE: limits.perToken ?? 1200,
    FAILED_AUTH_RATE_LIMIT_PER_MINUTE: limits.failedPerAddress ?? 100,
  } as GatewayConfig;
  const rpc = {
    send: async (pattern: string, request: { token: string }) => {
      asked.push({ pattern, request });
      const verdict = apiTokens[request.token];
      if (!verdict) throw problemOf(401);
      return verdict;
    },
  } as unknown as RpcClient;
  // Without onModuleInit there is no shared KV: the limiter counts in this process only.
  const limiter = new TokenRateLimiter({} as NatsConnection, config, {} as Logger);
  const sessions = { isRevoked: (id: string) => revoked.has(id) } as RevokedSessions;
  return { guard: new BearerAuthGuard(new Reflector(), sessions, rpc, limiter, config), revoked, asked };
}

const problemOf = (status: number) => new Problem(status, 'invalid_token', 'The bearer token is malformed, expired or not ours.');

/** Runs the guard for `route`; answers the request's principal or the refusal. */
async function call(
  subject: BearerAuthGuard,
  route: keyof Routes | 'admin.list',
  authorization?: string,
  ip = '203.0.113.7',
): Promise<{ principal?: Principal; refusal?: unknown }> {
  const request = { headers: authorization === undefined ? {} : { authorization }, ip } as FastifyRequest;
  const [type, handler] = route === 'admin.list' ? [AdminRoutes, AdminRoutes.prototype.list] : [Routes, Routes.prototype[route]];
  const context = {
    getHandler: () => handler,
    getClass: () => type,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  try {
    expect(await subject.canActivate(context)).toBe(true);
    return { principal: request.principal };
  } catch (refusal) {
    return { refusal };
  }
}

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
});

afterEach(() => {
  jest.useRealTimers();
});

describe('the bearer guard', () => {
  it('lets public routes through without a token', async () => {
    expect(await call(guard().guard, 'open')).toEqual({ principal: undefined });
  });

  it('needs a bearer token everywhere else', async () => {
    const { guard: subject } = guard();
    for (const header of [undefined, '', 'Basic dXNlcjpwdw==', 'Bearer', 'Bearer a b']) {
      expect((await call(subject, 'plain', header)).refusal).toMatchObject({ status: 401, code: 'unauthenticated' });
    }
  });

  it('names the signed-in user and session of a valid access token', async () => {
    const token = await accessToken();
    expect(await call(guard().guard, 'plain', `bearer   ${token}`)).toEqual({
      principal: { userId: 'user-1', sessionId: 'session-1', isAdmin: false, tokenKind: 'session', workspaceId: null },
    });
  });

  it('refuses tokens that are expired, from another issuer or key, or without a session', async () => {
    const { guard: subject } = guard();
    const tokens = [
      await accessToken({}, { ttl: '-1s' }),
      await accessToken({}, { issuer: 'someone-else' }),
      await accessToken({}, { key: keyPair().privatePem }),
      await accessToken({ sid: undefined }),
      'not.a.jwt',
    ];
    for (const token of tokens) {
      expect((await call(subject, 'plain', `Bearer ${token}`)).refusal).toMatchObject({ status: 401, code: 'invalid_token' });
    }
  });

  it('refuses a signed-out session at once, even a token it has verified before', async () => {
    const { guard: subject, revoked } = guard();
    const token = await accessToken();
    expect((await call(subject, 'plain', `Bearer ${token}`)).principal).toBeDefined();
    revoked.add('session-1');
    expect((await call(subject, 'plain', `Bearer ${token}`)).refusal).toMatchObject({ status: 401, code: 'token_revoked' });
  });

  it('keeps admin routes, and admin controllers, for instance administrators', async () => {
    const { guard: subject } = guard();
    const user = `Bearer ${await accessToken()}`;
    const admin = `Bearer ${await accessToken({ adm: true, sid: 'session-2' })}`;
    expect((await call(subject, 'adminOnly', user)).refusal).toMatchObject({ status: 403, code: 'admin_required' });
    expect((await call(subject, 'admin.list', user)).refusal).toMatchObject({ status: 403, code: 'admin_required' });
    expect((await call(subject, 'adminOnly', admin)).principal).toMatchObject({ isAdmin: true });
    expect((await call(subject, 'admin.list', admin)).principal).toMatchObject({ isAdmin: true });
  });

  it('counts the requests of each token and answers 429 past its budget, until the next minute', async () => {
    const { guard: subject } = guard({ perToken: 2 });
    const header = `Bearer ${await accessToken()}`;
    expect((await call(subject, 'plain', header)).principal).toBeDefined();
    expect((await call(subject, 'plain', header)).principal).toBeDefined();
    expect((await call(subject, 'plain', header)).refusal).toMatchObject({
      status: 429,
      code: 'rate_limited',
      options: { retryAfter: 60 },
    });
    expect((await call(subject, 'plain', `Bearer ${await accessToken({ sid: 'session-2' })}`)).principal).toBeDefined();
    jest.setSystemTime(new Date(NOW.getTime() + 60_000));
    expect((await call(subject, 'plain', header)).principal).toBeDefined();
  });

  it('answers 429 instead of 401 once an address has sent too many bad tokens, and never counts good ones', async () => {
    const { guard: subject } = guard({ failedPerAddress: 2, perToken: 100 });
    const good = `Bearer ${await accessToken()}`;
    for (let i = 0; i < 3; i++) expect((await call(subject, 'plain', good, '2001:db8::1')).principal).toBeDefined();
    expect((await call(subject, 'plain', 'Bearer bad', '2001:db8::1')).refusal).toMatchObject({ status: 401 });
    expect((await call(subject, 'plain', 'Bearer bad', '2001:db8::1')).refusal).toMatchObject({ status: 401 });
    expect((await call(subject, 'plain', 'Bearer bad', '2001:db8::1')).refusal).toMatchObject({ status: 429 });
    expect((await call(subject, 'plain', 'Bearer bad', '2001:db8::2')).refusal).toMatchObject({ status: 401 });
  });
});

describe('API tokens at the bearer guard', () => {
  const bound: VerifiedApiToken = {
    principal: { userId: 'user-1', sessionId: 'token-1', isAdmin: false, tokenKind: 'api_token', workspaceId: 'workspace-1' },
    expires_at: null,
  };

  it('are verified by accounts, and the verdict reused for 30 seconds', async () => {
    const { guard: subject, asked } = guard({}, { spk_abc: bound });
    expect((await call(subject, 'plain', 'Bearer spk_abc')).principal).toEqual(bound.principal);
    expect((await call(subject, 'plain', 'Bearer spk_abc')).principal).toEqual(bound.principal);
    expect(asked).toEqual([{ pattern: AccountsPatterns.verifyApiToken, request: { token: 'spk_abc' } }]);
    jest.setSystemTime(new Date(NOW.getTime() + 30_000));
    await call(subject, 'plain', 'Bearer spk_abc');
    expect(asked).toHaveLength(2);
  });

  it('are never trusted past their own expiry', async () => {
    const expiring = { ...bound, expires_at: new Date(NOW.getTime() + 5_000).toISOString() };
    const { guard: subject, asked } = guard({}, { spk_abc: expiring });
    await call(subject, 'plain', 'Bearer spk_abc');
    jest.setSystemTime(new Date(NOW.getTime() + 5_000));
    await call(subject, 'plain', 'Bearer spk_abc');
    expect(asked).toHaveLength(2);
  });

  it('bound to a workspace cannot reach organization or account routes', async () => {
    const { guard: subject } = guard({}, { spk_abc: bound, spk_free: { ...bound, principal: { ...bound.principal, workspaceId: null } } });
    expect((await call(subject, 'organizationOnly', 'Bearer spk_abc')).refusal).toMatchObject({
      status: 403,
      code: 'workspace_token_forbidden',
    });
    expect((await call(subject, 'organizationOnly', 'Bearer spk_free')).principal).toMatchObject({ workspaceId: null });
  });

  it('refused by accounts count as failed attempts', async () => {
    const { guard: subject } = guard({ failedPerAddress: 1 });
    expect((await call(subject, 'plain', 'Bearer spk_unknown')).refusal).toMatchObject({ status: 401 });
    expect((await call(subject, 'plain', 'Bearer spk_unknown')).refusal).toMatchObject({ status: 429 });
  });
});
