import type { Webhook } from '@social/contracts';

/** A row of `webhooks` as the service reads it (hand-written SQL). */
export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  events: string[];
  description: string;
  active: boolean;
  secret: string;
  previous_secret: string;
  previous_secret_until: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const WEBHOOK_COLUMNS = `id, workspace_id, url, events, description, active, secret, previous_secret, previous_secret_until,
  failing_since, created_at, updated_at`;

/** The one place a webhook becomes its published shape (never its secrets). */
export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    url: row.url,
    events: row.events,
    description: row.description,
    active: row.active,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
