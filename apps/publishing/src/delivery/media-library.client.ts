import { Injectable } from '@nestjs/common';
import { RpcClient } from '@social/platform';

/**
 * The media service's `media.library.resolve` (service to service). The request and reply shapes are the
 * ones agreed with the media service; they move to libs/contracts/src/media (MediaPatterns.resolveMedia,
 * ResolveMediaRequest, ResolvedMediaList) with it.
 */
export const RESOLVE_MEDIA_SUBJECT = 'media.library.resolve';
/** Ids per request, as the media service takes them. */
export const RESOLVE_MEDIA_MAX_IDS = 100;

export interface ResolvedMedia {
  id: string;
  workspace_id: string;
  status: 'pending' | 'ready';
  filename: string;
  mime_type: string;
  size: number;
  sha256: string;
  width: number;
  height: number;
  duration_ms: number;
  frame_rate: number;
  analysis_status: 'pending' | 'ready' | 'failed';
  analysis_error: string;
  poster_media_id: string;
  thumbnail_timestamp_ms: number;
  object_key: string;
  public_url_ready: boolean;
  public_url_status: number;
  public_url_checked_at: string;
  public_url_error: string;
}

/** Short: the media service answers from one indexed query. */
const RESOLVE_TIMEOUT_MS = 5_000;

@Injectable()
export class MediaLibraryClient {
  constructor(private readonly rpc: RpcClient) {}

  /** The items of `workspaceId`'s library among `mediaIds`, by id; deleted, foreign and unknown ids are absent. */
  async resolve(workspaceId: string, mediaIds: string[]): Promise<Map<string, ResolvedMedia>> {
    const unique = [...new Set(mediaIds)];
    const found = new Map<string, ResolvedMedia>();
    for (let start = 0; start < unique.length; start += RESOLVE_MEDIA_MAX_IDS) {
      const reply = await this.rpc.send<{ items: ResolvedMedia[] }>(
        RESOLVE_MEDIA_SUBJECT,
        { workspace_id: workspaceId, media_ids: unique.slice(start, start + RESOLVE_MEDIA_MAX_IDS) },
        { timeoutMs: RESOLVE_TIMEOUT_MS },
      );
      // Only the workspace's own items count, whatever the answer holds.
      for (const item of reply.items) if (item.workspace_id === workspaceId) found.set(item.id, item);
    }
    return found;
  }
}
