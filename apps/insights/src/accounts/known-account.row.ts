/** A connected account of a workspace as insights knows it (`accounts`; publishing owns it). */
export interface KnownAccountRow {
  id: string;
  workspaceId: string;
  platform: string;
  username: string;
}
