import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AdminPatterns,
  ProviderApp,
  ResolveProviderAppReply,
  ResolveProviderAppRequest,
  RpcRequest,
  SaveProviderAppRequest,
  SaveProviderAppResponse,
} from '@social/contracts';
import { requireAdmin, validateInput } from '@social/platform';
import { ProviderAppsService } from './provider-apps.service.js';

@Controller()
export class ProviderAppsHandler {
  constructor(private readonly apps: ProviderAppsService) {}

  @MessagePattern(AdminPatterns.saveProviderApp)
  save(@Payload() req: RpcRequest<SaveProviderAppRequest>): Promise<SaveProviderAppResponse> {
    requireAdmin(req);
    return this.apps.save(validateInput(SaveProviderAppRequest, req.body, 'body'));
  }

  @MessagePattern(AdminPatterns.listProviderApps)
  list(@Payload() req: RpcRequest): Promise<ProviderApp[]> {
    requireAdmin(req);
    return this.apps.list();
  }

  @MessagePattern(AdminPatterns.deleteProviderApp)
  async delete(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<null> {
    requireAdmin(req);
    await this.apps.delete(req.params.id);
    return null;
  }

  /** Service to service, never forwarded by the gateway: the app publishing connects accounts with, secret in clear. */
  @MessagePattern(AdminPatterns.resolveProviderApp)
  async resolve(@Payload() request: ResolveProviderAppRequest): Promise<ResolveProviderAppReply> {
    return { app: await this.apps.resolve(request) };
  }
}
