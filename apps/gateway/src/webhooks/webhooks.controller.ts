import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
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
  WebhookOperations,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

const ADMINS_ONLY = "Workspace admins only (others 403); another workspace's webhook is 404.";

@ApiTags('Webhooks')
@ApiBearerAuth()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({
    summary: 'Subscribe a URL to events of a workspace; the signing secret is shown once',
    description:
      `${ADMINS_ONLY} The URL must be https and must not resolve to a loopback, private or link-local address, unless ` +
      'WEBHOOK_ALLOWED_ORIGINS lists its origin (422 at body.url). Deliveries follow the Standard Webhooks specification: ' +
      '`webhook-id`, `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with the secret, `whsec_…`). ' +
      'At most 20 webhooks per workspace (409 `too_many_webhooks`).',
  })
  @Returns(WebhookCreated, 201)
  @Refuses(400, 403, 409, 413, 415, 422, 'too_many_webhooks')
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateWebhookRequest)) body: CreateWebhookRequest,
  ): Promise<WebhookCreated> {
    const created = await this.forward.send(WebhookOperations.create, req, { body });
    reply.header('location', `/webhooks/${created.item.id}`);
    return created;
  }

  @Get()
  @ApiOperation({ summary: "The workspace's webhooks, oldest first", description: ADMINS_ONLY })
  @Returns(WebhookList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListWebhooksQuery)) query: ListWebhooksQuery): Promise<WebhookList> {
    return this.forward.send(WebhookOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook (never its secret)', description: ADMINS_ONLY })
  @Returns(Webhook)
  @Refuses(403, 404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<Webhook> {
    return this.forward.send(WebhookOperations.get, req, { params: { id } });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a webhook: the members sent replace the stored ones',
    description: `${ADMINS_ONLY} \`active: true\` resumes a paused or deactivated webhook (its failure streak starts over).`,
  })
  @Returns(Webhook)
  @Refuses(400, 403, 404, 413, 415, 422)
  update(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(UpdateWebhookRequest)) body: UpdateWebhookRequest,
  ): Promise<Webhook> {
    return this.forward.send(WebhookOperations.update, req, { params: { id }, body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a webhook and its delivery log; nothing more is sent to it', description: ADMINS_ONLY })
  @ReturnsNothing()
  @Refuses(403, 404)
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(WebhookOperations.delete, req, { params: { id } });
  }

  @Post(':id/rotate-secret')
  @ApiOperation({
    summary: 'Replace the signing secret; the old one keeps signing beside it for 24 hours',
    description: `${ADMINS_ONLY} During the overlap \`webhook-signature\` carries two signatures, space-separated.`,
  })
  @Returns(WebhookCreated)
  @Refuses(403, 404)
  rotateSecret(@Req() req: FastifyRequest, @Param('id') id: string): Promise<WebhookCreated> {
    return this.forward.send(WebhookOperations.rotateSecret, req, { params: { id } });
  }

  @Post(':id/test')
  @ApiOperation({
    summary: 'Send a `webhook.test` event (`data` `{webhook_id}`) to this webhook',
    description: `${ADMINS_ONLY} Delivered, logged and retried like any other event; 409 \`webhook_inactive\` when the webhook is off.`,
  })
  @Returns(WebhookDeliveryQueued, 202)
  @Refuses(403, 404, 'webhook_inactive')
  test(@Req() req: FastifyRequest, @Param('id') id: string): Promise<WebhookDeliveryQueued> {
    return this.forward.send(WebhookOperations.test, req, { params: { id } });
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: "The webhook's delivery log, newest first",
    description:
      `${ADMINS_ONLY} One delivery per event: \`event_id\` is its \`webhook-id\`. Failed attempts are retried after 5 s, 30 s, 2 min, ` +
      '10 min, 1 h, 3 h and 8 h (8 attempts; a longer Retry-After, up to 1 h, replaces a step), then the delivery is `failed`.',
  })
  @Returns(WebhookDeliveryList)
  @Refuses(403, 404, 422)
  listDeliveries(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Query(new ValidQuery(ListWebhookDeliveriesQuery)) query: ListWebhookDeliveriesQuery,
  ): Promise<WebhookDeliveryList> {
    return this.forward.send(WebhookOperations.listDeliveries, req, { params: { id }, query: { ...query } });
  }

  @Post(':id/deliveries/:delivery_id/redeliver')
  @ApiOperation({
    summary: 'One more attempt of a delivery now, with the same `webhook-id` and body',
    description: `${ADMINS_ONLY} Counted in \`attempts\`; no retries follow it. 409 \`webhook_inactive\` when the webhook is off.`,
  })
  @Returns(WebhookDeliveryQueued, 202)
  @Refuses(403, 404, 'webhook_inactive')
  redeliver(@Req() req: FastifyRequest, @Param('id') id: string, @Param('delivery_id') deliveryId: string): Promise<WebhookDeliveryQueued> {
    return this.forward.send(WebhookOperations.redeliver, req, { params: { id, delivery_id: deliveryId } });
  }
}
