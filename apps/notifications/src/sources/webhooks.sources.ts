import { Injectable } from '@nestjs/common';
import type { WebhookDeactivatedEvent } from '@social/contracts';
import { DurableEventHandler, DurableEventMeta } from '@social/platform';
import { EventSources, validWorkspaceId } from '../delivery/event-sources.js';

/** webhooks' deactivation → webhook_deactivated, to the workspace's admins (only they may manage webhooks). */
@Injectable()
export class WebhookDeactivatedSource implements DurableEventHandler {
  constructor(private readonly sources: EventSources) {}

  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    return this.sources.deliver<WebhookDeactivatedEvent>(subject, payload, meta, async (event) => {
      if (!validWorkspaceId(event.workspace_id) || typeof event.webhook_id !== 'string') return null;
      const { workspace_name, recipients } = await this.sources.workspaceMembers(event.workspace_id, 'admin');
      return {
        topic: 'webhook_deactivated',
        workspaceId: event.workspace_id,
        recipients: recipients.map((r) => r.user_id),
        title: 'A webhook was turned off',
        body:
          `Deliveries to ${String(event.url)} in ${workspace_name} failed for 3 days, so the webhook was deactivated. ` +
          'Fix the receiver, then set it active again.',
        link: `/webhooks/${event.webhook_id}`,
        occurredAt: event.occurred_at,
      };
    });
  }
}
