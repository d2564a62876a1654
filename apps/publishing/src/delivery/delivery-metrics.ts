import { jobQueueDepthGauge, type Metrics, scrapeQuery } from '@social/platform';
import type { DataSource } from 'typeorm';

/** A rendition due longer than this and not yet delivered is late (the scheduler's target is to start within a minute). */
export const LATE_AFTER_SECONDS = 60;

/**
 * What one delivery step ended with, as the engine writes it: `published` (live), `retry` (queued again after a
 * transient failure), `ambiguous` (outcome unknown, to be reconciled), `rejected` and `retries_exhausted` (failed for
 * good), `needs_attention` (manual resolution), `deferred` (the account or network could not be asked; nothing sent).
 */
export const DELIVERY_OUTCOMES = [
  'published',
  'retry',
  'ambiguous',
  'rejected',
  'retries_exhausted',
  'needs_attention',
  'deferred',
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/**
 * The scheduler's gauges, read at scrape through the due index (`next_action_at <= now()`): renditions due and not
 * claimed, due for over a minute (late, claimed or not), claimed (a live lease); the deliveries queue depth (all of
 * them); and a counter of delivery outcomes. Returns the counting function for the worker.
 */
export function watchScheduler(metrics: Metrics, dataSource: DataSource): (outcome: DeliveryOutcome) => void {
  const due = metrics.gauge('scheduler_due_renditions', 'Renditions due now that no scheduler has claimed yet.');
  const late = metrics.gauge(
    'scheduler_late_renditions',
    `Renditions due more than ${LATE_AFTER_SECONDS} s ago and not delivered yet (claimed or not).`,
  );
  const claimed = metrics.gauge('scheduler_claimed_renditions', 'Renditions a scheduler holds under a live lease (being delivered).');
  const depth = jobQueueDepthGauge(metrics);
  const outcomes = metrics.counter(
    'scheduler_delivery_outcomes_total',
    'Delivery steps by outcome (published, retry, ambiguous, rejected, ...).',
    ['outcome'],
  );
  // Every outcome from 0, so a rate is defined before the first one happens.
  for (const outcome of DELIVERY_OUTCOMES) outcomes.inc({ outcome }, 0);
  metrics.onScrape('scheduler', async () => {
    const [row] = await scrapeQuery<{ due: number; late: number; claimed: number; total: number }>(
      dataSource,
      `SELECT count(*) FILTER (WHERE lease_expires_at IS NULL OR lease_expires_at < now())::int AS due,
              count(*) FILTER (WHERE next_action_at < now() - interval '${LATE_AFTER_SECONDS} seconds')::int AS late,
              count(*) FILTER (WHERE lease_expires_at >= now())::int AS claimed,
              count(*)::int AS total
         FROM renditions WHERE next_action_at <= now()`,
    );
    due.set(row.due);
    late.set(row.late);
    claimed.set(row.claimed);
    depth.set({ queue: 'publishing_deliveries' }, row.total);
  });
  return (outcome) => outcomes.inc({ outcome });
}
