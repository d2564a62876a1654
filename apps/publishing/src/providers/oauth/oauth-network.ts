import type { SettingKey, SocialPlatform } from '@social/contracts';
import { oauthErrorCode, ProviderError } from '../provider-error.js';
import type { ProviderRequest } from '../provider-http.js';
import type { ConnectedIdentity, ConnectOptions, OAuthClient, ProviderGrant } from '../social-provider.js';

/**
 * The settings of one network's OAuth authorization-code grant: endpoints,
 * scopes, client authentication, PKCE, and how to read its token and profile
 * answers. One subclass per network; the generic adapter (OAuthProvider) does
 * the talking, so no shared code branches on a network's name.
 */
export abstract class OAuthNetwork {
  abstract readonly platform: SocialPlatform;
  /** What we ask for: enough to read the profile and publish. */
  abstract readonly scopes: readonly string[];
  /** The boolean instance setting saying the app has the network's optional product; absent when it has none. */
  readonly extensionSetting?: SettingKey;
  /** What that product adds to `scopes` when the setting is on (ConnectOptions.extension). */
  readonly extensionScopes: readonly string[] = [];
  /** How the network wants the scope list joined (RFC 6749 says spaces; Meta and TikTok use commas). */
  readonly scopeSeparator: ' ' | ',' = ' ';
  /** S256 PKCE challenge and verifier. */
  readonly pkce: boolean = false;
  /** How the client proves itself at the token endpoint (RFC 6749 §2.3.1). */
  readonly clientAuthentication: 'client_secret_post' | 'client_secret_basic' = 'client_secret_post';
  /** The name of the client id parameter (TikTok calls it client_key). */
  readonly clientIdParameter: string = 'client_id';
  /** false for networks that accept public clients (PKCE without a secret). */
  readonly requiresClientSecret: boolean = true;
  /** Per-server apps (mastodon): endpoints come from the app's instance_url. */
  readonly hasInstances: boolean = false;
  /** Parameters the network needs beyond RFC 6749's (Google: a refresh token). */
  readonly extraAuthorizationParameters: Readonly<Record<string, string>> = {};

  /** Where the user's browser goes (never redirected by PROVIDER_API_ORIGINS). */
  abstract authorizeEndpoint(client: OAuthClient): string;
  abstract tokenEndpoint(client: OAuthClient): string;
  /** The GET that tells who granted access, sent with the access token as a Bearer. */
  abstract profileEndpoint(client: OAuthClient): string;
  /** The profile answer as our identity; throws ProviderError('unavailable') when it lacks the account id. */
  abstract readProfile(body: unknown, client: OAuthClient): ConnectedIdentity;

  authorizationUrl(
    client: OAuthClient,
    request: { redirectUri: string; state: string; codeChallenge?: string },
    options: ConnectOptions = { extension: false },
  ): string {
    const url = new URL(this.authorizeEndpoint(client));
    const scopes = options.extension ? [...this.scopes, ...this.extensionScopes] : this.scopes;
    url.searchParams.set('response_type', 'code');
    url.searchParams.set(this.clientIdParameter, client.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('scope', scopes.join(this.scopeSeparator));
    url.searchParams.set('state', request.state);
    if (request.codeChallenge) {
      url.searchParams.set('code_challenge', request.codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
    }
    for (const [name, value] of Object.entries(this.extraAuthorizationParameters)) url.searchParams.set(name, value);
    return url.toString();
  }

  tokenRequest(client: OAuthClient, request: { code: string; redirectUri: string; codeVerifier?: string }): ProviderRequest {
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: request.code, redirect_uri: request.redirectUri });
    if (request.codeVerifier) form.set('code_verifier', request.codeVerifier);
    return this.authenticated(client, form);
  }

  /**
   * The request renewing an expiring grant: RFC 6749 §6 (`grant_type=refresh_token`,
   * the client authenticated as for the code); networks that renew another
   * way override it (Meta's long-lived tokens), and networks whose grants
   * cannot be renewed answer undefined. Throws ProviderError('refused')
   * when the grant holds no refresh token: only reconnecting helps.
   */
  refreshRequest(client: OAuthClient, grant: ProviderGrant): ProviderRequest | undefined {
    if (!grant.refreshToken) throw new ProviderError('refused', `The ${this.platform} grant holds no refresh token.`);
    return this.authenticated(client, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: grant.refreshToken }));
  }

  /** A renewal's answer: a grant like a code exchange's, keeping the refresh token when the network did not rotate it (Google). */
  readRefreshedGrant(body: unknown, previous: ProviderGrant, now: Date): ProviderGrant {
    const grant = this.readGrant(body, now);
    if (!grant.refreshToken && previous.refreshToken) grant.refreshToken = previous.refreshToken;
    return grant;
  }

  /** A token-endpoint form with the client's authentication (RFC 6749 §2.3.1). */
  private authenticated(client: OAuthClient, form: URLSearchParams): ProviderRequest {
    const headers: Record<string, string> = {};
    if (this.clientAuthentication === 'client_secret_basic' && client.clientSecret) {
      // RFC 6749 §2.3.1: both parts form-encoded before base64.
      const credentials = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else {
      form.set(this.clientIdParameter, client.clientId);
      if (client.clientSecret) form.set('client_secret', client.clientSecret);
    }
    return { method: 'POST', url: this.tokenEndpoint(client), headers, form };
  }

  /** An RFC 6749 §5.1 token answer; some networks answer 200 with an `error` member, which is a refusal too. */
  readGrant(body: unknown, now: Date): ProviderGrant {
    const token = body as Record<string, unknown> | null;
    if (token && typeof token === 'object' && token.error !== undefined && !token.access_token) {
      throw new ProviderError('refused', `${this.platform} refused the authorization code.`, oauthErrorCode(body));
    }
    const accessToken = text(token?.access_token);
    if (!accessToken) throw new ProviderError('unavailable', `${this.platform} answered the code exchange without an access token.`);
    const grant: ProviderGrant = { accessToken };
    const refreshToken = text(token?.refresh_token);
    if (refreshToken) grant.refreshToken = refreshToken;
    const expiresIn = Number(token?.expires_in);
    if (Number.isFinite(expiresIn) && expiresIn > 0) grant.expiresAt = new Date(now.getTime() + expiresIn * 1000).toISOString();
    const scope = text(token?.scope);
    grant.scopes = scope ? scope.split(/[\s,]+/).filter(Boolean) : [...this.scopes];
    return grant;
  }
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** A string member, or "" (numbers are accepted: some networks send ids as numbers). */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** Follows a path of members through nested objects (`pick(body, 'data', 'user')`); undefined when any is missing. */
export function pick(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** The account id is the one member an identity cannot do without. */
export function requireAccountId(platform: string, id: string): string {
  if (!id) throw new ProviderError('unavailable', `${platform} answered a profile without an account id.`);
  return id;
}

/** Only http(s) URLs become avatar_url (contract: an http(s) URL or ""). */
export function httpUrl(value: unknown): string {
  const candidate = text(value);
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? candidate : '';
  } catch {
    return '';
  }
}
