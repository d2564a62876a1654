/**
 * A platform of the bench's own (a private nats-server, a temporary database, the built apps) for targets that need
 * settings of their own or sample a service's process: posts-media (publishing pointed at a fake Mastodon),
 * youtube-upload (a fake YouTube), webhooks (a local receiver allowed). A user is registered and a workspace created;
 * everything is stopped and dropped after `work`, whatever it throws.
 */
import { createTemporaryDatabase, freePort, generateSecrets, startPrivateNats, startStack, type StackOptions } from '@social/testing';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createBenchWorkspace } from './seeding.js';

export interface BenchPlatform {
  baseUrl: string;
  natsUrl: string;
  /** The stack's own database (its services' schemas), connected. */
  db: pg.Client;
  secretsKey: string;
  token: string;
  userId: string;
  workspaceId: string;
  publishingPid: number;
  /** Where the services' logs go. */
  logFile: string;
}

export interface BenchPlatformOptions {
  /** network → the fake's origin (PROVIDER_API_ORIGINS). */
  providerOrigins?: Record<string, string>;
  /** Settings for every service, and for one service alone. */
  env?: Record<string, string>;
  appEnv?: StackOptions['appEnv'];
}

export async function withBenchPlatform<T>(
  name: string,
  options: BenchPlatformOptions,
  work: (platform: BenchPlatform) => Promise<T>,
): Promise<T> {
  const nats = await startPrivateNats();
  const database = await createTemporaryDatabase(
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    `bench_${name.replace(/-/g, '_')}`,
  );
  const secrets = generateSecrets();
  const logFile = join(tmpdir(), `bench-${name}-${process.pid}.log`);
  const log = createWriteStream(logFile);
  await new Promise((resolve) => log.once('open', resolve));
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  const db = new pg.Client({ connectionString: database.url });
  try {
    stack = await startStack({
      databaseUrl: database.url,
      natsUrl: nats.url,
      port: await freePort(),
      secrets,
      logLevel: 'warn',
      // MALLOC_ARENA_MAX as the container image sets it (glibc's per-thread arenas hold on to sharp's freed memory).
      env: {
        PROVIDER_API_ORIGINS: JSON.stringify(options.providerOrigins ?? {}),
        TOKEN_RATE_LIMIT_PER_MINUTE: '100000000',
        DELIVERY_POLL_MS: '200',
        MALLOC_ARENA_MAX: '2',
        ...options.env,
      },
      ...(options.appEnv ? { appEnv: options.appEnv } : {}),
      stdio: ['ignore', log, log],
      readyTimeoutMs: 300_000,
    });
    await db.connect();
    const baseUrl = stack.baseUrl;
    const registered = (await (
      await fetch(`${baseUrl}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `bench-${randomBytes(6).toString('hex')}@example.com`,
          password: randomBytes(16).toString('base64url'),
        }),
      })
    ).json()) as { access_token: string; user: { id: string } };
    const workspace = await createBenchWorkspace(baseUrl, registered.access_token, `Bench ${name}`);
    return await work({
      baseUrl,
      natsUrl: nats.url,
      db,
      secretsKey: secrets.secretsKey,
      token: registered.access_token,
      userId: registered.user.id,
      workspaceId: workspace.id,
      publishingPid: stack.pids.publishing!,
      logFile,
    });
  } finally {
    await db.end().catch(() => undefined);
    await stack?.stop();
    await nats.stop();
    await database.drop();
    log.end();
  }
}
