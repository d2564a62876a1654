import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';

const UUID_MESSAGE = { message: '$property must be a UUID' };

/** The events a webhook may subscribe to (contract §10); `*` is every one of them, present and future. */
export const WEBHOOK_EVENT_TYPES = [
  'publication.published',
  'publication.failed',
  'rendition.published',
  'rendition.failed',
  'rendition.needs_attention',
  'account.needs_attention',
  'media.ready',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What a subscription may name: an event type or `*`. */
export const WEBHOOK_EVENT_FILTERS = [...WEBHOOK_EVENT_TYPES, '*'] as const;
/** The event POST /webhooks/{id}/test sends; no subscription names it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
export const WEBHOOK_URL_MAX_LENGTH = 2000;
/** Subscriptions are a short list of integrations, not a directory (409 `too_many_webhooks` beyond). */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const WEBHOOK_DELIVERIES_PAGE_DEFAULT = 50;
export const WEBHOOK_DELIVERIES_PAGE_MAX = 100;

const URL_DESCRIPTION =
  'https only, on a public address (loopback, private and link-local ones are refused), unless WEBHOOK_ALLOWED_ORIGINS lists its origin';
const EVENTS_DESCRIPTION = 'at least one; `*` subscribes to every event';

export class ListWebhooksQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;
}

export class CreateWebhookRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ maxLength: WEBHOOK_URL_MAX_LENGTH, description: URL_DESCRIPTION })
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_FILTERS, minItems: 1, description: EVENTS_DESCRIPTION })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_FILTERS.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_FILTERS, { each: true, message: `each value in $property must be one of: ${WEBHOOK_EVENT_FILTERS.join(', ')}` })
  events: string[];

  @ApiPropertyOptional({ maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH, default: '' })
  @Optional()
  @IsString()
  @MaxLength(WEBHOOK_DESCRIPTION_MAX_LENGTH)
  description?: string;
}

/** PATCH: only the members sent change; `active: true` revives a deactivated webhook (its failure streak starts again). */
export class UpdateWebhookRequest {
  @ApiPropertyOptional({ maxLength: WEBHOOK_URL_MAX_LENGTH, description: URL_DESCRIPTION })
  @Optional()
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url?: string;

  @ApiPropertyOptional({ type: [String], enum: WEBHOOK_EVENT_FILTERS, minItems: 1, description: EVENTS_DESCRIPTION })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_FILTERS.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_FILTERS, { each: true, message: `each value in $property must be one of: ${WEBHOOK_EVENT_FILTERS.join(', ')}` })
  events?: string[];

  @ApiPropertyOptional({ maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH })
  @Optional()
  @IsString()
  @MaxLength(WEBHOOK_DESCRIPTION_MAX_LENGTH)
  description?: string;

  @ApiPropertyOptional({ description: 'false pauses deliveries; true resumes them' })
  @Optional()
  @IsBoolean()
  active?: boolean;
}

export class Webhook {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_FILTERS }) events: string[];
  @ApiProperty({ description: '"" when none was given' }) description: string;
  @ApiProperty({ description: 'false when paused or deactivated after 3 days of failing deliveries' }) active: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** Create and rotate-secret: the signing secret, shown this once. */
export class WebhookCreated {
  @ApiProperty({ description: '`whsec_` + base64 of 32 random bytes (Standard Webhooks); shown only here' }) secret: string;
  @ApiProperty({ type: Webhook }) item: Webhook;
}

export class WebhookList {
  @ApiProperty({ type: [Webhook], description: 'oldest first' }) webhooks: Webhook[];
}

export class ListWebhookDeliveriesQuery {
  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: WEBHOOK_DELIVERIES_PAGE_MAX, default: WEBHOOK_DELIVERIES_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(WEBHOOK_DELIVERIES_PAGE_MAX)
  limit?: number;
}

export class WebhookDelivery {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'the event type, e.g. `publication.published` or `webhook.test`' }) event_type: string;
  @ApiProperty({ format: 'uuid', description: 'the `webhook-id` header: the same on every attempt' }) event_id: string;
  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES }) status: string;
  @ApiProperty({ type: 'integer', description: 'attempts made, redeliveries included' }) attempts: number;
  @ApiProperty({ type: 'integer', description: "the receiver's last HTTP status; 0 before any answer" }) last_status_code: number;
  @ApiProperty({ description: 'why the last attempt failed; "" when it did not' }) last_error: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null when no attempt is due' })
  next_attempt_at: string | null;
}

export class WebhookDeliveryList {
  @ApiProperty({ type: [WebhookDelivery], description: 'newest first' }) deliveries: WebhookDelivery[];
  @ApiProperty({ description: '"" on the last page' }) next_cursor: string;
}

/** 202 of redeliver and test: the delivery that will make the attempt. */
export class WebhookDeliveryQueued {
  @ApiProperty({ type: WebhookDelivery }) delivery: WebhookDelivery;
}

// ---- service to service (webhooks asks the owners for the resource an event concerns) ----

/** Which resource: `publishing.resources.read` answers publications, renditions and social accounts. */
export const WEBHOOK_RESOURCE_KINDS = ['publication', 'rendition', 'social_account'] as const;

export class ReadResourceRequest {
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @IsIn(WEBHOOK_RESOURCE_KINDS)
  kind: string;

  @IsUUID('all', UUID_MESSAGE)
  id: string;
}

export class ReadMediaItemRequest {
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @IsUUID('all', UUID_MESSAGE)
  media_id: string;
}

/** The resource as the API shows it, or null when it is gone (or another workspace's). */
export interface ResourceAnswer {
  resource: object | null;
}
