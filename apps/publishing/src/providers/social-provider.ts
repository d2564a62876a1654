import type { Readable } from 'node:stream';
import type { SettingKey, SocialPlatform } from '@social/contracts';

/**
 * One adapter per network (docs/decisions.md: "providers sit behind one adapter
 * interface and a registry"). Services never talk to a network directly: they
 * look its adapter up in the ProviderRegistry and call these methods.
 */

/** What a network tells us about the account a user connected. */
export interface ConnectedIdentity {
  /** The network's stable id of the account (survives renames). */
  externalId: string;
  username: string;
  displayName: string;
  avatarUrl: string;
  /**
   * The account's own grant where the network issues one per account from the user's grant (a Facebook Page's
   * token, from fetchIdentities); absent: the account holds the grant of the connect.
   */
  grant?: ProviderGrant;
}

/** What we keep of a network's grant; sealed at rest, never returned. */
export interface ProviderGrant {
  accessToken: string;
  refreshToken?: string;
  /** RFC 3339; absent when the token does not expire. */
  expiresAt?: string;
  scopes?: string[];
  /**
   * Which of Meta's Graph hosts the token is for, when a network has two (Instagram: absent for Instagram Login,
   * `facebook` for an account connected through Facebook Login, whose Page token works at graph.facebook.com only).
   */
  graphHost?: 'facebook';
}

/** The connected account an adapter acts for. */
export interface ProviderAccount {
  id: string;
  platform: SocialPlatform;
  externalId: string;
  username: string;
  /** Origin of the account's server for networks with instances (mastodon), else "". */
  instanceUrl: string;
  /** null for networks that need none (the sandbox). */
  grant: ProviderGrant | null;
  /**
   * Set by ProviderAccounts: renews the grant now (the network answered that
   * the access token expired), stores it, and answers it; throws a
   * DeliveryError (rejected `auth` when the account must reconnect).
   */
  renewGrant?: () => Promise<ProviderGrant>;
}

/**
 * An image or video attached to one post (docs/decisions.md "Delivery with media"), ready for the network: an image
 * already re-encoded to fit its rules (no EXIF/XMP), a video as the library stores it. The adapter uploads it
 * the network's way, reading the bytes with `open` (a video streams from storage, never held whole).
 */
export interface OutgoingMedia {
  /** The library item's id. */
  mediaId: string;
  kind: 'image' | 'video';
  mimeType: string;
  /** "" when none. */
  altText: string;
  /** Bytes the network receives. */
  size: number;
  /** Sides of what the network receives; 0 when unknown (a video not analysed). */
  width: number;
  height: number;
  durationMs: number;
  /**
   * A new stream of the bytes at each call (a retried upload reads them again); with `range`, only bytes
   * `start`..`end` (inclusive), for an upload resumed where the network says it stopped. Throws a DeliveryError:
   * retryable when storage cannot answer now, rejected when the bytes are gone.
   */
  open(range?: { start: number; end: number }): Promise<Readable>;
  /**
   * A URL the network fetches the bytes from, for networks that take media by URL (Threads): the library item's
   * public copy (contract §4, valid 24 hours), as stored, not re-encoded. Issued at each call. Throws a
   * DeliveryError (retryable when the media service cannot answer now).
   */
  publicUrl(): Promise<string>;
}

/** One post: the whole rendition, or one post of a thread (sent as replies, in order). Already shaped for the network (length, links). */
export interface OutgoingPostPart {
  text: string;
  title: string;
  /** "" when none; networks with link cards (bluesky) attach a card for it. */
  link: string;
  media: OutgoingMedia[];
}

export interface OutgoingPost {
  /**
   * Stable for the rendition across attempts (its id). Adapters attach it
   * where the network lets them (an idempotency header, a deterministic record
   * key, the sandbox's own store) so that `findPost` can tell whether a call
   * whose answer was lost created the post.
   */
  marker: string;
  /** At least one; more than one is a thread. */
  parts: OutgoingPostPart[];
  /** The rendition's per-network settings (a social set member's defaults); absent or {} when none. */
  settings?: Record<string, unknown>;
  /**
   * For `findPost`: posts of the same account that other renditions already own (their external ids, every
   * thread part). A network searched by content (Mastodon) may hold the same text twice; one of these is
   * never this post.
   */
  ownedElsewhere?: string[];
}

export interface PublishedPart {
  externalId: string;
  externalUrl: string;
}

/** Where the post landed: the first part's id and URL, and every part's (threads). */
export interface PublishedPost extends PublishedPart {
  parts: PublishedPart[];
}

/**
 * Why a delivery did not go live (docs/decisions.md "Delivery"). `publish` throws
 * a DeliveryError; anything else it throws is treated as `ambiguous` (the
 * call may have reached the network), so a post is never sent twice blindly.
 */
export type DeliveryFailure =
  /** Nothing was created and trying later may work: rate limits, 5xx, a timeout before the request was sent. */
  | { outcome: 'retryable'; code: string; message: string; httpStatus: number; retryAfterMs?: number }
  /** The network will not take this post as it is. */
  | { outcome: 'rejected'; kind: 'auth' | 'validation' | 'policy' | 'capability'; code: string; message: string; httpStatus: number }
  /** The request may have created the post (a timeout after sending, a dropped connection): reconcile with `findPost`. */
  | { outcome: 'ambiguous'; code: string; message: string; httpStatus: number };

export class DeliveryError extends Error {
  constructor(readonly failure: DeliveryFailure) {
    super(failure.message);
    this.name = 'DeliveryError';
  }
}

export interface AccountMetrics {
  followers: number;
  following: number;
  posts: number;
}

export interface PostMetrics {
  externalId: string;
  views: number;
  likes: number;
  comments: number;
  reposts: number;
}

/** An account the connected account follows that follows the recommended one. */
export interface FollowMutual {
  RemoteID: string;
  Handle: string;
  DisplayName: string;
  AvatarURL: string;
}

export interface FollowRecommendation {
  remoteAccountId: string;
  handle: string;
  displayName: string;
  avatarUrl: string;
  bio: string;
  profileUrl: string;
  followersCount: number;
  followingCount: number;
  mutualCount: number;
  /** Mutual accounts the network names (the interface's capitalised keys); left out where it only counts them. */
  mutuals?: FollowMutual[];
  /** 0–1, higher is a better match. */
  score: number;
  signals: string[];
}

/** Everything every network does once an account is connected. */
export interface SocialProviderOperations {
  readonly platform: SocialPlatform;
  /**
   * Sends the post; throws a DeliveryError saying how it failed. `signal`
   * aborts when the scheduler gives the call up (its lease could not be
   * renewed): an adapter may stop there (the delivery is ambiguous anyway).
   */
  publish(account: ProviderAccount, post: OutgoingPost, signal?: AbortSignal): Promise<PublishedPost>;
  /**
   * Reconciliation of an ambiguous delivery: asks the network whether `post`
   * (found by its marker, or by what was sent since `since`, the start of the
   * attempt in doubt) exists. The post; `null` when the network says for certain
   * there is none (sending again is safe); `'unknown'` when it cannot tell (the
   * rendition goes to manual resolution).
   */
  findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'>;
  fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics>;
  fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]>;
  fetchFollowRecommendations(account: ProviderAccount, limit: number): Promise<FollowRecommendation[]>;
  /**
   * Follows one remote account (a recommendation's `remoteAccountId`):
   * `requested` when the remote account approves its followers. Throws a
   * ProviderError, or a `provider_capability_unavailable` problem where the
   * network offers no way to follow.
   */
  follow(account: ProviderAccount, remoteAccountId: string): Promise<FollowOutcome>;
}

export type FollowOutcome = 'following' | 'requested';

/** A network that connects at once, without leaving the platform (the sandbox). */
export interface InstantConnectProvider extends SocialProviderOperations {
  readonly connectMode: 'instant';
  /** `accountId` is the id the new account will get (for derived defaults). */
  connect(input: { accountId: string; username?: string }): ConnectedIdentity;
}

/** The provider app an OAuth adapter acts as (saved by an administrator, resolved by the admin service). */
export interface OAuthClient {
  clientId: string;
  /** "" when the app has none (public clients). */
  clientSecret: string;
  /** Origin of the server for networks with instances (mastodon), else "". */
  instanceUrl: string;
}

/**
 * What the instance decided about connecting a network, read from its settings at connect and again at the callback
 * (the same for both unless an administrator changes the setting within the flow's ten minutes).
 */
export interface ConnectOptions {
  /**
   * The network's `extensionSetting` is on: its app has the optional product that setting names, so connect asks
   * for the product's scopes too and connects every account they cover (LinkedIn: the member's organization pages).
   */
  extension: boolean;
}

/** A network connected through its OAuth authorization-code flow, driven by the provider app an admin saved. */
export interface OAuthConnectProvider extends SocialProviderOperations {
  readonly connectMode: 'oauth';
  /** Whether the flow carries a PKCE challenge (S256). */
  readonly usesPkce: boolean;
  /** Whether the app needs a client secret to trade codes (a confidential client). */
  readonly requiresClientSecret: boolean;
  /** Whether the app is per server (mastodon): connect names the server. */
  readonly hasInstances: boolean;
  /** The boolean instance setting saying the app has the network's optional product (ConnectOptions.extension); absent when none. */
  readonly extensionSetting?: SettingKey;
  /** Where the user's browser is sent to grant access. */
  authorizationUrl(
    client: OAuthClient,
    request: { redirectUri: string; state: string; codeChallenge?: string },
    options?: ConnectOptions,
  ): string;
  /**
   * Trades the authorization code for a grant; throws a ProviderError. `signal` bounds the time spent. `options`: the
   * instance's settings at the callback (Instagram trades the code where its extension setting says it was issued).
   */
  exchangeCode(
    client: OAuthClient,
    request: { code: string; redirectUri: string; codeVerifier?: string },
    signal: AbortSignal,
    options?: ConnectOptions,
  ): Promise<ProviderGrant>;
  /**
   * Trades a refresh token for a new grant before the old one expires; absent
   * for networks whose tokens do not expire. Throws a ProviderError
   * (`refused`: the account must reconnect).
   */
  refreshGrant?(client: OAuthClient, grant: ProviderGrant, signal: AbortSignal): Promise<ProviderGrant>;
  /** Who granted it; throws a ProviderError. */
  fetchIdentity(client: OAuthClient, grant: ProviderGrant, signal: AbortSignal): Promise<ConnectedIdentity>;
  /**
   * For networks where one grant acts for several accounts (LinkedIn organization pages, Facebook Pages): every
   * account the grant covers, each connected as an account of its own holding the same grant; the first (who granted
   * it) is the one the callback answers. Absent: the callback connects `fetchIdentity` alone. Throws a ProviderError.
   */
  fetchIdentities?(client: OAuthClient, grant: ProviderGrant, signal: AbortSignal, options: ConnectOptions): Promise<ConnectedIdentity[]>;
}

/** What signing in with an account's own credentials gives: who it is, the grant, and its server. */
export interface CredentialsSignIn {
  identity: ConnectedIdentity;
  grant: ProviderGrant;
  /** Origin of the account's own server (bluesky: the PDS), kept as the account's instance_url. */
  instanceUrl: string;
}

/** A network connected with the account's own credentials, not OAuth (bluesky: a handle and an app password). */
export interface CredentialsConnectProvider extends SocialProviderOperations {
  readonly connectMode: 'credentials';
  /** The server a connect that names none signs in at. */
  readonly defaultInstanceUrl: string;
  /** Signs in and reads the profile; throws a ProviderError (`refused`: wrong credentials). `signal` bounds the time spent. */
  signIn(request: { instanceUrl: string; identifier: string; password: string }, signal: AbortSignal): Promise<CredentialsSignIn>;
  /** A fresh grant for the account; throws a ProviderError (`refused`: the account must reconnect). */
  refreshGrant(account: ProviderAccount, signal: AbortSignal): Promise<ProviderGrant>;
}

/**
 * A network connected by naming a destination the instance posts to, checked at the network before it is kept
 * (discord: a channel's incoming webhook URL, the secret itself; telegram: a chat where the instance's bot may post).
 */
export interface DestinationConnectProvider extends SocialProviderOperations {
  readonly connectMode: 'destination';
  /** The connect request's member that names the destination. */
  readonly destinationField: 'webhook_url' | 'chat_id';
  /**
   * Whether the network is reached as the provider app's bot (telegram): its `bot_token` is read from the saved app
   * at connect and at every use (never kept with the account), and is the grant's access token the adapter gets.
   */
  readonly usesBotToken: boolean;
  /**
   * Checks the destination at the network and says who it is; `botToken` is the app's when `usesBotToken`, else "".
   * Throws a ProviderError (`refused`: the network will not let us post there; its message says why, without secrets).
   */
  connect(request: { destination: string; botToken: string }, signal: AbortSignal): Promise<CredentialsSignIn>;
}

export type SocialProvider = InstantConnectProvider | OAuthConnectProvider | CredentialsConnectProvider | DestinationConnectProvider;
