import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@social/contracts';
import { JWT_ALGORITHM, jwtSigningKey } from '@social/platform';
import { SignJWT } from 'jose';
import type { CryptoKey } from 'jose';

export interface AccessTokenClaims {
  userId: string;
  sessionId: string;
  isAdmin: boolean;
}

/**
 * Signs short-lived access tokens with the accounts service's private key
 * (EdDSA), naming it by `kid`; gateways verify them locally against their
 * key set (JwtKeySet), no hop needed, so keys rotate without signing anyone out.
 */
export class AccessTokenSigner {
  private constructor(
    private readonly key: CryptoKey,
    readonly kid: string,
    readonly ttlSeconds: number,
  ) {}

  static async fromPem(privateKeyPem: string, ttlSeconds: number): Promise<AccessTokenSigner> {
    const { key, kid } = await jwtSigningKey(privateKeyPem);
    return new AccessTokenSigner(key, kid, ttlSeconds);
  }

  sign(claims: AccessTokenClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, adm: claims.isAdmin })
      .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT', kid: this.kid })
      .setSubject(claims.userId)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }
}
