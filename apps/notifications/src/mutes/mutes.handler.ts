import { Controller } from '@nestjs/common';
import { NotificationMuteOperations, type InputOf, type NotificationMute, type NotificationMuteList } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { MutesService } from './mutes.service.js';

@Controller()
export class MutesHandler {
  constructor(private readonly mutes: MutesService) {}

  @Handles(NotificationMuteOperations.create)
  create(@Input() { principal, body }: InputOf<typeof NotificationMuteOperations.create>): Promise<NotificationMute> {
    return this.mutes.create(principal, body);
  }

  @Handles(NotificationMuteOperations.list)
  list(@Input() { principal }: InputOf<typeof NotificationMuteOperations.list>): Promise<NotificationMuteList> {
    return this.mutes.list(principal.userId);
  }

  @Handles(NotificationMuteOperations.get)
  get(@Input() { principal, params }: InputOf<typeof NotificationMuteOperations.get>): Promise<NotificationMute> {
    return this.mutes.get(principal.userId, params.id);
  }

  @Handles(NotificationMuteOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof NotificationMuteOperations.delete>): Promise<null> {
    await this.mutes.delete(principal.userId, params.id);
    return null;
  }
}
