import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ListNotificationsQuery, NotificationList, NotificationsPatterns, NotificationUnreadCount, RpcRequest } from '@social/contracts';
import { pathId, requireAccountPrincipal, validateInput } from '@social/platform';
import { InboxService } from './inbox.service.js';

type ById = RpcRequest<unknown, unknown, { id: string }>;

@Controller()
export class InboxHandler {
  constructor(private readonly inbox: InboxService) {}

  @MessagePattern(NotificationsPatterns.listNotifications)
  list(@Payload() req: RpcRequest): Promise<NotificationList> {
    const userId = requireAccountPrincipal(req).userId;
    return this.inbox.list(userId, validateInput(ListNotificationsQuery, req.query, 'query'));
  }

  @MessagePattern(NotificationsPatterns.readNotification)
  async read(@Payload() req: ById): Promise<null> {
    const userId = requireAccountPrincipal(req).userId;
    await this.inbox.read(userId, pathId(req.params.id, 'No such notification.'));
    return null;
  }

  @MessagePattern(NotificationsPatterns.readAllNotifications)
  async readAll(@Payload() req: RpcRequest): Promise<null> {
    await this.inbox.readAll(requireAccountPrincipal(req).userId);
    return null;
  }

  @MessagePattern(NotificationsPatterns.unreadCount)
  unreadCount(@Payload() req: RpcRequest): Promise<NotificationUnreadCount> {
    return this.inbox.unreadCount(requireAccountPrincipal(req).userId);
  }
}
