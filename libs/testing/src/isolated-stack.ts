import { createTemporaryDatabase, type TemporaryDatabase } from './database.js';
import { generateSecrets } from './keys.js';
import { startPrivateNats, type PrivateNats } from './nats.js';
import { freePort } from './processes.js';
import { startStack, type RunningStack, type StackOptions } from './stack.js';

export interface IsolatedStack extends RunningStack {
  /** Stops the apps, then the private NATS, then drops the database. */
  stopAll(): Promise<void>;
}

/**
 * A whole platform of its own beside the e2e suites' stack: a private nats-server (on the suites' NATS its
 * replicas would share queue groups with theirs and take only some requests), a temporary database named
 * after `databasePrefix`, fresh secrets and a free port. For specs that must start the apps differently
 * (tracing on, crash restarts on).
 */
export async function startIsolatedStack(
  databasePrefix: string,
  options: Omit<StackOptions, 'databaseUrl' | 'natsUrl' | 'port' | 'secrets'> & { natsExtraConfig?: string } = {},
): Promise<IsolatedStack> {
  const { natsExtraConfig, ...stackOptions } = options;
  // `natsExtraConfig`: e.g. per-app users and permissions (the apps' NATS_NKEY_SEED_FILE then comes in `appEnv`).
  const nats: PrivateNats = await startPrivateNats(undefined, { extraConfig: natsExtraConfig });
  let database: TemporaryDatabase | undefined;
  try {
    database = await createTemporaryDatabase(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      databasePrefix,
    );
    const stack = await startStack({
      databaseUrl: database.url,
      natsUrl: nats.url,
      port: await freePort(),
      secrets: generateSecrets(),
      ...stackOptions,
    });
    const ownDatabase = database;
    return {
      ...stack,
      stopAll: async () => {
        await stack.stop();
        await nats.stop();
        await ownDatabase.drop();
      },
    };
  } catch (error) {
    await nats.stop();
    await database?.drop();
    throw error;
  }
}
