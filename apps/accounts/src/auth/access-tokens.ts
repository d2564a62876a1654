import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@social/contracts';
import { importPKCS8, SignJWT } from 'jose';
import type { CryptoKey } from 'jose';


export interface AccessTokenClaims {
  userId: string;
  sessionId: string;
  isAdmin: boolean;
}

/**
 * Signs short-lived access tokens with the accounts service's private key
 * (EdDSA); gateways verify them locally with the public key, no hop needed.
 */
export class AccessTokenSigner {
  private constructor(
    private readonly key: CryptoKey,
    readonly ttlSeconds: number,
  ) {}

  static async fromPem(privateKeyPem: string, ttlSeconds: number): Promise<AccessTokenSigner> {
    return new AccessTokenSigner(await importPKCS8(privateKeyPem, 'EdDSA'), ttlSeconds);
  }

  sign(claims: AccessTokenClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, adm: claims.isAdmin })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }
}
