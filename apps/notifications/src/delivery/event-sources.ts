import { Inject, Injectable } from '@nestjs/common';
import { TenancyPatterns, WorkspaceRecipients, WorkspaceRecipientsRequest, WorkspaceRole } from '@social/contracts';
import { DurableEventMeta, isUuid, RpcClient, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { NotificationDispatcher } from './notification-dispatcher.js';
import type { OutgoingNotification } from './outgoing-notification.js';

/**
 * What every event source shares: who may see a workspace (asked of
 * accounts on each event; memberships are never copied here), the event's
 * idempotency key, and the hand-over to the dispatcher. A source is one
 * small `DurableEventHandler` that maps its payload to an OutgoingNotification.
 */
@Injectable()
export class EventSources {
  constructor(
    private readonly dispatcher: NotificationDispatcher,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  /** Members whose role sees the workspace at `minRole` or above; empty for a workspace that is gone. */
  workspaceMembers(workspaceId: string, minRole: WorkspaceRole): Promise<WorkspaceRecipients> {
    return this.rpc.send<WorkspaceRecipients>(TenancyPatterns.workspaceRecipients, { workspace_id: workspaceId, min_role: minRole } satisfies WorkspaceRecipientsRequest);
  }

  /**
   * Maps and dispatches one event. The key is the producer's `event_id` when
   * the payload has one, else its Nats-Msg-Id (the outbox row id): the same
   * on every redelivery. A payload the mapper cannot read (`null`) is logged
   * and acknowledged rather than retried forever.
   */
  async deliver<E>(subject: string, payload: unknown, meta: DurableEventMeta, describe: (event: E) => Promise<OutgoingNotification | null>): Promise<void> {
    if (!payload || typeof payload !== 'object') {
      this.logger.warn({ subject, seq: meta.seq }, 'event payload is not an object; no notification');
      return;
    }
    const message = await describe(payload as E);
    if (!message) {
      this.logger.warn({ subject, seq: meta.seq }, 'event payload lacks what a notification needs; no notification');
      return;
    }
    const given = (payload as { event_id?: unknown }).event_id;
    const eventId = typeof given === 'string' && given.length > 0 && given.length <= 200 ? given : meta.eventId;
    await this.dispatcher.dispatch(eventId, message);
  }
}

/** A workspace id an event may name: a UUID. */
export const validWorkspaceId = (value: unknown): value is string => typeof value === 'string' && isUuid(value);
