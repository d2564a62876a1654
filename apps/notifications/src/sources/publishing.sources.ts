import { Injectable } from '@nestjs/common';
import type { AccountNeedsAttentionEvent, RenditionFailedEvent, RenditionNeedsAttentionEvent, RenditionPublishedEvent } from '@social/contracts';
import { DurableEventHandler, DurableEventMeta } from '@social/platform';
import { EventSources, validWorkspaceId } from '../delivery/event-sources.js';

/** Publishing topics go to the workspace's editors and admins (viewers cannot act on them). */
const PUBLISHING_AUDIENCE = 'editor';

/** rendition.published → post_published. */
@Injectable()
export class RenditionPublishedSource implements DurableEventHandler {
  constructor(private readonly sources: EventSources) {}

  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    return this.sources.deliver<RenditionPublishedEvent>(subject, payload, meta, async (event) => {
      if (!validWorkspaceId(event.workspace_id)) return null;
      const { workspace_name, recipients } = await this.sources.workspaceMembers(event.workspace_id, PUBLISHING_AUDIENCE);
      return {
        topic: 'post_published',
        workspaceId: event.workspace_id,
        recipients: recipients.map((r) => r.user_id),
        title: `Published on ${event.platform}`,
        body: `Your post in ${workspace_name} is live on ${event.platform}${event.external_url ? `: ${event.external_url}` : '.'}`,
        link: `/publications/${event.publication_id}`,
        occurredAt: event.occurred_at,
      };
    });
  }
}

/** rendition.failed → publish_failed. */
@Injectable()
export class RenditionFailedSource implements DurableEventHandler {
  constructor(private readonly sources: EventSources) {}

  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    return this.sources.deliver<RenditionFailedEvent>(subject, payload, meta, async (event) => {
      if (!validWorkspaceId(event.workspace_id)) return null;
      const { workspace_name, recipients } = await this.sources.workspaceMembers(event.workspace_id, PUBLISHING_AUDIENCE);
      return {
        topic: 'publish_failed',
        workspaceId: event.workspace_id,
        recipients: recipients.map((r) => r.user_id),
        title: `Publishing to ${event.platform} failed`,
        body: `A post in ${workspace_name} could not be published on ${event.platform}: ${event.error_message || event.error_code}`.trim(),
        link: `/publications/${event.publication_id}`,
        occurredAt: event.occurred_at,
      };
    });
  }
}

/** rendition.needs-attention → account_needs_attention (nobody can tell whether it was posted). */
@Injectable()
export class RenditionNeedsAttentionSource implements DurableEventHandler {
  constructor(private readonly sources: EventSources) {}

  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    return this.sources.deliver<RenditionNeedsAttentionEvent>(subject, payload, meta, async (event) => {
      if (!validWorkspaceId(event.workspace_id)) return null;
      const { workspace_name, recipients } = await this.sources.workspaceMembers(event.workspace_id, PUBLISHING_AUDIENCE);
      return {
        topic: 'account_needs_attention',
        workspaceId: event.workspace_id,
        recipients: recipients.map((r) => r.user_id),
        title: `A post to ${event.platform} needs your attention`,
        body: `We cannot tell whether a post in ${workspace_name} reached ${event.platform}: ${event.error_message || event.error_code}`.trim(),
        link: `/publications/${event.publication_id}`,
        occurredAt: event.occurred_at,
      };
    });
  }
}

/** account.needs-attention → account_needs_attention (the account must be connected again). */
@Injectable()
export class AccountNeedsAttentionSource implements DurableEventHandler {
  constructor(private readonly sources: EventSources) {}

  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    return this.sources.deliver<AccountNeedsAttentionEvent>(subject, payload, meta, async (event) => {
      if (!validWorkspaceId(event.workspace_id)) return null;
      const { workspace_name, recipients } = await this.sources.workspaceMembers(event.workspace_id, PUBLISHING_AUDIENCE);
      return {
        topic: 'account_needs_attention',
        workspaceId: event.workspace_id,
        recipients: recipients.map((r) => r.user_id),
        title: `Your ${event.platform} account needs to be connected again`,
        body: `${event.platform} no longer accepts the connection of an account in ${workspace_name}; nothing is published to it until it is connected again.`,
        link: `/social-accounts/${event.social_account_id}`,
        occurredAt: event.occurred_at,
      };
    });
  }
}
