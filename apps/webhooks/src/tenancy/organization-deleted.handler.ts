import { Injectable } from '@nestjs/common';
import { DurableEventHandler, purgeDeletedWorkspaces } from '@social/platform';
import { DataSource } from 'typeorm';

/** Purges the deleted organization's webhooks, their delivery log and the events behind them (idempotent). */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    await purgeDeletedWorkspaces(this.dataSource, payload, ['webhook_deliveries', 'webhook_events', 'webhooks']);
  }
}
