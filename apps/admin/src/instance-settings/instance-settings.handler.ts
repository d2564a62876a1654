import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AdminPatterns, InstanceSettingsResponse, RpcRequest, SaveInstanceSettingsRequest, SettingOverridesReply } from '@social/contracts';
import { requireAdmin, validateInput } from '@social/platform';
import { InstanceSettingsService } from './instance-settings.service.js';

@Controller()
export class InstanceSettingsHandler {
  constructor(private readonly settings: InstanceSettingsService) {}

  @MessagePattern(AdminPatterns.getInstanceSettings)
  get(@Payload() req: RpcRequest): Promise<InstanceSettingsResponse> {
    requireAdmin(req);
    return this.settings.get();
  }

  @MessagePattern(AdminPatterns.saveInstanceSettings)
  save(@Payload() req: RpcRequest<SaveInstanceSettingsRequest>): Promise<InstanceSettingsResponse> {
    const principal = requireAdmin(req);
    return this.settings.save(principal.userId, validateInput(SaveInstanceSettingsRequest, req.body, 'body'));
  }

  /** Service to service, never forwarded by the gateway: what `InstanceSettings.load` reads at start-up. */
  @MessagePattern(AdminPatterns.settingOverrides)
  async overrides(): Promise<SettingOverridesReply> {
    return { overrides: await this.settings.overrides() };
  }
}
