import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type CallerRule,
  CreatePublicationRequest,
  DeliveryAttemptList,
  PublicationTransitionRequest,
  PublishNowRequest,
  SchedulePublicationRequest,
  ListPublicationsQuery,
  type Operation,
  Publication,
  PublicationList,
  PublicationOperations,
  PreviewPublicationRequest,
  PublicationPreview,
  publicationWithBase,
  UpdatePublicationRequest,
  UpdateRenditionRequest,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { baseUrlOf } from '../http/base-url.js';
import { AcceptsIdempotencyKey, unwrapHttpReply } from '../http/http-reply.js';
import { PassedOnJson } from '../http/spliced-json.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { type ForwardParts, Forwarder } from '../rpc/forwarder.js';

@ApiTags('Publications')
@ApiBearerAuth()
@Controller('publications')
export class PublicationsController {
  constructor(
    private readonly forward: Forwarder,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Forwards an operation answering a Publication; its media URLs come back relative to {base_url}. */
  private async publication<Params extends string, Query, Body>(
    operation: Operation<CallerRule, Params, Query, Body, Publication>,
    req: FastifyRequest,
    parts: ForwardParts<Params, Query, Body>,
  ): Promise<Publication> {
    return publicationWithBase(baseUrlOf(req, this.config.PUBLIC_BASE_URL), await this.forward.send(operation, req, parts));
  }

  @Post()
  @ApiOperation({ summary: 'Create a draft publication (editors)' })
  @AcceptsIdempotencyKey()
  @Returns(Publication, 201)
  @Refuses(400, 403, 413, 415, 422)
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreatePublicationRequest)) body: CreatePublicationRequest,
  ): Promise<Publication> {
    const answer = await this.forward.send(PublicationOperations.create, req, { body });
    const publication = unwrapHttpReply(reply, answer);
    reply.header('location', `/publications/${publication.id}`);
    return publicationWithBase(baseUrlOf(req, this.config.PUBLIC_BASE_URL), publication);
  }

  @Get()
  @ApiOperation({ summary: "The workspace's publications, newest first, a page at a time" })
  @Returns(PublicationList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListPublicationsQuery)) query: ListPublicationsQuery): Promise<PassedOnJson> {
    // The heaviest page (~1 KB a publication): passed on as publishing wrote it, URLs made absolute there.
    return this.forward.passOn(PublicationOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One publication, with its segments and renditions' })
  @Returns(Publication)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<Publication> {
    return this.publication(PublicationOperations.get, req, { params: { id } });
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Change a draft or scheduled publication (editors): members sent replace the stored ones, `segments` the whole list. ' +
      'A stale expected_revision is 409 revision_conflict (with current_revision), another status 409 publication_not_editable; nothing ' +
      'changes',
  })
  @Returns(Publication)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'revision_conflict', 'publication_not_editable')
  update(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(UpdatePublicationRequest)) body: UpdatePublicationRequest,
  ): Promise<Publication> {
    return this.publication(PublicationOperations.update, req, { params: { id }, body });
  }

  @Post(':id/schedule')
  @ApiOperation({
    summary:
      'Schedule (or reschedule) a draft, ready or scheduled publication (editors): one rendition per target account, shaped for its ' +
      'network, ' +
      'due at scheduled_at plus a random 0…random_delay_minutes. Targets: social_set_id or account_ids (not both); neither keeps the ' +
      'current ones. ' +
      'scheduled_at more than 60 s past or 2 years ahead, no or bad targets, a text a network cannot take: 422. Another status: 409 ' +
      'invalid_transition; ' +
      'a stale expected_revision: 409 revision_conflict (with current_revision); nothing changes',
  })
  @Returns(Publication)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'revision_conflict', 'invalid_transition')
  schedule(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(SchedulePublicationRequest)) body: SchedulePublicationRequest,
  ): Promise<Publication> {
    return this.publication(PublicationOperations.schedule, req, { params: { id }, body });
  }

  @Post(':id/publish-now')
  @ApiOperation({
    summary:
      'Publish a draft, ready or scheduled publication now (editors): status publishing, every rendition due at once. ' +
      'Targets as for schedule; needed when the publication has none yet. 409 invalid_transition / revision_conflict as for schedule',
  })
  @Returns(Publication)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'revision_conflict', 'invalid_transition')
  publishNow(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(PublishNowRequest)) body: PublishNowRequest,
  ): Promise<Publication> {
    return this.publication(PublicationOperations.publishNow, req, { params: { id }, body });
  }

  @Post(':id/cancel')
  @ApiOperation({
    summary:
      'Cancel a scheduled publication before any delivery started (editors): back to draft, renditions removed. Another status: 409 ' +
      'invalid_transition',
  })
  @Returns(Publication)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'invalid_transition')
  cancel(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(PublicationTransitionRequest)) body: PublicationTransitionRequest,
  ): Promise<Publication> {
    return this.publication(PublicationOperations.cancel, req, { params: { id }, body });
  }

  @Post(':id/retry')
  @ApiOperation({
    summary:
      'Deliver the failed renditions of a failed (or partly failed published) publication again, each with a new round of 5 attempts ' +
      '(editors); ' +
      'the others are left as they are. Nothing failed: 409 invalid_transition',
  })
  @Returns(Publication)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'invalid_transition')
  retry(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(PublicationTransitionRequest)) body: PublicationTransitionRequest,
  ): Promise<Publication> {
    return this.publication(PublicationOperations.retry, req, { params: { id }, body });
  }

  @Patch(':id/renditions/:rendition_id')
  @ApiOperation({
    summary:
      "One account's version of a scheduled publication (editors): per segment `body_override`, `title_override`, " +
      '`description_override`, ' +
      '`url_override` ("" keeps inheriting) and `media` (media_inherited false), and the rendition\'s `settings`; the rendition shows ' +
      'the effective values. ' +
      "Segments listed replace their overrides, others keep theirs. The publication's revision + 1. Not scheduled, or the rendition " +
      'already delivering: ' +
      '409 invalid_transition; stale expected_revision: 409 revision_conflict; a media id that is not a ready item of the workspace, or ' +
      'a segment id not ' +
      "the publication's: 422 at its location; the result breaking the network's rules: 422 network_rules. Nothing changes on a refusal",
  })
  @Returns(Publication)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'revision_conflict', 'invalid_transition', 'network_rules')
  updateRendition(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Param('rendition_id') renditionId: string,
    @Body(new ValidBody(UpdateRenditionRequest)) body: UpdateRenditionRequest,
  ): Promise<Publication> {
    return this.publication(PublicationOperations.updateRendition, req, { params: { id, rendition_id: renditionId }, body });
  }

  @Post(':id/preview')
  @ApiOperation({
    summary:
      "What each target's network would receive (anyone who may read the publication): its parts after splitting, each image as " +
      'delivered ' +
      "(re-encoded without metadata, resized to the network's limits: processed width, height and size), and every network-rule problem. " +
      "Targets: social_set_id or account_ids, else the publication's renditions or social set; none: 422. Changes nothing, calls no " +
      'network',
  })
  @Returns(PublicationPreview)
  @Refuses(400, 404, 413, 415, 422)
  preview(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(PreviewPublicationRequest)) body: PreviewPublicationRequest,
  ): Promise<PublicationPreview> {
    return this.forward.send(PublicationOperations.preview, req, { params: { id }, body });
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "Every delivery attempt of the publication's renditions, oldest first" })
  @Returns(DeliveryAttemptList)
  @Refuses(404)
  deliveries(@Req() req: FastifyRequest, @Param('id') id: string): Promise<DeliveryAttemptList> {
    return this.forward.send(PublicationOperations.listDeliveries, req, { params: { id } });
  }

  @Delete(':id')
  @ApiOperation({
    summary:
      'Delete a publication with its segments, renditions and attempts (editors); not while it is publishing (409 publication_publishing)',
  })
  @ReturnsNothing()
  @Refuses(403, 404, 409, 'publication_publishing')
  async delete(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(PublicationOperations.delete, req, { params: { id } });
  }
}
