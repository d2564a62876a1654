import { describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { connect } from 'node:net';
import { SignJWT } from 'jose';
import { BACKEND_SERVICES } from '@social/contracts';
import { baseUrl, call, eventually, expectProblem, registerUser } from '../support/api.js';

describe('gateway: HTTP rules of docs/decisions.md', () => {
  it('answers /health and /ready without a token', async () => {
    const health = await call('GET', '/health');
    expect(health.status).toBe(200);
    const ready = await call('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', services: Object.fromEntries(BACKEND_SERVICES.map((service) => [service, true])) });
    expect(Object.keys(ready.body.services)).toEqual(expect.arrayContaining(['accounts', 'notifications', 'admin']));
  });

  it('renders unknown routes as a 404 problem, under both prefixes', async () => {
    expectProblem(await call('GET', '/no-such-thing'), 404, 'not_found');
    expectProblem(await call('GET', '/api/v1/no-such-thing'), 404, 'not_found');
  });

  it('serves every route under /api/v1 too', async () => {
    const user = await registerUser();
    const plain = await call('GET', '/auth/me', { token: user.token });
    const versioned = await call('GET', '/api/v1/auth/me', { token: user.token });
    expect(versioned.status).toBe(200);
    expect(versioned.body).toEqual(plain.body);
  });

  it('keeps a caller-supplied X-Request-Id and mints one otherwise', async () => {
    const given = await call('GET', '/no-such-thing', { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-abc.123');
    expect(given.body.request_id).toBe('trace-abc.123');
    const minted = await call('GET', '/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await call('POST', '/auth/login', { rawBody: 'email=a', headers: { 'content-type': 'text/plain' } });
    expectProblem(response, 415, 'unsupported_media_type');
    const form = await call('POST', '/auth/login', {
      rawBody: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(form, 415, 'unsupported_media_type');
  });

  it('refuses malformed JSON and non-object bodies with 400', async () => {
    expectProblem(
      await call('POST', '/auth/login', { rawBody: '{"email": ', headers: { 'content-type': 'application/json' } }),
      400,
      'malformed_json',
    );
    expectProblem(await call('POST', '/auth/login', { body: [1, 2] }), 400, 'malformed_body');
    expectProblem(await call('POST', '/auth/login', { body: 'a string' }), 400, 'malformed_body');
    expectProblem(
      await call('POST', '/auth/login', { rawBody: 'null', headers: { 'content-type': 'application/json' } }),
      400,
      'malformed_body',
    );
  });

  it('treats a missing body as one with every member missing (422)', async () => {
    const problem = expectProblem(await call('POST', '/auth/login'), 422, 'validation_failed');
    expect(problem.errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.email', 'body.password']);
  });

  it('refuses bodies over 1 MiB with 413, as soon as the declared length says so', async () => {
    // The gateway answers before reading the body, so a client still sending
    // 1 MiB may meet a closed socket (EPIPE): speak HTTP by hand and send only
    // the head, as a client waiting for an early answer would.
    const { host, port } = new URL(baseUrl());
    const answer = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = connect(Number(port), host.replace(/:\d+$/, ''), () => {
        socket.write(
          'POST /auth/login HTTP/1.1\r\nHost: e2e\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${1024 * 1024 + 1}\r\nConnection: close\r\n\r\n{"email":`,
        );
      });
      socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('error', (error) => (received ? resolve(received) : reject(error)));
      socket.on('close', () => resolve(received));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    const body = JSON.parse(
      answer
        .slice(answer.indexOf('\r\n\r\n') + 4)
        .replace(/^[0-9a-f]+\r\n/i, '')
        .split('\r\n')[0],
    );
    expect(body).toMatchObject({ status: 413, code: 'body_too_large', title: 'Content Too Large' });
  });

  describe('bearer tokens', () => {
    it('requires one (401 with WWW-Authenticate: Bearer)', async () => {
      const response = await call('GET', '/auth/me');
      expectProblem(response, 401, 'unauthenticated');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expectProblem(await call('GET', '/auth/me', { headers: { authorization: 'Basic abc' } }), 401, 'unauthenticated');
    });

    it('refuses garbage, tampered and foreign-signed tokens', async () => {
      expectProblem(await call('GET', '/auth/me', { token: 'not-a-jwt' }), 401, 'invalid_token');
      const user = await registerUser();
      const [header, payload, signature] = user.token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, adm: true })).toString('base64url');
      expectProblem(await call('GET', '/auth/me', { token: `${header}.${forged}.${signature}` }), 401, 'invalid_token');
      const { privateKey } = generateKeyPairSync('ed25519');
      const foreign = await new SignJWT({ sid: claims.sid, adm: true })
        .setProtectedHeader({ alg: 'EdDSA' })
        .setSubject(claims.sub)
        .setIssuer('social-accounts')
        .setAudience('social-api')
        .setExpirationTime('5m')
        .sign(privateKey);
      expectProblem(await call('GET', '/auth/me', { token: foreign }), 401, 'invalid_token');
    });
  });
});

describe('gateway: request ids across services', () => {
  it('carries X-Request-Id through NATS into every service’s log lines', async () => {
    const user = await registerUser();
    const requestId = `trace-${Date.now()}`;
    expect((await call('GET', '/notifications/preferences', { token: user.token, headers: { 'x-request-id': requestId } })).status).toBe(
      200,
    );
    const { readFileSync } = await import('node:fs');
    await eventually(async () => {
      const lines = readFileSync(process.env.E2E_LOG_FILE!, 'utf8')
        .split('\n')
        .filter((line) => line.includes(requestId))
        .map((line) => JSON.parse(line) as { service: string; request_id: string });
      // The gateway's access log, the notifications handler, and the accounts lookup it made.
      expect(new Set(lines.map((l) => l.service))).toEqual(new Set(['gateway', 'notifications', 'accounts']));
      expect(lines.every((l) => l.request_id === requestId)).toBe(true);
    });
  });
});
