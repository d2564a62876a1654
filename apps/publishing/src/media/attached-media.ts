import type { AttachedMedia, AttachedMediaInput, MediaRole, ResolvedMedia } from '@social/contracts';

/** What publishing keeps of a library item (one row of media_facts). */
export type MediaFacts = Omit<ResolvedMedia, 'status' | 'analysis_status'> & { status: string; analysis_status: string };

/** The media as sent, in the order sent (display_order from 0), roles defaulted. */
export function toAttachedList(inputs: readonly AttachedMediaInput[]): AttachedMedia[] {
  return inputs.map((input, index) => ({
    media_id: input.media_id.toLowerCase(),
    alt_text: input.alt_text ?? '',
    role: (input.role ?? 'attachment') as MediaRole,
    display_order: index,
    settings: {},
  }));
}

/** Reads a stored `media` jsonb list as AttachedMedia, skipping anything that is not one (rows written before media were references). */
export function attachedOf(stored: unknown): AttachedMedia[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter(
      (item): item is Record<string, unknown> =>
        !!item && typeof item === 'object' && typeof (item as { media_id?: unknown }).media_id === 'string',
    )
    .map((item, index) => ({
      media_id: item.media_id as string,
      alt_text: typeof item.alt_text === 'string' ? item.alt_text : '',
      role: (typeof item.role === 'string' ? item.role : 'attachment') as MediaRole,
      display_order: Number.isSafeInteger(item.display_order) ? (item.display_order as number) : index,
      settings:
        item.settings && typeof item.settings === 'object' && !Array.isArray(item.settings)
          ? (item.settings as Record<string, unknown>)
          : {},
    }));
}

/** Media that count as attachments of a post (a poster or a link card's image does not). */
export const isAttachment = (media: AttachedMedia): boolean => media.role === 'attachment';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** `width:height` reduced ("4:5", "16:9"); "" when either is unknown. */
export function aspectRatio(width: number, height: number): string {
  if (!(width > 0 && height > 0)) return '';
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
}

/** `gif`, `video` or `image`, from the item's type. */
export function dominantType(mimeType: string): 'image' | 'gif' | 'video' {
  if (mimeType === 'image/gif') return 'gif';
  if (mimeType.startsWith('video/')) return 'video';
  return 'image';
}

/** A library item's content URL, relative to {base_url} (the gateway makes it absolute). */
export const contentPath = (mediaId: string): string => `/media/${mediaId}/content`;

/**
 * PublicationMedia (docs/decisions.md) of one attached item: what the author said about it with the
 * library item's facts. URLs are relative to {base_url}; the gateway prefixes them.
 */
export function toMediaView(attached: AttachedMedia, facts: MediaFacts | undefined) {
  return {
    id: attached.media_id,
    url: contentPath(attached.media_id),
    role: attached.role,
    mime_type: facts?.mime_type ?? '',
    original_filename: facts?.filename ?? '',
    alt_text: attached.alt_text,
    aspect_ratio: facts ? aspectRatio(facts.width, facts.height) : '',
    dominant_type: facts ? dominantType(facts.mime_type) : '',
    analysis_status: facts?.analysis_status ?? 'pending',
    analysis_error: facts?.analysis_error ?? '',
    poster_thumbnail_url: facts?.poster_media_id ? contentPath(facts.poster_media_id) : '',
    public_url_checked_at: facts?.public_url_checked_at ?? '',
    public_url_error: facts?.public_url_error ?? '',
    public_url_status: facts?.public_url_status ?? 0,
    public_url_ready: facts?.public_url_ready ?? false,
    display_order: attached.display_order,
    duration_ms: facts?.duration_ms ?? 0,
    width: facts?.width ?? 0,
    height: facts?.height ?? 0,
    size: facts?.size ?? 0,
    thumbnail_timestamp_ms: facts?.thumbnail_timestamp_ms ?? 0,
    frame_rate: facts?.frame_rate ?? 0,
    settings: attached.settings,
  };
}

/** Every media id the lists name, once each. */
export function mediaIdsOf(lists: Iterable<unknown>): string[] {
  const ids = new Set<string>();
  for (const list of lists) for (const item of attachedOf(list)) ids.add(item.media_id);
  return [...ids];
}
