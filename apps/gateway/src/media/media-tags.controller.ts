import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateMediaTagRequest,
  ListMediaTagsQuery,
  MediaTag,
  MediaTagList,
  MediaTagOperations,
  UpdateMediaTagRequest,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Media')
@ApiBearerAuth()
@Controller('media/tags')
export class MediaTagsController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({
    summary: 'Create a media tag (editors)',
    description:
      'Names 1–64, unique in the workspace ignoring case (409 `duplicate_name`); at most 1,000 tags per workspace (409 ' +
      '`too_many_media_tags`).',
  })
  @Returns(MediaTag, 201)
  @Refuses(400, 403, 409, 413, 415, 422, 'duplicate_name', 'too_many_media_tags')
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateMediaTagRequest)) body: CreateMediaTagRequest,
  ): Promise<MediaTag> {
    const tag = await this.forward.send(MediaTagOperations.create, req, { body });
    reply.header('location', `/media/tags/${tag.id}`);
    return tag;
  }

  @Get()
  @ApiOperation({ summary: "The workspace's media tags, by name ignoring case, with how many ready items carry each" })
  @Returns(MediaTagList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListMediaTagsQuery)) query: ListMediaTagsQuery): Promise<MediaTagList> {
    return this.forward.send(MediaTagOperations.list, req, { query: { ...query } });
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a media tag (editors); 409 `duplicate_name`' })
  @Returns(MediaTag)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'duplicate_name')
  rename(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(UpdateMediaTagRequest)) body: UpdateMediaTagRequest,
  ): Promise<MediaTag> {
    return this.forward.send(MediaTagOperations.update, req, { params: { id }, body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a media tag (editors); items lose it' })
  @ReturnsNothing()
  @Refuses(403, 404)
  async delete(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(MediaTagOperations.delete, req, { params: { id } });
  }
}
