import { Injectable } from '@nestjs/common';
import {
  MediaPatterns,
  type Principal,
  RESOLVE_MEDIA_MAX_IDS,
  type ResolvedMedia,
  type ResolvedMediaList,
  type RpcRequest,
} from '@social/contracts';
import { RpcClient } from '@social/platform';

/** Short: the media service answers from one indexed query. */
const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * The media service's `media.library.resolve`: the one way publishing learns about library items,
 * when media are attached (as the caller) and at delivery (as the service).
 */
@Injectable()
export class MediaLibraryClient {
  constructor(private readonly rpc: RpcClient) {}

  /**
   * The items of `workspaceId`'s library among `mediaIds`, by lower-cased id; deleted, foreign and unknown
   * ids are absent. With a principal, media also checks that the caller may see the workspace.
   */
  async resolve(workspaceId: string, mediaIds: string[], principal?: Principal): Promise<Map<string, ResolvedMedia>> {
    const unique = [...new Set(mediaIds.map((id) => id.toLowerCase()))];
    const found = new Map<string, ResolvedMedia>();
    for (let start = 0; start < unique.length; start += RESOLVE_MEDIA_MAX_IDS) {
      const body = { workspace_id: workspaceId, media_ids: unique.slice(start, start + RESOLVE_MEDIA_MAX_IDS) };
      const request: RpcRequest | typeof body = principal
        ? { principal, params: {}, query: {}, body, idempotencyKey: null, clientIp: '' }
        : body;
      const reply = await this.rpc.send<ResolvedMediaList>(MediaPatterns.resolveMedia, request, { timeoutMs: RESOLVE_TIMEOUT_MS });
      // Only the workspace's own items count, whatever the answer holds.
      for (const item of reply.items) if (item.workspace_id === workspaceId) found.set(item.id.toLowerCase(), item);
    }
    return found;
  }
}
