import { freePort, REPO_ROOT, startProcess, stopProcess, waitFor } from '@social/testing';
import type { ChildProcess } from 'node:child_process';

export interface GatewayReplica {
  baseUrl: string;
  child: ChildProcess;
  /** What the process logged so far (stdout and stderr), when started with `captureLogs`. */
  logs(): string;
  stop(): Promise<void>;
}

export interface GatewayReplicaOptions {
  /** Defaults to the suites' NATS, where every service answers. */
  natsUrl?: string;
  /** What counts as started: `/ready` (every service answers, the default) or `/health` (the process is up). */
  waitFor?: '/ready' | '/health';
  /** Keep the process's log lines (see `logs()`); else they are dropped. */
  captureLogs?: boolean;
  /** Extra environment (e.g. `DOCUMENT_BODY_LIMIT_BYTES`). */
  env?: Record<string, string>;
}

/** A second gateway process on the suites' NATS: what one replica learns (revocations, rate counts) must reach the other. */
export async function startGatewayReplica(options: GatewayReplicaOptions = {}): Promise<GatewayReplica> {
  const startedWhen = options.waitFor ?? '/ready';
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = startProcess(process.execPath, ['apps/gateway/dist/main.js'], {
    cwd: REPO_ROOT,
    stdio: options.captureLogs ? 'pipe' : 'ignore',
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      NATS_URL: options.natsUrl ?? process.env.E2E_NATS_URL_IN_USE,
      JWT_PUBLIC_KEY: process.env.E2E_JWT_PUBLIC_KEY,
      JWT_PRIVATE_KEY: process.env.E2E_JWT_PRIVATE_KEY,
      SECRETS_KEY: process.env.E2E_SECRETS_KEY,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitFor('a second gateway replica', async () => (await fetch(`${baseUrl}${startedWhen}`)).status === 200, 30_000);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { baseUrl, child, logs: () => output, stop: () => stopProcess(child) };
}
