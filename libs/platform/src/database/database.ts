import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, DataSourceOptions, EntityTarget, ObjectLiteral } from 'typeorm';
import type { Logger } from 'pino';

export interface ServiceDatabaseOptions {
  url: string;
  /** The PostgreSQL schema this service owns; no other service reads it. */
  schema: string;
  entities: DataSourceOptions['entities'];
  migrations: DataSourceOptions['migrations'];
  poolSize?: number;
  /** Apply pending migrations before opening the pool (default true); the Kubernetes init container does it instead. */
  migrate?: boolean;
  /** Pool timeouts of the service's connections (not of migrations, which may lock and run long). */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
}

/**
 * Opens the service's DataSource and brings its schema up to date. Replicas
 * starting together take turns through an advisory lock, so a migration never
 * runs twice. `synchronize` is never used.
 */
export async function openServiceDatabase(options: ServiceDatabaseOptions, logger?: Logger): Promise<DataSource> {
  if (options.migrate !== false) {
    // Its own short-lived pool without the statement timeout: waiting for the lock or a long migration is expected.
    const applied = await migrateServiceDatabase({ ...options, statementTimeoutMs: undefined });
    if (applied.length > 0) logger?.info({ migrations: applied }, 'migrations applied');
  }
  const dataSource = serviceDataSource(options);
  await dataSource.initialize();
  return dataSource;
}

/**
 * Only the migrations (the `migrate` mode of `runService`, e.g. a Kubernetes init
 * container): applies what is pending under the same lock, closes, and returns
 * the names applied (none when the schema was already up to date).
 */
export async function migrateServiceDatabase(options: ServiceDatabaseOptions): Promise<string[]> {
  // One connection holds the lock, the other runs the migrations.
  const dataSource = serviceDataSource({ ...options, poolSize: 2 });
  await dataSource.initialize();
  try {
    return await runLockedMigrations(dataSource, options.schema);
  } finally {
    await dataSource.destroy();
  }
}

function serviceDataSource(options: ServiceDatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    // Raw SQL (migrations, hand-written queries) lands in the service's schema too; every session
    // runs in UTC, so casts to date and date arithmetic never depend on the server's zone.
    extra: {
      max: options.poolSize ?? 10,
      application_name: options.schema,
      options: `-c search_path=${options.schema} -c TimeZone=UTC`,
      // An outage fails queries quickly (readiness drops, requests answer 503) rather than piling them up.
      ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    },
  });
}

async function runLockedMigrations(dataSource: DataSource, schema: string): Promise<string[]> {
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]).catch(() => undefined);
    await lock.release();
  }
}

class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}
  async onApplicationShutdown() {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Provides the service's migrated `DataSource` for injection. */
@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DataSource, useValue: dataSource }, DataSourceCloser],
      exports: [DataSource],
    };
  }
}

/**
 * Runs a hot read as a named (prepared) statement: PostgreSQL parses and plans
 * it once per connection, about half the server CPU of the unnamed statements
 * TypeORM sends (measured with `npm run bench`). Use it only where a benchmark shows it.
 */
export async function preparedQuery<Row>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const pool = (dataSource.driver as unknown as { master: { query: (q: object) => Promise<{ rows: Row[] }> } }).master;
  const result = await pool.query({ name, text, values });
  return result.rows;
}

/**
 * The select list of an entity's columns under their property names, so a raw
 * (or prepared) query returns rows in the entity's shape without TypeORM's
 * per-row hydration; pg already parses times, jsonb and numbers the same way.
 */
export function entityColumns(dataSource: DataSource, entity: EntityTarget<ObjectLiteral>, alias: string): string {
  return dataSource
    .getMetadata(entity)
    .columns.map((column) => `${alias}."${column.databaseName}" AS "${column.propertyName}"`)
    .join(', ');
}
