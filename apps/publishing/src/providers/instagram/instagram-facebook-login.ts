import type { SocialPlatform } from '@social/contracts';
import { FacebookNetwork } from '../facebook/facebook.network.js';
import { httpUrl, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ConnectedIdentity } from '../social-provider.js';

/**
 * Instagram API with Facebook Login (README.md beside this file), used when the instance setting
 * `instagram_facebook_login` is on: Facebook's dialog, code exchange, long-lived token trade and Pages listing
 * (FacebookNetwork's, same pinned Graph version), asking for Instagram's permissions. The identities are the
 * professional Instagram accounts linked to the person's Pages, each holding its Page's token, which works at
 * graph.facebook.com only (`graphHost: 'facebook'`).
 */
export class InstagramFacebookLoginNetwork extends FacebookNetwork {
  override readonly platform: SocialPlatform = 'instagram';
  /**
   * Reading the account and its media (instagram_basic), publishing (instagram_content_publish), the first comment
   * (instagram_manage_comments), media insights (instagram_manage_insights), and finding the Pages and the accounts
   * linked to them (pages_show_list, pages_read_engagement).
   */
  override readonly scopes = [
    'instagram_basic',
    'instagram_content_publish',
    'instagram_manage_comments',
    'instagram_manage_insights',
    'pages_show_list',
    'pages_read_engagement',
  ];
  override readonly pageFields = 'instagram_business_account{id,username,name,profile_picture_url},access_token';

  /** A Page's linked professional account as an identity holding the Page's token; undefined for a Page without one. */
  override readPage(item: unknown): ConnectedIdentity | undefined {
    const linked = pick(item, 'instagram_business_account');
    const id = text(pick(linked, 'id'));
    const accessToken = text(pick(item, 'access_token'));
    if (!id || !accessToken) return undefined;
    const username = text(pick(linked, 'username')) || id;
    return {
      externalId: requireAccountId(this.platform, id),
      username,
      displayName: text(pick(linked, 'name')) || username,
      avatarUrl: httpUrl(pick(linked, 'profile_picture_url')),
      grant: { accessToken, graphHost: 'facebook' },
    };
  }
}
