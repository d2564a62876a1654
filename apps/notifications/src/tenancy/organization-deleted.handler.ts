import { Injectable } from '@nestjs/common';
import type { OrganizationDeletedEvent } from '@social/contracts';
import { DurableEventHandler, isUuid, purgeDeletedWorkspaces } from '@social/platform';
import { DataSource } from 'typeorm';

/**
 * Purges what notifications keeps for the deleted organization: workspace
 * mutes, the workspaces' in-app items and digest lines, their mail not yet
 * sent (and the record of what was), and the organization's own items (role changes).
 */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    await purgeDeletedWorkspaces(this.dataSource, payload, ['mutes', 'email_deliveries', 'notifications']);
    const organizationId = (payload as Partial<OrganizationDeletedEvent> | null)?.organization_id;
    if (typeof organizationId === 'string' && isUuid(organizationId)) {
      await this.dataSource.transaction(async (db) => {
        await db.query(`DELETE FROM email_deliveries WHERE organization_id = $1`, [organizationId]);
        await db.query(`DELETE FROM notifications WHERE organization_id = $1`, [organizationId]);
      });
    }
  }
}
