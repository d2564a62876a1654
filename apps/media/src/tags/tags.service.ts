import { Injectable } from '@nestjs/common';
import {
  CreateMediaTagRequest,
  ListMediaTagsQuery,
  MAX_MEDIA_TAGS_PER_WORKSPACE,
  MediaTag,
  MediaTagList,
  Principal,
  UpdateMediaTagRequest,
  WorkspaceRole,
} from '@social/contracts';
import { AccessControl, explainingConstraint, problems } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { TAG_COLUMNS, type MediaTagCountRow, type MediaTagRow } from './media-tag.row.js';

const NO_SUCH_TAG = 'No such media tag.';
const NAME_INDEX = 'media_tags_name_idx';

const toMediaTag = (row: MediaTagRow): MediaTag => ({
  id: row.id,
  workspace_id: row.workspaceId,
  name: row.name,
  item_count: row.itemCount,
  created_at: row.createdAt.toISOString(),
});

const duplicateName = (name: string) =>
  problems.conflict('duplicate_name', `The workspace already has a media tag named "${name}" (names ignore case).`);

async function findTag(db: EntityManager, id: string): Promise<MediaTagRow | null> {
  const [row] = await db.query<MediaTagRow[]>(`SELECT ${TAG_COLUMNS} FROM media_tags t WHERE t.id = $1`, [id]);
  return row ?? null;
}

@Injectable()
export class TagsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
  ) {}

  /** E18: 201, item_count 0; names unique per workspace ignoring case (409 duplicate_name). */
  async create(principal: Principal, input: CreateMediaTagRequest): Promise<MediaTag> {
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const id = uuidv7();
    await explainingConstraint(
      () =>
        this.dataSource.transaction(async (db) => {
          // Creations of one workspace queue here, so the limit cannot be raced past.
          await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('media_tags:' || $1, 0))`, [workspace.workspace_id]);
          const [{ count }] = await db.query<MediaTagCountRow[]>(`SELECT count(*)::int AS count FROM media_tags WHERE workspace_id = $1`, [
            workspace.workspace_id,
          ]);
          if (count >= MAX_MEDIA_TAGS_PER_WORKSPACE) {
            throw problems.conflict('too_many_media_tags', `A workspace has at most ${MAX_MEDIA_TAGS_PER_WORKSPACE} media tags.`);
          }
          await db.query(`INSERT INTO media_tags (id, workspace_id, name, created_at) VALUES ($1, $2, $3, $4)`, [
            id,
            workspace.workspace_id,
            input.name,
            new Date(),
          ]);
        }),
      NAME_INDEX,
      () => duplicateName(input.name),
    );
    return toMediaTag((await findTag(this.dataSource.manager, id))!);
  }

  async list(principal: Principal, query: ListMediaTagsQuery): Promise<MediaTagList> {
    const workspace = await this.access.requireWorkspace(principal, query.workspace_id, 'viewer', 'query');
    const rows = await this.dataSource.query<MediaTagRow[]>(
      `SELECT ${TAG_COLUMNS} FROM media_tags t WHERE t.workspace_id = $1 ORDER BY lower(t.name), t.id`,
      [workspace.workspace_id],
    );
    return { tags: rows.map(toMediaTag) };
  }

  async rename(principal: Principal, id: string, input: UpdateMediaTagRequest): Promise<MediaTag> {
    await this.findVisible(principal, id, 'editor');
    await explainingConstraint(
      () => this.dataSource.query(`UPDATE media_tags SET name = $2 WHERE id = $1`, [id, input.name]),
      NAME_INDEX,
      () => duplicateName(input.name),
    );
    const tag = await findTag(this.dataSource.manager, id);
    if (!tag) throw problems.notFound(NO_SUCH_TAG);
    return toMediaTag(tag);
  }

  /** Items lose the tag (by cascade). */
  async delete(principal: Principal, id: string): Promise<void> {
    await this.findVisible(principal, id, 'editor');
    await this.dataSource.query(`DELETE FROM media_tags WHERE id = $1`, [id]);
  }

  private findVisible(principal: Principal, id: string, need: WorkspaceRole): Promise<MediaTagRow> {
    return this.access.requireVisible(principal, () => findTag(this.dataSource.manager, id), need, NO_SUCH_TAG);
  }
}
