import { ConfigOf, serviceSettings, setting as platformSetting } from '@social/platform';

/** The retry delays after each failed attempt (contract §10): 8 attempts in all, then the delivery is `failed`. */
export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 10_800_000, 28_800_000];

/** `WEBHOOK_ALLOWED_ORIGINS`: comma-separated origins (`http://127.0.0.1:4100`) reached wherever they are, http allowed. */
export function parseAllowedOrigins(raw: string | undefined, name: string): string[] {
  if (!raw?.trim()) return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`${name} must list origins such as https://hooks.example.com (got "${entry}")`);
      }
      if (!['http:', 'https:'].includes(url.protocol) || url.origin !== entry.replace(/\/+$/, '')) {
        throw new Error(`${name} must list http(s) origins without a path (got "${entry}")`);
      }
      return url.origin;
    });
}

/**
 * `WEBHOOK_RETRY_SCHEDULE_MS`: comma-separated delays in ms replacing the first steps of the schedule
 * (tests use short ones); the steps not given keep their defaults, so the number of attempts never changes.
 */
export function parseRetrySchedule(raw: string | undefined, name: string): number[] {
  if (!raw?.trim()) return DEFAULT_RETRY_SCHEDULE_MS;
  const given = raw.split(',').map((entry) => Number(entry.trim()));
  if (given.length > DEFAULT_RETRY_SCHEDULE_MS.length || given.some((ms) => !Number.isInteger(ms) || ms < 0 || ms > 86_400_000)) {
    throw new Error(`${name} must be at most ${DEFAULT_RETRY_SCHEDULE_MS.length} delays in ms from 0 to 86400000 (got "${raw}")`);
  }
  return DEFAULT_RETRY_SCHEDULE_MS.map((fallback, index) => given[index] ?? fallback);
}

/** The platform's setting readers and the two of webhooks (every `NAME: setting.x()` is a declared setting). */
const setting = {
  ...platformSetting,
  origins: () => parseAllowedOrigins,
  retrySchedule: () => parseRetrySchedule,
};

export const webhooksSettings = {
  ...serviceSettings,
  /** Seals webhook secrets at rest (SecretBox) and keys the deliveries' list cursors. */
  SECRETS_KEY: setting.secretsKeyring(),
  /** Origins a webhook may point at although they are private or plain http (local tools, tests). */
  WEBHOOK_ALLOWED_ORIGINS: setting.origins(),
  /** Retry delays after failed attempts (see parseRetrySchedule). */
  WEBHOOK_RETRY_SCHEDULE_MS: setting.retrySchedule(),
  /** A webhook whose attempts have failed without a success for this long is deactivated (3 days). */
  WEBHOOK_DEACTIVATE_AFTER_MS: setting.int(1_000, 30 * 86_400_000, 3 * 86_400_000),
  /** A receiver must answer within this (10 s). */
  WEBHOOK_TIMEOUT_MS: setting.int(100, 60_000, 10_000),
  /** Deliveries one replica sends at once. */
  WEBHOOK_CONCURRENCY: setting.int(1, 256, 32),
  /** The dispatcher's fallback poll when no NOTIFY wakes it. */
  WEBHOOK_POLL_MS: setting.int(50, 60_000, 5_000),
  /** How long a replica holds a claimed delivery; a dead replica's are taken over after it. */
  WEBHOOK_LEASE_MS: setting.int(1_000, 600_000, 30_000),
};
export type WebhooksConfig = ConfigOf<typeof webhooksSettings>;
