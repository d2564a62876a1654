import type { PublishedRenditionSummary } from '@social/contracts';
import type { EntityManager } from 'typeorm';
import type { RenditionUpsertRow } from '../analytics/analytics.row.js';
import { preparedQuery } from '@social/platform';
import { enqueueJobs, type JobSpec } from '../sync/sync-jobs.js';

/** When a published rendition is measured after it went live: at once, then +1 h, +24 h and +7 d (issue 15). */
export const MEASUREMENT_OFFSETS_MS = [0, 3_600_000, 86_400_000, 7 * 86_400_000];

/**
 * Stores published renditions (what analytics measures) and schedules their
 * measurements. Idempotent: a rendition stored again keeps its counters, and
 * the measurement jobs are keyed by rendition and due time. Renditions of
 * accounts insights does not know yet make the account known (its name
 * follows the next listing).
 */
export async function rememberRenditions(
  db: EntityManager,
  renditions: PublishedRenditionSummary[],
  options: { measureNow: boolean } = { measureNow: true },
): Promise<void> {
  for (const r of renditions) {
    // Named statements: every rendition that goes live comes through here.
    await preparedQuery(
      db,
      'insights.renditions.remember-account',
      `INSERT INTO accounts (id, workspace_id, platform) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
      [r.social_account_id, r.workspace_id, r.platform],
    );
    const [upserted] = await preparedQuery<RenditionUpsertRow>(
      db,
      'insights.renditions.remember',
      `INSERT INTO renditions (id, workspace_id, publication_id, social_account_id, platform, title, excerpt, content_profile, external_id,
         external_url, published_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (id) DO UPDATE SET title = excluded.title, excerpt = excluded.excerpt, content_profile = excluded.content_profile,
         external_id = excluded.external_id, external_url = excluded.external_url
       RETURNING (xmax = 0) AS created`,
      [
        r.rendition_id,
        r.workspace_id,
        r.publication_id,
        r.social_account_id,
        r.platform,
        r.title,
        r.excerpt,
        r.content_profile,
        r.external_id,
        r.external_url,
        r.published_at,
      ],
    );
    if (upserted?.created) await scheduleMeasurements(db, r, options.measureNow);
  }
}

/** `measureNow` false: the caller measures it itself (the account metrics job that discovered it). */
export async function scheduleMeasurements(
  db: EntityManager,
  r: { rendition_id: string; workspace_id: string; social_account_id: string; published_at: string },
  measureNow: boolean,
) {
  await enqueueJobs(db, measurementJobs(r, measureNow));
}

/** The measurement jobs of a rendition that went live (`scheduleMeasurements`). */
export function measurementJobs(
  r: { rendition_id: string; workspace_id: string; social_account_id: string; published_at: string },
  measureNow: boolean,
): JobSpec[] {
  const published = Date.parse(r.published_at);
  const jobs: JobSpec[] = [];
  for (const offset of MEASUREMENT_OFFSETS_MS.slice(measureNow ? 0 : 1)) {
    const runAt = new Date(published + offset);
    // Measurements long past (a backfilled rendition) collapse into the immediate one.
    if (offset > 0 && runAt.getTime() < Date.now()) continue;
    jobs.push({
      kind: 'rendition_metrics',
      workspaceId: r.workspace_id,
      accountId: r.social_account_id,
      renditionId: r.rendition_id,
      runAt,
    });
  }
  return jobs;
}
