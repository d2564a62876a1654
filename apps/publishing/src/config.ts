import { ConfigOf, serviceSettings, setting } from '@social/platform';
import { parseProviderApiOrigins } from './providers/provider-api-origins.js';

export const publishingSettings = {
  ...serviceSettings,
  /** Seals connected accounts' OAuth tokens at rest (AES-256-GCM). */
  SECRETS_KEY: setting.secretsKeyring(),
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
  /**
   * `true` lets the service call networks' servers on private, loopback and
   * link-local addresses (self-hosted servers inside the same network). Off,
   * only PROVIDER_API_ORIGINS may point there: users name servers (a Bluesky
   * PDS), and must not be able to aim the service inside our network.
   */
  PROVIDER_ALLOW_PRIVATE_ADDRESSES: setting.oneOf(['true', 'false'] as const, 'false'),
  /**
   * How long a replica holds a rendition it claimed without renewing the lease
   * (it renews every third of it while the call runs); a replica that died is
   * taken over once it expires.
   */
  DELIVERY_LEASE_MS: setting.int(1_000, 600_000, 60_000),
  /** Fallback poll of the scheduler when no NOTIFY wakes it (a due time reached, a lost listener). */
  DELIVERY_POLL_MS: setting.int(50, 60_000, 5_000),
  /** Renditions one replica delivers at once. */
  DELIVERY_CONCURRENCY: setting.int(1, 500, 32),
  /** First retry delay after a retryable error; doubles per attempt, with jitter (the network's Retry-After wins when longer). */
  DELIVERY_RETRY_BASE_MS: setting.int(100, 600_000, 2_000),
};
export type PublishingConfig = ConfigOf<typeof publishingSettings>;
