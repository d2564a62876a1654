/** publishing.media.usage (service to service: media asks it before deleting an item). */
export interface MediaUsageRequest {
  workspace_id: string;
  media_ids: string[];
}

/** The ids used by a publication that is neither `published` nor `failed` (as attachment, thumbnail or cover, at any level). */
export interface MediaUsage {
  in_use: string[];
}
