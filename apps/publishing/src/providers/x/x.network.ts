import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ConnectedIdentity } from '../social-provider.js';

/** X (OAuth 2.0 with PKCE; confidential clients authenticate with HTTP Basic, public ones need no secret). */
export class XNetwork extends OAuthNetwork {
  readonly platform = 'x';
  /**
   * What the adapter calls needs (README.md beside this file): posts and the timeline (tweet.*, users.read),
   * media uploads (media.write), following (follows.write); offline.access: a refresh token, since access tokens last two hours.
   */
  readonly scopes = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'follows.write', 'offline.access'];
  override readonly pkce = true;
  override readonly clientAuthentication = 'client_secret_basic';
  override readonly requiresClientSecret = false;

  authorizeEndpoint(): string {
    return 'https://x.com/i/oauth2/authorize';
  }

  tokenEndpoint(): string {
    return 'https://api.x.com/2/oauth2/token';
  }

  profileEndpoint(): string {
    return 'https://api.x.com/2/users/me?user.fields=profile_image_url';
  }

  readProfile(body: unknown): ConnectedIdentity {
    const user = pick(body, 'data');
    return {
      externalId: requireAccountId(this.platform, text(pick(user, 'id'))),
      username: text(pick(user, 'username')),
      displayName: text(pick(user, 'name')),
      avatarUrl: httpUrl(pick(user, 'profile_image_url')),
    };
  }
}
