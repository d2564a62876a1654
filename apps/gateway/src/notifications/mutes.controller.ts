import { Body, Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateMuteRequest, NotificationMute, NotificationMuteList, NotificationMuteOperations } from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Notifications')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@Controller('notifications/mutes')
export class MutesController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({ summary: 'Mute notifications for a period, account-wide or for one workspace' })
  @Returns(NotificationMute, 201)
  @Refuses(400, 401, 403, 409, 413, 415, 422, 429, 503, 504)
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateMuteRequest)) body: CreateMuteRequest,
  ): Promise<NotificationMute> {
    const mute = await this.forward.send(NotificationMuteOperations.create, req, { body });
    reply.header('location', `/notifications/mutes/${mute.id}`);
    return mute;
  }

  @Get()
  @ApiOperation({ summary: "The caller's mutes that have not ended, soonest first" })
  @Returns(NotificationMuteList)
  @Refuses(401, 429, 503, 504)
  list(@Req() req: FastifyRequest): Promise<NotificationMuteList> {
    return this.forward.send(NotificationMuteOperations.list, req);
  }

  @Get(':id')
  @ApiOperation({ summary: "One of the caller's mutes (also once ended); another user's is 404" })
  @Returns(NotificationMute)
  @Refuses(401, 404, 429, 503, 504)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<NotificationMute> {
    return this.forward.send(NotificationMuteOperations.get, req, { params: { id } });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a mute' })
  @ReturnsNothing()
  @Refuses(401, 404, 429, 503, 504)
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(NotificationMuteOperations.delete, req, { params: { id } });
  }
}
