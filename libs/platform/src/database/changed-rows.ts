import type { DataSource, EntityManager } from 'typeorm';

/** Where a statement runs: the pool, or a transaction's manager. */
type Queryable = EntityManager | DataSource;

/**
 * TypeORM's pg driver answers an UPDATE or DELETE with `[rows, count]` (rows: what RETURNING gave back, else none)
 * and every other statement (SELECT, INSERT, a CTE ending in SELECT) with its rows alone. Rows are objects, never
 * arrays, so the pair is told apart from a result set for sure.
 */
function isRowsAndCount(answer: unknown): answer is [unknown[], number] {
  return Array.isArray(answer) && answer.length === 2 && Array.isArray(answer[0]) && typeof answer[1] === 'number';
}

async function rowsAndCount<Row>(db: Queryable, sql: string, params: unknown[]): Promise<[Row[], number]> {
  const answer: unknown = await db.query(sql, params);
  // Anything else is a statement these helpers do not fit: its rows would be misread as [rows, count].
  if (!isRowsAndCount(answer)) throw new Error(`Not an UPDATE or DELETE statement (TypeORM answered no [rows, count]): ${sql.trim()}`);
  return answer as [Row[], number];
}

/** The rows an UPDATE or DELETE … RETURNING changed, typed by the caller (`Row` as RETURNING lists it). */
export async function changedRows<Row = unknown>(db: Queryable, sql: string, params: unknown[] = []): Promise<Row[]> {
  const [rows] = await rowsAndCount<Row>(db, sql, params);
  return rows;
}

/** How many rows an UPDATE or DELETE changed (with or without RETURNING). */
export async function changedCount(db: Queryable, sql: string, params: unknown[] = []): Promise<number> {
  const [, count] = await rowsAndCount<unknown>(db, sql, params);
  return count;
}
