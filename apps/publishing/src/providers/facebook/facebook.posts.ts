import { normalize } from '../graph/graph-answers.js';
import { DEFAULT_RATE_LIMIT_WAIT_MS, graphCode, graphFailure } from '../graph/graph-failure.js';
import { pick, text } from '../oauth/oauth-network.js';
import { ProviderError } from '../provider-error.js';
import { DeliveryError } from '../social-provider.js';

/**
 * "There have been too many calls to this Page account" (Graph "Rate limiting": the Pages business use case limit),
 * which Graph answers with 400 and which graph-failure.ts does not name.
 */
const PAGE_RATE_LIMIT_CODE = 80_001;

/** Where a Page post is seen: Graph's post id is `{page-id}_{post-id}`. */
export function postUrl(postId: string): string {
  const [page, post] = postId.split('_');
  return post ? `https://www.facebook.com/${page}/posts/${post}` : `https://www.facebook.com/${postId}`;
}

/** Where a Page's video is seen. */
export const videoUrl = (pageId: string, videoId: string) => `https://www.facebook.com/${pageId}/videos/${videoId}/`;

/** Runs one Graph call of a delivery; its failure becomes a DeliveryError (graphFailure, plus the Pages rate limit). */
export async function facebookCall<T>(creates: boolean, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderError && graphCode(error) === PAGE_RATE_LIMIT_CODE && (error.call?.status ?? 0) < 500) {
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'provider_rate_limited',
        message: 'facebook limits the calls made for this Page; trying again later.',
        httpStatus: error.call?.status ?? 0,
        retryAfterMs: error.call?.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS,
      });
    }
    throw new DeliveryError(graphFailure(error, 'facebook', creates));
  }
}

/**
 * Whether a listed post (a Page post, or with `video` a Page video) is the one sent: same message (a video's
 * description) and, for a post, as many photos (its attachment: one photo, an album's subattachments, else none).
 */
export function matchesPost(item: unknown, message: string, media: number, video: boolean): boolean {
  if (video) return normalize(text(pick(item, 'description'))) === normalize(message);
  return normalize(text(pick(item, 'message'))) === normalize(message) && photosOf(item) === media;
}

function photosOf(item: unknown): number {
  const attachment = pick(item, 'attachments', 'data', 0);
  if (!attachment) return 0;
  const type = text(pick(attachment, 'media_type')) || text(pick(attachment, 'type'));
  if (type === 'album') {
    const children = pick(attachment, 'subattachments', 'data');
    return Array.isArray(children) ? children.length : 0;
  }
  return type === 'photo' ? 1 : 0;
}
