import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, IsUUID, MaxLength, Min } from 'class-validator';

/** At most this many ids per media.library.resolve request. */
export const RESOLVE_MEDIA_MAX_IDS = 100;
/** Public copies' URLs expire after 24 hours. */
export const PUBLIC_MEDIA_URL_TTL_MS = 24 * 60 * 60 * 1000;
export const MEDIA_ANALYSIS_STATUSES = ['pending', 'ready', 'failed'] as const;
export type MediaAnalysisStatus = (typeof MEDIA_ANALYSIS_STATUSES)[number];

const UUID_MESSAGE = { message: '$property must be a UUID' };

/** media.library.resolve (service to service). */
export class ResolveMediaRequest {
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  /** Ids that are not UUIDs, unknown, deleted or another workspace's are simply absent from the answer. */
  @IsArray()
  @ArrayMaxSize(RESOLVE_MEDIA_MAX_IDS)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  media_ids: string[];
}

/** One library item as other services see it (media.library.resolve), with its analysis and public-copy state. */
export interface ResolvedMedia {
  id: string;
  workspace_id: string;
  status: 'pending' | 'ready';
  filename: string;
  /** Sniffed at completion ("" while pending). */
  mime_type: string;
  size: number;
  sha256: string;
  width: number;
  height: number;
  duration_ms: number;
  /** Frames per second of a video (probed); 0 otherwise. */
  frame_rate: number;
  analysis_status: MediaAnalysisStatus;
  /** Why the analysis failed; "" otherwise. */
  analysis_error: string;
  /** A video's poster frame (a JPEG item of its own, content at /media/{id}/content); "" when none. */
  poster_media_id: string;
  /** Where in the video the poster was taken (ms); 0 without a poster. */
  thumbnail_timestamp_ms: number;
  /** Where the bytes are in media storage. */
  object_key: string;
  /** A public URL can be issued and PUBLIC_BASE_URL is neither a loopback nor a private address. */
  public_url_ready: boolean;
  /** HTTP status of the last self-check of the item's public URL (0 before any). */
  public_url_status: number;
  /** RFC 3339 of the last self-check; "" before any. */
  public_url_checked_at: string;
  /** Why the last self-check failed, or why no URL a network can fetch can be issued; "" otherwise. */
  public_url_error: string;
}

export interface ResolvedMediaList {
  items: ResolvedMedia[];
}

/** media.public-urls.issue (service to service). */
export class IssuePublicUrlRequest {
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @IsUUID('all', UUID_MESSAGE)
  media_id: string;
}

/** Image types a delivery copy may have (what networks that fetch by URL take). */
export const DELIVERY_COPY_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

/**
 * media.delivery-copies.share (service to service): publishing stored the bytes a network receives of an image at
 * `deliveryCopyKey(workspace_id, media_id, copy_id)` and asks for a public URL of them.
 */
export class ShareDeliveryCopyRequest {
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @IsUUID('all', UUID_MESSAGE)
  media_id: string;

  @IsUUID('all', UUID_MESSAGE)
  copy_id: string;

  @IsIn(DELIVERY_COPY_MIME_TYPES)
  mime_type: string;

  @IsInt()
  @Min(1)
  size: number;
}

/** `{base_url}/media/public/{token}`, no bearer token needed, until `expires_at` (RFC 3339, 24 h). */
export interface PublicMediaUrl {
  url: string;
  expires_at: string;
}

/** The gateway's question after checking a public URL's token (media.public-urls.content). */
export interface PublicContentRequest {
  media_id: string;
}

/** Payload of MEDIA_ITEM_ANALYSED_SUBJECT: the item as resolved (without its storage key); `event_id` is the idempotency key. */
export type MediaItemAnalysedEvent = Omit<ResolvedMedia, 'object_key'> & { event_id: string };
