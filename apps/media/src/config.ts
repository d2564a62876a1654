import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const mediaSettings = {
  ...serviceSettings,
  /** Keys list cursors and the upload URLs' tokens (HMAC, keys derived per purpose). */
  SECRETS_KEY: setting.base64Key(32),
  /** How often the sweep looks for expired upload sessions (their rows and partial objects go). */
  MEDIA_SWEEP_INTERVAL_MS: setting.int(1_000, 3_600_000, 60_000),
  /** Bytes a workspace may hold: ready items plus the declared size of open upload sessions (contract §6, default 10 GiB). */
  MEDIA_WORKSPACE_QUOTA_BYTES: setting.int(1, Number.MAX_SAFE_INTEGER, 10 * 1024 ** 3),
};
export type MediaConfig = ConfigOf<typeof mediaSettings>;
