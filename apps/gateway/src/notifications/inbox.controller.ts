import { Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InboxOperations, ListNotificationsQuery, NotificationList, NotificationUnreadCount } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Notifications')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@Controller('notifications')
export class InboxController {
  constructor(private readonly forward: Forwarder) {}

  @Get()
  @ApiOperation({
    summary: "The caller's in-app notifications, newest first, a page at a time; `unread=true` lists only unread ones",
    description:
      'One item per event and recipient, whatever the redeliveries. Items of a topic muted when the event happened appear when the mute ' +
      'ends. ' +
      '`next_cursor` works only with the same `unread`; a foreign or edited cursor is 422.',
  })
  @Returns(NotificationList)
  @Refuses(401, 422, 429, 503, 504)
  list(
    @Req() req: FastifyRequest,
    @Query(new ValidQuery(ListNotificationsQuery)) query: ListNotificationsQuery,
  ): Promise<NotificationList> {
    return this.forward.send(InboxOperations.list, req, { query: { ...query } });
  }

  @Get('unread-count')
  @ApiOperation({ summary: "How many of the caller's in-app notifications are unread" })
  @Returns(NotificationUnreadCount)
  @Refuses(401, 429, 503, 504)
  unreadCount(@Req() req: FastifyRequest): Promise<NotificationUnreadCount> {
    return this.forward.send(InboxOperations.unreadCount, req);
  }

  @Post('read-all')
  @ApiOperation({ summary: "Mark every one of the caller's notifications read" })
  @ReturnsNothing()
  @Refuses(401, 429, 503, 504)
  async readAll(@Req() req: FastifyRequest): Promise<void> {
    await this.forward.send(InboxOperations.readAll, req);
  }

  @Post(':id/read')
  @ApiOperation({ summary: "Mark one notification read (again: no change); another user's is 404" })
  @ReturnsNothing()
  @Refuses(401, 404, 429, 503, 504)
  async read(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(InboxOperations.read, req, { params: { id } });
  }
}
