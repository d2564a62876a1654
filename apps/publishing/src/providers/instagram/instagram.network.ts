import { ProviderError } from '../provider-error.js';
import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ProviderRequest } from '../provider-http.js';
import type { ConnectedIdentity, ConnectOptions, OAuthClient, ProviderGrant } from '../social-provider.js';
import { InstagramFacebookLoginNetwork } from './instagram-facebook-login.js';

/**
 * The Instagram API version every Graph call names (README.md beside this file, "API version"): pinned, so the
 * shapes the adapter was checked against cannot change under it.
 */
export const INSTAGRAM_API_VERSION = 'v27.0';
const GRAPH = 'https://graph.instagram.com';

/**
 * Instagram professional accounts (Instagram API with Instagram Login). Its
 * token answer wraps the grant in `data[0]` and lists `permissions` rather
 * than `scope`; older apps got it unwrapped, which is read as well.
 */
export class InstagramNetwork extends OAuthNetwork {
  readonly platform = 'instagram';
  /** Publishing, and what the adapter reads or writes besides: media insights (metrics) and comments (the first comment). */
  readonly scopes = [
    'instagram_business_basic',
    'instagram_business_content_publish',
    'instagram_business_manage_insights',
    'instagram_business_manage_comments',
  ];
  override readonly scopeSeparator = ',';
  /** On: the app has "Instagram API with Facebook Login", and the person signs in with Facebook instead (`facebookLogin`). */
  override readonly extensionSetting = 'instagram_facebook_login';
  /** Facebook Login on Instagram's behalf: its dialog, code exchange and Pages listing. */
  readonly facebookLogin = new InstagramFacebookLoginNetwork();

  /** Instagram Login's authorization URL; Facebook's dialog with Instagram's permissions when the extension setting is on. */
  override authorizationUrl(
    client: OAuthClient,
    request: { redirectUri: string; state: string; codeChallenge?: string },
    options: ConnectOptions = { extension: false },
  ): string {
    return options.extension ? this.facebookLogin.authorizationUrl(client, request) : super.authorizationUrl(client, request);
  }

  authorizeEndpoint(): string {
    return 'https://www.instagram.com/oauth/authorize';
  }

  tokenEndpoint(): string {
    return 'https://api.instagram.com/oauth/access_token';
  }

  /**
   * The code exchange answers a short-lived token (one hour), which cannot be renewed: it is traded at once for a
   * long-lived one (60 days) with `GET /access_token?grant_type=ig_exchange_token` and the app secret.
   */
  longLivedTokenRequest(client: OAuthClient, grant: ProviderGrant): ProviderRequest {
    const query = new URLSearchParams({
      grant_type: 'ig_exchange_token',
      client_secret: client.clientSecret,
      access_token: grant.accessToken,
    });
    return { method: 'GET', url: `${GRAPH}/access_token?${query}` };
  }

  /**
   * Long-lived tokens (60 days) are renewed with themselves: `GET /refresh_access_token?grant_type=ig_refresh_token`.
   * A Page token (Facebook Login) does not expire and cannot be renewed: undefined (a refused one means reconnecting).
   */
  override refreshRequest(_client: OAuthClient, grant: ProviderGrant): ProviderRequest | undefined {
    if (grant.graphHost === 'facebook') return undefined;
    const query = new URLSearchParams({ grant_type: 'ig_refresh_token', access_token: grant.accessToken });
    return { method: 'GET', url: `${GRAPH}/refresh_access_token?${query}` };
  }

  /** The exchange and the refresh answer `{access_token, token_type, expires_in}` without permissions: the granted ones stay. */
  override readRefreshedGrant(body: unknown, previous: ProviderGrant, now: Date): ProviderGrant {
    const grant = super.readRefreshedGrant(body, previous, now);
    const named = pick(body, 'scope') ?? pick(body, 'permissions');
    return named !== undefined || !previous.scopes ? grant : { ...grant, scopes: previous.scopes };
  }

  profileEndpoint(): string {
    return `${GRAPH}/${INSTAGRAM_API_VERSION}/me?fields=user_id,username,name,profile_picture_url`;
  }

  override readGrant(body: unknown, now: Date): ProviderGrant {
    const wrapped = pick(body, 'data', 0);
    const token = wrapped && typeof wrapped === 'object' ? (wrapped as Record<string, unknown>) : (body as Record<string, unknown> | null);
    if (token && typeof token.permissions === 'string' && token.scope === undefined) {
      return super.readGrant({ ...token, scope: token.permissions }, now);
    }
    if (token === null || typeof token !== 'object')
      throw new ProviderError('unavailable', 'instagram answered the code exchange without a grant.');
    return super.readGrant(token, now);
  }

  readProfile(body: unknown): ConnectedIdentity {
    const username = text(pick(body, 'username'));
    return {
      // user_id is the professional account's Instagram id (what publishing addresses); id is app-scoped.
      externalId: requireAccountId(this.platform, text(pick(body, 'user_id')) || text(pick(body, 'id'))),
      username,
      displayName: text(pick(body, 'name')) || username,
      avatarUrl: httpUrl(pick(body, 'profile_picture_url')),
    };
  }
}
