import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const creativeSettings = {
  ...serviceSettings,
  /** Keys list cursors (HMAC, keys derived per purpose). */
  SECRETS_KEY: setting.base64Key(32),
  /** The time budget of one page render (image editor export and checkpoint previews); a slower page is 422 `render_budget_exceeded`. */
  RENDER_TIMEOUT_MS: setting.int(100, 10_000, 7_000),
};
export type CreativeConfig = ConfigOf<typeof creativeSettings>;
