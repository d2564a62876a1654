import { ProviderError } from '../provider-error.js';
import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ConnectedIdentity } from '../social-provider.js';

/**
 * A YouTube channel through Google OAuth (PKCE; offline access and a consent
 * prompt so Google issues a refresh token every time). The account is the
 * signed-in Google account's own channel.
 */
export class YouTubeNetwork extends OAuthNetwork {
  readonly platform = 'youtube';
  readonly scopes = ['https://www.googleapis.com/auth/youtube.readonly', 'https://www.googleapis.com/auth/youtube.upload'];
  override readonly pkce = true;
  override readonly extraAuthorizationParameters = { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' };

  authorizeEndpoint(): string {
    return 'https://accounts.google.com/o/oauth2/v2/auth';
  }

  tokenEndpoint(): string {
    return 'https://oauth2.googleapis.com/token';
  }

  profileEndpoint(): string {
    return 'https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true';
  }

  readProfile(body: unknown): ConnectedIdentity {
    const items = pick(body, 'items');
    if (Array.isArray(items) && items.length === 0) {
      throw new ProviderError('no_account', 'This Google account has no YouTube channel; create one, then connect again.');
    }
    const channel = pick(items, 0);
    const title = text(pick(channel, 'snippet', 'title'));
    const thumbnails = pick(channel, 'snippet', 'thumbnails');
    return {
      externalId: requireAccountId(this.platform, text(pick(channel, 'id'))),
      username: text(pick(channel, 'snippet', 'customUrl')) || title,
      displayName: title,
      avatarUrl:
        httpUrl(pick(thumbnails, 'high', 'url')) ||
        httpUrl(pick(thumbnails, 'medium', 'url')) ||
        httpUrl(pick(thumbnails, 'default', 'url')),
    };
  }
}
