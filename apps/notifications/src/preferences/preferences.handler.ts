import { Controller } from '@nestjs/common';
import { NotificationPreferenceOperations, type InputOf, type NotificationPreferenceSettings } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { PreferencesService } from './preferences.service.js';

@Controller()
export class PreferencesHandler {
  constructor(private readonly preferences: PreferencesService) {}

  @Handles(NotificationPreferenceOperations.get)
  get(@Input() { principal }: InputOf<typeof NotificationPreferenceOperations.get>): Promise<NotificationPreferenceSettings> {
    return this.preferences.get(principal.userId);
  }

  @Handles(NotificationPreferenceOperations.replace)
  replace(@Input() { principal, body }: InputOf<typeof NotificationPreferenceOperations.replace>): Promise<NotificationPreferenceSettings> {
    return this.preferences.replace(principal.userId, body);
  }
}
