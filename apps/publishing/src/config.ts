import { ConfigOf, serviceSettings, setting } from '@social/platform';
import { parseProviderApiOrigins } from './providers/provider-api-origins.js';

export const publishingSettings = {
  ...serviceSettings,
  /** Seals connected accounts' OAuth tokens at rest (AES-256-GCM). */
  SECRETS_KEY: setting.base64Key(32),
  /**
   * What one AI-backed request may spend from its start, lookups, prompt and
   * retry included (then 504 ai_timeout); below the gateway's 10 s, so the
   * client hears our answer, not the gateway's.
   */
  AI_TIMEOUT_MS: setting.int(100, 120_000, 8_000),
  /** E16 requests one user may make per minute, across replicas (each one is a paid model call). */
  RATE_LIMIT_ANGLES_PER_MINUTE: setting.int(1, 100_000, 30),
  /** Network → origin replacing that network's server-side OAuth/API origin (tests, egress proxies); unset: the networks themselves. */
  PROVIDER_API_ORIGINS: (raw: string | undefined, name: string) => parseProviderApiOrigins(raw, name),
  /**
   * Time one request may spend talking to a network (the OAuth callback's code
   * exchange and profile read together), kept below the gateway's timeout.
   */
  PROVIDER_TIMEOUT_MS: setting.int(500, 9_000, 6_000),
};
export type PublishingConfig = ConfigOf<typeof publishingSettings>;
