import { Controller } from '@nestjs/common';
import {
  type InputOf,
  type Webhook,
  type WebhookCreated,
  type WebhookDeliveryList,
  type WebhookDeliveryQueued,
  type WebhookList,
  WebhookOperations,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { DeliveriesService } from '../deliveries/deliveries.service.js';
import { WebhooksService } from './webhooks.service.js';

@Controller()
export class WebhooksHandler {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Handles(WebhookOperations.create)
  create(@Input() { principal, body }: InputOf<typeof WebhookOperations.create>): Promise<WebhookCreated> {
    return this.webhooks.create(principal, body);
  }

  @Handles(WebhookOperations.list)
  list(@Input() { principal, query }: InputOf<typeof WebhookOperations.list>): Promise<WebhookList> {
    return this.webhooks.list(principal, query);
  }

  @Handles(WebhookOperations.get)
  get(@Input() { principal, params }: InputOf<typeof WebhookOperations.get>): Promise<Webhook> {
    return this.webhooks.get(principal, params.id);
  }

  @Handles(WebhookOperations.update)
  update(@Input() { principal, params, body }: InputOf<typeof WebhookOperations.update>): Promise<Webhook> {
    return this.webhooks.update(principal, params.id, body);
  }

  @Handles(WebhookOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof WebhookOperations.delete>): Promise<null> {
    await this.webhooks.delete(principal, params.id);
    return null;
  }

  @Handles(WebhookOperations.rotateSecret)
  rotateSecret(@Input() { principal, params }: InputOf<typeof WebhookOperations.rotateSecret>): Promise<WebhookCreated> {
    return this.webhooks.rotateSecret(principal, params.id);
  }

  @Handles(WebhookOperations.test)
  test(@Input() { principal, params }: InputOf<typeof WebhookOperations.test>): Promise<WebhookDeliveryQueued> {
    return this.deliveries.test(principal, params.id);
  }

  @Handles(WebhookOperations.listDeliveries)
  listDeliveries(@Input() { principal, params, query }: InputOf<typeof WebhookOperations.listDeliveries>): Promise<WebhookDeliveryList> {
    return this.deliveries.list(principal, params.id, query);
  }

  @Handles(WebhookOperations.redeliver)
  redeliver(@Input() { principal, params }: InputOf<typeof WebhookOperations.redeliver>): Promise<WebhookDeliveryQueued> {
    return this.deliveries.redeliver(principal, params.id, params.delivery_id);
  }
}
