import { httpUrl, pick } from '../oauth/oauth-network.js';
import { ProviderError } from '../provider-error.js';
import type { ProviderAnswer, ProviderHttp, ProviderRequest } from '../provider-http.js';
import type { OAuthClient, ProviderAccount, ProviderGrant } from '../social-provider.js';

/** One of Meta's Graph APIs (Threads, Instagram, Facebook): where it answers and how its refusals read. */
export interface GraphApi {
  platform: string;
  /** e.g. `https://graph.threads.net`; a call may name another host of the same API (Facebook's graph-video). */
  origin: string;
  /** The pinned version every path starts with (`v1.0`, `v27.0`). */
  version: string;
  /** Where a refusal's body names its code (graphErrorCode, or Instagram's with subcodes). */
  errorCodeOf: (body: unknown) => string | undefined;
  /**
   * Whether a failure says the access token was refused, so it is renewed once (account.renewGrant) and the call
   * repeated. Absent for an API whose tokens are never renewed (a Facebook Page token does not expire).
   */
  tokenRefused?: (error: unknown) => boolean;
}

/** The two ends of Meta's token trade (`th_exchange_token`, `ig_exchange_token`, `fb_exchange_token`). */
export interface LongLivedTokens {
  longLivedTokenRequest(client: OAuthClient, grant: ProviderGrant): ProviderRequest;
  readRefreshedGrant(answer: unknown, previous: ProviderGrant, now: Date): ProviderGrant;
}

/**
 * Calls to a Graph API as Meta documents them: `access_token` a query parameter of a GET, a form field of a POST (with
 * the other parameters). Logs name the versioned path, never the query (it carries the token).
 */
export class GraphClient {
  constructor(
    private readonly http: ProviderHttp,
    readonly api: GraphApi,
    private readonly timeoutMs: number,
  ) {}

  get platform(): string {
    return this.api.platform;
  }

  /** One call with `accessToken`, to `origin` (the API's own unless named). */
  send(
    method: 'GET' | 'POST',
    path: string,
    parameters: Record<string, string>,
    accessToken: string,
    origin = this.api.origin,
  ): Promise<ProviderAnswer> {
    const { version, errorCodeOf } = this.api;
    const params = new URLSearchParams({ ...parameters, access_token: accessToken });
    const url = `${origin}/${version}${path}`;
    return this.http.call(
      this.api.platform,
      method === 'GET'
        ? { method, url: `${url}?${params}`, loggedPath: `/${version}${path}`, errorCodeOf }
        : { method, url, form: params, errorCodeOf },
      AbortSignal.timeout(this.timeoutMs),
    );
  }

  /**
   * One call with the account's token. A refused token (the API's `tokenRefused`) is renewed once through
   * `account.renewGrant` and the call repeated: nothing was done with the refused one.
   */
  async call(account: ProviderAccount, method: 'GET' | 'POST', path: string, parameters: Record<string, string>): Promise<ProviderAnswer> {
    if (!account.grant) throw new ProviderError('refused', 'The account holds no grant; connect it again.');
    try {
      return await this.send(method, path, parameters, account.grant.accessToken);
    } catch (error) {
      if (!this.api.tokenRefused?.(error) || !account.renewGrant) throw error;
      return this.send(method, path, parameters, (await account.renewGrant()).accessToken);
    }
  }

  /** The object's permalink, or "" when it cannot be read now (the post is live: a failed read must not fail the delivery). */
  async permalink(account: ProviderAccount, externalId: string): Promise<string> {
    try {
      const answer = await this.call(account, 'GET', `/${encodeURIComponent(externalId)}`, { fields: 'permalink' });
      return httpUrl(pick(answer.body, 'permalink'));
    } catch {
      return '';
    }
  }

  /**
   * The code's short-lived token (an hour) traded at once for a long-lived one (60 days), which ProviderAccounts
   * renews before it expires; a short-lived token kept as it is could never be renewed.
   */
  async longLived(tokens: LongLivedTokens, client: OAuthClient, shortLived: ProviderGrant, signal: AbortSignal): Promise<ProviderGrant> {
    const answer = await this.http.json(this.api.platform, tokens.longLivedTokenRequest(client, shortLived), signal);
    return tokens.readRefreshedGrant(answer, shortLived, new Date());
  }
}
