import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const mediaSettings = {
  ...serviceSettings,
  /** Keys list cursors and the upload URLs' tokens (HMAC, keys derived per purpose). */
  SECRETS_KEY: setting.secretsKeyring(),
  /** How often the sweep looks for expired upload sessions (their rows and partial objects go). */
  MEDIA_SWEEP_INTERVAL_MS: setting.int(1_000, 3_600_000, 60_000),
};
export type MediaConfig = ConfigOf<typeof mediaSettings>;
