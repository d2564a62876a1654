import { freePort, REPO_ROOT, startProcess, stopProcess, waitFor } from '@social/testing';
import type { ChildProcess } from 'node:child_process';

export interface ServiceReplica {
  child: ChildProcess;
  /** What the process logged so far (stdout and stderr), when started with `captureLogs`. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Another process of a domain service (`apps/<app>/dist/main.js`) on the suites' NATS, database and secrets key:
 * it answers requests, consumes events and runs its own background work. `env` adds to its environment (the
 * service's test tuning, fake network origins, …). Resolves once its health endpoint answers 200.
 */
export async function startServiceReplica(
  app: string,
  env: Record<string, string | undefined> = {},
  options: { captureLogs?: boolean } = {},
): Promise<ServiceReplica> {
  const healthPort = await freePort();
  const child = startProcess(process.execPath, [`apps/${app}/dist/main.js`], {
    cwd: REPO_ROOT,
    stdio: options.captureLogs ? 'pipe' : 'ignore',
    env: {
      PATH: process.env.PATH,
      NATS_URL: process.env.E2E_NATS_URL_IN_USE,
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      SECRETS_KEY: process.env.E2E_SECRETS_KEY,
      JWT_PRIVATE_KEY: process.env.E2E_JWT_PRIVATE_KEY,
      JWT_PUBLIC_KEY: process.env.E2E_JWT_PUBLIC_KEY,
      HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitFor(`a second ${app} replica`, async () => (await fetch(`http://127.0.0.1:${healthPort}/`)).status === 200, 30_000);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { child, logs: () => output, stop: () => stopProcess(child) };
}
