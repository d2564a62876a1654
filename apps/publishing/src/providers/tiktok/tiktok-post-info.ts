import { rejected } from '../delivery-failure.js';
import { pick, text } from '../oauth/oauth-network.js';
import { partText } from '../outgoing-text.js';
import type { OutgoingPost, OutgoingPostPart } from '../social-provider.js';

/** What `POST /v2/post/publish/creator_info/query/` says the creator may do now. */
export interface CreatorInfo {
  username: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  /** 0 when TikTok did not say. */
  maxVideoPostDurationSec: number;
}

/** The privacy a post gets when its settings name none and the creator may use it. */
export const DEFAULT_PRIVACY_LEVEL = 'PUBLIC_TO_EVERYONE';
/** Caption bounds in UTF-16 units (Direct Post: a video's title 2,200; Photo: title 90, description 4,000). */
const VIDEO_TITLE_MAX = 2_200;
const PHOTO_TITLE_MAX = 90;
const PHOTO_DESCRIPTION_MAX = 4_000;

export function readCreatorInfo(body: unknown): CreatorInfo {
  const data = pick(body, 'data');
  const options = pick(data, 'privacy_level_options');
  const seconds = pick(data, 'max_video_post_duration_sec');
  return {
    username: text(pick(data, 'creator_username')),
    privacyLevelOptions: Array.isArray(options) ? options.map(text).filter(Boolean) : [],
    commentDisabled: pick(data, 'comment_disabled') === true,
    duetDisabled: pick(data, 'duet_disabled') === true,
    stitchDisabled: pick(data, 'stitch_disabled') === true,
    maxVideoPostDurationSec: typeof seconds === 'number' && seconds > 0 ? seconds : 0,
  };
}

/** A boolean setting of the rendition (`disable_comment`, `is_aigc`…); false when absent or not a boolean. */
const flag = (post: OutgoingPost, name: string) => post.settings?.[name] === true;

/**
 * The post's privacy level: `settings.privacy_level` when the creator may use it, else (none given)
 * PUBLIC_TO_EVERYONE when the creator may use it, else the first option TikTok lists. A level the creator may not
 * use is refused here, naming the ones allowed, before anything is sent.
 */
export function privacyLevel(creator: CreatorInfo, post: OutgoingPost): string {
  const asked = post.settings?.privacy_level;
  const allowed = creator.privacyLevelOptions;
  if (allowed.length === 0) throw rejected('privacy_level_unavailable', 'tiktok named no privacy level this creator may post with.');
  if (asked === undefined || asked === null || asked === '')
    return allowed.includes(DEFAULT_PRIVACY_LEVEL) ? DEFAULT_PRIVACY_LEVEL : allowed[0];
  if (typeof asked !== 'string' || !allowed.includes(asked)) {
    throw rejected(
      'privacy_level_option_mismatch',
      `tiktok does not let this creator post with privacy level ${JSON.stringify(asked)}; allowed: ${allowed.join(', ')}.`,
    );
  }
  return asked;
}

/** What every post_info carries: privacy, comments, and the commercial-content and AI disclosures. */
function commonInfo(creator: CreatorInfo, post: OutgoingPost): Record<string, unknown> {
  const privacy = privacyLevel(creator, post);
  const branded = flag(post, 'brand_content_toggle');
  // TikTok: branded content cannot be private ("Branded content visibility cannot be set to private").
  if (branded && privacy === 'SELF_ONLY')
    throw rejected('invalid_params', 'tiktok does not take branded content that only the creator sees.');
  return {
    privacy_level: privacy,
    // A creator who turned comments off in TikTok keeps them off, whatever the post asks.
    disable_comment: flag(post, 'disable_comment') || creator.commentDisabled,
    brand_content_toggle: branded,
    brand_organic_toggle: flag(post, 'brand_organic_toggle'),
  };
}

/** post_info of a video (Direct Post): the whole caption as its title; duets and stitches as the post and the creator allow. */
export function videoPostInfo(creator: CreatorInfo, post: OutgoingPost, part: OutgoingPostPart): Record<string, unknown> {
  return {
    title: truncate(partText(part), VIDEO_TITLE_MAX),
    ...commonInfo(creator, post),
    disable_duet: flag(post, 'disable_duet') || creator.duetDisabled,
    disable_stitch: flag(post, 'disable_stitch') || creator.stitchDisabled,
    is_aigc: flag(post, 'is_aigc'),
  };
}

/** post_info of a photo post (Photo): the part's title (90 units) and its text with the link as the description. */
export function photoPostInfo(creator: CreatorInfo, post: OutgoingPost, part: OutgoingPostPart): Record<string, unknown> {
  const description = partText({ ...part, title: '' });
  return {
    ...(part.title ? { title: truncate(part.title, PHOTO_TITLE_MAX) } : {}),
    ...(description ? { description: truncate(description, PHOTO_DESCRIPTION_MAX) } : {}),
    ...commonInfo(creator, post),
    ...(typeof post.settings?.auto_add_music === 'boolean' ? { auto_add_music: post.settings.auto_add_music } : {}),
  };
}

/** At most `max` UTF-16 units, never cutting a surrogate pair (the rules table already bounds the text). */
function truncate(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
