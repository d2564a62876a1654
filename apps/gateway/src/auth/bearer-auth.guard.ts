import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  AccountsPatterns,
  API_TOKEN_PREFIX,
  Principal,
  VerifiedApiToken,
  VerifyApiTokenRequest,
} from '@social/contracts';
import { ExpiringCache, JwtKeySet, Problem, problems, RpcClient } from '@social/platform';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config.js';
import { REQUIRES_INSTANCE_ADMIN } from './instance-admin.decorator.js';
import { IS_PUBLIC } from './public.decorator.js';
import { RevokedSessions } from './revoked-sessions.js';
import { TokenRateLimiter } from './token-rate-limiter.js';
import { REFUSES_WORKSPACE_TOKENS } from './workspace-tokens.decorator.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** How long an API token's verdict is reused; a deleted token is also refused at once by its revocation event. */
const API_TOKEN_CACHE_MS = 30_000;

/**
 * Authenticates every non-public route: a bearer JWT is verified locally with
 * the accounts service's public key (no hop), an API token (`spk_…`) by asking
 * accounts; then the session or token is checked against revocations and
 * counted against its per-minute budget. The gateway says who the caller is;
 * services decide what they may do.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  /** JWT_PUBLIC_KEY: every key a token may be signed with (several during a rotation). */
  private keys?: Promise<JwtKeySet>;
  /** Signature checks (and API-token lookups) are the costliest step; a token seen before is trusted until it expires. */
  private readonly verified = new ExpiringCache<Principal>(10_000);

  constructor(
    private readonly reflector: Reflector,
    private readonly revoked: RevokedSessions,
    private readonly rpc: RpcClient,
    private readonly rateLimiter: TokenRateLimiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerToken(request.headers.authorization);
    request.principal = await this.verify(token).catch((error: unknown) => this.countFailure(request, error));
    await this.rateLimiter.hit(request.principal.sessionId);
    if (
      request.principal.workspaceId &&
      this.reflector.getAllAndOverride<boolean>(REFUSES_WORKSPACE_TOKENS, [context.getHandler(), context.getClass()])
    ) {
      throw problems.workspaceTokenForbidden();
    }
    if (
      !request.principal.isAdmin &&
      this.reflector.getAllAndOverride<boolean>(REQUIRES_INSTANCE_ADMIN, [context.getHandler(), context.getClass()])
    ) {
      throw problems.adminRequired();
    }
    return true;
  }

  /**
   * A token that fails verification counts against the client address (docs/decisions.md): past
   * FAILED_AUTH_RATE_LIMIT_PER_MINUTE in a minute the answer is 429 instead of 401. Valid tokens never count.
   */
  private async countFailure(request: FastifyRequest, error: unknown): Promise<never> {
    if (error instanceof Problem && error.status === 401) {
      // Key-value keys allow no ':' (IPv6).
      await this.rateLimiter.hit(
        `failed-auth.${request.ip.replace(/[^A-Za-z0-9.-]/g, '_')}`,
        Date.now(),
        this.config.FAILED_AUTH_RATE_LIMIT_PER_MINUTE,
        'Too many requests with an invalid token from this address.',
      );
    }
    throw error;
  }

  private async verify(token: string): Promise<Principal> {
    const principal =
      this.verified.get(token) ??
      (token.startsWith(API_TOKEN_PREFIX) ? await this.verifyApiToken(token) : await this.verifySignature(token));
    if (this.revoked.isRevoked(principal.sessionId)) {
      throw problems.unauthorized('token_revoked', 'This session has been signed out.');
    }
    return principal;
  }

  /** API tokens are opaque: accounts says whom they speak for; the answer is kept briefly. */
  private async verifyApiToken(token: string): Promise<Principal> {
    const { principal, expires_at } = await this.rpc.send<VerifiedApiToken>(AccountsPatterns.verifyApiToken, {
      token,
    } satisfies VerifyApiTokenRequest);
    // Never past the token's own expiry.
    const until = Math.min(Date.now() + API_TOKEN_CACHE_MS, expires_at ? Date.parse(expires_at) : Infinity);
    this.verified.set(token, principal, until);
    return principal;
  }

  private async verifySignature(token: string): Promise<Principal> {
    this.keys ??= JwtKeySet.fromPem(this.config.JWT_PUBLIC_KEY);
    let claims: { sub?: string; sid?: unknown; adm?: unknown; exp?: number };
    try {
      claims = await (await this.keys).verify(token, { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE });
    } catch {
      throw problems.invalidToken();
    }
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || typeof claims.exp !== 'number') {
      throw problems.invalidToken();
    }
    const principal: Principal = {
      userId: claims.sub,
      sessionId: claims.sid,
      isAdmin: claims.adm === true,
      tokenKind: 'session',
      workspaceId: null,
    };
    this.verified.set(token, principal, claims.exp * 1000);
    return principal;
  }
}

function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer\s+([^\s]+)\s*$/i);
  if (!match) throw problems.unauthorized('unauthenticated', 'A bearer token is required (Authorization: Bearer <token>).');
  return match[1];
}
