import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateMuteRequest, NotificationMute, NotificationMuteList, NotificationsPatterns, RpcRequest } from '@social/contracts';
import { requireAccountPrincipal, validateInput } from '@social/platform';
import { MutesService } from './mutes.service.js';

@Controller()
export class MutesHandler {
  constructor(private readonly mutes: MutesService) {}

  @MessagePattern(NotificationsPatterns.createMute)
  create(@Payload() req: RpcRequest<CreateMuteRequest>): Promise<NotificationMute> {
    return this.mutes.create(requireAccountPrincipal(req), validateInput(CreateMuteRequest, req.body, 'body'));
  }

  @MessagePattern(NotificationsPatterns.listMutes)
  list(@Payload() req: RpcRequest): Promise<NotificationMuteList> {
    return this.mutes.list(requireAccountPrincipal(req).userId);
  }

  @MessagePattern(NotificationsPatterns.getMute)
  get(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<NotificationMute> {
    return this.mutes.get(requireAccountPrincipal(req).userId, req.params.id);
  }

  @MessagePattern(NotificationsPatterns.deleteMute)
  async delete(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<null> {
    await this.mutes.delete(requireAccountPrincipal(req).userId, req.params.id);
    return null;
  }
}
