import { describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, SESSION_REVOKED_SUBJECT } from '@social/contracts';
import { InstanceSettings, JwtKeySet } from '@social/platform';
import { decodeProtectedHeader } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { AccountsConfig } from '../config.js';
import { AccessTokenSigner } from './access-tokens.js';
import { AuthService } from './auth.service.js';

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const expected = { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE };

describe('AccessTokenSigner', () => {
  const keys = keyPair();

  it('signs the user, session and admin flag for the gateway, named by the key id', async () => {
    const signer = await AccessTokenSigner.fromPem(keys.privatePem, 900);
    const token = await signer.sign({ userId: 'user-1', sessionId: 'session-1', isAdmin: true });
    const verifier = await JwtKeySet.fromPem(keys.publicPem);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', typ: 'JWT', kid: signer.kid });
    expect(verifier.kids).toEqual([signer.kid]);
    const claims = await verifier.verify(token, expected);
    expect(claims).toMatchObject({ sub: 'user-1', sid: 'session-1', adm: true, iss: ACCESS_TOKEN_ISSUER, aud: ACCESS_TOKEN_AUDIENCE });
    expect(claims.exp! - claims.iat!).toBe(900);
  });

  it('says a plain user is not an admin, and lives as long as configured', async () => {
    const signer = await AccessTokenSigner.fromPem(keys.privatePem, 60);
    const claims = await (
      await JwtKeySet.fromPem(keys.publicPem)
    ).verify(await signer.sign({ userId: 'u', sessionId: 's', isAdmin: false }), expected);
    expect(claims.adm).toBe(false);
    expect(claims.exp! - claims.iat!).toBe(60);
  });

  it('makes tokens another key set refuses', async () => {
    const signer = await AccessTokenSigner.fromPem(keys.privatePem, 900);
    const token = await signer.sign({ userId: 'u', sessionId: 's', isAdmin: false });
    await expect((await JwtKeySet.fromPem(keyPair().publicPem)).verify(token, expected)).rejects.toThrow();
  });
});

describe('session revocation announcements', () => {
  async function authService(ttlSeconds: number) {
    const published: Array<{ subject: string; event: unknown }> = [];
    const nats = {
      publish: (subject: string, data: string) => published.push({ subject, event: JSON.parse(data) }),
    } as unknown as NatsConnection;
    const settings = { integer: () => 10, boolean: () => true } as unknown as InstanceSettings;
    const signer = await AccessTokenSigner.fromPem(keyPair().privatePem, ttlSeconds);
    const service = new AuthService({} as DataSource, { REGISTRATION_RATE_LIMIT_PER_HOUR: 20 } as AccountsConfig, nats, signer, settings);
    return { service, published };
  }

  it('tells gateways to refuse the session until its last access token has expired', async () => {
    const { service, published } = await authService(900);
    service.announceRevocation({ id: 'session-1', revokedAt: new Date('2030-01-01T10:00:00.000Z') });
    expect(published).toEqual([{ subject: SESSION_REVOKED_SUBJECT, event: { sessionId: 'session-1', until: '2030-01-01T10:15:00.000Z' } }]);
  });

  it('follows the configured access-token lifetime', async () => {
    const { service, published } = await authService(60);
    service.announceRevocation({ id: 'session-2', revokedAt: new Date('2030-01-01T10:00:00.000Z') });
    expect(published[0].event).toEqual({ sessionId: 'session-2', until: '2030-01-01T10:01:00.000Z' });
  });
});
