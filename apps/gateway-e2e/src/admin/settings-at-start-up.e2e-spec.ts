import { describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { freePort, REPO_ROOT, startProcess, stopProcess, waitFor } from '@social/testing';
import { call, TestUser } from '../support/api.js';
import { registerAdmin } from '../support/admin.js';

/**
 * A saved setting takes effect when a service starts: a gateway started
 * after `public_base_url` is saved builds `$schema` URLs from it, although
 * its environment says otherwise (database > environment > default).
 */
describe('instance settings at a service start-up', () => {
  async function startGateway(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = startProcess(process.execPath, ['apps/gateway/dist/main.js'], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        NATS_URL: process.env.E2E_NATS_URL_IN_USE,
        JWT_PUBLIC_KEY: process.env.E2E_JWT_PUBLIC_KEY,
        JWT_PRIVATE_KEY: process.env.E2E_JWT_PRIVATE_KEY,
        SECRETS_KEY: process.env.E2E_SECRETS_KEY,
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
    await waitFor('another gateway', async () => (await fetch(`${base}/ready`)).status === 200, 30_000);
    return { child, base };
  }

  const schemaOf = async (base: string, admin: TestUser) =>
    (
      (await (await fetch(`${base}/admin/instance-settings`, { headers: { authorization: `Bearer ${admin.token}` } })).json()) as {
        $schema: string;
      }
    ).$schema;

  it('a gateway started after public_base_url is saved answers with it; the environment applies again once it is unset', async () => {
    const admin = await registerAdmin();
    const save = (settings: unknown) => call('PUT', '/admin/instance-settings', { token: admin.token, body: { settings } });
    let gateway: { child: ChildProcess; base: string } | undefined;
    try {
      const saved = await save([{ key: 'public_base_url', value: 'https://api.saved.example/' }]);
      expect(saved.body.settings.find((s: { key: string }) => s.key === 'public_base_url')).toMatchObject({
        source: 'database',
        requires_restart: true,
      });
      gateway = await startGateway({ PUBLIC_BASE_URL: 'https://api.environment.example' });
      expect(await schemaOf(gateway.base, admin)).toBe('https://api.saved.example/api/v1/schemas/InstanceSettingsResponse.json');
    } finally {
      if (gateway) await stopProcess(gateway.child);
      await save([{ key: 'public_base_url', unset: true }]);
    }
    gateway = await startGateway({ PUBLIC_BASE_URL: 'https://api.environment.example' });
    try {
      expect(await schemaOf(gateway.base, admin)).toBe('https://api.environment.example/api/v1/schemas/InstanceSettingsResponse.json');
    } finally {
      await stopProcess(gateway.child);
    }
  });
});
