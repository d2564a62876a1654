import type { Schema } from '@social/sdk';

export type Network = Schema<'SocialAccount'>['platform'];

/** Each network's name as people write it. */
export const NETWORK_NAMES: Record<Network, string> = {
  sandbox: 'Sandbox',
  x: 'X',
  mastodon: 'Mastodon',
  bluesky: 'Bluesky',
  linkedin: 'LinkedIn',
  threads: 'Threads',
  facebook: 'Facebook',
  instagram: 'Instagram',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  discord: 'Discord',
  telegram: 'Telegram',
};

export function networkName(network: string): string {
  return NETWORK_NAMES[network as Network] ?? network;
}
