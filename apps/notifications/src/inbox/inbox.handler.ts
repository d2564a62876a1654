import { Controller } from '@nestjs/common';
import { InboxOperations, type InputOf, type NotificationList, type NotificationUnreadCount } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { InboxService } from './inbox.service.js';

@Controller()
export class InboxHandler {
  constructor(private readonly inbox: InboxService) {}

  @Handles(InboxOperations.list)
  list(@Input() { principal, query }: InputOf<typeof InboxOperations.list>): Promise<NotificationList> {
    return this.inbox.list(principal.userId, query);
  }

  @Handles(InboxOperations.read)
  async read(@Input() { principal, params }: InputOf<typeof InboxOperations.read>): Promise<null> {
    await this.inbox.read(principal.userId, params.id);
    return null;
  }

  @Handles(InboxOperations.readAll)
  async readAll(@Input() { principal }: InputOf<typeof InboxOperations.readAll>): Promise<null> {
    await this.inbox.readAll(principal.userId);
    return null;
  }

  @Handles(InboxOperations.unreadCount)
  unreadCount(@Input() { principal }: InputOf<typeof InboxOperations.unreadCount>): Promise<NotificationUnreadCount> {
    return this.inbox.unreadCount(principal.userId);
  }
}
