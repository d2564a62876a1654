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
  /** Keys the HMAC of email-change codes (a 6-digit code needs a secret key, not just a hash). */
  SECRETS_KEY: setting.string(),
  /** Outgoing mail; unset: operations that must send mail answer 503. */
  SMTP_URL: setting.optionalUrl(['smtp', 'smtps']),
  SMTP_FROM: setting.string('Social Platform <no-reply@localhost>'),
  /** The default relying party of passkeys (its host name and origin). */
  PUBLIC_BASE_URL: setting.optionalUrl(['http', 'https']),
  WEBAUTHN_RP_ID: setting.optionalString(),
  WEBAUTHN_ORIGIN: setting.optionalUrl(['http', 'https']),
};

export type AccountsConfig = ConfigOf<typeof accountsSettings>;
