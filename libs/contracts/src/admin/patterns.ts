/** NATS subjects served by the admin service (`<service>.<feature>.<verb>`). */
export const ADMIN_SERVICE = 'admin';

export const AdminPatterns = {
  saveProviderApp: 'admin.provider-apps.save',
  listProviderApps: 'admin.provider-apps.list',
  deleteProviderApp: 'admin.provider-apps.delete',
  getInstanceSettings: 'admin.instance-settings.get',
  saveInstanceSettings: 'admin.instance-settings.save',
  listPrompts: 'admin.ai-prompts.list',
  getPrompt: 'admin.ai-prompts.get',
  savePrompt: 'admin.ai-prompts.save',
  resetPrompt: 'admin.ai-prompts.reset',
  listUsers: 'admin.users.list',
  overview: 'admin.overview.get',
  /**
   * Service to service (never forwarded by the gateway): the saved instance
   * setting overrides, secrets decrypted, for `loadInstanceSettings` at start-up.
   */
  settingOverrides: 'admin.instance-settings.overrides',
  /** Service to service: the effective text of a prompt (`<key>@<platform>` falls back to `<key>`). */
  resolvePrompt: 'admin.ai-prompts.resolve',
} as const;

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
