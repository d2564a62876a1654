import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  DeliveryAttemptList,
  Publication,
  PublicationTransitionRequest,
  PublishingPatterns,
  PublishNowRequest,
  RpcRequest,
  SchedulePublicationRequest,
} from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { DeliveryOperations } from './delivery-operations.service.js';

type ById = RpcRequest<unknown, unknown, { id: string }>;

/** Contract §4 "Delivery": the transitions of a publication and its attempts. */
@Controller()
export class DeliveryHandler {
  constructor(private readonly delivery: DeliveryOperations) {}

  @MessagePattern(PublishingPatterns.schedulePublication)
  schedule(@Payload() req: ById): Promise<Publication> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id);
    return this.delivery.schedule(principal, id, validateInput(SchedulePublicationRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.publishPublicationNow)
  publishNow(@Payload() req: ById): Promise<Publication> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id);
    return this.delivery.publishNow(principal, id, validateInput(PublishNowRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.cancelPublication)
  cancel(@Payload() req: ById): Promise<Publication> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id);
    return this.delivery.cancel(principal, id, validateInput(PublicationTransitionRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.retryPublication)
  retry(@Payload() req: ById): Promise<Publication> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id);
    return this.delivery.retry(principal, id, validateInput(PublicationTransitionRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.listDeliveries)
  deliveries(@Payload() req: ById): Promise<DeliveryAttemptList> {
    return this.delivery.deliveries(requirePrincipal(req), pathId(req.params.id));
  }
}
