/**
 * `npm start`: the whole platform on this machine. PostgreSQL is DATABASE_URL
 * or an embedded one under .data/; NATS is NATS_URL (default 127.0.0.1:4222)
 * or, if nothing answers there, a nats-server from PATH; mail goes to SMTP_URL
 * or, when unset, to a local sink that prints each mail here; dev keys are made
 * once into .data/; then every app starts as its own process. Ctrl-C stops it all.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  APPS,
  type AppName,
  devMetricsPorts,
  loadOrCreateSecrets,
  natsAnswers,
  REPO_ROOT,
  RunningStack,
  startPrivateNats,
  startSmtpSink,
  startStack,
} from '@social/testing';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { generateNatsAuth } from '../nats-auth/generate.js';

const DATA_DIR = join(REPO_ROOT, '.data');
const stops: Array<() => Promise<void>> = [];

async function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  const port = Number(process.env.PORT ?? 8080);
  const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log('starting embedded PostgreSQL under .data/postgres …');
    const database = await startEmbeddedPostgres(DATA_DIR);
    stops.unshift(database.stop);
    databaseUrl = database.url;
  }

  let natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  let appEnv: Partial<Record<AppName, Record<string, string>>> = {};
  if (!(await natsAnswers(natsUrl))) {
    if (process.env.NATS_URL) throw new Error(`NATS_URL ${natsUrl} does not answer.`);
    log('no NATS at 127.0.0.1:4222; starting nats-server from PATH (JetStream, 8 MiB messages, one user per app: .data/nats/) …');
    // Each app connects as its own user, allowed only the subjects it serves and calls (tools/src/nats-auth).
    const auth = generateNatsAuth(join(DATA_DIR, 'nats-auth'));
    const nats = await startPrivateNats(join(DATA_DIR, 'nats'), { extraConfig: readFileSync(auth.configFile, 'utf8') });
    stops.unshift(nats.stop);
    natsUrl = nats.url;
    appEnv = Object.fromEntries(Object.entries(auth.seedFiles).map(([app, seedFile]) => [app, { NATS_NKEY_SEED_FILE: seedFile }]));
  }

  let smtpUrl = process.env.SMTP_URL;
  if (!smtpUrl) {
    const sink = await startSmtpSink({ print: true });
    stops.unshift(sink.stop);
    smtpUrl = sink.smtpUrl;
    log(`no SMTP_URL; mail goes to a local sink at ${smtpUrl} and is printed here`);
  }

  const secrets = {
    ...loadOrCreateSecrets(DATA_DIR),
    ...(process.env.JWT_PRIVATE_KEY && { jwtPrivateKey: process.env.JWT_PRIVATE_KEY }),
    ...(process.env.JWT_PUBLIC_KEY && { jwtPublicKey: process.env.JWT_PUBLIC_KEY }),
    ...(process.env.SECRETS_KEY && { secretsKey: process.env.SECRETS_KEY }),
  };
  log('starting the gateway and every service …');
  const stack: RunningStack = await startStack({
    databaseUrl,
    natsUrl,
    port,
    secrets,
    publicBaseUrl,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    env: { SMTP_URL: smtpUrl },
    appEnv,
    metricsPorts: devMetricsPorts(),
    // An app that crashes is started again (with backoff) and said so here, instead of staying down behind a 503 /ready.
    restartOnCrash: true,
    // Eight apps starting at once on a small, busy machine can take more than a minute.
    readyTimeoutMs: 180_000,
  });
  stops.unshift(stack.stop);
  writeFileSync(
    join(DATA_DIR, 'stack.json'),
    JSON.stringify({ baseUrl: publicBaseUrl, databaseUrl, natsUrl, pids: stack.pids, metricsPorts: stack.metricsPorts }, null, 2),
  );
  log(
    `metrics: ${Object.entries(stack.metricsPorts)
      .map(([app, metricsPort]) => `${app} :${metricsPort}`)
      .join(', ')} (GET /metrics)`,
  );
  log(`ready: ${publicBaseUrl}  (API docs: ${publicBaseUrl}/docs; Ctrl-C stops everything)`);
  if (process.argv.includes('--watch')) watchAndRestart(stack);
}

/**
 * `npm run dev`: tsc rebuilds what changed, and an app whose build output changed (or every app, when a lib's
 * did) is stopped; the stack's supervisor starts it again at once, so the new code serves within seconds.
 */
function watchAndRestart(stack: RunningStack) {
  const apps: readonly AppName[] = APPS;
  const tsc = spawn(
    process.execPath,
    [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', '--watch', '--preserveWatchOutput', ...apps.map((app) => `apps/${app}`)],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  stops.unshift(async () => void tsc.kill('SIGTERM'));
  const changed = new Set<AppName>();
  let timer: NodeJS.Timeout | undefined;
  const restartChanged = () => {
    for (const app of changed) {
      const pid = stack.pids[app];
      log(`${app}: code changed; restarting`);
      if (pid) process.kill(pid, 'SIGTERM');
    }
    changed.clear();
  };
  // tsc writes many files per build: restart once the output has been quiet for a moment.
  const mark = (targets: readonly AppName[]) => {
    for (const app of targets) changed.add(app);
    clearTimeout(timer);
    timer = setTimeout(restartChanged, 700);
  };
  const watchers = [
    ...apps.map((app) =>
      watch(join(REPO_ROOT, 'apps', app, 'dist'), { recursive: true }, (_event, file) => file?.endsWith('.js') && mark([app])),
    ),
    ...['platform', 'contracts'].map((lib) =>
      watch(join(REPO_ROOT, 'libs', lib, 'dist'), { recursive: true }, (_event, file) => file?.endsWith('.js') && mark(apps)),
    ),
  ];
  stops.unshift(async () => watchers.forEach((watcher) => watcher.close()));
  log('watching: apps and libs are rebuilt on save and the apps they touch restart');
}

async function shutdown(code: number) {
  for (const stop of stops.splice(0)) await stop().catch((error: unknown) => log(`while stopping: ${String(error)}`));
  process.exit(code);
}

function log(message: string) {
  process.stdout.write(`[start] ${message}\n`);
}

process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));
main().catch(async (error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  await shutdown(1);
});
