import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const creativeSettings = {
  ...serviceSettings,
  /** Keys list cursors (HMAC, keys derived per purpose). */
  SECRETS_KEY: setting.secretsKeyring(),
  /** How often the sweep purges video projects whose 30 days in the trash are over. */
  CREATIVE_SWEEP_INTERVAL_MS: setting.int(1_000, 3_600_000, 60_000),
  /** The time budget of one page render (image editor export and checkpoint previews); a slower page is 422 `render_budget_exceeded`. */
  RENDER_TIMEOUT_MS: setting.int(100, 10_000, 7_000),
  /** Renders one replica runs at once; more wait up to RENDER_TIMEOUT_MS for a turn, then 503 `render_busy`. */
  RENDER_CONCURRENCY: setting.int(1, 16, 2),
};
export type CreativeConfig = ConfigOf<typeof creativeSettings>;
