import { PROVIDERS } from '@social/contracts';

/** network → origin that replaces the origin of its server-side OAuth and API URLs. */
export type ProviderApiOrigins = Readonly<Record<string, string>>;

/**
 * `PROVIDER_API_ORIGINS`: a JSON object `{"x": "http://127.0.0.1:8099"}` for
 * tests (a fake network) and egress proxies. Only what this service fetches is
 * redirected (token exchange, profile, API calls); the authorization URL the
 * user's browser opens keeps the network's own origin. Read at start-up; a
 * malformed value stops the service, naming what is wrong.
 */
export function parseProviderApiOrigins(raw: string | undefined, name = 'PROVIDER_API_ORIGINS'): ProviderApiOrigins {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${name} must be a JSON object of network → http(s) origin`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`${name} must be a JSON object of network → http(s) origin`);
  const origins: Record<string, string> = {};
  for (const [network, value] of Object.entries(parsed)) {
    if (!(PROVIDERS as readonly string[]).includes(network)) throw new Error(`${name} names an unknown network "${network}"`);
    let url: URL | undefined;
    try {
      url = typeof value === 'string' ? new URL(value) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol)) throw new Error(`${name}.${network} must be an http(s) origin`);
    origins[network] = url.origin;
  }
  return origins;
}

/**
 * Networks served by another network's servers when they have no origin of their own (contract: Instagram uses the
 * `instagram` origin when given, else the `facebook` one; both are Meta's Graph API).
 */
const ORIGIN_FALLBACKS: Readonly<Record<string, string>> = { instagram: 'facebook' };

/** `url` with its origin replaced by the one configured for the network (or the network it falls back to), if any. */
export function redirectOrigin(origins: ProviderApiOrigins, platform: string, url: string): string {
  const fallback = ORIGIN_FALLBACKS[platform];
  const origin = origins[platform] ?? (fallback ? origins[fallback] : undefined);
  if (!origin) return url;
  const target = new URL(url);
  return `${origin}${target.pathname}${target.search}`;
}
