import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const creativeSettings = {
  ...serviceSettings,
  /** Keys list cursors (HMAC, keys derived per list). */
  SECRETS_KEY: setting.base64Key(32),
  /** How often the sweep purges video projects whose 30 days in the trash are over. */
  CREATIVE_SWEEP_INTERVAL_MS: setting.int(1_000, 3_600_000, 60_000),
};
export type CreativeConfig = ConfigOf<typeof creativeSettings>;
