import { ProviderError } from '../provider-error.js';
import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ProviderRequest } from '../provider-http.js';
import type { ConnectedIdentity, OAuthClient, ProviderGrant } from '../social-provider.js';

/**
 * Instagram professional accounts (Instagram API with Instagram Login). Its
 * token answer wraps the grant in `data[0]` and lists `permissions` rather
 * than `scope`; older apps got it unwrapped, which is read as well.
 */
export class InstagramNetwork extends OAuthNetwork {
  readonly platform = 'instagram';
  readonly scopes = ['instagram_business_basic', 'instagram_business_content_publish'];
  override readonly scopeSeparator = ',';

  authorizeEndpoint(): string {
    return 'https://www.instagram.com/oauth/authorize';
  }

  tokenEndpoint(): string {
    return 'https://api.instagram.com/oauth/access_token';
  }

  /** Long-lived tokens (60 days) are renewed with themselves: `GET /refresh_access_token?grant_type=ig_refresh_token`. */
  override refreshRequest(_client: OAuthClient, grant: ProviderGrant): ProviderRequest {
    const query = new URLSearchParams({ grant_type: 'ig_refresh_token', access_token: grant.accessToken });
    return { method: 'GET', url: `https://graph.instagram.com/refresh_access_token?${query}` };
  }

  profileEndpoint(): string {
    return 'https://graph.instagram.com/me?fields=user_id,username,name,profile_picture_url';
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
