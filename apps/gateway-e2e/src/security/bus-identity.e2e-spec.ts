import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { AdminPatterns, ApiTokenOperations, InstanceSettingsOperations, type Principal, SESSION_REVOKED_SUBJECT } from '@social/contracts';
import { generateKeyPair, importPKCS8, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { registerAdmin } from '../support/admin.js';
import { call, eventually, expectProblem, registerUser } from '../support/api.js';
import { busRequest, callerToken } from '../support/bus.js';

/**
 * Issue 23, the bus: anyone who can connect to NATS used to act as any user
 * by writing a `principal` into the envelope. Now every request must carry a
 * caller token signed with the platform's key; the principal comes from it.
 */
describe('security: a bus no one can impersonate', () => {
  let nats: NatsConnection;

  beforeAll(async () => {
    nats = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  });
  afterAll(async () => {
    await nats.drain();
  });

  const envelope = (principal: Principal | null, body: unknown = null) => ({
    principal,
    params: {},
    query: {},
    body,
    idempotencyKey: null,
    clientIp: '127.0.0.1',
  });
  const principalOf = (user: { id: string }, overrides: Partial<Principal> = {}): Principal => ({
    userId: user.id,
    sessionId: randomUUID(),
    isAdmin: false,
    tokenKind: 'session',
    workspaceId: null,
    ...overrides,
  });
  const refusedLogLines = (pattern: string) =>
    readFileSync(process.env.E2E_LOG_FILE!, 'utf8')
      .split('\n')
      .filter((line) => line.includes('refused a NATS request without a valid caller token') && line.includes(pattern));

  /** A bus token as a platform process would sign it, but with `key` and `claims` of the attacker's choosing. */
  const forge = async (key: Parameters<SignJWT['sign']>[0], claims: Record<string, unknown>, expiresIn: string | number = '60s') =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA' })
      .setIssuer('social-bus')
      .setAudience('social-bus')
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(key);

  it(
    'a request without a caller token is refused (401) before any handler, ' + 'and logged: no decrypted settings for a raw request',
    async () => {
      const reply = await busRequest(nats, AdminPatterns.settingOverrides, {});
      expect(reply.response).toBeUndefined();
      expect(reply.err).toMatchObject({ status: 401, code: 'caller_unauthenticated' });
      await eventually(async () =>
        expect(refusedLogLines(AdminPatterns.settingOverrides).some((line) => line.includes('"reason":"missing"'))).toBe(true),
      );
      // A platform process, which signs its requests, still gets the overrides.
      expect((await busRequest(nats, AdminPatterns.settingOverrides, {}, await callerToken(null))).response).toHaveProperty('overrides');
    },
  );

  it(
    'a forged principal cannot mint an API token for another user: ' +
      'foreign key, alg none, tampered claims, expired, or a user access token',
    async () => {
      const victim = await registerUser();
      const admin = await registerAdmin();
      const claims = { svc: 'gateway', usr: principalOf(victim) };
      const stranger = await generateKeyPair('EdDSA');
      const genuine = await callerToken(principalOf(admin));
      const [header, , signature] = genuine.split('.');
      const busClaims = { ...claims, iss: 'social-bus', aud: 'social-bus', exp: Math.floor(Date.now() / 1000) + 60 };
      const base64url = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
      const tampered = `${header}.${base64url(busClaims)}.${signature}`;
      const none = `${base64url({ alg: 'none' })}.${base64url(busClaims)}.`;
      const platformKey = await importPKCS8(process.env.E2E_JWT_PRIVATE_KEY!, 'EdDSA');
      const expired = await forge(platformKey, claims, Math.floor(Date.now() / 1000) - 5);
      const attempts: Record<string, string> = {
        'signed with another key': await forge(stranger.privateKey, claims),
        'alg none': none,
        'claims swapped under a genuine signature': tampered,
        expired,
        // The user's own access token is for the gateway: a signed-in user with NATS access must not reach internal subjects with it.
        "the victim's own access token": victim.token,
        garbage: 'not-a-token',
      };
      for (const [label, token] of Object.entries(attempts)) {
        const reply = await busRequest(
          nats,
          ApiTokenOperations.create.subject,
          envelope(principalOf(victim), { name: `forged ${label}` }),
          token,
        );
        expect({ label, err: reply.err }).toEqual({ label, err: expect.objectContaining({ status: 401, code: 'caller_unauthenticated' }) });
      }
      await eventually(async () =>
        expect(refusedLogLines(ApiTokenOperations.create.subject).some((line) => line.includes('"reason":"invalid"'))).toBe(true),
      );
      // Nothing was created for the victim.
      const tokens = await call('GET', '/api-tokens', { token: victim.token });
      expect(tokens.status).toBe(200);
      expect(tokens.body.api_tokens).toEqual([]);
    },
  );

  it('the envelope principal is replaced by the signed one: claiming admin in the envelope does not make an admin', async () => {
    const user = await registerUser();
    const signedFor = principalOf(user);
    const claimed = { ...signedFor, isAdmin: true };
    const reply = await busRequest(nats, InstanceSettingsOperations.get.subject, envelope(claimed), await callerToken(signedFor));
    expect(reply.err).toMatchObject({ status: 403, code: 'admin_required' });
    // And a token signed for no user leaves no principal at all, whatever the envelope says.
    const anonymous = await busRequest(nats, ApiTokenOperations.list.subject, envelope(principalOf(user)), await callerToken(null));
    expect(anonymous.err).toMatchObject({ status: 401 });
  });

  it('a malformed revocation message does not close the gateway’s NATS connection: later revocations still apply', async () => {
    const user = await registerUser();
    nats.publish(SESSION_REVOKED_SUBJECT, 'this is not JSON {');
    nats.publish(SESSION_REVOKED_SUBJECT, JSON.stringify({ sessionId: 42 }));
    nats.publish(SESSION_REVOKED_SUBJECT, JSON.stringify(null));
    await nats.flush();
    expect((await call('GET', '/auth/me', { token: user.token })).status).toBe(200);
    expect((await call('GET', '/ready')).status).toBe(200);
    expect((await call('POST', '/auth/logout', { token: user.token })).status).toBe(204);
    await eventually(async () => expectProblem(await call('GET', '/auth/me', { token: user.token }), 401), 5_000);
    await eventually(async () =>
      expect(
        readFileSync(process.env.E2E_LOG_FILE!, 'utf8')
          .split('\n')
          .some((line) => line.includes('dropped a malformed NATS message') && line.includes(SESSION_REVOKED_SUBJECT)),
      ).toBe(true),
    );
  });
});
