import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const adminSettings = {
  ...serviceSettings,
  /** 32 bytes, base64: seals provider-app secrets and secret instance settings (AES-256-GCM). */
  SECRETS_KEY: setting.secretsKeyring(),
  /**
   * Provider apps configured through the environment: a JSON array of E3
   * bodies. They are listed with `source: environment`, cannot be edited or
   * deleted, and shadow a database app with the same (provider, instance_url).
   */
  PROVIDER_APPS: setting.optionalString(),
};

export type AdminConfig = ConfigOf<typeof adminSettings>;
