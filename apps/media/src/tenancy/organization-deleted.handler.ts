import { Inject, Injectable } from '@nestjs/common';
import type { OrganizationDeletedEvent } from '@social/contracts';
import { DurableEventHandler, isUuid, type MediaStorage, purgeDeletedWorkspaces } from '@social/platform';
import { DataSource } from 'typeorm';
import { MEDIA_STORAGE } from '../storage/storage.module.js';

/** Children before parents (tag links go by cascade too; listed so the purge never depends on it). */
const WORKSPACE_OWNED_TABLES = ['media_item_tags', 'media_items', 'media_tags', 'idempotency_keys'] as const;
const OBJECT_BATCH = 500;

/**
 * Purges what media keeps for the deleted workspaces: the objects first, then
 * the rows. Idempotent: a redelivery finds fewer objects (or none) and deleting
 * an absent object is no error; a failed object delete throws, so the event
 * comes back and the rows (which name the objects) stay until it succeeds.
 */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
  ) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<OrganizationDeletedEvent> | null;
    const workspaceIds = Array.isArray(event?.workspace_ids) ? event.workspace_ids.filter(isUuid) : [];
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      if (workspaceIds.length === 0) break;
      const rows = await this.dataSource.query<Array<{ id: string; object_key: string }>>(
        `SELECT id, object_key FROM media_items WHERE workspace_id = ANY($1::uuid[]) AND id > $2 ORDER BY id LIMIT ${OBJECT_BATCH}`,
        [workspaceIds, after],
      );
      // An item's delivery copies (their rows go with it when the item's row is purged).
      const copies = await this.dataSource.query<Array<{ object_key: string }>>(
        `SELECT object_key FROM media_delivery_copies WHERE media_id = ANY($1::uuid[])`,
        [rows.map((row) => row.id)],
      );
      for (const row of [...rows, ...copies]) await this.storage.delete(row.object_key);
      if (rows.length < OBJECT_BATCH) break;
      after = rows[rows.length - 1].id;
    }
    await purgeDeletedWorkspaces(this.dataSource, payload, WORKSPACE_OWNED_TABLES);
  }
}
