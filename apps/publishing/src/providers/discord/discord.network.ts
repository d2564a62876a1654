import { OAuthNetwork, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import type { ConnectedIdentity } from '../social-provider.js';

/** Discord users (OAuth2 `identify`); avatars are hashes on Discord's CDN. */
export class DiscordNetwork extends OAuthNetwork {
  readonly platform = 'discord';
  readonly scopes = ['identify', 'guilds'];

  authorizeEndpoint(): string {
    return 'https://discord.com/oauth2/authorize';
  }

  tokenEndpoint(): string {
    return 'https://discord.com/api/oauth2/token';
  }

  profileEndpoint(): string {
    return 'https://discord.com/api/users/@me';
  }

  readProfile(body: unknown): ConnectedIdentity {
    const id = requireAccountId(this.platform, text(pick(body, 'id')));
    const username = text(pick(body, 'username'));
    const avatar = text(pick(body, 'avatar'));
    return {
      externalId: id,
      username,
      displayName: text(pick(body, 'global_name')) || username,
      avatarUrl: /^(a_)?[0-9a-f]{32}$/.test(avatar) ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : '',
    };
  }
}
