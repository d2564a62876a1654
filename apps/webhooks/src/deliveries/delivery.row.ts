import type { WebhookDelivery, WebhookDeliveryStatus } from '@social/contracts';
import type { EntityManager } from 'typeorm';

/** A row of `webhook_deliveries` as the log shows it. */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number;
  last_error: string;
  next_attempt_at: Date | null;
  created_at: Date;
}

export const DELIVERY_COLUMNS = `id, webhook_id, event_id, event_type, status, attempts, last_status_code, last_error, next_attempt_at,
  created_at`;

export function toWebhookDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_type: row.event_type,
    event_id: row.event_id,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    created_at: new Date(row.created_at).toISOString(),
    next_attempt_at: row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
  };
}

/** The LISTEN/NOTIFY channel that wakes the dispatchers of a schema (a new or redelivered delivery is due). */
export const deliveriesChannel = (schema: string): string => `webhook_deliveries:${schema}`;

/** Wakes every replica's dispatcher when the caller's transaction commits. */
export async function wakeDispatchers(db: EntityManager): Promise<void> {
  await db.query(`SELECT pg_notify($1 || current_schema(), '')`, [deliveriesChannel('')]);
}

/** The body every attempt of an event sends, byte for byte (contract §10: `{type, timestamp, workspace_id, data}`). */
export function eventBody(type: string, workspaceId: string, data: unknown, at: Date): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), workspace_id: workspaceId, data });
}
