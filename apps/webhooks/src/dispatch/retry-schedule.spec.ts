import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from '../config.js';
import { MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from './retry-schedule.js';

describe('retry schedule', () => {
  it('waits 5 s, 30 s, 2 min, 10 min, 1 h, 3 h, 8 h, then gives up after the 8th attempt', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, attempt, MAX_ATTEMPTS));
    expect(delays).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, 10_800_000, 28_800_000, null]);
  });

  it('lets a longer Retry-After replace a step, up to an hour', () => {
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, 1, MAX_ATTEMPTS, 60_000)).toBe(60_000);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, 1, MAX_ATTEMPTS, 5 * 3_600_000)).toBe(3_600_000);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, 2, MAX_ATTEMPTS, 1_000)).toBe(30_000);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, 7, MAX_ATTEMPTS, 3_600_000)).toBe(28_800_000);
  });

  it('gives a redelivered delivery exactly its one extra attempt', () => {
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, 9, 9)).toBeNull();
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, 3, 4)).toBe(120_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('takes the first steps from WEBHOOK_RETRY_SCHEDULE_MS and keeps the rest', () => {
    expect(parseRetrySchedule('100,200', 'X')).toEqual([100, 200, 120_000, 600_000, 3_600_000, 10_800_000, 28_800_000]);
    expect(parseRetrySchedule(undefined, 'X')).toEqual(DEFAULT_RETRY_SCHEDULE_MS);
    expect(() => parseRetrySchedule('1,2,3,4,5,6,7,8', 'X')).toThrow(/at most 7/);
    expect(() => parseRetrySchedule('-1', 'X')).toThrow();
  });
});
