import { Module } from '@nestjs/common';
import { SecretBox, SERVICE_CONFIG } from '@social/platform';
import { AiPromptsHandler } from './ai-prompts/ai-prompts.handler.js';
import { AiPromptsService } from './ai-prompts/ai-prompts.service.js';
import type { AdminConfig } from './config.js';
import { DirectoryHandler } from './directory/directory.handler.js';
import { DirectoryService } from './directory/directory.service.js';
import { InstanceSettingsHandler } from './instance-settings/instance-settings.handler.js';
import { InstanceSettingsService } from './instance-settings/instance-settings.service.js';
import { EnvironmentProviderApps, parseProviderApps } from './provider-apps/environment-apps.js';
import { ProviderAppsHandler } from './provider-apps/provider-apps.handler.js';
import { ProviderAppsService } from './provider-apps/provider-apps.service.js';

@Module({
  controllers: [ProviderAppsHandler, InstanceSettingsHandler, AiPromptsHandler, DirectoryHandler],
  providers: [
    ProviderAppsService,
    InstanceSettingsService,
    AiPromptsService,
    DirectoryService,
    { provide: SecretBox, inject: [SERVICE_CONFIG], useFactory: (config: AdminConfig) => SecretBox.fromBase64Key(config.SECRETS_KEY) },
    // A malformed PROVIDER_APPS stops start-up with a message naming the entry.
    {
      provide: EnvironmentProviderApps,
      inject: [SERVICE_CONFIG],
      useFactory: (config: AdminConfig) => parseProviderApps(config.PROVIDER_APPS),
    },
  ],
})
export class AdminModule {}
