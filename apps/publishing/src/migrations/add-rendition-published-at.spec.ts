import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openServiceDatabase } from '@social/platform';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AddRenditionPublishedAt1764300010000 } from './1764300010000-add-rendition-published-at.js';
import { publishingMigrations } from './index.js';

/**
 * renditions.published_at (issue 15) is backfilled for renditions that went
 * live before it existed: the live attempt's end, else the rendition's last
 * update; anything not live stays NULL.
 */
describe('migration: renditions.published_at', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;
  const before = publishingMigrations.slice(0, publishingMigrations.indexOf(AddRenditionPublishedAt1764300010000));
  const ids = { withAttempt: randomUUID(), withoutAttempt: randomUUID(), queued: randomUUID() };
  const attemptEnded = '2026-11-20T10:00:00.123Z';
  const updatedAt = '2026-11-21T08:30:00.456Z';

  beforeAll(async () => {
    db = await createTemporaryDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    const old = await openServiceDatabase({ url: db.url, schema: 'publishing', entities: [], migrations: before, poolSize: 2 });
    const account = randomUUID();
    const publication = randomUUID();
    const workspace = randomUUID();
    await old.query(
      `INSERT INTO social_accounts (id, workspace_id, platform, external_id, username, status, connected_by, created_at, updated_at)
       VALUES ($1, $2, 'sandbox', 'sandbox-x', 'ada', 'active', $2, now(), now())`,
      [account, workspace],
    );
    await old.query(
      `INSERT INTO publications (id, workspace_id, status, content_profile, title, source_text, created_by, created_at, updated_at)
       VALUES ($1, $2, 'published', 'short_text', 'T', 'S', $2, now(), now())`,
      [publication, workspace],
    );
    const rendition = (id: string, platform: string, state: string) =>
      old.query(
        `INSERT INTO renditions (id, publication_id, social_account_id, platform, target_key, status, delivery_state, created_at,
           updated_at)
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $7)`,
        [id, publication, account, platform, state === 'live' ? 'published' : 'scheduled', state, updatedAt],
      );
    // One rendition per (publication, account, platform): three platforms.
    await rendition(ids.withAttempt, 'sandbox', 'live');
    await rendition(ids.withoutAttempt, 'x', 'live');
    await rendition(ids.queued, 'mastodon', 'queued');
    await old.query(
      `INSERT INTO delivery_attempts (id, rendition_id, publication_id, attempt, started_at, finished_at, outcome)
       VALUES ($1, $2, $3, 1, $4, $4, 'retry'), ($5, $2, $3, 2, $6, $6, 'live')`,
      [randomUUID(), ids.withAttempt, publication, '2026-11-20T09:00:00.000Z', randomUUID(), attemptEnded],
    );
    await old.destroy();
    dataSource = await openServiceDatabase({
      url: db.url,
      schema: 'publishing',
      entities: [],
      migrations: publishingMigrations,
      poolSize: 2,
    });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('sets it from the live attempt, else the last update, and leaves renditions that are not live without one', async () => {
    const rows: Array<{ id: string; published_at: Date | null }> = await dataSource.query(`SELECT id, published_at FROM renditions`);
    const publishedAt = Object.fromEntries(rows.map((row) => [row.id, row.published_at?.toISOString() ?? null]));
    expect(publishedAt).toEqual({ [ids.withAttempt]: attemptEnded, [ids.withoutAttempt]: updatedAt, [ids.queued]: null });
  });
});
