import { afterAll, beforeAll } from '@jest/globals';
import pg from 'pg';

export type TestDatabase = Pick<pg.Client, 'query'>;

/**
 * A connection to the stack's database for the suite that calls this (at the
 * top of a describe): to look at what was stored (hashes, never secrets) or to
 * move time (expiries, cooldowns). Opened before the suite, closed after it.
 */
export function testDatabase(): TestDatabase {
  let client: pg.Client | undefined;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });
  return {
    query: ((...args: Parameters<pg.Client['query']>) => {
      if (!client) throw new Error('testDatabase() is usable inside tests only (it connects in beforeAll).');
      return (client.query as (...a: unknown[]) => unknown)(...args);
    }) as pg.Client['query'],
  };
}
