/**
 * Durable (outbox → JetStream): a connected account needs its owner — its
 * grant could not be renewed (the network refused the refresh, the app
 * password was revoked: `grant_refresh_refused`) or the network refused it
 * when publishing (`grant_rejected`), so it is now `reconnect_required` and
 * nothing is published to it until it is connected again.
 */
export const ACCOUNT_NEEDS_ATTENTION_SUBJECT = 'durable.publishing.account.needs-attention';

/** Why an account needs attention. */
export const ACCOUNT_ATTENTION_REASONS = ['grant_refresh_refused', 'grant_rejected'] as const;
export type AccountAttentionReason = (typeof ACCOUNT_ATTENTION_REASONS)[number];

/** Payload of ACCOUNT_NEEDS_ATTENTION_SUBJECT. */
export interface AccountNeedsAttentionEvent {
  workspace_id: string;
  social_account_id: string;
  platform: string;
  reason: AccountAttentionReason;
  /** RFC 3339 UTC with milliseconds. */
  occurred_at: string;
}
