import type { PublishedRenditionSummary } from '@social/contracts';
import type { EntityManager } from 'typeorm';
import { preparedQuery } from '@social/platform';
import { type JobSpec, NOTIFY_WHEN_QUEUED, queueJobParams, queueJobsInsert } from '../sync/sync-jobs.js';

/** When a published rendition is measured after it went live: at once, then +1 h, +24 h and +7 d (issue 15). */
export const MEASUREMENT_OFFSETS_MS = [0, 3_600_000, 86_400_000, 7 * 86_400_000];

/**
 * Stores published renditions (what analytics measures) and schedules their
 * measurements. Idempotent: a rendition stored again keeps its counters, and
 * the measurement jobs are keyed by rendition and due time. Renditions of
 * accounts insights does not know yet make the account known (its name
 * follows the next listing). `measureNow` false: the caller measures them
 * itself (the account metrics job that discovered them).
 */
export async function rememberRenditions(
  db: EntityManager,
  renditions: PublishedRenditionSummary[],
  options: { measureNow: boolean } = { measureNow: true },
): Promise<void> {
  for (const r of renditions) {
    // One named statement a rendition (atomic by itself): every rendition that goes live comes through here. The
    // measurements are queued only when the rendition is new (`created`).
    await preparedQuery(
      db,
      'insights.renditions.remember',
      `WITH account AS (INSERT INTO accounts (id, workspace_id, platform) VALUES ($4, $2, $5) ON CONFLICT (id) DO NOTHING),
       upserted AS (
         INSERT INTO renditions (id, workspace_id, publication_id, social_account_id, platform, title, excerpt, content_profile,
                                 external_id, external_url, published_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, excerpt = excluded.excerpt, content_profile = excluded.content_profile,
           external_id = excluded.external_id, external_url = excluded.external_url
         RETURNING (xmax = 0) AS created),
       queued AS (${queueJobsInsert(12, '(SELECT created FROM upserted)')})
       ${NOTIFY_WHEN_QUEUED}`,
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
        ...queueJobParams(measurementJobs(r, options.measureNow)),
      ],
    );
  }
}

/** The measurement jobs of a rendition that went live. */
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
