import { Global, Module } from '@nestjs/common';
import { AccountsModule } from '../accounts.module.js';
import { AccessControl, WORKSPACE_ACCESS_RESOLVER } from '@social/platform';
import { InvitationsHandler } from './invitations.handler.js';
import { InvitationsService } from './invitations.service.js';
import { MembershipEvents } from './membership-events.js';
import { OrganizationDeletionHandler } from './organization-deletion.handler.js';
import { OrganizationDeletionService } from './organization-deletion.service.js';
import { OrganizationsHandler } from './organizations.handler.js';
import { OrganizationsService } from './organizations.service.js';
import { WorkspaceAccessLookup } from './workspace-access.lookup.js';
import { WorkspacesHandler } from './workspaces.handler.js';
import { WorkspacesService } from './workspaces.service.js';

/**
 * Organizations, workspaces, memberships and invitations; memberships are
 * answered from our own tables. Global so the rest of accounts (API tokens)
 * asks the same AccessControl.
 */
@Global()
@Module({
  // The mailer is configured once, in AccountsModule.
  imports: [AccountsModule],
  controllers: [OrganizationsHandler, WorkspacesHandler, InvitationsHandler, OrganizationDeletionHandler],
  providers: [
    OrganizationsService,
    OrganizationDeletionService,
    WorkspacesService,
    InvitationsService,
    MembershipEvents,
    WorkspaceAccessLookup,
    AccessControl,
    {
      provide: WORKSPACE_ACCESS_RESOLVER,
      inject: [WorkspaceAccessLookup],
      useFactory: (lookup: WorkspaceAccessLookup) => lookup.find.bind(lookup),
    },
  ],
  exports: [AccessControl],
})
export class TenancyModule {}
