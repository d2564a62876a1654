import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ConnectedIdentity, OAuthClient } from '../social-provider.js';

/**
 * Mastodon: one app per server, so every endpoint is on the app's
 * instance_url. Account ids are only unique per server, hence `id@host` as
 * the identity and `username@host` as the handle. PKCE (S256) is honoured by
 * Mastodon 4.3+ and ignored by older servers.
 */
export class MastodonNetwork extends OAuthNetwork {
  readonly platform = 'mastodon';
  /** `write:follows`: following a recommended account (insights, issue 15). */
  readonly scopes = ['read:accounts', 'read:statuses', 'read:follows', 'write:statuses', 'write:media', 'write:follows'];
  override readonly pkce = true;
  override readonly hasInstances = true;

  authorizeEndpoint(client: OAuthClient): string {
    return `${client.instanceUrl}/oauth/authorize`;
  }

  tokenEndpoint(client: OAuthClient): string {
    return `${client.instanceUrl}/oauth/token`;
  }

  profileEndpoint(client: OAuthClient): string {
    return `${client.instanceUrl}/api/v1/accounts/verify_credentials`;
  }

  readProfile(body: unknown, client: OAuthClient): ConnectedIdentity {
    const host = new URL(client.instanceUrl).host;
    const id = requireAccountId(this.platform, text(pick(body, 'id')));
    const username = text(pick(body, 'username'));
    return {
      externalId: `${id}@${host}`,
      username: username ? `${username}@${host}` : '',
      displayName: text(pick(body, 'display_name')) || username,
      avatarUrl: httpUrl(pick(body, 'avatar')),
    };
  }
}
