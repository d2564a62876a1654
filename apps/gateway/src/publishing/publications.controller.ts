import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreatePublicationRequest,
  HttpReply,
  ListPublicationsQuery,
  Publication,
  PublicationList,
  PublishingPatterns,
  UpdatePublicationRequest,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AcceptsIdempotencyKey, unwrapHttpReply } from '../http/http-reply.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Publications')
@ApiBearerAuth()
@Controller('publications')
export class PublicationsController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({ summary: 'E15: create a draft publication (editors)' })
  @AcceptsIdempotencyKey()
  @Returns(Publication, 201)
  @Refuses(400, 403, 413, 415, 422)
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreatePublicationRequest)) body: CreatePublicationRequest,
  ): Promise<Publication> {
    const answer = await this.forward.send<HttpReply<Publication>>(PublishingPatterns.createPublication, req, { body });
    const publication = unwrapHttpReply(reply, answer);
    reply.header('location', `/publications/${publication.id}`);
    return publication;
  }

  @Get()
  @ApiOperation({ summary: "The workspace's publications, newest first, a page at a time" })
  @Returns(PublicationList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListPublicationsQuery)) query: ListPublicationsQuery): Promise<PublicationList> {
    return this.forward.send(PublishingPatterns.listPublications, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One publication, with its segments and renditions' })
  @Returns(Publication)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<Publication> {
    return this.forward.send(PublishingPatterns.getPublication, req, { params: { id } });
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Change a draft or scheduled publication (editors): members sent replace the stored ones, `segments` the whole list. ' +
      'A stale expected_revision is 409 revision_conflict (with current_revision), another status 409 publication_not_editable; nothing changes',
  })
  @Returns(Publication)
  @Refuses(400, 403, 404, 409, 413, 415, 422)
  update(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(UpdatePublicationRequest)) body: UpdatePublicationRequest,
  ): Promise<Publication> {
    return this.forward.send(PublishingPatterns.updatePublication, req, { params: { id }, body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a publication with its segments and renditions (editors)' })
  @ReturnsNothing()
  @Refuses(403, 404)
  async delete(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(PublishingPatterns.deletePublication, req, { params: { id } });
  }
}
