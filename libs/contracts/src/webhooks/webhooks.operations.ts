import { nothing, operation } from '../common/operation.js';
import {
  CreateWebhookRequest,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookRequest,
  Webhook,
  WebhookCreated,
  WebhookDeliveryList,
  WebhookDeliveryQueued,
  WebhookList,
} from './webhooks.dto.js';

const NO_SUCH_WEBHOOK = 'No such webhook.';

/** Webhook subscriptions, their delivery log and redelivery (webhooks service); workspace admins only. */
export const WebhookOperations = {
  create: operation({ subject: 'webhooks.webhooks.create', body: CreateWebhookRequest, answer: WebhookCreated }),
  list: operation({ subject: 'webhooks.webhooks.list', query: ListWebhooksQuery, answer: WebhookList }),
  get: operation({ subject: 'webhooks.webhooks.get', params: { id: NO_SUCH_WEBHOOK }, answer: Webhook }),
  update: operation({ subject: 'webhooks.webhooks.update', params: { id: NO_SUCH_WEBHOOK }, body: UpdateWebhookRequest, answer: Webhook }),
  delete: operation({ subject: 'webhooks.webhooks.delete', params: { id: NO_SUCH_WEBHOOK }, answer: nothing }),
  rotateSecret: operation({ subject: 'webhooks.webhooks.rotate-secret', params: { id: NO_SUCH_WEBHOOK }, answer: WebhookCreated }),
  test: operation({ subject: 'webhooks.webhooks.test', params: { id: NO_SUCH_WEBHOOK }, answer: WebhookDeliveryQueued }),
  listDeliveries: operation({
    subject: 'webhooks.deliveries.list',
    params: { id: NO_SUCH_WEBHOOK },
    query: ListWebhookDeliveriesQuery,
    answer: WebhookDeliveryList,
  }),
  redeliver: operation({
    subject: 'webhooks.deliveries.redeliver',
    params: { id: NO_SUCH_WEBHOOK, delivery_id: 'No such delivery.' },
    answer: WebhookDeliveryQueued,
  }),
};
