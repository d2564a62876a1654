import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const notificationsSettings = {
  ...serviceSettings,
  /** Keys the inbox's list cursors (HMAC, a key derived for that purpose). */
  SECRETS_KEY: setting.secretsKeyring(),
  /** How often a replica looks for daily digests that are due. */
  NOTIFICATIONS_DIGEST_POLL_MS: setting.int(200, 3_600_000, 60_000),
  /** The mail sender's fallback poll when no NOTIFY wakes it (new mail wakes every replica at once). */
  NOTIFICATIONS_EMAIL_POLL_MS: setting.int(50, 60_000, 5_000),
  /** First retry delay after a temporary mail failure, doubling per attempt (with jitter) up to an hour. */
  NOTIFICATIONS_EMAIL_RETRY_BASE_MS: setting.int(100, 600_000, 30_000),
  /** How long a replica holds a claimed mail; a dead replica's mail is taken over after it. */
  NOTIFICATIONS_EMAIL_LEASE_MS: setting.int(10_000, 600_000, 60_000),
};
export type NotificationsConfig = ConfigOf<typeof notificationsSettings>;
