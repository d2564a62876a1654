/** What one event source hands the dispatcher: one message for a set of recipients. */
export interface OutgoingNotification {
  topic: string;
  /** The workspace it concerns (purged with it); null for account topics. */
  workspaceId: string | null;
  /** The organization it concerns when there is no workspace (purged with it). */
  organizationId?: string | null;
  recipients: string[];
  title: string;
  body: string;
  /** A path of this API (`/publications/…`) or a network's URL; "" for none. */
  link: string;
  /** When it happened (RFC 3339); its in-app time unless a mute holds it. */
  occurredAt?: string;
}
