import { Injectable } from '@nestjs/common';
import type {
  AccountNeedsAttentionEvent,
  RenditionFailedEvent,
  RenditionNeedsAttentionEvent,
  RenditionPublishedEvent,
} from '@social/contracts';
import { DurableEventHandler, DurableEventMeta } from '@social/platform';
import { EventSources, validWorkspaceId } from '../delivery/event-sources.js';

/** Publishing topics go to the workspace's editors and admins (viewers cannot act on them). */
const PUBLISHING_AUDIENCE = 'editor';

/** What a publishing event tells the workspace's editors. */
interface PublishingNotice {
  topic: string;
  title: string;
  body: string;
  link: string;
}

/**
 * A publishing event → one notification to the workspace's editors and
 * admins. Each subject has its own small subclass (one durable per subject)
 * that only words the notice.
 */
@Injectable()
abstract class PublishingSource<E extends { workspace_id: string; occurred_at: string }> implements DurableEventHandler {
  constructor(private readonly sources: EventSources) {}

  protected abstract notice(event: E, workspaceName: string): PublishingNotice;

  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void> {
    return this.sources.deliver<E>(subject, payload, meta, async (event) => {
      if (!validWorkspaceId(event.workspace_id)) return null;
      const { workspace_name, recipients } = await this.sources.workspaceMembers(event.workspace_id, PUBLISHING_AUDIENCE);
      return {
        ...this.notice(event, workspace_name),
        workspaceId: event.workspace_id,
        recipients: recipients.map((r) => r.user_id),
        occurredAt: event.occurred_at,
      };
    });
  }
}

/** rendition.published → post_published. */
@Injectable()
export class RenditionPublishedSource extends PublishingSource<RenditionPublishedEvent> {
  protected notice(event: RenditionPublishedEvent, workspace: string): PublishingNotice {
    return {
      topic: 'post_published',
      title: `Published on ${event.platform}`,
      body: `Your post in ${workspace} is live on ${event.platform}${event.external_url ? `: ${event.external_url}` : '.'}`,
      link: `/publications/${event.publication_id}`,
    };
  }
}

/** rendition.failed → publish_failed. */
@Injectable()
export class RenditionFailedSource extends PublishingSource<RenditionFailedEvent> {
  protected notice(event: RenditionFailedEvent, workspace: string): PublishingNotice {
    return {
      topic: 'publish_failed',
      title: `Publishing to ${event.platform} failed`,
      body: `A post in ${workspace} could not be published on ${event.platform}: ${event.error_message || event.error_code}`.trim(),
      link: `/publications/${event.publication_id}`,
    };
  }
}

/** rendition.needs-attention → account_needs_attention (nobody can tell whether it was posted). */
@Injectable()
export class RenditionNeedsAttentionSource extends PublishingSource<RenditionNeedsAttentionEvent> {
  protected notice(event: RenditionNeedsAttentionEvent, workspace: string): PublishingNotice {
    return {
      topic: 'account_needs_attention',
      title: `A post to ${event.platform} needs your attention`,
      body: `We cannot tell whether a post in ${workspace} reached ${event.platform}: ${event.error_message || event.error_code}`.trim(),
      link: `/publications/${event.publication_id}`,
    };
  }
}

/** account.needs-attention → account_needs_attention (the account must be connected again). */
@Injectable()
export class AccountNeedsAttentionSource extends PublishingSource<AccountNeedsAttentionEvent> {
  protected notice(event: AccountNeedsAttentionEvent, workspace: string): PublishingNotice {
    return {
      topic: 'account_needs_attention',
      title: `Your ${event.platform} account needs to be connected again`,
      body:
        `${event.platform} no longer accepts the connection of an account in ${workspace}; ` +
        'nothing is published to it until it is connected again.',
      link: `/social-accounts/${event.social_account_id}`,
    };
  }
}
