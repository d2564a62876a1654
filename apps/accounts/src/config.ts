import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const accountsSettings = {
  ...serviceSettings,
  JWT_PRIVATE_KEY: setting.pem('PRIVATE KEY'),
  /** Access-token lifetime in seconds (contract: 15 minutes). */
  ACCESS_TOKEN_TTL_SECONDS: setting.int(60, 3600, 900),
  /** Registrations allowed per client address per hour (docs/decisions.md). */
  REGISTRATION_RATE_LIMIT_PER_HOUR: setting.int(1, 1_000_000, 20),
  /** Refresh-token (session) lifetime in days. */
  SESSION_TTL_DAYS: setting.int(1, 365, 30),
  // SMTP_URL, SMTP_FROM and PUBLIC_APP_URL are instance settings (smtp_url, smtp_from,
  // public_app_url): MailSettings (libs/platform/src/mail/mail-settings.ts).
  /** Keys the HMAC of email-change codes (a 6-digit code needs a secret key, not just a hash). */
  SECRETS_KEY: setting.secretsKeyring(),
  /** The default relying party of passkeys (its host name and origin). */
  PUBLIC_BASE_URL: setting.optionalUrl(['http', 'https']),
  WEBAUTHN_RP_ID: setting.optionalString(),
  WEBAUTHN_ORIGIN: setting.optionalUrl(['http', 'https']),
};

export type AccountsConfig = ConfigOf<typeof accountsSettings>;
