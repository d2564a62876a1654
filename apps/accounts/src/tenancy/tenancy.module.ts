import { Module } from '@nestjs/common';
import { AccessControl, WORKSPACE_ACCESS_LOOKUP } from '@social/platform';
import { InvitationsHandler } from './invitations.handler.js';
import { InvitationsService } from './invitations.service.js';
import { MAIL_SENDER, MailSender } from './invitation-mail.js';
import { MembershipEvents } from './membership-events.js';
import { OrganizationDeletionHandler } from './organization-deletion.handler.js';
import { OrganizationDeletionService } from './organization-deletion.service.js';
import { OrganizationsHandler } from './organizations.handler.js';
import { OrganizationsService } from './organizations.service.js';
import { WorkspaceAccessLookup } from './workspace-access.lookup.js';
import { WorkspacesHandler } from './workspaces.handler.js';
import { WorkspacesService } from './workspaces.service.js';

/** Organizations, workspaces, memberships and invitations; memberships are answered from our own tables. */
@Module({
  controllers: [OrganizationsHandler, WorkspacesHandler, InvitationsHandler, OrganizationDeletionHandler],
  providers: [
    OrganizationsService,
    OrganizationDeletionService,
    WorkspacesService,
    InvitationsService,
    MembershipEvents,
    // Replaced by the SMTP mailer when it lands (account-security work); until then invitations record `unavailable`.
    { provide: MAIL_SENDER, useValue: { configured: false, send: () => Promise.reject(new Error('no SMTP')) } satisfies MailSender },
    WorkspaceAccessLookup,
    AccessControl,
    {
      provide: WORKSPACE_ACCESS_LOOKUP,
      inject: [WorkspaceAccessLookup],
      useFactory: (lookup: WorkspaceAccessLookup) => lookup.find.bind(lookup),
    },
  ],
  exports: [AccessControl],
})
export class TenancyModule {}
