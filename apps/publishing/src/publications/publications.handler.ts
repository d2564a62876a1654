import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreatePublicationRequest,
  HttpReply,
  ListPublicationsQuery,
  Publication,
  PublicationList,
  PublishingPatterns,
  RpcRequest,
  UpdatePublicationRequest,
} from '@social/contracts';
import { idempotencyKeyOf, pathId, requirePrincipal, validateInput } from '@social/platform';
import { PublicationsService } from './publications.service.js';

type ById<Body = unknown> = RpcRequest<Body, unknown, { id: string }>;

@Controller()
export class PublicationsHandler {
  constructor(private readonly publications: PublicationsService) {}

  /** Answers an HttpReply: 201 when created, the first answer again (marked replayed) for a repeated Idempotency-Key. */
  @MessagePattern(PublishingPatterns.createPublication)
  create(@Payload() req: RpcRequest): Promise<HttpReply<Publication>> {
    const principal = requirePrincipal(req);
    const input = validateInput(CreatePublicationRequest, req.body, 'body');
    return this.publications.create(principal, input, idempotencyKeyOf(req.idempotencyKey));
  }

  @MessagePattern(PublishingPatterns.listPublications)
  list(@Payload() req: RpcRequest): Promise<PublicationList> {
    return this.publications.list(requirePrincipal(req), validateInput(ListPublicationsQuery, req.query, 'query'));
  }

  @MessagePattern(PublishingPatterns.getPublication)
  get(@Payload() req: ById): Promise<Publication> {
    return this.publications.get(requirePrincipal(req), pathId(req.params.id));
  }

  @MessagePattern(PublishingPatterns.updatePublication)
  update(@Payload() req: ById): Promise<Publication> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id);
    return this.publications.update(principal, id, validateInput(UpdatePublicationRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.deletePublication)
  async delete(@Payload() req: ById): Promise<null> {
    await this.publications.delete(requirePrincipal(req), pathId(req.params.id));
    return null;
  }
}
