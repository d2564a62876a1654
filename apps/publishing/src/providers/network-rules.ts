/**
 * Network rules (contract §4 "Network rules"): what one network takes in one
 * post, each value from that network's public documentation. Each network
 * keeps its table beside its adapter (`providers/<network>/<network>.rules.ts`,
 * citing the documents it follows); `rulesFor` is the one registry.
 */

/** How a network counts the length of a post's text. */
export type TextCounting =
  /** User-perceived characters (Bluesky, Mastodon, the sandbox). */
  | 'graphemes'
  /** X's weighted count (URLs 23, CJK and emoji 2). */
  | 'weighted'
  /** UTF-16 code units (most Graph APIs). */
  | 'utf16';

export interface ImageRules {
  /** Types the network takes as they are; others are converted at delivery (e.g. PNG → JPEG). */
  mimeTypes: readonly string[];
  /** Largest file; larger images are re-encoded at delivery, not refused. */
  maxBytes: number;
  /** Longest side in pixels; larger images are resized at delivery, not refused. */
  maxLongSide: number;
  /** Most pixels (width × height); 0 when the network sets no such limit. Larger images are resized. */
  maxPixels: number;
}

export interface VideoRules {
  mimeTypes: readonly string[];
  /** Largest file: a video cannot be re-encoded here, so a larger one is refused. */
  maxBytes: number;
  /** Longest duration; 0 when the network sets none. */
  maxDurationMs: number;
}

export interface NetworkRules {
  text: { maxLength: number; counting: TextCounting };
  /** Attachments of one post (`thumbnail` and `cover` media do not count). */
  attachments: {
    maxImages: number;
    maxVideos: number;
    /** Whether images and a video may share a post. */
    mixed: boolean;
  };
  image: ImageRules;
  /** null when the network takes no video. */
  video: VideoRules | null;
  /** Most characters of one attachment's alt text; 0 when the network takes none (alt text is then dropped, not refused). */
  altTextMaxLength: number;
  /** Whether a post must carry an image or a video (Instagram, TikTok, YouTube). */
  mediaRequired: boolean;
}
