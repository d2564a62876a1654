/** A row of `media_tags` as TAG_COLUMNS selects it, with its item count. */
export interface MediaTagRow {
  id: string;
  workspaceId: string;
  name: string;
  itemCount: number;
  createdAt: Date;
}

/** `item_count` is counted on read (ready items carrying the tag): always right, however tagging races. */
export const TAG_COLUMNS = `t.id, t.workspace_id AS "workspaceId", t.name, t.created_at AS "createdAt",
  (SELECT count(*)::int FROM media_item_tags it JOIN media_items m ON m.id = it.media_id
    WHERE it.tag_id = t.id AND m.status = 'ready' AND m.project_asset_id IS NULL) AS "itemCount"`;

/** How many tags a workspace holds. */
export interface MediaTagCountRow {
  count: number;
}
