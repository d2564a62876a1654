import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { MEMBERSHIP_CHANGED_SUBJECT, MembershipChangedEvent } from '@social/contracts';
import { AccessControl, NATS_CONNECTION } from '@social/platform';

/**
 * Tells every service's access cache (ours first, synchronously, so our next
 * answer is already right) that these users' memberships changed. Core NATS is
 * enough: a missed event only means a cached answer lives out its few seconds.
 */
@Injectable()
export class MembershipEvents {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly access: AccessControl,
  ) {}

  changed(userIds: string[]): void {
    this.announce({ user_ids: userIds });
  }

  /** A workspace or organization went away: every cached answer may be wrong. */
  everyoneChanged(): void {
    this.announce({ user_ids: [], all: true });
  }

  private announce(event: MembershipChangedEvent): void {
    this.access.forget(event);
    this.nats.publish(MEMBERSHIP_CHANGED_SUBJECT, JSON.stringify(event));
  }
}
