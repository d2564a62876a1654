import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type IsolatedStack, startIsolatedStack } from '@social/testing';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateNatsAuth } from './generate.js';

/**
 * The whole platform on a NATS that requires the generated per-app users (as
 * `npm start` runs it): every app connects with its own nkey, every request the
 * journeys below need is within the permissions, and NATS reports no violation.
 */
describe('the platform under per-app NATS users', () => {
  let dir: string;
  let logFile: string;
  let stack: IsolatedStack;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stack-under-auth-'));
    const auth = generateNatsAuth(join(dir, 'auth'));
    logFile = join(dir, 'stack.log');
    const log = openSync(logFile, 'a');
    stack = await startIsolatedStack('nats_auth_spec', {
      natsExtraConfig: readFileSync(auth.configFile, 'utf8'),
      appEnv: Object.fromEntries(Object.entries(auth.seedFiles).map(([app, seedFile]) => [app, { NATS_NKEY_SEED_FILE: seedFile }])),
      logLevel: 'info',
      stdio: ['ignore', log, log],
      readyTimeoutMs: 180_000,
    });
  }, 200_000);

  afterAll(async () => {
    await stack?.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const api = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text };
  };

  it('is ready, and a journey across services works with no permission violation', async () => {
    expect((await api('GET', '/ready')).status).toBe(200);
    const registered = await api('POST', '/auth/register', undefined, {
      email: `auth-${Date.now()}@example.com`,
      password: 'correct horse battery staple',
    });
    expect(registered.status).toBe(201);
    const token = registered.body.access_token as string;
    const organization = await api('POST', '/organizations', token, { name: 'Acme' });
    expect(organization.status).toBe(201);
    const workspace = await api('POST', '/workspaces', token, { organization_id: organization.body.id, name: 'Main' });
    expect(workspace.status).toBe(201);
    const apiToken = await api('POST', '/api-tokens', token, { name: 'ci' });
    expect(apiToken.status).toBe(201);
    // An API-token caller: the gateway signs the caller token; the services answer.
    expect((await api('GET', `/media?workspace_id=${workspace.body.id}`, apiToken.body.token)).status).toBe(200);
    expect((await api('GET', '/notifications/preferences', token)).status).toBe(200);
    expect((await api('GET', `/publications?workspace_id=${workspace.body.id}`, token)).status).toBe(200);
    expect((await api('GET', '/admin/instance-settings', token)).status).toBe(200);
    expect((await api('POST', '/auth/logout', token)).status).toBe(204);
    const log = readFileSync(logFile, 'utf8');
    expect(log).not.toMatch(/permissions violation/i);
    expect(log).not.toMatch(/Authorization Violation/i);
  }, 60_000);
});
