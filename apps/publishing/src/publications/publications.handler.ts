import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreatePublicationRequest,
  HttpReply,
  ListPublicationsQuery,
  Publication,
  PublicationList,
  PreviewPublicationRequest,
  PublicationPreview,
  PublishingPatterns,
  RpcRequest,
  UpdatePublicationRequest,
  UpdateRenditionRequest,
} from '@social/contracts';
import { idempotencyKeyOf, pathId, requirePrincipal, validateInput } from '@social/platform';
import { PublicationPreviews } from './publication-previews.service.js';
import { PublicationsService } from './publications.service.js';
import { RenditionOverrides } from './rendition-overrides.service.js';

type ById<Body = unknown> = RpcRequest<Body, unknown, { id: string }>;
type ByRendition = RpcRequest<unknown, unknown, { id: string; rendition_id: string }>;

@Controller()
export class PublicationsHandler {
  constructor(
    private readonly publications: PublicationsService,
    private readonly renditions: RenditionOverrides,
    private readonly previews: PublicationPreviews,
  ) {}

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

  @MessagePattern(PublishingPatterns.updateRendition)
  updateRendition(@Payload() req: ByRendition): Promise<Publication> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id);
    const renditionId = pathId(req.params.rendition_id, 'No such rendition.');
    return this.renditions.update(principal, id, renditionId, validateInput(UpdateRenditionRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.previewPublication)
  preview(@Payload() req: ById): Promise<PublicationPreview> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id);
    return this.previews.preview(principal, id, validateInput(PreviewPublicationRequest, req.body, 'body'));
  }
}
