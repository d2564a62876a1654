import { graphErrorCode } from '../graph/graph-failure.js';
import { pick, text } from '../oauth/oauth-network.js';
import { ProviderError } from '../provider-error.js';
import type { ProviderHttp } from '../provider-http.js';
import type { ConnectedIdentity, OAuthClient, ProviderGrant } from '../social-provider.js';
import type { FacebookNetwork } from './facebook.network.js';

/** /me/accounts pages read when connecting, at most (100 Pages each). */
const MAX_PAGE_LISTINGS = 10;

/**
 * What a Facebook Login grant connects: the user token is first traded for a long-lived one (so the Page tokens read
 * with it do not expire), then every Page of /me/accounts, page after page, is read by `network.readPage` — skipped
 * when it answers nothing — each identity once, holding its Page's token with the grant's scopes. The platform of the
 * calls (which origin they go to) is the network's: Facebook's own, or Instagram's when it uses Facebook Login.
 */
export async function connectedPages(
  http: ProviderHttp,
  network: FacebookNetwork,
  client: OAuthClient,
  grant: ProviderGrant,
  signal: AbortSignal,
): Promise<ConnectedIdentity[]> {
  const exchanged = await http.json(network.platform, network.longLivedTokenRequest(client, grant), signal);
  const userGrant = network.readGrant(exchanged, new Date());
  const scopes = grant.scopes ?? userGrant.scopes;
  const identities: ConnectedIdentity[] = [];
  let after: string | undefined;
  for (let listing = 0; listing < MAX_PAGE_LISTINGS; listing++) {
    const answer = await http.call(
      network.platform,
      { ...network.pagesRequest(userGrant.accessToken, after), errorCodeOf: graphErrorCode },
      signal,
    );
    const data = pick(answer.body, 'data');
    if (!Array.isArray(data)) throw new ProviderError('unavailable', `${network.platform} answered the Pages listing without data.`);
    for (const item of data) {
      const identity = network.readPage(item);
      if (!identity?.grant || identities.some((known) => known.externalId === identity.externalId)) continue;
      identities.push({ ...identity, grant: { ...identity.grant, ...(scopes ? { scopes } : {}) } });
    }
    after = text(pick(answer.body, 'paging', 'cursors', 'after')) || undefined;
    if (!pick(answer.body, 'paging', 'next') || !after) break;
  }
  return identities;
}
