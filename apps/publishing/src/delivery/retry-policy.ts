import { MAX_DELIVERY_ATTEMPTS } from '@social/contracts';

/** Longest wait between two attempts, whatever the backoff says (a Retry-After may ask for more). */
export const MAX_RETRY_DELAY_MS = 15 * 60_000;

/**
 * When to try again after the `attempt`-th try failed retryably (docs/decisions.md):
 * exponential backoff from `baseMs` with "equal jitter" (half fixed, half
 * random, so replicas that failed together do not return together), never
 * sooner than the network's Retry-After. `null` once the attempts are spent.
 */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | null {
  if (attempt >= MAX_DELIVERY_ATTEMPTS) return null;
  const backoff = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** (attempt - 1));
  const jittered = backoff / 2 + random() * (backoff / 2);
  return Math.ceil(Math.max(jittered, retryAfterMs ?? 0));
}

/** What a person can do about a failed rendition, by error kind (the rendition's `error_action`). */
export function errorActionFor(kind: string): string {
  switch (kind) {
    case 'auth':
      return 'reconnect_account';
    case 'validation':
    case 'policy':
      return 'edit_content';
    case 'capability':
      return 'choose_another_account';
    case 'transient':
      return 'retry';
    default:
      return 'check_network';
  }
}
