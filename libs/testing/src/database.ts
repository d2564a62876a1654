import pg from 'pg';

/** A throwaway database on an existing server, for one test run. */
export interface TemporaryDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTemporaryDatabase(adminUrl: string, prefix = 'platform_test'): Promise<TemporaryDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A stand-in for a transaction's EntityManager whose every statement `answer` answers: those sent through TypeORM
 * (`query`) and the named ones `preparedQuery` sends on the transaction's own connection (`queryRunner.connect()`).
 */
export function fakeTransactionManager(answer: (sql: string, params: unknown[]) => Promise<unknown[]>) {
  const connection = {
    query: async (statement: { text: string; values: unknown[] }) => ({
      rows: await answer(statement.text, statement.values),
      rowCount: 0,
    }),
  };
  return { query: answer, queryRunner: { connect: async () => connection } };
}
