/**
 * Durable (outbox → JetStream): something changed how a user signs in or what
 * can act for them. Enqueued in the transaction of the change; notifications
 * turns it into a `security_action` message to that user.
 */
export const SECURITY_ACTION_SUBJECT = 'durable.accounts.security-action';

export const SECURITY_ACTIONS = ['password_changed', 'passkey_added', 'passkey_removed', 'email_changed', 'api_token_created'] as const;
export type SecurityAction = (typeof SECURITY_ACTIONS)[number];

/** Payload of SECURITY_ACTION_SUBJECT. */
export interface SecurityActionEvent {
  /** uuid; the idempotency key of what consumers make from it. */
  event_id: string;
  user_id: string;
  action: SecurityAction;
  /** RFC 3339 UTC with milliseconds. */
  occurred_at: string;
  /** What the action concerns, for display: the passkey's or token's name, the new address. */
  detail?: string;
}

/** Payload of `AccountsPatterns.listContacts` (service to service). */
export interface ListContactsRequest {
  user_ids: string[];
}

export interface Contact {
  user_id: string;
  /** "" when the user is gone. */
  email: string;
  email_verified: boolean;
}

export interface ContactList {
  contacts: Contact[];
}
