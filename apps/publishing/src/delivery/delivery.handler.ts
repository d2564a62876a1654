import { Controller } from '@nestjs/common';
import { type DeliveryAttemptList, type InputOf, type Publication, PublicationOperations } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { DeliveryOperations } from './delivery-operations.service.js';

/** Contract §4 "Delivery": the transitions of a publication and its attempts. */
@Controller()
export class DeliveryHandler {
  constructor(private readonly delivery: DeliveryOperations) {}

  @Handles(PublicationOperations.schedule)
  schedule(@Input() { principal, params, body }: InputOf<typeof PublicationOperations.schedule>): Promise<Publication> {
    return this.delivery.schedule(principal, params.id, body);
  }

  @Handles(PublicationOperations.publishNow)
  publishNow(@Input() { principal, params, body }: InputOf<typeof PublicationOperations.publishNow>): Promise<Publication> {
    return this.delivery.publishNow(principal, params.id, body);
  }

  @Handles(PublicationOperations.cancel)
  cancel(@Input() { principal, params, body }: InputOf<typeof PublicationOperations.cancel>): Promise<Publication> {
    return this.delivery.cancel(principal, params.id, body);
  }

  @Handles(PublicationOperations.retry)
  retry(@Input() { principal, params, body }: InputOf<typeof PublicationOperations.retry>): Promise<Publication> {
    return this.delivery.retry(principal, params.id, body);
  }

  @Handles(PublicationOperations.listDeliveries)
  deliveries(@Input() { principal, params }: InputOf<typeof PublicationOperations.listDeliveries>): Promise<DeliveryAttemptList> {
    return this.delivery.deliveries(principal, params.id);
  }
}
