import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from '@social/contracts';
import { problems } from '@social/platform';
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
    this.key ??= importSPKI(this.config.JWT_PUBLIC_KEY, 'EdDSA');
    let claims: { sub?: string; sid?: unknown; adm?: unknown };
    try {
      ({ payload: claims } = await jwtVerify(token, await this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['EdDSA'],
      }));
    } catch {
      throw problems.unauthorized('invalid_token', 'The bearer token is malformed, expired or not ours.');
    }
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') {
      throw problems.unauthorized('invalid_token', 'The bearer token is malformed, expired or not ours.');
    }
    if (this.revoked.isRevoked(claims.sid)) {
      throw problems.unauthorized('token_revoked', 'This session has been signed out.');
    }
    return { userId: claims.sub, sessionId: claims.sid, isAdmin: claims.adm === true, tokenKind: 'session', workspaceId: null };
  }
}

function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer\s+([^\s]+)\s*$/i);
  if (!match) throw problems.unauthorized('unauthenticated', 'A bearer token is required (Authorization: Bearer <token>).');
  return match[1];
}
