import type { PostMetrics } from './social-provider.js';

/** A count a network answered: a non-negative number, else 0 (a metric it has no data for yet is absent or null). */
export const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0);

/** Posts whose metrics are read at once (insights asks for up to 100 posts in one call). */
const POST_READS_IN_FLIGHT = 6;

/**
 * The metrics of `externalIds` for a network that answers one post per request: `read` asks for one post,
 * POST_READS_IN_FLIGHT at a time, and the answers keep the order asked. A post `read` answers undefined for (the
 * network no longer shows it) is left out; the first failure fails the call, and the other reads stop taking posts.
 */
export async function readPostsMetrics(
  externalIds: string[],
  read: (externalId: string) => Promise<PostMetrics | undefined>,
): Promise<PostMetrics[]> {
  const metrics: Array<PostMetrics | undefined> = new Array(externalIds.length);
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < externalIds.length) {
      const index = next++;
      try {
        metrics[index] = await read(externalIds[index]);
      } catch (error) {
        next = externalIds.length;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(POST_READS_IN_FLIGHT, externalIds.length) }, reader));
  return metrics.filter((item): item is PostMetrics => item !== undefined);
}
