import type { ChildProcess, StdioOptions } from 'node:child_process';
import { BACKEND_SERVICES } from '@social/contracts';
import { fileURLToPath } from 'node:url';
import type { StackSecrets } from './keys.js';
import { startProcess, stopProcess, StopWaiting, waitFor } from './processes.js';
import { RestartPolicy, Supervisor } from './supervisor.js';

/** Repository root, from libs/testing/dist/stack.js. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every app, services first; each runs from its build output as in production. */
export const APPS = [...BACKEND_SERVICES, 'gateway'] as const;
export type AppName = (typeof APPS)[number];

export interface StackOptions {
  databaseUrl: string;
  natsUrl: string;
  port: number;
  secrets: StackSecrets;
  publicBaseUrl?: string;
  logLevel?: string;
  /** Extra environment for every app (e.g. shorter timeouts in tests). */
  env?: Record<string, string>;
  /** Environment of one app only (e.g. its own NATS_NKEY_SEED_FILE). */
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  stdio?: StdioOptions;
  readyTimeoutMs?: number;
  /** Each app's METRICS_PORT (Prometheus /metrics); an app left out has none. */
  metricsPorts?: Partial<Record<AppName, number>>;
  /**
   * Keep every app running (the dev runner): once the stack is up, an app that exits on its own is restarted
   * with backoff, said through `log` (default: `[start] …` on stdout). Off for the e2e suites, which stop replicas on purpose.
   */
  restartOnCrash?: boolean | { log?: (line: string) => void; policy?: RestartPolicy };
}

export interface RunningStack {
  baseUrl: string;
  /** Each app's process id (the benchmark samples the gateway's memory). */
  pids: Partial<Record<AppName, number>>;
  /** Where each app serves /metrics (as given in the options). */
  metricsPorts: Partial<Record<AppName, number>>;
  stop(): Promise<void>;
}

/** `npm start`'s metrics ports: 9460 + the app's index in APPS (the gateway last). */
export const devMetricsPorts = (): Record<AppName, number> =>
  Object.fromEntries(APPS.map((app, index) => [app, 9460 + index])) as Record<AppName, number>;

function environmentFor(options: StackOptions): NodeJS.ProcessEnv {
  const baseUrl = options.publicBaseUrl ?? `http://localhost:${options.port}`;
  return {
    // Settings the caller exported (e.g. TOKEN_RATE_LIMIT_PER_MINUTE for a benchmark) reach every app.
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    PORT: String(options.port),
    PUBLIC_BASE_URL: baseUrl,
    PUBLIC_APP_URL: baseUrl,
    DATABASE_URL: options.databaseUrl,
    NATS_URL: options.natsUrl,
    JWT_PRIVATE_KEY: options.secrets.jwtPrivateKey,
    JWT_PUBLIC_KEY: options.secrets.jwtPublicKey,
    SECRETS_KEY: options.secrets.secretsKey,
    LOG_LEVEL: options.logLevel ?? 'info',
    ...options.env,
  };
}

/**
 * The scheduler tuned for tests: a short lease (a killed replica's renditions
 * are taken over in seconds), a quick poll and retry, few deliveries at once
 * per replica (so a second replica gets its share). Production keeps the defaults.
 */
export const deliveryTestEnvironment = (): Record<string, string> => ({
  DELIVERY_LEASE_MS: '3000',
  DELIVERY_POLL_MS: '200',
  DELIVERY_RETRY_BASE_MS: '200',
  DELIVERY_CONCURRENCY: '4',
});

/** The insights sync worker tuned for tests: quick polls, a short lease (a dead replica's jobs are taken over in seconds). */
export const insightsTestEnvironment = (): Record<string, string> => ({
  INSIGHTS_POLL_MS: '200',
  INSIGHTS_LEASE_MS: '3000',
  INSIGHTS_CONCURRENCY: '4',
});

/** Notifications tuned for tests: digests checked every half second, mail polled and retried quickly. */
export const notificationsTestEnvironment = (): Record<string, string> => ({
  NOTIFICATIONS_DIGEST_POLL_MS: '500',
  NOTIFICATIONS_EMAIL_POLL_MS: '200',
  NOTIFICATIONS_EMAIL_RETRY_BASE_MS: '300',
});

/**
 * Webhooks tuned for tests: receivers at `allowedOrigins` (local, plain http) are allowed, retries come after
 * 0.3 s, 0.6 s, 1 s… instead of minutes, a receiver has 2 s to answer, and 3 s of failures deactivate a webhook.
 */
export const webhooksTestEnvironment = (allowedOrigins: string[]): Record<string, string> => ({
  WEBHOOK_ALLOWED_ORIGINS: allowedOrigins.join(','),
  WEBHOOK_RETRY_SCHEDULE_MS: '300,600,1000,1500,2000,2500,3000',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_DEACTIVATE_AFTER_MS: '3000',
  WEBHOOK_POLL_MS: '200',
});

/** Starts every app as its own process and waits until the gateway's /ready says 200. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const env = environmentFor(options);
  const processes = new Map<AppName, ChildProcess>();
  const supervisors: Supervisor[] = [];
  const stop = async () => {
    await Promise.all([
      ...supervisors.map((supervisor) => supervisor.stop()),
      ...[...processes.values()].map((child) => stopProcess(child)),
    ]);
  };
  const spawn = (app: AppName) => {
    const metricsPort = options.metricsPorts?.[app];
    const appEnv = { ...env, ...options.appEnv?.[app], ...(metricsPort && { METRICS_PORT: String(metricsPort) }) };
    const child = startProcess(process.execPath, [`apps/${app}/dist/main.js`], { cwd: REPO_ROOT, env: appEnv, stdio: options.stdio });
    child.once('exit', (code, signal) => {
      if (code !== 0 && code !== null) process.stderr.write(`${app} exited with code ${code}${signal ? ` (${signal})` : ''}\n`);
    });
    return child;
  };
  for (const app of APPS) processes.set(app, spawn(app));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  try {
    await waitFor(
      `${baseUrl}/ready`,
      async () => {
        const crashed = [...processes].find(([, child]) => child.exitCode !== null);
        if (crashed) throw new StopWaiting(`${crashed[0]} exited during start-up (code ${crashed[1].exitCode})`);
        return (await fetch(`${baseUrl}/ready`)).status === 200;
      },
      options.readyTimeoutMs ?? 60_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const pids: RunningStack['pids'] = Object.fromEntries([...processes].map(([app, child]) => [app, child.pid]));
  if (options.restartOnCrash) {
    const { log = (line: string) => process.stdout.write(`[start] ${line}\n`), policy } =
      options.restartOnCrash === true ? {} : options.restartOnCrash;
    for (const [app, child] of processes) {
      const isBack = async () => (await fetch(`${baseUrl}/ready`)).status === 200;
      supervisors.push(
        new Supervisor(child, { name: app, spawn: () => spawn(app), log, isBack, policy, onSpawn: (next) => (pids[app] = next.pid) }),
      );
    }
    processes.clear();
  }
  return { baseUrl, pids, metricsPorts: { ...options.metricsPorts }, stop };
}
