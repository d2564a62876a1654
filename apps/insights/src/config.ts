import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const insightsSettings = {
  ...serviceSettings,
  /** Keys E24's cursors (HMAC, a key derived for the purpose). */
  SECRETS_KEY: setting.secretsKeyring(),
  /** The sync worker's fallback poll when no NOTIFY wakes it. */
  INSIGHTS_POLL_MS: setting.int(50, 60_000, 5_000),
  /** Sync jobs one replica runs at once. */
  INSIGHTS_CONCURRENCY: setting.int(1, 500, 16),
  /** How long a replica holds a claimed job without renewing; a dead replica's jobs are taken over after it. */
  INSIGHTS_LEASE_MS: setting.int(1_000, 600_000, 60_000),
};
export type InsightsConfig = ConfigOf<typeof insightsSettings>;
