import type { Principal } from '@social/contracts';
import { SignJWT } from 'jose';
import type { CryptoKey } from 'jose';
import { ExpiringCache } from '../cache/expiring-cache.js';
import { JWT_ALGORITHM, JwtKeySet, jwtSigningKey } from '../crypto/jwt-keys.js';

/**
 * Caller tokens: how a request on NATS proves who sent it (docs/security.md).
 * A caller token is a short JWT (issuer and audience `social-bus`, a minute
 * long) signed with the platform's JWT key pair by the process that sends the
 * request (the gateway for every HTTP caller, a service for its own calls),
 * naming the principal it acts for, or none. The audience keeps the two token
 * kinds apart: the gateway never accepts a caller token, and services never
 * accept a user's access token, because an access token is held by the user:
 * with NATS access it would open the service-to-service subjects to them.
 */
export const BUS_TOKEN_ISSUER = 'social-bus';
export const BUS_TOKEN_AUDIENCE = 'social-bus';
/** Bus tokens live a minute; a signed one is reused for half of that. */
const BUS_TOKEN_TTL_S = 60;
const BUS_TOKEN_REUSE_MS = 30_000;

/** The public keys caller tokens may be signed with: JWT_PUBLIC_KEY's key set (several while a key rotates). */
export type CallerTokenKey = JwtKeySet;

export interface VerifiedCaller {
  /** The principal the request acts for; null for a process acting for no user (health checks, lookups). */
  principal: Principal | null;
  /** The signing process (`gateway`, `media`, …). */
  caller: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export class CallerTokenError extends Error {}

/** The key set from `JWT_PUBLIC_KEY` (one or more PEM public keys). */
export function callerTokenKey(publicKeyPem: string): Promise<CallerTokenKey> {
  return JwtKeySet.fromPem(publicKeyPem);
}

/**
 * THE one check of a caller token: signature, issuer and audience, expiry and
 * claim shapes. Throws `CallerTokenError` for anything else.
 */
export async function verifyCallerToken(token: string, key: CallerTokenKey): Promise<VerifiedCaller> {
  let claims: Record<string, unknown>;
  try {
    claims = (await key.verify(token, { issuer: BUS_TOKEN_ISSUER, audience: BUS_TOKEN_AUDIENCE })) as Record<string, unknown>;
  } catch (error) {
    throw new CallerTokenError(`caller token refused: ${(error as Error).message}`);
  }
  if (typeof claims.exp !== 'number') throw new CallerTokenError('caller token without exp');
  if (typeof claims.svc !== 'string') throw new CallerTokenError('caller token without svc');
  const principal = claims.usr === null || claims.usr === undefined ? null : principalClaim(claims.usr);
  return { principal, caller: claims.svc, expiresAt: (claims.exp as number) * 1000 };
}

function principalClaim(value: unknown): Principal {
  const p = value as Partial<Principal> | null;
  const valid =
    typeof p === 'object' &&
    p !== null &&
    typeof p.userId === 'string' &&
    typeof p.sessionId === 'string' &&
    typeof p.isAdmin === 'boolean' &&
    (p.tokenKind === 'session' || p.tokenKind === 'api_token') &&
    (p.workspaceId === null || typeof p.workspaceId === 'string');
  if (!valid) throw new CallerTokenError('malformed principal claim');
  return { userId: p.userId!, sessionId: p.sessionId!, isAdmin: p.isAdmin!, tokenKind: p.tokenKind!, workspaceId: p.workspaceId ?? null };
}

/**
 * Verifies with a cache: a token seen before is trusted until it expires, so
 * the steady cost per request is one map lookup (a signer reuses each token
 * for half a minute).
 */
export class CallerTokenVerifier {
  private readonly cache = new ExpiringCache<VerifiedCaller>(20_000);

  constructor(private readonly key: CallerTokenKey) {}

  static async fromPem(publicKeyPem: string): Promise<CallerTokenVerifier> {
    return new CallerTokenVerifier(await callerTokenKey(publicKeyPem));
  }

  async verify(token: string): Promise<VerifiedCaller> {
    const cached = this.cache.get(token);
    if (cached) return cached;
    const verified = await verifyCallerToken(token, this.key);
    this.cache.set(token, verified, verified.expiresAt);
    return verified;
  }
}

/** Signs bus tokens for one process (`svc` names it), reusing each for half its life. */
export class CallerTokenSigner {
  private readonly signed = new ExpiringCache<Promise<string>>(10_000);
  private key?: Promise<{ kid: string; key: CryptoKey }>;

  private constructor(
    private readonly privateKeyPem: string,
    readonly service: string,
  ) {}

  /** The key is imported on first use (`ready()` to check it at start-up). */
  static fromPem(privateKeyPem: string, service: string): CallerTokenSigner {
    return new CallerTokenSigner(privateKeyPem, service);
  }

  /** Rejects when the private key does not import. */
  async ready(): Promise<this> {
    await this.importKey();
    return this;
  }

  /** The signing key and its kid (the same key set verifies access tokens and caller tokens). */
  private importKey(): Promise<{ kid: string; key: CryptoKey }> {
    this.key ??= jwtSigningKey(this.privateKeyPem);
    return this.key;
  }

  /** A token saying "this process, acting for `principal`" (or for no user). */
  tokenFor(principal: Principal | null): Promise<string> {
    const key = principal
      ? `${principal.tokenKind}:${principal.userId}:${principal.sessionId}:${principal.isAdmin}:${principal.workspaceId ?? ''}`
      : '-';
    const cached = this.signed.get(key);
    if (cached) return cached;
    const token = this.sign(principal);
    this.signed.set(key, token, Date.now() + BUS_TOKEN_REUSE_MS);
    token.catch(() => this.signed.set(key, token, 0));
    return token;
  }

  private async sign(principal: Principal | null): Promise<string> {
    const { kid, key } = await this.importKey();
    return new SignJWT({ svc: this.service, usr: principal })
      .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT', kid })
      .setSubject(principal?.userId ?? this.service)
      .setIssuer(BUS_TOKEN_ISSUER)
      .setAudience(BUS_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${BUS_TOKEN_TTL_S}s`)
      .sign(key);
  }
}

/** The principal an outgoing request acts for: the envelope's, or none for a plain payload. */
export function principalOfPayload(data: unknown): Principal | null {
  if (typeof data !== 'object' || data === null || !('principal' in data)) return null;
  const principal = (data as { principal?: unknown }).principal;
  return principal && typeof principal === 'object' ? (principal as Principal) : null;
}
