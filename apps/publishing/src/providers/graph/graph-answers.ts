import { pick } from '../oauth/oauth-network.js';
import { count } from '../post-metrics-reads.js';

/** A count Graph answered (the networks' one definition, re-exported for the Graph adapters). */
export { count };

/** Text as a network may have reflowed it: runs of white space one space, no edges (for matching a post to what was sent). */
export const normalize = (value: string) => value.replace(/\s+/g, ' ').trim();

/**
 * The metric `name` of an insights answer (`{"data": [{"name", "values": [{"value"}]} | {"name", "total_value": {"value"}}]}`):
 * the first period's value, else the total; 0 when the answer does not hold it.
 */
export function insightValue(body: unknown, name: string): number {
  const data = pick(body, 'data');
  const metric = Array.isArray(data) ? data.find((item) => pick(item, 'name') === name) : undefined;
  return count(pick(metric, 'values', 0, 'value') ?? pick(metric, 'total_value', 'value'));
}
