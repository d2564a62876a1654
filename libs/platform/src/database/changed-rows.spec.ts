import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import type { DataSource } from 'typeorm';
import { changedCount, changedRows, openServiceDatabase } from '../index.js';

interface ItemRow {
  id: number;
  state: string;
}

describe('changedRows and changedCount', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTemporaryDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'changed_rows_spec');
    dataSource = await openServiceDatabase({ url: db.url, schema: 'changed_rows_spec', entities: [], migrations: [], poolSize: 2 });
    await dataSource.query(`CREATE TABLE items (id integer PRIMARY KEY, state text NOT NULL)`);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  beforeEach(async () => {
    await dataSource.query(`DELETE FROM items`);
    await dataSource.query(`INSERT INTO items (id, state) VALUES (1, 'queued'), (2, 'queued'), (3, 'done')`);
  });

  it('answers the rows an UPDATE … RETURNING changed, as RETURNING lists them', async () => {
    const rows = await changedRows<ItemRow>(dataSource, `UPDATE items SET state = 'running' WHERE state = $1 RETURNING id, state`, [
      'queued',
    ]);
    expect(rows.sort((a, b) => a.id - b.id)).toEqual([
      { id: 1, state: 'running' },
      { id: 2, state: 'running' },
    ]);
  });

  it('answers the rows a DELETE … RETURNING removed, and none when nothing matched', async () => {
    expect(await changedRows<Pick<ItemRow, 'id'>>(dataSource, `DELETE FROM items WHERE state = 'done' RETURNING id`)).toEqual([{ id: 3 }]);
    expect(await changedRows(dataSource, `DELETE FROM items WHERE state = 'done' RETURNING id`)).toEqual([]);
  });

  it('counts the rows an UPDATE or DELETE changed, with or without RETURNING', async () => {
    expect(await changedCount(dataSource, `UPDATE items SET state = 'done' WHERE id = ANY($1::int[])`, [[1, 2, 9]])).toBe(2);
    expect(await changedCount(dataSource, `DELETE FROM items WHERE state = 'done' RETURNING id`)).toBe(3);
    expect(await changedCount(dataSource, `UPDATE items SET state = 'done'`)).toBe(0);
  });

  it("reads a transaction's manager the same way, and its changes roll back with it", async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        const rows = await changedRows<ItemRow>(manager, `UPDATE items SET state = 'failed' WHERE id = $1 RETURNING id, state`, [1]);
        expect(rows).toEqual([{ id: 1, state: 'failed' }]);
        expect(await changedCount(manager, `DELETE FROM items WHERE id = $1`, [2])).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await dataSource.query(`SELECT id, state FROM items ORDER BY id`)).toEqual([
      { id: 1, state: 'queued' },
      { id: 2, state: 'queued' },
      { id: 3, state: 'done' },
    ]);
  });

  it('refuses a statement TypeORM answers with rows alone, rather than misreading them as [rows, count]', async () => {
    // Two rows would otherwise pass for a pair; an INSERT or a CTE ending in SELECT answers rows too.
    await expect(changedRows(dataSource, `SELECT id FROM items WHERE id <= 2 ORDER BY id`)).rejects.toThrow(/Not an UPDATE or DELETE/);
    await expect(changedCount(dataSource, `INSERT INTO items (id, state) VALUES (4, 'queued') RETURNING id`)).rejects.toThrow(
      /Not an UPDATE or DELETE/,
    );
    await expect(
      changedRows(dataSource, `WITH moved AS (UPDATE items SET state = 'done' WHERE id = 1 RETURNING id) SELECT id FROM moved`),
    ).rejects.toThrow(/Not an UPDATE or DELETE/);
  });
});
