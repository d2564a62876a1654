import {
  ACCOUNT_NEEDS_ATTENTION_SUBJECT,
  MEDIA_ITEM_ANALYSED_SUBJECT,
  PUBLICATION_FAILED_SUBJECT,
  PUBLICATION_PUBLISHED_SUBJECT,
  RENDITION_FAILED_SUBJECT,
  RENDITION_NEEDS_ATTENTION_SUBJECT,
  RENDITION_PUBLISHED_SUBJECT,
  type WebhookEventType,
} from '@social/contracts';
import { isUuid } from '@social/platform';

/** Where the resource of an event's `data` is read: publishing's resource reads, or media's library. */
export type ResourceRef =
  { owner: 'publishing'; kind: 'publication' | 'rendition' | 'social_account'; id: string } | { owner: 'media'; id: string };

/** A platform event as webhooks sends it. */
export interface WebhookEventSource {
  type: WebhookEventType;
  workspaceId: string;
  resource: ResourceRef;
  /** Events of one key are sent in the order they happened (one publication's, one account's, one item's). */
  orderingKey: string;
  /** One event of this key makes deliveries once, whatever the redeliveries. */
  dedupeKey: string;
  occurredAt: Date;
}

type Payload = Record<string, unknown>;

/** How each durable subject becomes a webhook event: its type and the resource it is about. */
const BY_SUBJECT: Record<string, (payload: Payload) => Pick<WebhookEventSource, 'type' | 'resource' | 'orderingKey'> | null> = {
  [RENDITION_PUBLISHED_SUBJECT]: (p) => rendition('rendition.published', p),
  [RENDITION_FAILED_SUBJECT]: (p) => rendition('rendition.failed', p),
  [RENDITION_NEEDS_ATTENTION_SUBJECT]: (p) => rendition('rendition.needs_attention', p),
  [PUBLICATION_PUBLISHED_SUBJECT]: (p) => publication('publication.published', p),
  [PUBLICATION_FAILED_SUBJECT]: (p) => publication('publication.failed', p),
  [ACCOUNT_NEEDS_ATTENTION_SUBJECT]: (p) =>
    uuid(p.social_account_id)
      ? {
          type: 'account.needs_attention',
          resource: { owner: 'publishing', kind: 'social_account', id: p.social_account_id },
          orderingKey: `account:${p.social_account_id}`,
        }
      : null,
  // Analysis ended (ready or failed) or the public URL changed: only a ready, analysed item is `media.ready`.
  [MEDIA_ITEM_ANALYSED_SUBJECT]: (p) =>
    uuid(p.id) && p.status === 'ready' && p.analysis_status !== 'pending'
      ? { type: 'media.ready', resource: { owner: 'media', id: p.id }, orderingKey: `media:${p.id}` }
      : null,
};

const uuid = (value: unknown): value is string => typeof value === 'string' && isUuid(value);

function rendition(type: WebhookEventType, p: Payload) {
  if (!uuid(p.rendition_id) || !uuid(p.publication_id)) return null;
  return {
    type,
    resource: { owner: 'publishing', kind: 'rendition', id: p.rendition_id } as const,
    orderingKey: `publication:${p.publication_id}`,
  };
}

function publication(type: WebhookEventType, p: Payload) {
  if (!uuid(p.publication_id)) return null;
  return {
    type,
    resource: { owner: 'publishing', kind: 'publication', id: p.publication_id } as const,
    orderingKey: `publication:${p.publication_id}`,
  };
}

/** The webhook event a durable event makes, or null (a subject or a payload webhooks do not send). */
export function webhookEventOf(subject: string, payload: unknown, eventId: string): WebhookEventSource | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as Payload;
  const mapped = BY_SUBJECT[subject]?.(p);
  if (!mapped || !uuid(p.workspace_id)) return null;
  const occurred = typeof p.occurred_at === 'string' ? new Date(p.occurred_at) : new Date();
  return {
    ...mapped,
    workspaceId: p.workspace_id.toLowerCase(),
    // An item is ready once: a later analysed event (its public URL checked again) is not a second media.ready.
    dedupeKey: mapped.type === 'media.ready' ? `media.ready:${mapped.resource.id}` : eventId,
    occurredAt: Number.isNaN(occurred.getTime()) ? new Date() : occurred,
  };
}
