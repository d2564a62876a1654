import { capabilityUnavailable, ProviderError } from '../provider-error.js';
import type { ProviderHttp } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  ConnectedIdentity,
  ConnectOptions,
  FollowOutcome,
  FollowRecommendation,
  OAuthClient,
  OAuthConnectProvider,
  OutgoingPost,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPost,
} from '../social-provider.js';
import type { OAuthNetwork } from './oauth-network.js';

/** Bounds what a network's profile puts into our rows. */
const MAX_NAME_LENGTH = 256;
const MAX_URL_LENGTH = 2048;

/** PostgreSQL text cannot hold U+0000, and a network is not trusted to keep names short. */
function clean(value: string, max: number): string {
  return value.replace(/\u0000/g, '').slice(0, max);
}

/**
 * The adapter of a network connected by OAuth: the generic authorization-code
 * flow over that network's settings class. Operations after connecting are
 * offered per network by subclasses; here they refuse with a typed problem
 * (409 `provider_capability_unavailable`) instead of pretending.
 */
export class OAuthProvider implements OAuthConnectProvider {
  readonly connectMode = 'oauth';

  constructor(
    readonly network: OAuthNetwork,
    protected readonly http: ProviderHttp,
  ) {}

  get platform() {
    return this.network.platform;
  }

  get usesPkce(): boolean {
    return this.network.pkce;
  }

  get requiresClientSecret(): boolean {
    return this.network.requiresClientSecret;
  }

  get hasInstances(): boolean {
    return this.network.hasInstances;
  }

  get extensionSetting() {
    return this.network.extensionSetting;
  }

  authorizationUrl(
    client: OAuthClient,
    request: { redirectUri: string; state: string; codeChallenge?: string },
    options?: ConnectOptions,
  ): string {
    return this.network.authorizationUrl(client, request, options);
  }

  async exchangeCode(
    client: OAuthClient,
    request: { code: string; redirectUri: string; codeVerifier?: string },
    signal: AbortSignal,
    _options?: ConnectOptions,
  ): Promise<ProviderGrant> {
    const answer = await this.http.json(this.platform, this.network.tokenRequest(client, request), signal);
    return this.network.readGrant(answer, new Date());
  }

  /** Renews the grant at the network (see OAuthNetwork.refreshRequest); throws a ProviderError (`refused`: reconnect). */
  async refreshGrant(client: OAuthClient, grant: ProviderGrant, signal: AbortSignal): Promise<ProviderGrant> {
    const request = this.network.refreshRequest(client, grant);
    if (!request) throw new ProviderError('refused', `${this.platform} grants cannot be renewed; connect the account again.`);
    const answer = await this.http.json(this.platform, request, signal);
    return this.network.readRefreshedGrant(answer, grant, new Date());
  }

  async fetchIdentity(client: OAuthClient, grant: ProviderGrant, signal: AbortSignal): Promise<ConnectedIdentity> {
    const answer = await this.http.json(
      this.platform,
      { method: 'GET', url: this.network.profileEndpoint(client), headers: { authorization: `Bearer ${grant.accessToken}` } },
      signal,
    );
    return this.keepable(this.network.readProfile(answer, client));
  }

  /** An identity as our rows can hold it (bounded, no U+0000); throws ProviderError('unavailable') for an id we cannot keep. */
  protected keepable(identity: ConnectedIdentity): ConnectedIdentity {
    if (identity.externalId.length > MAX_NAME_LENGTH)
      throw new ProviderError('unavailable', `${this.platform} answered an account id we cannot keep.`);
    const avatarUrl = identity.avatarUrl.length <= MAX_URL_LENGTH ? identity.avatarUrl : '';
    return {
      externalId: clean(identity.externalId, MAX_NAME_LENGTH),
      username: clean(identity.username, MAX_NAME_LENGTH),
      displayName: clean(identity.displayName, MAX_NAME_LENGTH),
      avatarUrl: clean(avatarUrl, MAX_URL_LENGTH),
      ...(identity.grant ? { grant: identity.grant } : {}),
    };
  }

  async publish(_account: ProviderAccount, _post: OutgoingPost): Promise<PublishedPost> {
    throw new DeliveryError({
      outcome: 'rejected',
      kind: 'capability',
      code: 'provider_capability_unavailable',
      message: `Publishing is not available for ${this.platform} accounts yet.`,
      httpStatus: 0,
    });
  }

  /** Nothing was ever sent by an adapter that cannot publish. */
  async findPost(_account: ProviderAccount, _post: OutgoingPost, _since: Date): Promise<PublishedPost | null | 'unknown'> {
    return null;
  }

  async fetchAccountMetrics(_account: ProviderAccount): Promise<AccountMetrics> {
    throw capabilityUnavailable(this.platform, 'Account metrics');
  }

  async fetchPostMetrics(_account: ProviderAccount, _externalIds: string[]): Promise<PostMetrics[]> {
    throw capabilityUnavailable(this.platform, 'Post metrics');
  }

  async fetchFollowRecommendations(_account: ProviderAccount, _limit: number): Promise<FollowRecommendation[]> {
    throw capabilityUnavailable(this.platform, 'Follow recommendations');
  }

  async follow(_account: ProviderAccount, _remoteAccountId: string): Promise<FollowOutcome> {
    throw capabilityUnavailable(this.platform, 'Following accounts');
  }
}
