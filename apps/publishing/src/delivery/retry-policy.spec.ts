import { describe, expect, it } from '@jest/globals';
import { errorActionFor, MAX_RETRY_DELAY_MS, retryDelayMs } from './retry-policy.js';

describe('retryDelayMs', () => {
  it('doubles per attempt, between half and all of the backoff', () => {
    expect(retryDelayMs(1, 1_000, undefined, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1_000, undefined, () => 1)).toBe(1_000);
    expect(retryDelayMs(3, 1_000, undefined, () => 0)).toBe(2_000);
    expect(retryDelayMs(3, 1_000, undefined, () => 1)).toBe(4_000);
  });

  it("never goes sooner than the network's Retry-After", () => {
    expect(retryDelayMs(1, 100, 1_000, () => 1)).toBe(1_000);
    expect(retryDelayMs(2, 10_000, 1_000, () => 0)).toBe(10_000);
  });

  it('caps the backoff and stops after the fifth attempt', () => {
    expect(retryDelayMs(4, 10 * 60_000, undefined, () => 1)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(5, 1_000, undefined)).toBeNull();
  });
});

describe('errorActionFor', () => {
  it('tells what a person can do per kind', () => {
    expect(errorActionFor('auth')).toBe('reconnect_account');
    expect(errorActionFor('validation')).toBe('edit_content');
    expect(errorActionFor('capability')).toBe('choose_another_account');
    expect(errorActionFor('transient')).toBe('retry');
    expect(errorActionFor('unknown')).toBe('check_network');
  });
});
