import { FieldError, ProviderApp, PROVIDERS_WITH_INSTANCES, SaveProviderAppRequest } from '@social/contracts';
import { Problem, validateInput } from '@social/platform';
import { v5 as uuidv5 } from 'uuid';

/** Fixed namespace: an environment app keeps its id across restarts and replicas. */
const ENVIRONMENT_APP_NAMESPACE = '5d1c3c52-7d0e-4f51-9a51-0c6b8a7f2e11';

/** The upsert key of provider apps: (provider, instance_url), instance_url "" for providers without instances. */
export const appKey = (provider: string, instanceUrl: string) => `${provider}|${instanceUrl}`;

/**
 * Mastodon servers are named by their origin (lowercase host, no path or
 * trailing slash). undefined when WHATWG URL refuses what @IsUrl accepted
 * (e.g. a U+FFFD in the host).
 */
export function normalizeInstanceUrl(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The instance_url rules of docs/decisions.md (required for mastodon, refused for others), as field errors. */
export function instanceUrlErrors(input: SaveProviderAppRequest, location: string): FieldError[] {
  const needsInstance = PROVIDERS_WITH_INSTANCES.includes(input.provider);
  if (needsInstance && input.instance_url === undefined) return [{ location, message: `is required for ${input.provider}` }];
  if (!needsInstance && input.instance_url !== undefined) {
    return [{ location, message: `must not be set for ${input.provider}`, value: input.instance_url }];
  }
  return [];
}

export interface EnvironmentApp {
  app: ProviderApp;
  /** In clear, from the environment; for the services that will connect accounts. */
  secrets: { client_secret: string; bot_token: string; webhook_secret: string };
}

/** Provider apps from PROVIDER_APPS, keyed by appKey. */
export class EnvironmentProviderApps {
  constructor(readonly byKey: ReadonlyMap<string, EnvironmentApp>) {}

  list(): ProviderApp[] {
    return [...this.byKey.values()].map((entry) => entry.app);
  }

  has(provider: string, instanceUrl: string): boolean {
    return this.byKey.has(appKey(provider, instanceUrl));
  }

  get(provider: string, instanceUrl: string): EnvironmentApp | undefined {
    return this.byKey.get(appKey(provider, instanceUrl));
  }

  isEnvironmentId(id: string): boolean {
    return [...this.byKey.values()].some((entry) => entry.app.id === id);
  }
}

/**
 * PROVIDER_APPS is a JSON array of E3 bodies, checked like E3 bodies at
 * start-up: a malformed one stops the service, naming the entry.
 */
export function parseProviderApps(raw: string | undefined, startedAt = new Date()): EnvironmentProviderApps {
  const byKey = new Map<string, EnvironmentApp>();
  if (!raw) return new EnvironmentProviderApps(byKey);
  let entries: unknown;
  try {
    entries = JSON.parse(raw);
  } catch {
    throw new Error('PROVIDER_APPS must be a JSON array of provider apps');
  }
  if (!Array.isArray(entries)) throw new Error('PROVIDER_APPS must be a JSON array of provider apps');
  entries.forEach((entry, index) => {
    const location = `PROVIDER_APPS[${index}]`;
    let input: SaveProviderAppRequest;
    try {
      input = validateInput(SaveProviderAppRequest, entry, location);
    } catch (error) {
      throw new Error(error instanceof Problem ? error.detail : `${location} is not valid`);
    }
    const errors = instanceUrlErrors(input, `${location}.instance_url`);
    if (errors.length > 0) throw new Error(`${errors[0].location} ${errors[0].message}`);
    const instanceUrl = input.instance_url ? normalizeInstanceUrl(input.instance_url) : '';
    if (instanceUrl === undefined) throw new Error(`${location}.instance_url is not a valid https URL`);
    const key = appKey(input.provider, instanceUrl);
    if (byKey.has(key)) throw new Error(`${location} repeats provider ${input.provider}${instanceUrl ? ` at ${instanceUrl}` : ''}`);
    const at = startedAt.toISOString();
    byKey.set(key, {
      app: {
        id: uuidv5(key, ENVIRONMENT_APP_NAMESPACE),
        provider: input.provider,
        name: input.name ?? input.provider,
        client_id: input.client_id,
        secret_configured: !!input.client_secret,
        bot_token_configured: !!input.bot_token,
        bot_username: '',
        webhook_secret_configured: !!input.webhook_secret,
        redirect_uri: input.redirect_uri ?? '',
        instance_url: instanceUrl,
        connection_mode: input.connection_mode ?? 'oauth',
        is_active: input.is_active ?? true,
        source: 'environment',
        editable: false,
        deletable: false,
        shadowed_by_environment: false,
        created_at: at,
        updated_at: at,
      },
      secrets: { client_secret: input.client_secret ?? '', bot_token: input.bot_token ?? '', webhook_secret: input.webhook_secret ?? '' },
    });
  });
  return new EnvironmentProviderApps(byKey);
}
