import { Injectable } from '@nestjs/common';
import { OrganizationDeletedEvent } from '@social/contracts';
import { DurableEventHandler, isUuid } from '@social/platform';
import { DataSource } from 'typeorm';

/** Purges what notifications keeps for the deleted workspaces (workspace mutes). Idempotent: a redelivery deletes nothing more. */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<OrganizationDeletedEvent> | null;
    // Nothing to purge in an event without workspaces (or of a shape we do not know): acknowledged, not retried forever.
    if (!Array.isArray(event?.workspace_ids) || event.workspace_ids.length === 0) return;
    await this.dataSource.query('DELETE FROM mutes WHERE workspace_id = ANY($1::uuid[])', [event.workspace_ids.filter(isUuid)]);
  }
}
