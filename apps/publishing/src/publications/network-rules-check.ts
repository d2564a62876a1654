import type { AttachedMedia, PreviewProblem } from '@social/contracts';
import { rulesFor } from '../providers/network-rules.js';
import { isAttachment, type MediaFacts } from '../media/attached-media.js';
import { countText } from '../delivery/render.js';

/** The problem code of every network rule violation (docs/decisions.md "Network rules"). */
export const NETWORK_RULES_CODE = 'network_rules';

/** One part of a rendition as the check reads it. */
export interface CheckedPart {
  media: AttachedMedia[];
}

const ordinal = (n: number): string => {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
};

const isVideo = (facts: MediaFacts | undefined): boolean => !!facts && facts.mime_type.startsWith('video/');

/**
 * Every way one account's rendition breaks its network's table: attachments (how many, which
 * kinds, mixed or not), videos (type, bytes, duration), alt text, media required, and a text that
 * cannot be split (`textRefusal`, from rendering). What delivery fixes itself is no problem:
 * images over a byte or pixel limit, or of a type the network converts; alt text where the network
 * takes none (dropped). Locations are `renditions.<account>.<member>`, a part's media
 * `renditions.<account>.segments[<part>].media[<index>]`.
 */
export function ruleProblems(
  accountId: string,
  platform: string,
  parts: CheckedPart[],
  facts: ReadonlyMap<string, MediaFacts>,
  textRefusal?: string,
): PreviewProblem[] {
  const rules = rulesFor(platform);
  const problems: PreviewProblem[] = [];
  const at = (member: string) => `renditions.${accountId}.${member}`;
  const add = (member: string, message: string) => problems.push({ location: at(member), code: NETWORK_RULES_CODE, message });
  if (textRefusal) add('body', `the text ${textRefusal}`);
  parts.forEach((part, partIndex) => {
    let images = 0;
    let videos = 0;
    let firstKind: 'image' | 'video' | null = null;
    part.media.forEach((media, index) => {
      const where = `segments[${partIndex}].media[${index}]`;
      const item = facts.get(media.media_id);
      if (rules.altTextMaxLength > 0 && countText(media.alt_text) > rules.altTextMaxLength) {
        add(
          `${where}.alt_text`,
          `is ${countText(media.alt_text)} characters long; ${platform} takes alt text of at most ${rules.altTextMaxLength}`,
        );
      }
      if (!isAttachment(media)) return;
      if (isVideo(item)) {
        videos += 1;
        const video = rules.video;
        if (!video || rules.attachments.maxVideos === 0) {
          add(where, `is a video; ${platform} takes only images in a post`);
          return;
        }
        if (videos > rules.attachments.maxVideos)
          add(where, `is the ${ordinal(videos)} video of the post; ${platform} takes at most ${rules.attachments.maxVideos}`);
        if (!video.mimeTypes.includes(item!.mime_type))
          add(where, `is a ${item!.mime_type} video; ${platform} takes ${video.mimeTypes.join(', ')}`);
        if (video.maxBytes > 0 && item!.size > video.maxBytes)
          add(where, `is ${item!.size} bytes; ${platform} takes videos of at most ${video.maxBytes} bytes`);
        if (video.maxDurationMs > 0 && item!.duration_ms > video.maxDurationMs) {
          add(where, `lasts ${item!.duration_ms} ms; ${platform} takes videos of at most ${video.maxDurationMs} ms`);
        }
        if (firstKind === 'image' && !rules.attachments.mixed)
          add(where, `is a video after images; ${platform} takes either images or a video in one post, not both`);
        firstKind ??= 'video';
        return;
      }
      images += 1;
      if (rules.attachments.maxImages === 0) add(where, `is an image; ${platform} takes no images in a post`);
      else if (images > rules.attachments.maxImages)
        add(where, `is the ${ordinal(images)} image of the post; ${platform} takes at most ${rules.attachments.maxImages}`);
      if (firstKind === 'video' && !rules.attachments.mixed)
        add(where, `is an image after a video; ${platform} takes either images or a video in one post, not both`);
      firstKind ??= 'image';
    });
  });
  if (rules.mediaRequired && !parts.some((part) => part.media.some(isAttachment)))
    add('media', `is empty; ${platform} takes only posts with an image or a video`);
  return problems;
}
