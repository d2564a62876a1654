import { Injectable } from '@nestjs/common';
import type { RoleChangedEvent, SecurityAction, SecurityActionEvent } from '@social/contracts';
import { DurableEventHandler, DurableEventMeta, isUuid } from '@social/platform';
import { DataSource } from 'typeorm';
import { EventSources } from '../delivery/event-sources.js';

const SECURITY_TITLES: Record<SecurityAction, (detail: string) => { title: string; body: string }> = {
  password_changed: () => ({ title: 'Your password was changed', body: 'The password of your account was changed.' }),
  passkey_added: (name) => ({
    title: 'A passkey was added',
    body: `A passkey${name ? ` ("${name}")` : ''} can now sign in to your account.`,
  }),
  passkey_removed: (name) => ({
    title: 'A passkey was removed',
    body: `A passkey${name ? ` ("${name}")` : ''} can no longer sign in to your account.`,
  }),
  email_changed: (address) => ({
    title: 'Your sign-in address was changed',
    body: `Your account now signs in${address ? ` with ${address}` : ' with a new address'}.`,
  }),
  api_token_created: (name) => ({
    title: 'A new API token was created',
    body: `An API token${name ? ` ("${name}")` : ''} can now act for your account.`,
  }),
};
const SECURITY_FOOTNOTE = ' If this was not you, sign in, change your password and review your security settings.';

/** accounts' security actions → security_action, to the user concerned. */
@Injectable()
export class SecurityActionSource implements DurableEventHandler {
  constructor(
    private readonly sources: EventSources,
    private readonly dataSource: DataSource,
  ) {}

  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    return this.sources.deliver<SecurityActionEvent>(subject, payload, meta, async (event) => {
      const describe = SECURITY_TITLES[event.action];
      if (typeof event.user_id !== 'string' || !isUuid(event.user_id) || !describe) return null;
      // A new address starts clean: a refusal recorded for an earlier one no longer stops mail.
      if (event.action === 'email_changed')
        await this.dataSource.query(`DELETE FROM suppressed_addresses WHERE user_id = $1`, [event.user_id]);
      const { title, body } = describe(typeof event.detail === 'string' ? event.detail : '');
      return {
        topic: 'security_action',
        workspaceId: null,
        recipients: [event.user_id],
        title,
        body: body + SECURITY_FOOTNOTE,
        link: '/auth/security',
        occurredAt: event.occurred_at,
      };
    });
  }
}

/** Role changes → access_changed, to the member concerned. */
@Injectable()
export class RoleChangedSource implements DurableEventHandler {
  constructor(private readonly sources: EventSources) {}

  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    return this.sources.deliver<RoleChangedEvent>(subject, payload, meta, async (event) => {
      if (typeof event.user_id !== 'string' || !isUuid(event.user_id)) return null;
      const workspaceId = typeof event.workspace_id === 'string' && isUuid(event.workspace_id) ? event.workspace_id : null;
      const organizationId =
        !workspaceId && typeof event.organization_id === 'string' && isUuid(event.organization_id) ? event.organization_id : null;
      if (!workspaceId && !organizationId) return null;
      const kind = workspaceId ? 'workspace' : 'organization';
      return {
        topic: 'access_changed',
        workspaceId,
        organizationId,
        recipients: [event.user_id],
        title: `Your role in ${event.name || (kind === 'workspace' ? 'a workspace' : 'an organization')} changed`,
        body: `Your role in the ${kind} ${event.name ?? ''} is now ${event.role} (it was ${event.previous_role}).`.replace(/  +/g, ' '),
        link: workspaceId ? `/workspaces/${workspaceId}` : `/organizations/${organizationId}`,
        occurredAt: event.occurred_at,
      };
    });
  }
}
