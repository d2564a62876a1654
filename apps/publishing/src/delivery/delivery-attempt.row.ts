/** What an attempt ended with: the CHECK of `delivery_attempts.outcome`, DeliveryAttempt's `outcome` in the contract. */
export const ATTEMPT_OUTCOMES = ['submitted', 'live', 'retry', 'rejected', 'ambiguous'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** One network call of a rendition (`delivery_attempts`), read and written in SQL by the scheduler. */
export interface DeliveryAttemptRow {
  id: string;
  rendition_id: string;
  attempt: number;
  started_at: Date;
  finished_at: Date | null;
  outcome: AttemptOutcome;
  error_code: string;
  error_message: string;
  http_status: number;
}
