import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AdminPatterns,
  ProviderAppOperations,
  type InputOf,
  type ProviderApp,
  type ResolveProviderAppReply,
  type ResolveProviderAppRequest,
  type SaveProviderAppResponse,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { ProviderAppsService } from './provider-apps.service.js';

@Controller()
export class ProviderAppsHandler {
  constructor(private readonly apps: ProviderAppsService) {}

  @Handles(ProviderAppOperations.save)
  save(@Input() { body }: InputOf<typeof ProviderAppOperations.save>): Promise<SaveProviderAppResponse> {
    return this.apps.save(body);
  }

  @Handles(ProviderAppOperations.list)
  list(@Input() _checkedCaller: InputOf<typeof ProviderAppOperations.list>): Promise<ProviderApp[]> {
    return this.apps.list();
  }

  @Handles(ProviderAppOperations.delete)
  async delete(@Input() { params }: InputOf<typeof ProviderAppOperations.delete>): Promise<null> {
    await this.apps.delete(params.id);
    return null;
  }

  /** Service to service, never forwarded by the gateway: the app publishing connects accounts with, secret in clear. */
  @MessagePattern(AdminPatterns.resolveProviderApp)
  async resolve(@Payload() request: ResolveProviderAppRequest): Promise<ResolveProviderAppReply> {
    return { app: await this.apps.resolve(request) };
  }
}
