/**
 * Network rules (docs/decisions.md "Network rules"): what one network takes in one
 * post, each value from that network's public documentation. Each network
 * keeps its table beside its adapter (`providers/<network>/<network>.rules.ts`,
 * citing the documents it follows); `rulesFor` is the one registry.
 */
// Type-only imports back into this file from the tables: no cycle at run time.
import { BLUESKY_RULES } from './bluesky/bluesky.rules.js';
import { DISCORD_RULES } from './discord/discord.rules.js';
import { FACEBOOK_RULES } from './facebook/facebook.rules.js';
import { INSTAGRAM_RULES } from './instagram/instagram.rules.js';
import { LINKEDIN_RULES } from './linkedin/linkedin.rules.js';
import { MASTODON_RULES } from './mastodon/mastodon.rules.js';
import { SANDBOX_RULES } from './sandbox/sandbox.rules.js';
import { TELEGRAM_RULES } from './telegram/telegram.rules.js';
import { THREADS_RULES } from './threads/threads.rules.js';
import { TIKTOK_RULES } from './tiktok/tiktok.rules.js';
import { X_RULES } from './x/x.rules.js';
import { YOUTUBE_RULES } from './youtube/youtube.rules.js';

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
  text: {
    /** Most characters of one post, counted as `counting` says. */
    maxLength: number;
    counting: TextCounting;
    /**
     * Whether a long text or several segments become several posts in order: a thread of replies, or consecutive
     * messages where the network has no replies (Discord, Telegram); else one post, refused when too long.
     */
    threads: boolean;
    /** Whether a link is given beside the text (a card) rather than appended to it. */
    linkCard: boolean;
  };
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

/** Every network's table, by the provider registry's platform names. */
const RULES: Readonly<Record<string, NetworkRules>> = {
  sandbox: SANDBOX_RULES,
  mastodon: MASTODON_RULES,
  bluesky: BLUESKY_RULES,
  x: X_RULES,
  linkedin: LINKEDIN_RULES,
  threads: THREADS_RULES,
  facebook: FACEBOOK_RULES,
  instagram: INSTAGRAM_RULES,
  tiktok: TIKTOK_RULES,
  youtube: YOUTUBE_RULES,
  discord: DISCORD_RULES,
  telegram: TELEGRAM_RULES,
};

/** The platforms that have a table (every provider the registry knows). */
export const RULED_PLATFORMS: readonly string[] = Object.keys(RULES);

/**
 * The table of a platform. A platform without one (none today) gets the strictest common
 * denominator: short text, no threads, one image, no video.
 */
export function rulesFor(platform: string): NetworkRules {
  return RULES[platform] ?? FALLBACK_RULES;
}

const FALLBACK_RULES: NetworkRules = {
  text: { maxLength: 280, counting: 'graphemes', threads: false, linkCard: false },
  attachments: { maxImages: 1, maxVideos: 0, mixed: false },
  image: { mimeTypes: ['image/jpeg'], maxBytes: 1_000_000, maxLongSide: 2_000, maxPixels: 0 },
  video: null,
  altTextMaxLength: 0,
  mediaRequired: false,
};
