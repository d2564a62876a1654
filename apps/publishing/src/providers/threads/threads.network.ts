import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ProviderRequest } from '../provider-http.js';
import type { ConnectedIdentity, OAuthClient, ProviderGrant } from '../social-provider.js';

/** Threads (Meta's Threads API): comma-separated scopes, client secret in the form. */
export class ThreadsNetwork extends OAuthNetwork {
  readonly platform = 'threads';
  /** Publishing, and what the adapter reads: insights (metrics), the reply quota and replies (reconciling a thread). */
  readonly scopes = [
    'threads_basic',
    'threads_content_publish',
    'threads_manage_insights',
    'threads_manage_replies',
    'threads_read_replies',
  ];
  override readonly scopeSeparator = ',';

  authorizeEndpoint(): string {
    return 'https://threads.net/oauth/authorize';
  }

  tokenEndpoint(): string {
    return 'https://graph.threads.net/oauth/access_token';
  }

  /**
   * The code exchange answers a short-lived token (one hour, no `expires_in`), which cannot be renewed: it is traded
   * at once for a long-lived one (60 days) with `GET /access_token?grant_type=th_exchange_token` and the app secret.
   */
  longLivedTokenRequest(client: OAuthClient, grant: ProviderGrant): ProviderRequest {
    const query = new URLSearchParams({
      grant_type: 'th_exchange_token',
      client_secret: client.clientSecret,
      access_token: grant.accessToken,
    });
    return { method: 'GET', url: `https://graph.threads.net/access_token?${query}` };
  }

  /** Long-lived tokens (60 days) are renewed with themselves: `GET /refresh_access_token?grant_type=th_refresh_token`. */
  override refreshRequest(_client: OAuthClient, grant: ProviderGrant): ProviderRequest {
    const query = new URLSearchParams({ grant_type: 'th_refresh_token', access_token: grant.accessToken });
    return { method: 'GET', url: `https://graph.threads.net/refresh_access_token?${query}` };
  }

  profileEndpoint(): string {
    return 'https://graph.threads.net/v1.0/me?fields=id,username,name,threads_profile_picture_url';
  }

  readProfile(body: unknown): ConnectedIdentity {
    const username = text(pick(body, 'username'));
    return {
      externalId: requireAccountId(this.platform, text(pick(body, 'id'))),
      username,
      displayName: text(pick(body, 'name')) || username,
      avatarUrl: httpUrl(pick(body, 'threads_profile_picture_url')),
    };
  }
}
