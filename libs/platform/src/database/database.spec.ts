import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import pg from 'pg';
import { Column, type DataSource, Entity, PrimaryColumn } from 'typeorm';
import { entityColumns, entityFromJson, entityInsert, openServiceDatabase, preparedQuery, statementNameFor } from '../index.js';

@Entity({ name: 'inserted_rows' })
class InsertedRow {
  @PrimaryColumn('uuid') id!: string;
  @Column('text', { name: 'display_name' }) displayName!: string;
  @Column('jsonb') media!: Array<{ media_id: string }>;
  @Column('timestamptz', { name: 'due_at', nullable: true }) dueAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

/** A column whose JSON form is not pg's (a bigint: pg a string, JSON a number): entityFromJson refuses it. */
@Entity({ name: 'counted_rows' })
class CountedRow {
  @PrimaryColumn('uuid') id!: string;
  @Column('bigint') total!: string;
}

// The spec of libs/platform/src/database (here for the harness, see durable-events.spec.ts).
describe('service database sessions', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTemporaryDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'database_spec');
    // A server (or database) whose zone is not UTC, far from it.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${new URL(db.url).pathname.slice(1)}" SET TimeZone = 'Pacific/Kiritimati'`);
    } finally {
      await admin.end();
    }
    dataSource = await openServiceDatabase({
      url: db.url,
      schema: 'database_spec',
      entities: [InsertedRow, CountedRow],
      migrations: [],
      poolSize: 2,
    });
    await dataSource.query(
      `CREATE TABLE inserted_rows (
         id uuid PRIMARY KEY, display_name text NOT NULL, media jsonb NOT NULL, due_at timestamptz, created_at timestamptz NOT NULL)`,
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('run in UTC whatever the server zone, so date arithmetic never depends on it', async () => {
    // Every pooled connection, not just the first.
    const answers = await Promise.all(
      [1, 2, 3].map(() => dataSource.query<Array<{ zone: string }>>(`SELECT current_setting('TimeZone') AS zone`)),
    );
    expect(answers.map(([row]) => row.zone)).toEqual(['UTC', 'UTC', 'UTC']);
  });

  it('plan a named statement once per connection (generic plans), however cheap a fresh plan looks', async () => {
    const [row] = await preparedQuery<{ mode: string }>(
      dataSource,
      'database-spec.plan-cache-mode',
      `SELECT current_setting('plan_cache_mode') AS mode`,
      [],
    );
    expect(row.mode).toBe('force_generic_plan');
  });

  it('refuse a statement name PostgreSQL would cut, where two statements could end up sharing it', async () => {
    const long = `database-spec.${'x'.repeat(50)}`;
    await expect(preparedQuery(dataSource, long, 'SELECT 1', [])).rejects.toThrow(/over 63 characters/);
  });

  it('name a statement built at run time after its text: one name per text, the same name for the same text', () => {
    const withCursor = statementNameFor('publishing.provider-insights.renditions', 'SELECT 1 WHERE $1 > 0');
    const without = statementNameFor('publishing.provider-insights.renditions', 'SELECT 1');
    expect(withCursor).not.toBe(without);
    expect(statementNameFor('publishing.provider-insights.renditions', 'SELECT 1')).toBe(without);
    expect(withCursor.length).toBeLessThanOrEqual(63);
  });

  it('insert an entity row as a named statement, each column converted as TypeORM would, and refuse an unset column', async () => {
    const insert = entityInsert(dataSource, InsertedRow, 'database-spec.insert-row');
    const createdAt = new Date('2026-12-04T17:00:00.123Z');
    const row = { id: '0193a3c0-0000-7000-8000-000000000001', displayName: 'first', media: [{ media_id: 'a' }], dueAt: null, createdAt };
    await insert(dataSource, row);
    await dataSource.transaction((manager) => insert(manager, { ...row, id: '0193a3c0-0000-7000-8000-000000000002', media: [] }));
    expect(await dataSource.getRepository(InsertedRow).find({ order: { id: 'ASC' } })).toEqual([
      expect.objectContaining(row),
      expect.objectContaining({ ...row, id: '0193a3c0-0000-7000-8000-000000000002', media: [] }),
    ]);
    const unset = { id: '0193a3c0-0000-7000-8000-000000000003', displayName: 'x', media: [], createdAt } as unknown as InsertedRow;
    await expect(insert(dataSource, unset)).rejects.toThrow(/InsertedRow\.dueAt is not set/);
  });

  it('read rows aggregated as JSON (json_agg) into the same entity shape as a select of the entity columns', async () => {
    // Microseconds and a server far from UTC: times come out of JSON as the same instants, cut to milliseconds as pg cuts them.
    await dataSource.query(
      `INSERT INTO inserted_rows (id, display_name, media, due_at, created_at)
       VALUES ('0193a3c0-0000-7000-8000-000000000009', 'json', '[{"media_id": "j"}]', '2026-12-05T01:02:03.456789+14', now())`,
    );
    const [row] = await dataSource.query(
      `SELECT ${entityColumns(dataSource, InsertedRow, 'r')} FROM inserted_rows r WHERE r.display_name = 'json'`,
    );
    const [{ rows }] = await dataSource.query(`SELECT json_agg(r) AS rows FROM inserted_rows r WHERE r.display_name = 'json'`);
    const [fromJson] = (rows as Array<Record<string, unknown>>).map(entityFromJson(dataSource, InsertedRow));
    expect(fromJson).toEqual(row);
    expect(fromJson.dueAt).toEqual(new Date('2026-12-04T11:02:03.456Z'));
    expect(() => entityFromJson(dataSource, CountedRow)).toThrow(/CountedRow\.total would not read from JSON as pg reads it/);
  });
});
