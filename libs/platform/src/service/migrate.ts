import { ConfigError, loadConfig, serviceSettings } from '../config/config.js';
import { migrateServiceDatabase } from '../database/database.js';
import { createLogger } from '../logging/logger.js';
import type { ServiceDefinition } from './run-service.js';

/** `node apps/<app>/dist/main.js migrate`: apply the service's migrations and exit (k8s init container). */
export const isMigrateCommand = (argv: readonly string[] = process.argv): boolean => argv[2] === 'migrate';

/**
 * Reads only the database settings (an init container needs DATABASE_URL and no
 * other secret), applies pending migrations under the service's advisory lock,
 * logs what it applied, and exits: 0 when the schema is up to date, 1 otherwise.
 * NATS is never contacted, so migrations do not wait for the message bus.
 */
export async function migrateAndExit(definition: Pick<ServiceDefinition<never>, 'name' | 'entities' | 'migrations'>): Promise<never> {
  let config: { DATABASE_URL: string; LOG_LEVEL: string };
  try {
    config = loadConfig({ DATABASE_URL: serviceSettings.DATABASE_URL, LOG_LEVEL: serviceSettings.LOG_LEVEL });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${definition.name} migrate: ${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  try {
    const applied = await migrateServiceDatabase({
      url: config.DATABASE_URL,
      schema: definition.name,
      entities: definition.entities,
      migrations: definition.migrations,
    });
    logger.info({ schema: definition.name, migrations: applied }, applied.length > 0 ? 'migrations applied' : 'no pending migrations');
    process.exit(0);
  } catch (error) {
    logger.fatal({ err: error, schema: definition.name }, 'migrations failed');
    process.exit(1);
  }
}
