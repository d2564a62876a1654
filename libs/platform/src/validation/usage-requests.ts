import { MAX_USAGE_USER_IDS } from '@social/contracts';
import { problems } from '../problems/problem.js';
import { isUuid } from './validate.js';

/** The `user_ids` of a `<service>.usage.for-users` request (the admin service's, over NATS), checked once for every reporting service. */
export function usageUserIds(userIds: unknown): string[] {
  if (!Array.isArray(userIds) || userIds.length > MAX_USAGE_USER_IDS || !userIds.every(isUuid)) {
    throw problems.invalid('user_ids', `must be at most ${MAX_USAGE_USER_IDS} user ids`);
  }
  return userIds;
}

/** The `days` of a `<service>.usage.totals` request: a trend window of 1 to 366 UTC days. */
export function usageTrendDays(days: unknown): number {
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 366) throw problems.invalid('days', 'must be 1 to 366');
  return days;
}
