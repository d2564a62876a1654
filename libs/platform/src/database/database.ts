import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, DataSourceOptions, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { Logger } from 'pino';
import { createHash } from 'node:crypto';

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
      // Generic plans for named statements (`preparedStatement`): by default PostgreSQL plans one afresh on every run
      // while that plan looks cheaper than a generic one, which for our short OLTP statements is most of their cost.
      // Unnamed statements (TypeORM's, most of ours) are planned per run whatever this says.
      options: `-c search_path=${options.schema} -c TimeZone=UTC -c plan_cache_mode=force_generic_plan`,
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

/** PostgreSQL's identifier length (NAMEDATALEN - 1), statement names included. */
const MAX_STATEMENT_NAME_LENGTH = 63;

interface PgQueryable {
  query(statement: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * Runs a statement as a named (prepared) one: PostgreSQL parses and plans it once per connection (a generic plan:
 * `plan_cache_mode` in `serviceDataSource`) instead of on every call, as it does for the unnamed statements TypeORM
 * sends. Planning is most of the server's CPU for a short statement with a CTE or many columns (docs/performance.md).
 * `db`: the pool, or a transaction's manager (the statement then runs on the transaction's connection). Use it where
 * a benchmark shows it. `name`: at most 63 characters, one per statement text.
 */
export async function preparedStatement<Row>(
  db: DataSource | EntityManager,
  name: string,
  text: string,
  values: unknown[],
): Promise<{ rows: Row[]; rowCount: number }> {
  // PostgreSQL cuts longer names: two statements would then share one (pg only warns).
  if (name.length > MAX_STATEMENT_NAME_LENGTH) throw new Error(`statement name over ${MAX_STATEMENT_NAME_LENGTH} characters: ${name}`);
  let connection: PgQueryable;
  if ('queryRunner' in db && db.queryRunner) {
    // TypeORM's PostgresQueryRunner answers connect() with the pg client its transaction holds.
    connection = (await db.queryRunner.connect()) as PgQueryable;
  } else {
    // A data source (it has the driver), or a manager outside any transaction (its data source's pool).
    const dataSource = 'driver' in db ? db : db.connection;
    connection = (dataSource.driver as unknown as { master: PgQueryable }).master;
  }
  const result = await connection.query({ name, text, values });
  return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
}

/**
 * The name of a statement whose text is built at run time (optional filters): `prefix` and a hash of the text, so
 * each text the builder can make gets its own name. Naming such a statement after the request's inputs instead let
 * two texts share a name, and pg refuses the second.
 */
export function statementNameFor(prefix: string, text: string): string {
  return `${prefix}:${createHash('sha1').update(text).digest('base64url').slice(0, 12)}`;
}

/** A read as a named statement (`preparedStatement`): its rows. */
export async function preparedQuery<Row>(db: DataSource | EntityManager, name: string, text: string, values: unknown[]): Promise<Row[]> {
  return (await preparedStatement<Row>(db, name, text, values)).rows;
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

/**
 * Timestamp types, which `to_json` writes as ISO text that `new Date` reads as pg does (an offset when there is one,
 * local time when not). Not `date`: pg reads it as local midnight, `new Date('YYYY-MM-DD')` as UTC midnight.
 */
const TIME_COLUMN_TYPES = new Set<unknown>(['timestamptz', 'timestamp', 'timestamp with time zone', 'timestamp without time zone']);
/** Types whose JSON form differs from what pg returns for them. */
const JSON_UNLIKE_PG = new Set<unknown>(['date', 'bigint', 'int8', 'numeric', 'decimal', 'bytea', 'money']);

/**
 * Rows of an entity as PostgreSQL's `to_json(alias)` writes them (keys are column names, times ISO text) turned into
 * the entity's shape, as `entityColumns` rows are: for children aggregated into their parent's row (`json_agg`), so a
 * page and all it holds are one statement. Numbers, booleans, uuids and jsonb come out of JSON as pg parses them; an
 * entity with a `date`, bigint or numeric column (pg: Date or string, JSON: text or number) is refused.
 */
export function entityFromJson<Entity extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<Entity>,
): (json: Record<string, unknown>) => Entity {
  const metadata = dataSource.getMetadata(entity);
  const unlike = metadata.columns.find((column) => JSON_UNLIKE_PG.has(column.type));
  if (unlike) throw new Error(`entityFromJson: ${metadata.name}.${unlike.propertyName} would not read from JSON as pg reads it`);
  const columns = metadata.columns.map((column) => ({
    from: column.databaseName,
    to: column.propertyName,
    isTime: TIME_COLUMN_TYPES.has(column.type),
  }));
  return (json) => {
    const row: Record<string, unknown> = {};
    for (const { from, to, isTime } of columns) {
      const value = json[from] ?? null;
      row[to] = isTime && value !== null ? new Date(value as string) : value;
    }
    return row as Entity;
  };
}

/**
 * One row of an entity inserted as a named statement (`preparedStatement`) instead of TypeORM's `insert`, which
 * builds its SQL on every call and sends it unnamed (PostgreSQL parses and plans it every time). Every column is
 * written, so every property must be set (a column left to its database default needs `insert`). Values go through
 * TypeORM's own conversion (jsonb as JSON, transformers). For a hot write (docs/performance.md).
 */
export function entityInsert<Entity extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<Entity>,
  name: string,
): (db: DataSource | EntityManager, row: Entity) => Promise<void> {
  const metadata = dataSource.getMetadata(entity);
  const columns = metadata.columns;
  const table = metadata.tablePath
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
  const text = `INSERT INTO ${table} (${columns.map((column) => `"${column.databaseName}"`).join(', ')})
    VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})`;
  return async (db, row) => {
    const values = columns.map((column) => {
      const value = column.getEntityValue(row);
      if (value === undefined) throw new Error(`${metadata.name}.${column.propertyName} is not set: entityInsert writes every column`);
      return dataSource.driver.preparePersistentValue(value, column);
    });
    await preparedStatement(db, name, text, values);
  };
}
