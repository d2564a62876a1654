import type { SocialPlatform } from '@social/contracts';
import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ProviderRequest } from '../provider-http.js';
import type { ConnectedIdentity, OAuthClient, ProviderGrant } from '../social-provider.js';

/**
 * The Graph API version every Facebook URL names (the dialog, the token endpoint, every API and video call).
 * Pinned in this one place: Meta changes fields and metrics between versions (README.md beside this file).
 */
export const FACEBOOK_GRAPH_VERSION = 'v27.0';
export const GRAPH_ORIGIN = 'https://graph.facebook.com';
/** Video uploads go to their own host (Graph API "Video uploads"). */
export const GRAPH_VIDEO_ORIGIN = 'https://graph-video.facebook.com';
/** Pages read per /me/accounts call (Graph's usual largest page). */
export const PAGES_PAGE_SIZE = 100;

/**
 * Facebook Login for the person who manages Pages. The person's profile is never connected (nobody can publish to
 * it through the API): every Page the grant covers becomes an account holding its own Page token.
 */
export class FacebookNetwork extends OAuthNetwork {
  /** Facebook's, unless Facebook Login is used on another network's behalf (Instagram's InstagramFacebookLoginNetwork). */
  readonly platform: SocialPlatform = 'facebook';
  /**
   * Listing the person's Pages and their tokens (pages_show_list), publishing as them (pages_manage_posts, and
   * publish_video for videos), reading their posts back (pages_read_engagement) and insights (read_insights).
   */
  readonly scopes = ['public_profile', 'pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video', 'read_insights'];
  override readonly scopeSeparator = ',';

  authorizeEndpoint(): string {
    return `https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`;
  }

  tokenEndpoint(): string {
    return `${GRAPH_ORIGIN}/${FACEBOOK_GRAPH_VERSION}/oauth/access_token`;
  }

  /** Page tokens read with a long-lived user token do not expire; a user token cannot be renewed without the user. */
  override refreshRequest(): undefined {
    return undefined;
  }

  /**
   * The code answers a short-lived user token (about an hour); Page tokens read with it expire with it. It is traded
   * at once for a long-lived one (`grant_type=fb_exchange_token` with the app secret), so the Page tokens do not.
   */
  longLivedTokenRequest(client: OAuthClient, grant: ProviderGrant): ProviderRequest {
    const query = new URLSearchParams({
      grant_type: 'fb_exchange_token',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      fb_exchange_token: grant.accessToken,
    });
    return { method: 'GET', url: `${this.tokenEndpoint()}?${query}`, loggedPath: `/${FACEBOOK_GRAPH_VERSION}/oauth/access_token` };
  }

  /** The fields read of each Page /me/accounts lists: what readPage needs. */
  readonly pageFields: string = 'id,name,username,access_token,picture';

  /** One page of the Pages the user token covers (`after`: the previous page's cursor), each with its Page token. */
  pagesRequest(userToken: string, after?: string): ProviderRequest {
    const query = new URLSearchParams({
      fields: this.pageFields,
      limit: String(PAGES_PAGE_SIZE),
      ...(after ? { after } : {}),
      access_token: userToken,
    });
    return { method: 'GET', url: `${GRAPH_ORIGIN}/${FACEBOOK_GRAPH_VERSION}/me/accounts?${query}`, loggedPath: `/me/accounts` };
  }

  /** A Page of /me/accounts as an account: its username (else its id), its name, its picture, its own token. */
  readPage(item: unknown): ConnectedIdentity | undefined {
    const id = text(pick(item, 'id'));
    const accessToken = text(pick(item, 'access_token'));
    if (!id || !accessToken) return undefined;
    const username = text(pick(item, 'username')) || id;
    return {
      externalId: requireAccountId(this.platform, id),
      username,
      displayName: text(pick(item, 'name')) || username,
      avatarUrl: httpUrl(pick(item, 'picture', 'data', 'url')),
      grant: { accessToken },
    };
  }

  profileEndpoint(): string {
    return `${GRAPH_ORIGIN}/${FACEBOOK_GRAPH_VERSION}/me?fields=id,name,picture.type(large)`;
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
