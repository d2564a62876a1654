/**
 * A service's answer that decides its own HTTP status and headers, for
 * operations whose success varies: an idempotent replay (the first answer
 * again, marked `Idempotent-Replayed: true`), a connect that creates an
 * account (201) or sends the user to a network (200), a callback that creates
 * (201) or refreshes (200), or E17's 201 / 200 when it deduplicates. The
 * gateway controller unwraps it; every other operation answers its body alone.
 */
export interface HttpReply<T> {
  status: number;
  body: T;
  /** True when `body` is the stored answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/** The request header of docs/decisions.md (E15, E17) and the response header a replay carries. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** Interface limits: `Idempotency-Key` length <= 200. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
