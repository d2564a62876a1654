import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  NotificationPreferenceSettings,
  NotificationsPatterns,
  RpcRequest,
  UpdatePreferencesRequest,
} from '@social/contracts';
import { requirePrincipal, validateInput } from '@social/platform';
import { PreferencesService } from './preferences.service.js';

@Controller()
export class PreferencesHandler {
  constructor(private readonly preferences: PreferencesService) {}

  @MessagePattern(NotificationsPatterns.getPreferences)
  get(@Payload() req: RpcRequest): Promise<NotificationPreferenceSettings> {
    return this.preferences.get(requirePrincipal(req).userId);
  }

  @MessagePattern(NotificationsPatterns.replacePreferences)
  replace(@Payload() req: RpcRequest<UpdatePreferencesRequest>): Promise<NotificationPreferenceSettings> {
    const input = validateInput(UpdatePreferencesRequest, req.body, 'body');
    return this.preferences.replace(requirePrincipal(req).userId, input);
  }
}
