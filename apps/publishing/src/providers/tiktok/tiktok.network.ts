import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ConnectedIdentity } from '../social-provider.js';

/**
 * TikTok Login Kit for the web (v2): the client id is `client_key`, scopes are
 * comma-separated, PKCE is for desktop and mobile apps only, and errors may
 * come as HTTP 200 with an `error` member (read as a refusal).
 */
export class TikTokNetwork extends OAuthNetwork {
  readonly platform = 'tiktok';
  /**
   * Profile (basic, profile), the creator's counts (stats), Direct Post of videos and photos (video.publish), and the
   * creator's videos for reconciliation and metrics (video.list). Access tokens live 24 hours; the refresh token
   * (365 days) renews them through RFC 6749's refresh grant at the token endpoint, and TikTok may answer a new one.
   */
  readonly scopes = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.publish', 'video.list'];
  override readonly scopeSeparator = ',';
  override readonly clientIdParameter = 'client_key';

  authorizeEndpoint(): string {
    return 'https://www.tiktok.com/v2/auth/authorize/';
  }

  tokenEndpoint(): string {
    return 'https://open.tiktokapis.com/v2/oauth/token/';
  }

  profileEndpoint(): string {
    return 'https://open.tiktokapis.com/v2/user/info/?fields=open_id,username,display_name,avatar_url';
  }

  readProfile(body: unknown): ConnectedIdentity {
    const user = pick(body, 'data', 'user');
    const username = text(pick(user, 'username'));
    return {
      externalId: requireAccountId(this.platform, text(pick(user, 'open_id'))),
      username,
      displayName: text(pick(user, 'display_name')) || username,
      avatarUrl: httpUrl(pick(user, 'avatar_url')),
    };
  }
}
