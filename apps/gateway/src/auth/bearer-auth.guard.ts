import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from '@social/contracts';
import { ExpiringCache, problems } from '@social/platform';
import type { FastifyRequest } from 'fastify';
import { importSPKI, jwtVerify } from 'jose';
import type { CryptoKey } from 'jose';
import { GATEWAY_CONFIG, GatewayConfig } from '../config.js';
import { IS_PUBLIC } from './public.decorator.js';
import { RevokedSessions } from './revoked-sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** Must match the accounts service's signer. */
const ISSUER = 'social-accounts';
const AUDIENCE = 'social-api';

/**
 * Authenticates every non-public route: the bearer JWT is verified locally with
 * the accounts service's public key (no hop), then checked against revoked
 * sessions. The gateway says who the caller is; services decide what they may do.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  private key?: Promise<CryptoKey>;
  /** Signature checks are the gateway's costliest step; a token seen before is trusted until it expires. */
  private readonly verified = new ExpiringCache<Principal>(10_000);

  constructor(
    private readonly reflector: Reflector,
    private readonly revoked: RevokedSessions,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerToken(request.headers.authorization);
    request.principal = await this.verify(token);
    return true;
  }

  private async verify(token: string): Promise<Principal> {
    const principal = this.verified.get(token) ?? (await this.verifySignature(token));
    if (this.revoked.isRevoked(principal.sessionId)) {
      throw problems.unauthorized('token_revoked', 'This session has been signed out.');
    }
    return principal;
  }

  private async verifySignature(token: string): Promise<Principal> {
    this.key ??= importSPKI(this.config.JWT_PUBLIC_KEY, 'EdDSA');
    let claims: { sub?: string; sid?: unknown; adm?: unknown; exp?: number };
    try {
      ({ payload: claims } = await jwtVerify(token, await this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['EdDSA'],
      }));
    } catch {
      throw problems.unauthorized('invalid_token', 'The bearer token is malformed, expired or not ours.');
    }
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || typeof claims.exp !== 'number') {
      throw problems.unauthorized('invalid_token', 'The bearer token is malformed, expired or not ours.');
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
