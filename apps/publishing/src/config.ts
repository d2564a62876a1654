import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const publishingSettings = {
  ...serviceSettings,
  /** Seals connected accounts' OAuth tokens at rest (AES-256-GCM). */
  SECRETS_KEY: setting.base64Key(32),
};
export type PublishingConfig = ConfigOf<typeof publishingSettings>;
