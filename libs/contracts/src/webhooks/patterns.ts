/** NATS subjects of the webhooks service (`<service>.<feature>.<verb>`); its HTTP operations are in `webhooks.operations.ts`. */
export const WEBHOOKS_SERVICE = 'webhooks';

/**
 * Durable (webhooks' outbox): a webhook whose deliveries kept failing was set `active: false` →
 * WebhookDeactivatedEvent (notifications tells the workspace's admins).
 */
export const WEBHOOK_DEACTIVATED_SUBJECT = 'durable.webhooks.webhook.deactivated';

/** Payload of WEBHOOK_DEACTIVATED_SUBJECT. */
export interface WebhookDeactivatedEvent {
  workspace_id: string;
  webhook_id: string;
  url: string;
  /** RFC 3339: the first failed attempt of the streak that ended it. */
  failing_since: string;
  /** RFC 3339. */
  occurred_at: string;
}
