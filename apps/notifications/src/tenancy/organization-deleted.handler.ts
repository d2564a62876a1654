import { Injectable } from '@nestjs/common';
import { DurableEventHandler, purgeDeletedWorkspaces } from '@social/platform';
import { DataSource } from 'typeorm';

/** Purges what notifications keeps for the deleted workspaces: workspace mutes. */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  handle(_subject: string, payload: unknown): Promise<void> {
    return purgeDeletedWorkspaces(this.dataSource, payload, ['mutes']);
  }
}
