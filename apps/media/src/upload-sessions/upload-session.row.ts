/** A workspace's room for one more upload session: bytes held or promised (bigint text), open sessions, the first to expire. */
export interface UploadRoomRow {
  used: string;
  open: number;
  oldest_expiry: Date | null;
}

/** An open session past its hour, to expire (its object deleted, its project asset failed). */
export interface ExpiringSessionRow {
  id: string;
  object_key: string;
  workspace_id: string;
  project_asset_id: string | null;
}
