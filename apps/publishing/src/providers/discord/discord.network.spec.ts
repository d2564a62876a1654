import { describe, expect, it } from '@jest/globals';
import { DiscordNetwork } from './discord.network.js';

const network = new DiscordNetwork();
const client = { clientId: 'dc-client', clientSecret: 'dc-secret', instanceUrl: '' };

describe('Discord settings', () => {
  it('asks for identify and guilds', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('scope')).toBe('identify guilds');
    expect(network.tokenRequest(client, { code: 'c', redirectUri: 'r' }).url).toBe('https://discord.com/api/oauth2/token');
  });

  it('reads /users/@me, building the avatar URL from its hash', () => {
    expect(network.profileEndpoint()).toBe('https://discord.com/api/users/@me');
    const body = { id: '80351110224678912', username: 'nelly', global_name: 'Nelly', avatar: '8342729096ea3675442027381ff50dfe' };
    expect(network.readProfile(body)).toEqual({
      externalId: '80351110224678912',
      username: 'nelly',
      displayName: 'Nelly',
      avatarUrl: 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png',
    });
    expect(network.readProfile({ ...body, avatar: null, global_name: null })).toMatchObject({ displayName: 'nelly', avatarUrl: '' });
  });
});
