import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ConnectedIdentity } from '../social-provider.js';

/** The Graph API version every Facebook URL names. */
export const FACEBOOK_GRAPH_VERSION = 'v23.0';

/**
 * Facebook Login for the person who manages Pages (publishing goes to a Page
 * they pick later). The Graph API returns no usernames: the name is used.
 */
export class FacebookNetwork extends OAuthNetwork {
  readonly platform = 'facebook';
  readonly scopes = ['public_profile', 'pages_show_list', 'pages_read_engagement', 'pages_manage_posts'];
  override readonly scopeSeparator = ',';

  authorizeEndpoint(): string {
    return `https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`;
  }

  tokenEndpoint(): string {
    return `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/oauth/access_token`;
  }

  /** Page tokens do not expire; a user token cannot be renewed without the user: reconnecting is the way. */
  override refreshRequest(): undefined {
    return undefined;
  }

  profileEndpoint(): string {
    return `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/me?fields=id,name,picture.type(large)`;
  }

  readProfile(body: unknown): ConnectedIdentity {
    const name = text(pick(body, 'name'));
    return {
      externalId: requireAccountId(this.platform, text(pick(body, 'id'))),
      username: name,
      displayName: name,
      avatarUrl: httpUrl(pick(body, 'picture', 'data', 'url')),
    };
  }
}
