import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateSocialSetRequest,
  ListSocialSetsQuery,
  ReplaceSocialSetRequest,
  SocialSet,
  SocialSetOperations,
  SocialSetList,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Social sets')
@ApiBearerAuth()
@Controller('social-sets')
export class SocialSetsController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({
    summary: 'Create a social set (editors): a named, ordered group of active accounts of one workspace',
    description:
      'At most 100 accounts per set and 200 sets per workspace (409 `too_many_social_sets`). ' +
      'A name used by another set of the workspace, ignoring case, is 409 `duplicate_name`.',
  })
  @Returns(SocialSet, 201)
  @Refuses(400, 403, 409, 413, 415, 422, 'duplicate_name', 'too_many_social_sets')
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateSocialSetRequest)) body: CreateSocialSetRequest,
  ): Promise<SocialSet> {
    const set = await this.forward.send(SocialSetOperations.create, req, { body });
    reply.header('location', `/social-sets/${set.id}`);
    return set;
  }

  @Get()
  @ApiOperation({ summary: "The workspace's social sets, by name" })
  @Returns(SocialSetList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListSocialSetsQuery)) query: ListSocialSetsQuery): Promise<SocialSetList> {
    return this.forward.send(SocialSetOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One social set' })
  @Returns(SocialSet)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<SocialSet> {
    return this.forward.send(SocialSetOperations.get, req, { params: { id } });
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Replace a social set (editors): its name, default flag and members',
    description: 'Members that stay keep their per-account defaults; `display_order` follows the order sent, from 0.',
  })
  @Returns(SocialSet)
  @Refuses(400, 403, 404, 409, 413, 415, 422)
  replace(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(ReplaceSocialSetRequest)) body: ReplaceSocialSetRequest,
  ): Promise<SocialSet> {
    return this.forward.send(SocialSetOperations.replace, req, { params: { id }, body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a social set (editors); its accounts stay connected' })
  @ReturnsNothing()
  @Refuses(403, 404)
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(SocialSetOperations.delete, req, { params: { id } });
  }
}
