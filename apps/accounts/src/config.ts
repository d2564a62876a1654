import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const accountsSettings = {
  ...serviceSettings,
  JWT_PRIVATE_KEY: setting.pem('PRIVATE KEY'),
  /** Access-token lifetime in seconds (contract: 15 minutes). */
  ACCESS_TOKEN_TTL_SECONDS: setting.int(60, 3600, 900),
  /** Refresh-token (session) lifetime in days. */
  SESSION_TTL_DAYS: setting.int(1, 365, 30),
  /** Where invitation links point (the web app); `/invite?token=…` is appended. */
  PUBLIC_APP_URL: setting.url(['http', 'https'], 'http://localhost:8080'),
};

export type AccountsConfig = ConfigOf<typeof accountsSettings>;
