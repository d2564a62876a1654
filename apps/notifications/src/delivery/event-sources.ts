import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  MEMBERSHIP_CHANGED_SUBJECT,
  TenancyPatterns,
  WorkspaceRecipients,
  WorkspaceRecipientsRequest,
  WorkspaceRole,
} from '@social/contracts';
import { DurableEventMeta, isUuid, NATS_CONNECTION, RpcClient, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { NotificationDispatcher } from './notification-dispatcher.js';
import type { OutgoingNotification } from './outgoing-notification.js';

/** A burst of one workspace's events (10,000 renditions going live) asks accounts once per this long. */
const RECIPIENTS_TTL_MS = 5_000;

/**
 * What every event source shares: who may see a workspace (asked of
 * accounts; memberships are never copied here, the answer is kept a few
 * seconds and dropped on every membership change, like AccessControl's), the
 * event's idempotency key, and the hand-over to the dispatcher. A source is one
 * small `DurableEventHandler` that maps its payload to an OutgoingNotification.
 */
@Injectable()
export class EventSources implements OnModuleInit, OnModuleDestroy {
  /** `<workspace>:<min role>` → the answer and until when it is kept (a few entries: dropped whole on any membership change). */
  private readonly recipients = new Map<string, { answer: WorkspaceRecipients; until: number }>();
  /** Bumped on every membership change: an answer asked before it is not kept. */
  private generation = 0;
  private subscription?: Subscription;

  constructor(
    private readonly dispatcher: NotificationDispatcher,
    private readonly rpc: RpcClient,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    // Any membership or role change, anywhere: a joiner or a demoted member is seen by the next event.
    this.subscription = this.nats.subscribe(MEMBERSHIP_CHANGED_SUBJECT, {
      callback: () => {
        this.generation += 1;
        this.recipients.clear();
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /** Members whose role sees the workspace at `minRole` or above; empty for a workspace that is gone. */
  async workspaceMembers(workspaceId: string, minRole: WorkspaceRole): Promise<WorkspaceRecipients> {
    const key = `${workspaceId}:${minRole}`;
    const cached = this.recipients.get(key);
    if (cached && cached.until > Date.now()) return cached.answer;
    const generation = this.generation;
    const answer = await this.rpc.send<WorkspaceRecipients>(TenancyPatterns.workspaceRecipients, {
      workspace_id: workspaceId,
      min_role: minRole,
    } satisfies WorkspaceRecipientsRequest);
    if (generation === this.generation) {
      if (this.recipients.size >= 10_000) this.recipients.clear();
      this.recipients.set(key, { answer, until: Date.now() + RECIPIENTS_TTL_MS });
    }
    return answer;
  }

  /**
   * Maps and dispatches one event. The key is the producer's `event_id` when
   * the payload has one, else its Nats-Msg-Id (the outbox row id): the same
   * on every redelivery. A payload the mapper cannot read (`null`) is logged
   * and acknowledged rather than retried forever.
   */
  async deliver<E>(
    subject: string,
    payload: unknown,
    meta: DurableEventMeta,
    describe: (event: E) => Promise<OutgoingNotification | null>,
  ): Promise<void> {
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
