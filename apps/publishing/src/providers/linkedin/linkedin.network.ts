import { httpUrl, OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ConnectedIdentity } from '../social-provider.js';

/**
 * LinkedIn members (OpenID Connect sign-in plus "Share on LinkedIn"). Its
 * userinfo has no handle: the member's name stands in as the username.
 * With `linkedin_organization_pages` on (the app has the Community Management
 * API product), connect also asks to post as and read the pages the member
 * administers.
 */
export class LinkedInNetwork extends OAuthNetwork {
  readonly platform = 'linkedin';
  readonly scopes = ['openid', 'profile', 'w_member_social'];
  override readonly extensionSetting = 'linkedin_organization_pages';
  override readonly extensionScopes = ['w_organization_social', 'r_organization_admin', 'r_organization_social'];

  authorizeEndpoint(): string {
    return 'https://www.linkedin.com/oauth/v2/authorization';
  }

  tokenEndpoint(): string {
    return 'https://www.linkedin.com/oauth/v2/accessToken';
  }

  profileEndpoint(): string {
    return 'https://api.linkedin.com/v2/userinfo';
  }

  readProfile(body: unknown): ConnectedIdentity {
    const name = text(pick(body, 'name')) || [text(pick(body, 'given_name')), text(pick(body, 'family_name'))].filter(Boolean).join(' ');
    return {
      externalId: requireAccountId(this.platform, text(pick(body, 'sub'))),
      username: name,
      displayName: name,
      avatarUrl: httpUrl(pick(body, 'picture')),
    };
  }
}
