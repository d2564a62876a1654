/**
 * The instance settings registry (docs/decisions.md): every optional setting an
 * instance administrator may override through E5, defined once in code.
 * Effective value at a service's start-up: database override, else the first
 * environment variable set, else the default. `live` settings are also
 * re-read by the services that use them when they change (no restart).
 */
export const SETTING_TYPES = ['boolean', 'integer', 'string', 'secret', 'url', 'email', 'enum', 'list'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

export interface SettingDefinition {
  key: string;
  group: string;
  label: string;
  description: string;
  type: SettingType;
  /** `enum` only. */
  options?: ReadonlyArray<{ label: string; value: string }>;
  /** May be empty ("" = not configured); a required setting always has a value. */
  optional: boolean;
  /** Read in this order when there is no database override. */
  environment_variables: readonly string[];
  /** As a string, like every value on the wire; "" for none. */
  default: string;
  /** `integer` bounds. */
  min?: number;
  max?: number;
  /** Applied without a restart (services listen for SETTINGS_CHANGED_SUBJECT). */
  live: boolean;
  /** The service that applies the setting (InstanceSetting.managed_by). */
  applied_by: string;
}

const MIB = 1024 * 1024;

export const SETTINGS_REGISTRY = [
  {
    key: 'registration_enabled',
    group: 'registration',
    label: 'Open registration',
    description: 'Whether anyone may register once an instance administrator exists (403 registration_disabled when off). Applies at once.',
    type: 'boolean',
    optional: false,
    environment_variables: ['REGISTRATION_ENABLED'],
    default: 'true',
    live: true,
    applied_by: 'accounts',
  },
  {
    key: 'public_base_url',
    group: 'public_urls',
    label: 'Public API address',
    description: 'The {base_url} clients use (also the origin of $schema URLs).',
    type: 'url',
    optional: true,
    environment_variables: ['PUBLIC_BASE_URL'],
    default: '',
    live: false,
    applied_by: 'gateway',
  },
  {
    key: 'public_app_url',
    group: 'public_urls',
    label: 'Public app address',
    description: 'Where invitation and other emailed links point (accounts appends /invite?token=…); without it, PUBLIC_BASE_URL.',
    type: 'url',
    optional: false,
    environment_variables: ['PUBLIC_APP_URL', 'PUBLIC_BASE_URL'],
    default: 'http://localhost:8080',
    live: false,
    applied_by: 'accounts',
  },
  {
    key: 'smtp_url',
    group: 'smtp',
    label: 'SMTP server',
    description:
      'smtp(s)://USER:PASSWORD@HOST:PORT for outgoing mail (email-change codes, invitations); ' +
      'a secret because it carries the password. Unset, operations that must send mail answer 503.',
    type: 'secret',
    optional: true,
    environment_variables: ['SMTP_URL'],
    default: '',
    live: false,
    applied_by: 'accounts',
  },
  {
    key: 'smtp_from',
    group: 'smtp',
    label: 'Sender address',
    description: 'The From address of outgoing mail: an address, or Name <address>.',
    type: 'email',
    optional: false,
    environment_variables: ['SMTP_FROM'],
    default: 'Social Platform <no-reply@localhost>',
    live: false,
    applied_by: 'accounts',
  },
  {
    key: 'ai_base_url',
    group: 'ai',
    label: 'AI provider base URL',
    description:
      'An OpenAI-compatible chat-completions endpoint (POST {base}/chat/completions); ' +
      'unset, AI features answer 503 ai_not_configured. Applies at once.',
    type: 'url',
    optional: true,
    environment_variables: ['AI_BASE_URL'],
    default: '',
    live: true,
    applied_by: 'publishing',
  },
  {
    key: 'ai_api_key',
    group: 'ai',
    label: 'AI provider API key',
    description: 'Sent as the bearer token to the AI provider. Applies at once.',
    type: 'secret',
    optional: true,
    environment_variables: ['AI_API_KEY'],
    default: '',
    live: true,
    applied_by: 'publishing',
  },
  {
    key: 'ai_model',
    group: 'ai',
    label: 'AI model',
    description: 'The model name passed to the AI provider; unset, AI features answer 503 ai_not_configured. Applies at once.',
    type: 'string',
    optional: true,
    environment_variables: ['AI_MODEL'],
    default: '',
    live: true,
    applied_by: 'publishing',
  },
  {
    key: 'media_storage_driver',
    group: 'media',
    label: 'Media storage',
    description: 'Where uploaded media is kept: the NATS JetStream object store, or S3-compatible storage (needs the S3 settings).',
    type: 'enum',
    options: [
      { label: 'NATS object store', value: 'nats' },
      { label: 'S3-compatible storage', value: 's3' },
    ],
    optional: false,
    environment_variables: ['MEDIA_STORAGE_DRIVER'],
    default: 'nats',
    live: false,
    applied_by: 'media',
  },
  {
    key: 's3_endpoint',
    group: 'media',
    label: 'S3 endpoint',
    description: 'The S3-compatible endpoint, e.g. https://s3.eu-west-1.amazonaws.com.',
    type: 'url',
    optional: true,
    environment_variables: ['S3_ENDPOINT'],
    default: '',
    live: false,
    applied_by: 'media',
  },
  {
    key: 's3_bucket',
    group: 'media',
    label: 'S3 bucket',
    description: 'The bucket media objects are written to.',
    type: 'string',
    optional: true,
    environment_variables: ['S3_BUCKET'],
    default: '',
    live: false,
    applied_by: 'media',
  },
  {
    key: 's3_region',
    group: 'media',
    label: 'S3 region',
    description: 'The region of the bucket.',
    type: 'string',
    optional: true,
    environment_variables: ['S3_REGION'],
    default: '',
    live: false,
    applied_by: 'media',
  },
  {
    key: 's3_access_key_id',
    group: 'media',
    label: 'S3 access key id',
    description: 'The access key id for the bucket.',
    type: 'string',
    optional: true,
    environment_variables: ['S3_ACCESS_KEY_ID'],
    default: '',
    live: false,
    applied_by: 'media',
  },
  {
    key: 's3_secret_access_key',
    group: 'media',
    label: 'S3 secret access key',
    description: 'The secret access key for the bucket.',
    type: 'secret',
    optional: true,
    environment_variables: ['S3_SECRET_ACCESS_KEY'],
    default: '',
    live: false,
    applied_by: 'media',
  },
  {
    key: 'media_upload_limit_bytes',
    group: 'media',
    label: 'Upload limit (images and other files)',
    description: 'Largest upload that is not a video, in bytes (413 above).',
    type: 'integer',
    optional: false,
    environment_variables: ['MEDIA_UPLOAD_LIMIT_BYTES'],
    default: String(50 * MIB),
    min: 1,
    max: 4 * 1024 * MIB,
    live: false,
    applied_by: 'media',
  },
  {
    key: 'media_video_upload_limit_bytes',
    group: 'media',
    label: 'Upload limit (videos)',
    description: 'Largest video upload, in bytes (413 above).',
    type: 'integer',
    optional: false,
    environment_variables: ['MEDIA_VIDEO_UPLOAD_LIMIT_BYTES'],
    default: String(4 * 1024 * MIB),
    min: 1,
    max: 64 * 1024 * MIB,
    live: false,
    applied_by: 'media',
  },
  {
    key: 'media_allowed_mime_types',
    group: 'media',
    label: 'Allowed media types',
    description: 'Comma-separated MIME types accepted for upload; empty accepts every type the media service supports.',
    type: 'list',
    optional: true,
    environment_variables: ['MEDIA_ALLOWED_MIME_TYPES'],
    default: '',
    live: false,
    applied_by: 'media',
  },
  {
    key: 'sandbox_provider_enabled',
    group: 'providers',
    label: 'Sandbox provider',
    description: 'Whether workspaces may connect accounts of the built-in sandbox network (for trials and tests).',
    type: 'boolean',
    optional: false,
    environment_variables: ['SANDBOX_PROVIDER_ENABLED'],
    default: 'true',
    live: false,
    applied_by: 'publishing',
  },
  {
    key: 'linkedin_organization_pages',
    group: 'providers',
    label: 'LinkedIn organization pages',
    description:
      'The LinkedIn app has the Community Management API product: connecting LinkedIn also asks for w_organization_social and ' +
      'r_organization_admin and connects every organization page the member administers, as an account of its own. Off unless ' +
      'the app has that product: LinkedIn refuses the whole sign-in when asked for scopes the app lacks.',
    type: 'boolean',
    optional: false,
    environment_variables: ['LINKEDIN_ORGANIZATION_PAGES'],
    default: 'false',
    // Read at each connect and callback, nothing kept: a change applies to the next connection.
    live: true,
    applied_by: 'publishing',
  },
  {
    key: 'instagram_facebook_login',
    group: 'providers',
    label: 'Instagram through Facebook Login',
    description:
      'Instagram connects through Facebook Login (the app has the "Instagram API with Facebook Login" product) instead of ' +
      'Instagram Login: the person signs in with Facebook and every professional Instagram account linked to one of their ' +
      'Pages becomes an account of its own, published to with its Page token. Off: Instagram Login, one account per sign-in.',
    type: 'boolean',
    optional: false,
    environment_variables: ['INSTAGRAM_FACEBOOK_LOGIN'],
    default: 'false',
    // Read at each connect and callback, nothing kept: a change applies to the next connection.
    live: true,
    applied_by: 'publishing',
  },
  {
    key: 'rate_limit_login_per_email',
    group: 'rate_limits',
    label: 'Sign-in attempts per email',
    description: 'Sign-in attempts allowed per email address in 15 minutes.',
    type: 'integer',
    optional: false,
    environment_variables: ['RATE_LIMIT_LOGIN_PER_EMAIL'],
    default: '10',
    min: 1,
    max: 100_000,
    live: false,
    applied_by: 'accounts',
  },
  {
    key: 'rate_limit_login_per_ip',
    group: 'rate_limits',
    label: 'Sign-in attempts per client address',
    description: 'Sign-in attempts allowed per client address in 15 minutes.',
    type: 'integer',
    optional: false,
    environment_variables: ['RATE_LIMIT_LOGIN_PER_IP'],
    default: '20',
    min: 1,
    max: 100_000,
    live: false,
    applied_by: 'accounts',
  },
  {
    key: 'rate_limit_register_per_email',
    group: 'rate_limits',
    label: 'Registrations per email',
    description: 'Registration attempts allowed per email address in an hour.',
    type: 'integer',
    optional: false,
    environment_variables: ['RATE_LIMIT_REGISTER_PER_EMAIL'],
    default: '5',
    min: 1,
    max: 100_000,
    live: false,
    applied_by: 'accounts',
  },
] as const satisfies readonly SettingDefinition[];

export type SettingKey = (typeof SETTINGS_REGISTRY)[number]['key'];

const BY_KEY = new Map<string, SettingDefinition>(SETTINGS_REGISTRY.map((s) => [s.key, s]));

export function settingDefinition(key: string): SettingDefinition | undefined {
  return BY_KEY.get(key);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** `Name <address>`, as a From header takes it (the host may be a bare name there, e.g. localhost). */
const NAMED_EMAIL = /^[^<>@\n]*<[^\s@<>]+@[^\s@<>]+>$/;
export const SETTING_VALUE_MAX_LENGTH = 4096;

/**
 * Why `value` is not a valid value of the setting, or undefined when it is.
 * Values are strings in every type (`"true"`, `"25"`); "" means "none" and is
 * allowed for optional settings only.
 */
export function settingValueError(definition: SettingDefinition, value: string): string | undefined {
  if (value.length > SETTING_VALUE_MAX_LENGTH) return `must be at most ${SETTING_VALUE_MAX_LENGTH} characters`;
  if (value === '') return definition.optional ? undefined : 'must not be empty for this setting';
  switch (definition.type) {
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : 'must be "true" or "false"';
    case 'integer': {
      const min = definition.min ?? Number.MIN_SAFE_INTEGER;
      const max = definition.max ?? Number.MAX_SAFE_INTEGER;
      const n = Number(value);
      return /^-?\d+$/.test(value) && n >= min && n <= max ? undefined : `must be an integer from ${min} to ${max}, as a string`;
    }
    case 'url': {
      try {
        const url = new URL(value);
        return ['http:', 'https:'].includes(url.protocol) ? undefined : 'must be an http(s) URL';
      } catch {
        return 'must be an http(s) URL';
      }
    }
    case 'email':
      return EMAIL.test(value) || NAMED_EMAIL.test(value) ? undefined : 'must be an email address';
    case 'enum':
      return definition.options?.some((o) => o.value === value)
        ? undefined
        : `must be one of ${(definition.options ?? []).map((o) => o.value).join(', ')}`;
    case 'list':
      return value.split(',').every((item) => item.trim() !== '') ? undefined : 'must be comma-separated non-empty items';
    case 'string':
    case 'secret':
      return value.trim() === '' ? 'must not be blank' : undefined;
  }
}
