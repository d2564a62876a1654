import { Module } from '@nestjs/common';
import { MutesHandler } from './mutes/mutes.handler.js';
import { MutesService } from './mutes/mutes.service.js';
import { PreferencesHandler } from './preferences/preferences.handler.js';
import { PreferencesService } from './preferences/preferences.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

@Module({
  controllers: [PreferencesHandler, MutesHandler],
  providers: [PreferencesService, MutesService, OrganizationDeletedHandler],
})
export class NotificationsModule {}
