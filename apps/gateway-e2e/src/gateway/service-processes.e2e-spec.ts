import { afterAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { BACKEND_SERVICES } from '@social/contracts';
import { freePort, REPO_ROOT, startPrivateNats, startProcess, stopProcess, waitFor } from '@social/testing';
import { call, registerUser } from '../support/api.js';
import { startGatewayReplica } from '../support/gateway-replica.js';

/** Extra processes of the real apps, started beside the suite's stack. */
const started: ChildProcess[] = [];
function startApp(app: string, env: Record<string, string | undefined>, stdio: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  const child = startProcess(process.execPath, [`apps/${app}/dist/main.js`], {
    cwd: REPO_ROOT,
    stdio,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
  });
  started.push(child);
  return child;
}

afterAll(async () => {
  await Promise.all(started.map((child) => stopProcess(child)));
});

describe('service processes', () => {
  it('refuse to start on missing or malformed settings, naming each one', async () => {
    const child = startApp('accounts', { DATABASE_URL: 'mysql://nope', NATS_URL: process.env.E2E_NATS_URL_IN_USE }, 'pipe');
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('DATABASE_URL must use postgres or postgresql');
    expect(stderr).toContain('JWT_PRIVATE_KEY is required');
  });

  it('run as a second replica in the same queue group, with a health endpoint for probes', async () => {
    const healthPort = await freePort();
    startApp('notifications', {
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      NATS_URL: process.env.E2E_NATS_URL_IN_USE,
      // Notifications keys its inbox cursors with it.
      SECRETS_KEY: process.env.E2E_SECRETS_KEY,
      JWT_PRIVATE_KEY: process.env.E2E_JWT_PRIVATE_KEY,
      JWT_PUBLIC_KEY: process.env.E2E_JWT_PUBLIC_KEY,
      HEALTH_PORT: String(healthPort),
    });
    await waitFor('the replica health endpoint', async () => (await fetch(`http://127.0.0.1:${healthPort}/`)).status === 200, 30_000);
    // Readiness: PostgreSQL and NATS answer; liveness: only the process (event loop, NATS not closed).
    const ready = await (await fetch(`http://127.0.0.1:${healthPort}/ready`)).json();
    expect(ready).toEqual({
      status: 'ok',
      info: { database: { status: 'up' }, nats: { status: 'up' } },
      error: {},
      details: { database: { status: 'up' }, nats: { status: 'up' } },
    });
    const live = await fetch(`http://127.0.0.1:${healthPort}/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({ status: 'ok', details: { event_loop: { status: 'up' }, nats: { status: 'up' } } });
    expect((await fetch(`http://127.0.0.1:${healthPort}/nope`)).status).toBe(404);

    const user = await registerUser();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => call('GET', '/notifications/preferences', { token: user.token }).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(20).fill(200));
  });

  it('GET /ready answers 503 not_ready, naming every service that does not answer, with Retry-After', async () => {
    // A gateway on a NATS server where no service runs: up (/health), never ready.
    const lonely = await startPrivateNats();
    const replica = await startGatewayReplica({ natsUrl: lonely.url, waitFor: '/health' }).catch(async (error) => {
      await lonely.stop();
      throw error;
    });
    try {
      const response = await fetch(`${replica.baseUrl}/ready`);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({
        $schema: `${replica.baseUrl}/api/v1/schemas/ErrorModel.json`,
        status: 503,
        code: 'not_ready',
        title: 'Service Unavailable',
        missing_services: [...BACKEND_SERVICES],
      });
      expect(response.headers.get('retry-after')).toBe('2');
      // Kubernetes' probes of the gateway look at NATS only: no backend answers, yet this gateway stays in the load balancer.
      const probe = await fetch(`${replica.baseUrl}/health/ready`);
      expect(probe.status).toBe(200);
      expect(await probe.json()).toEqual({ status: 'ready', checks: { nats: { status: 'up' } } });
      const live = await fetch(`${replica.baseUrl}/health`);
      expect(live.status).toBe(200);
      expect(await live.json()).toMatchObject({ status: 'ok', checks: { event_loop: { status: 'up' }, nats: { status: 'up' } } });
    } finally {
      await replica.stop();
      await lonely.stop();
    }
  });
});
