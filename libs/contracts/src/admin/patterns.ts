/** NATS subjects served by the admin service (`<service>.<feature>.<verb>`). */
export const ADMIN_SERVICE = 'admin';

/** Service to service only; the operations the gateway forwards are declared in `*.operations.ts`. */
export const AdminPatterns = {
  /**
   * Service to service (never forwarded by the gateway): the saved instance
   * setting overrides, secrets decrypted, for `loadInstanceSettings` at start-up.
   */
  settingOverrides: 'admin.instance-settings.overrides',
  /** Service to service: the effective text of a prompt (`<key>@<platform>` falls back to `<key>`). */
  resolvePrompt: 'admin.ai-prompts.resolve',
  /**
   * Service to service: the provider app in effect for (provider,
   * instance_url), its client secret opened, for the services that connect
   * accounts (`ResolveProviderAppRequest` → `ResolveProviderAppReply`).
   */
  resolveProviderApp: 'admin.provider-apps.resolve',
} as const;

/** Patterns only services call: the gateway has no route to them. */
export const INTERNAL_ADMIN_PATTERNS: readonly string[] = [
  AdminPatterns.settingOverrides,
  AdminPatterns.resolvePrompt,
  AdminPatterns.resolveProviderApp,
];

/**
 * Core NATS subject (fan-out, no queue group) published after every saved
 * change of instance settings; services re-read the settings marked `live`.
 */
export const SETTINGS_CHANGED_SUBJECT = 'events.admin.settings-changed';

export interface SettingsChangedEvent {
  keys: string[];
}

/** Reply of `settingOverrides`: key → saved value (secrets in clear; internal NATS only). */
export interface SettingOverridesReply {
  overrides: Record<string, string>;
}

export interface ResolvePromptRequest {
  /** A catalogue key, e.g. `publication_builds.draft`. */
  key: string;
  /** When given, `<key>@<platform>` is used if the catalogue has it. */
  platform?: string;
}

export interface ResolvedPrompt {
  key: string;
  value: string;
  /** `default_version` of the catalogue entry, or `override:<updated_at>` when overridden. */
  version: string;
  overridden: boolean;
}

export interface ResolveProviderAppRequest {
  provider: string;
  /** The server of providers with instances (mastodon); any form E3 accepts, compared by origin. */
  instance_url?: string;
}

/** The app a service connects accounts with: no bot token or webhook secret, which connecting does not need. */
export interface ResolvedProviderApp {
  id: string;
  provider: string;
  /** Origin of the server (mastodon), "" for other providers. */
  instance_url: string;
  client_id: string;
  /** In clear (internal NATS only); "" when none is configured. */
  client_secret: string;
  /** In clear (internal NATS only); "" when none is configured (telegram: the bot the instance posts as). */
  bot_token: string;
  /** "" for the platform default. */
  redirect_uri: string;
  connection_mode: string;
  source: 'database' | 'environment';
}

/** `app` is null when no app is in effect for the key, or the one in effect is inactive. */
export interface ResolveProviderAppReply {
  app: ResolvedProviderApp | null;
}
