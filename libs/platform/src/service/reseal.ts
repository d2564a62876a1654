import type { DataSource } from 'typeorm';
import { ConfigError, loadConfig, serviceSettings, setting } from '../config/config.js';
import { SecretBox } from '../crypto/secret-box.js';
import { openServiceDatabase } from '../database/database.js';
import { createLogger } from '../logging/logger.js';
import type { ServiceDefinition } from './run-service.js';

/** A column of sealed values (SecretBox envelopes) and how its context is made from the row. */
export interface SealedColumn {
  table: string;
  /** Primary-key column: rows are re-sealed one by one, each in its own short transaction. */
  key: string;
  column: string;
  /** The context the service sealed the value with (the same function its code uses). */
  context(row: Record<string, unknown>): string;
}

/** `node apps/<app>/dist/main.js reseal`: after a SECRETS_KEY rotation, seal every value again with the first key. */
export const isResealCommand = (argv: readonly string[] = process.argv): boolean => argv[2] === 'reseal';

/**
 * Re-seals, with the keyring's first key, every value of `columns` that an older key (or an envelope from before
 * keyrings) sealed. Each row is locked and rewritten in its own transaction, so the service may keep running;
 * a value written meanwhile is already sealed with the new key and skipped. Returns counts per column.
 */
export async function resealColumns(dataSource: DataSource, box: SecretBox, columns: SealedColumn[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table, key, column, context } of columns) {
    const label = `${table}.${column}`;
    counts[label] = 0;
    const ids: Array<{ id: unknown }> = await dataSource.query(
      `SELECT "${key}" AS id FROM "${table}" WHERE "${column}" IS NOT NULL AND "${column}" <> ''`,
    );
    for (const { id } of ids) {
      const changed = await dataSource.transaction(async (manager) => {
        const [row]: Array<Record<string, unknown>> = await manager.query(`SELECT * FROM "${table}" WHERE "${key}" = $1 FOR UPDATE`, [id]);
        const sealed = row?.[column];
        if (typeof sealed !== 'string' || sealed === '' || !box.needsReseal(sealed)) return false;
        const resealed = box.seal(box.open(sealed, context(row)), context(row));
        await manager.query(`UPDATE "${table}" SET "${column}" = $2 WHERE "${key}" = $1`, [id, resealed]);
        return true;
      });
      if (changed) counts[label] += 1;
    }
  }
  return counts;
}

/** The `reseal` mode of `runService`: database and SECRETS_KEY only, no NATS; exits 0 when every value opened. */
export async function resealAndExit(
  definition: Pick<ServiceDefinition<never>, 'name' | 'entities' | 'migrations' | 'sealedColumns'>,
): Promise<never> {
  let config: { DATABASE_URL: string; LOG_LEVEL: string; SECRETS_KEY: string };
  try {
    config = loadConfig({
      DATABASE_URL: serviceSettings.DATABASE_URL,
      LOG_LEVEL: serviceSettings.LOG_LEVEL,
      SECRETS_KEY: setting.secretsKeyring(),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${definition.name} reseal: ${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  const box = SecretBox.fromBase64Key(config.SECRETS_KEY);
  let dataSource: DataSource | undefined;
  try {
    dataSource = await openServiceDatabase({
      url: config.DATABASE_URL,
      schema: definition.name,
      entities: definition.entities,
      migrations: definition.migrations,
      migrate: false,
      poolSize: 2,
    });
    const counts = await resealColumns(dataSource, box, definition.sealedColumns ?? []);
    logger.info({ sealing_key: box.sealingKeyId, resealed: counts }, 'sealed values re-sealed with the first key of SECRETS_KEY');
    await dataSource.destroy();
    process.exit(0);
  } catch (error) {
    logger.fatal({ err: error }, 're-seal failed (a value that no key of SECRETS_KEY opens stops it; nothing else was lost)');
    await dataSource?.destroy().catch(() => undefined);
    process.exit(1);
  }
}
