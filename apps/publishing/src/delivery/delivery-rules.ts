import type { NetworkRules } from '../providers/network-rules.js';
import { BLUESKY_RULES } from '../providers/bluesky/bluesky.rules.js';
import { MASTODON_RULES } from '../providers/mastodon/mastodon.rules.js';
import { SANDBOX_RULES } from '../providers/sandbox/sandbox.rules.js';

/**
 * Images for a network without its own table yet: JPEG or PNG, 5 MB and 4,096 px on the long side, the
 * common ground of the networks' documented limits.
 */
const COMMON_IMAGE_RULES: NetworkRules['image'] = { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 5 * 1024 * 1024, maxLongSide: 4_096, maxPixels: 0 };

const TABLES: Record<string, NetworkRules> = { sandbox: SANDBOX_RULES, mastodon: MASTODON_RULES, bluesky: BLUESKY_RULES };

/**
 * The image rules delivery fits images to, per network. The network tables live beside each adapter; this picks
 * the one of `platform` (the registry of every network's table, `rulesFor` in network-rules.ts, takes its place
 * once every network has one).
 */
export function deliveryImageRules(platform: string): NetworkRules['image'] {
  return TABLES[platform]?.image ?? COMMON_IMAGE_RULES;
}
