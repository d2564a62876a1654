import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { NotificationPreferenceSettings, NotificationsPatterns, RpcRequest, UpdatePreferencesRequest } from '@social/contracts';
import { requireAccountPrincipal, validateInput } from '@social/platform';
import { PreferencesService } from './preferences.service.js';

@Controller()
export class PreferencesHandler {
  constructor(private readonly preferences: PreferencesService) {}

  @MessagePattern(NotificationsPatterns.getPreferences)
  get(@Payload() req: RpcRequest): Promise<NotificationPreferenceSettings> {
    return this.preferences.get(requireAccountPrincipal(req).userId);
  }

  @MessagePattern(NotificationsPatterns.replacePreferences)
  replace(@Payload() req: RpcRequest<UpdatePreferencesRequest>): Promise<NotificationPreferenceSettings> {
    const input = validateInput(UpdatePreferencesRequest, req.body, 'body');
    return this.preferences.replace(requireAccountPrincipal(req).userId, input);
  }
}
