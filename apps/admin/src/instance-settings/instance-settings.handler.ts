import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  AdminPatterns,
  InstanceSettingsOperations,
  type InputOf,
  type InstanceSettingsResponse,
  type SettingOverridesReply,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { InstanceSettingsService } from './instance-settings.service.js';

@Controller()
export class InstanceSettingsHandler {
  constructor(private readonly settings: InstanceSettingsService) {}

  @Handles(InstanceSettingsOperations.get)
  get(@Input() _checkedCaller: InputOf<typeof InstanceSettingsOperations.get>): Promise<InstanceSettingsResponse> {
    return this.settings.get();
  }

  @Handles(InstanceSettingsOperations.save)
  save(@Input() { principal, body }: InputOf<typeof InstanceSettingsOperations.save>): Promise<InstanceSettingsResponse> {
    return this.settings.save(principal.userId, body);
  }

  /** Service to service, never forwarded by the gateway: what `InstanceSettings.load` reads at start-up. */
  @MessagePattern(AdminPatterns.settingOverrides)
  async overrides(): Promise<SettingOverridesReply> {
    return { overrides: await this.settings.overrides() };
  }
}
