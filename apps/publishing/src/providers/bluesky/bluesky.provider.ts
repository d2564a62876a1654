import { Agent, RichText, XRPCError } from '@atproto/api';
import { readLimitedBytes } from '@social/platform';
import type { Logger } from 'pino';
import { deliveryCall, rejected, requireGrant } from '../delivery-failure.js';
import { partTextLinkOnce } from '../outgoing-text.js';
import { httpUrl, pick, text } from '../oauth/oauth-network.js';
import { ProviderApiOrigins, redirectOrigin } from '../provider-api-origins.js';
import { ProviderError } from '../provider-error.js';
import { uploadTimeoutMs } from '../multipart-stream.js';
import { MAX_ANSWER_BYTES, notSent, ProviderHttp, waitOf } from '../provider-http.js';
import { trackSending } from '../request-sending.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  ConnectedIdentity,
  CredentialsConnectProvider,
  CredentialsSignIn,
  FollowOutcome,
  FollowRecommendation,
  OutgoingMedia,
  OutgoingPost,
  OutgoingPostPart,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPart,
  PublishedPost,
} from '../social-provider.js';
import { recordKey } from './record-key.js';
import { count } from '../post-metrics-reads.js';

/** Bluesky's own entryway: where accounts sign in when the connect names no PDS. */
export const BLUESKY_DEFAULT_SERVICE = 'https://bsky.social';
const POST_COLLECTION = 'app.bsky.feed.post';
const FOLLOW_COLLECTION = 'app.bsky.graph.follow';
/** Bluesky shows at most 4 images per post (each blob at most 1,000,000 bytes: delivery fits them) or one video. */
export const BLUESKY_MAX_IMAGES = 4;
/** getPosts takes at most 25 URIs. */
const POSTS_PER_READ = 25;
/** XRPC errors that mean the session (not the post) is the problem. */
const SESSION_ERRORS = new Set([
  'ExpiredToken',
  'InvalidToken',
  'AuthenticationRequired',
  'AuthRequiredError',
  'AccountTakedown',
  'AccountDeactivated',
]);

/** What the sealed grant of a Bluesky account holds beyond ProviderGrant's tokens (accessJwt, refreshJwt, expiry of the access JWT). */
export interface BlueskyGrant extends ProviderGrant {
  /** The app password, so a session can be created again once the refresh token has died. */
  appPassword: string;
  /** The account's DID and PDS origin (also the account's external_id and instance_url). */
  did: string;
  pds: string;
}

/** A post record found at a part's key. */
interface StoredPart {
  uri: string;
  cid: string;
  text: string;
}

/** A link without images becomes a link card; otherwise the link goes into the text. */
const isCard = (part: OutgoingPostPart) => Boolean(part.link) && part.media.length === 0;

/** The text a part is posted with: a card shows the link (and no title), else title and link go into the text. */
const postText = (part: OutgoingPostPart) => (isCard(part) ? part.text : partTextLinkOnce(part));

/**
 * A record at our key is ours only if it says what we send: record keys come
 * from rendition ids, and two renditions of one account made in the same
 * millisecond by two replicas may (about once in a million) share one. Such a
 * post is refused rather than taken for ours.
 */
function ownPart(found: StoredPart, part: OutgoingPostPart): { uri: string; cid: string } {
  if (found.text !== postText(part)) {
    throw rejected(
      'provider_record_key_taken',
      "bluesky already holds another post under this post's record key; publish it again as a new publication.",
    );
  }
  return { uri: found.uri, cid: found.cid };
}

/**
 * Bluesky over the AT Protocol, with `@atproto/api`'s XRPC client on a fetch
 * of ours (PROVIDER_API_ORIGINS applied to the PDS, a time limit per call,
 * whether the request left known, never a token logged).
 *
 * Connecting signs in with a handle and an app password
 * (com.atproto.server.createSession); the grant is the session's JWTs
 * (`expiresAt` read from the access JWT) and the app password, sealed.
 * Publishing writes `app.bsky.feed.post` records with com.atproto.repo.createRecord
 * under a record key derived from the marker and the part index (recordKey):
 * a part that exists already (a retry, a lost answer) is found with getRecord
 * and kept, so a retried thread continues where it stopped and never
 * duplicates, and `findPost` is a getRecord per part. Text carries facets
 * for links and hashtags, a link without images becomes a link card
 * (app.bsky.embed.external), images are uploaded blobs (app.bsky.embed.images,
 * ≤ 4, with alt text), more parts are replies ({root, parent}).
 */
export class BlueskyProvider implements CredentialsConnectProvider {
  readonly platform = 'bluesky';
  readonly connectMode = 'credentials';
  readonly defaultInstanceUrl = BLUESKY_DEFAULT_SERVICE;

  constructor(
    private readonly origins: ProviderApiOrigins,
    private readonly http: ProviderHttp,
    private readonly timeoutMs: number,
    private readonly logger?: Logger,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async signIn(request: { instanceUrl: string; identifier: string; password: string }, signal: AbortSignal): Promise<CredentialsSignIn> {
    const session = await this.createSession(request.instanceUrl, request.identifier, request.password, signal);
    const did = text(pick(session, 'did'));
    if (!did.startsWith('did:')) throw new ProviderError('unavailable', 'bluesky answered a session without a DID.');
    const instanceUrl = pdsOf(pick(session, 'didDoc')) ?? request.instanceUrl;
    const grant = grantOf(session, request.password, instanceUrl);
    const profile = await this.xrpc(instanceUrl, grant.accessToken, signal, (agent) => agent.app.bsky.actor.getProfile({ actor: did }));
    const identity: ConnectedIdentity = {
      externalId: did,
      username: text(pick(profile, 'handle')) || text(pick(session, 'handle')),
      displayName: text(pick(profile, 'displayName')) || text(pick(session, 'handle')),
      avatarUrl: httpUrl(pick(profile, 'avatar')),
    };
    return { identity, grant, instanceUrl };
  }

  /** refreshSession with the refresh JWT (which rotates); when that is dead, a new session from the app password. */
  async refreshGrant(account: ProviderAccount, signal: AbortSignal): Promise<ProviderGrant> {
    const grant = blueskyGrant(account);
    if (grant.refreshToken) {
      try {
        const session = await this.xrpc(account.instanceUrl, grant.refreshToken, signal, (agent) =>
          agent.com.atproto.server.refreshSession(),
        );
        return grantOf(session, grant.appPassword, account.instanceUrl);
      } catch (error) {
        if (!(error instanceof ProviderError) || error.failure !== 'refused') throw error;
        this.logger?.info(
          { platform: this.platform, accountId: account.id, networkCode: error.networkCode },
          'refresh token refused; signing in again',
        );
      }
    }
    if (!grant.appPassword) throw new ProviderError('refused', 'The account holds no app password; connect it again.');
    const session = await this.createSession(account.instanceUrl, account.externalId, grant.appPassword, signal);
    return grantOf(session, grant.appPassword, account.instanceUrl);
  }

  async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const session = { grant: requireGrant(account) };
    const refs: Array<{ uri: string; cid: string }> = [];
    for (const [index, part] of post.parts.entries()) {
      const rkey = recordKey(post.marker, index);
      const existing = await deliveryCall(this.platform, false, () => this.getPost(account, session, rkey));
      if (existing) {
        refs.push(ownPart(existing, part));
        continue;
      }
      const record = await this.record(account, session, part, refs[0], refs.at(-1));
      try {
        const created = await deliveryCall(this.platform, true, () =>
          this.call(account, session, (agent) =>
            agent.com.atproto.repo.createRecord({ repo: account.externalId, collection: POST_COLLECTION, rkey, record }),
          ),
        );
        refs.push({ uri: text(pick(created, 'uri')), cid: text(pick(created, 'cid')) });
      } catch (error) {
        // Refused because the record exists (a parallel attempt wrote it): keep that one.
        const failure = (error as DeliveryError).failure;
        const found =
          failure?.outcome === 'rejected' && failure.kind === 'validation'
            ? await this.getPost(account, session, rkey).catch(() => null)
            : null;
        if (!found) throw error;
        refs.push(ownPart(found, part));
      }
      if (!refs.at(-1)!.uri || !refs.at(-1)!.cid) {
        throw new DeliveryError({
          outcome: 'ambiguous',
          code: 'provider_answer_unreadable',
          message: 'bluesky answered the post without its URI.',
          httpStatus: 200,
        });
      }
    }
    const parts = refs.map((ref) => this.published(ref.uri));
    return { ...parts[0], parts };
  }

  /**
   * Every part by its record key: the post when all exist; null when one does not (publishing again
   * continues the thread); throws when the PDS cannot be asked (the engine asks again later).
   */
  async findPost(account: ProviderAccount, post: OutgoingPost, _since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant) return 'unknown';
    const session = { grant: account.grant };
    const parts: PublishedPart[] = [];
    for (const [index, part] of post.parts.entries()) {
      // A PDS that cannot be asked now throws: the engine asks again with backoff, then goes to manual
      // resolution (answering 'unknown' sent the rendition to manual resolution at the first 5xx).
      const found = await this.getPost(account, session, recordKey(post.marker, index));
      // Another post under our key (see ownPart) means ours was never created there.
      if (!found || found.text !== postText(part)) return null;
      parts.push(this.published(found.uri));
    }
    return { ...parts[0], parts };
  }

  async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const profile = await this.call(account, { grant: grantOutsideDelivery(account) }, (agent) =>
      agent.app.bsky.actor.getProfile({ actor: account.externalId }),
    );
    return {
      followers: count(pick(profile, 'followersCount')),
      following: count(pick(profile, 'followsCount')),
      posts: count(pick(profile, 'postsCount')),
    };
  }

  /**
   * Likes, replies and reposts of the posts that still exist (at:// URIs; a deleted one is absent); quotes count as
   * reposts (a repost with words added). Bluesky counts no views: 0.
   */
  async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    const session = { grant: grantOutsideDelivery(account) };
    const metrics: PostMetrics[] = [];
    for (let start = 0; start < externalIds.length; start += POSTS_PER_READ) {
      const uris = externalIds.slice(start, start + POSTS_PER_READ);
      const answer = await this.call(account, session, (agent) => agent.app.bsky.feed.getPosts({ uris }));
      const posts = pick(answer, 'posts');
      for (const post of Array.isArray(posts) ? posts : []) {
        metrics.push({
          externalId: text(pick(post, 'uri')),
          views: 0,
          likes: count(pick(post, 'likeCount')),
          comments: count(pick(post, 'replyCount')),
          reposts: count(pick(post, 'repostCount')) + count(pick(post, 'quoteCount')),
        });
      }
    }
    return metrics;
  }

  /** app.bsky.actor.getSuggestions, in Bluesky's order; the score falls with the rank. */
  async fetchFollowRecommendations(account: ProviderAccount, limit: number): Promise<FollowRecommendation[]> {
    const answer = await this.call(account, { grant: grantOutsideDelivery(account) }, (agent) =>
      agent.app.bsky.actor.getSuggestions({ limit: Math.max(1, Math.min(limit, 100)) }),
    );
    const actors = pick(answer, 'actors');
    const list = Array.isArray(actors) ? actors.filter((actor) => text(pick(actor, 'did'))) : [];
    return list.map((actor, index) => ({
      remoteAccountId: text(pick(actor, 'did')),
      handle: text(pick(actor, 'handle')),
      displayName: text(pick(actor, 'displayName')) || text(pick(actor, 'handle')),
      avatarUrl: httpUrl(pick(actor, 'avatar')),
      bio: text(pick(actor, 'description')),
      profileUrl: `https://bsky.app/profile/${text(pick(actor, 'handle')) || text(pick(actor, 'did'))}`,
      followersCount: count(pick(actor, 'followersCount')),
      followingCount: count(pick(actor, 'followsCount')),
      mutualCount: 0,
      score: Number(Math.max(0.05, 1 - index / Math.max(list.length, 1)).toFixed(2)),
      signals: ['suggested_by_bluesky'],
    }));
  }

  /**
   * An `app.bsky.graph.follow` record naming the DID, unless the profile says
   * the account follows it already (a second record would be a duplicate
   * follow). Bluesky has no follow requests: always `following`. A DID the
   * AppView has no profile for (400 "Profile not found") is a 404.
   */
  async follow(account: ProviderAccount, remoteAccountId: string): Promise<FollowOutcome> {
    const session = { grant: grantOutsideDelivery(account) };
    let profile: unknown;
    try {
      profile = await this.call(account, session, (agent) => agent.app.bsky.actor.getProfile({ actor: remoteAccountId }));
    } catch (error) {
      if (error instanceof ProviderError && error.failure === 'refused' && error.call?.status === 400) {
        throw new ProviderError('refused', 'bluesky has no such account.', error.networkCode, { ...error.call, status: 404 });
      }
      throw error;
    }
    if (text(pick(pick(profile, 'viewer'), 'following'))) return 'following';
    await this.call(account, session, (agent) =>
      agent.com.atproto.repo.createRecord({
        repo: account.externalId,
        collection: FOLLOW_COLLECTION,
        record: { $type: FOLLOW_COLLECTION, subject: remoteAccountId, createdAt: new Date().toISOString() },
      }),
    );
    return 'following';
  }

  /** The post record of one part: text with facets, a reply to the thread, images or a link card. */
  private async record(
    account: ProviderAccount,
    session: { grant: ProviderGrant },
    part: OutgoingPostPart,
    root: { uri: string; cid: string } | undefined,
    parent: { uri: string; cid: string } | undefined,
  ): Promise<Record<string, unknown>> {
    const videos = part.media.filter((media) => media.kind === 'video');
    if (videos.length > 0 && (videos.length > 1 || part.media.length > 1)) {
      throw rejected(
        'too_many_media',
        `A bluesky post carries one video, or up to ${BLUESKY_MAX_IMAGES} images, never both; this one has ${part.media.length} media.`,
      );
    }
    if (part.media.length > BLUESKY_MAX_IMAGES) {
      throw rejected('too_many_media', `A bluesky post carries at most ${BLUESKY_MAX_IMAGES} images; this one has ${part.media.length}.`);
    }
    const card = isCard(part);
    const richText = new RichText({ text: postText(part) });
    richText.detectFacetsWithoutResolution();
    const record: Record<string, unknown> = { $type: POST_COLLECTION, text: richText.text, createdAt: new Date().toISOString() };
    if (richText.facets?.length) record.facets = richText.facets;
    if (root && parent) record.reply = { root, parent };
    if (videos.length === 1) {
      const [video] = videos;
      // app.bsky.embed.video: the uploaded blob, its alt text and aspect ratio (when known).
      record.embed = {
        $type: 'app.bsky.embed.video',
        video: await this.uploadBlob(account, session, video),
        ...(video.altText ? { alt: video.altText } : {}),
        ...aspectRatio(video),
      };
    } else if (part.media.length > 0) {
      const images = [];
      for (const media of part.media)
        images.push({ alt: media.altText, image: await this.uploadBlob(account, session, media), ...aspectRatio(media) });
      record.embed = { $type: 'app.bsky.embed.images', images };
    } else if (card) {
      record.embed = { $type: 'app.bsky.embed.external', external: { uri: part.link, title: part.title.slice(0, 300), description: '' } };
    }
    return record;
  }

  /**
   * com.atproto.repo.uploadBlob with the bytes streamed from storage (a video is never held whole); the blob
   * reference. A refusal (BlobTooLarge, a type the PDS does not take) rejects the rendition; 5xx, 429 or a
   * timeout is tried again with the delivery. An expired session is renewed once and the upload read again.
   */
  private async uploadBlob(account: ProviderAccount, session: { grant: ProviderGrant }, media: OutgoingMedia): Promise<unknown> {
    const send = async () =>
      this.http.call(
        this.platform,
        {
          method: 'POST',
          url: new URL('/xrpc/com.atproto.repo.uploadBlob', account.instanceUrl).toString(),
          headers: { authorization: `Bearer ${session.grant.accessToken}` },
          stream: { body: await media.open(), contentType: media.mimeType || 'application/octet-stream' },
        },
        AbortSignal.timeout(uploadTimeoutMs(this.timeoutMs, media.size)),
      );
    const answer = await deliveryCall(this.platform, false, async () => {
      try {
        return (await send()).body;
      } catch (error) {
        if (!(error instanceof ProviderError) || error.networkCode !== 'ExpiredToken' || !account.renewGrant) throw error;
        session.grant = await account.renewGrant();
        return (await send()).body;
      }
    });
    const blob = pick(answer, 'blob');
    if (!blob)
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'provider_error',
        message: 'bluesky answered the upload without its blob.',
        httpStatus: 200,
      });
    return blob;
  }

  /** The record of one part, or null when the PDS says it does not exist. */
  private async getPost(account: ProviderAccount, session: { grant: ProviderGrant }, rkey: string): Promise<StoredPart | null> {
    try {
      const answer = await this.call(account, session, (agent) =>
        agent.com.atproto.repo.getRecord({ repo: account.externalId, collection: POST_COLLECTION, rkey }),
      );
      return { uri: text(pick(answer, 'uri')), cid: text(pick(answer, 'cid')), text: text(pick(pick(answer, 'value'), 'text')) };
    } catch (error) {
      if (error instanceof ProviderError && (error.networkCode === 'RecordNotFound' || error.call?.status === 404)) return null;
      throw error;
    }
  }

  private published(uri: string): PublishedPart {
    const [, did, , rkey] = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri) ?? [];
    return { externalId: uri, externalUrl: did && rkey ? `https://bsky.app/profile/${did}/post/${rkey}` : '' };
  }

  /**
   * One authenticated call for the account. An expired access token is
   * renewed once through `account.renewGrant` (ProviderAccounts stores the new
   * session) and the call repeated; `session` carries the renewed grant to
   * the next calls of the same operation.
   */
  private async call<T>(
    account: ProviderAccount,
    session: { grant: ProviderGrant },
    run: (agent: Agent) => Promise<{ data: T }>,
  ): Promise<T> {
    try {
      return await this.xrpc(account.instanceUrl, session.grant.accessToken, AbortSignal.timeout(this.timeoutMs), run);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.networkCode !== 'ExpiredToken' || !account.renewGrant) throw error;
      session.grant = await account.renewGrant();
      return this.xrpc(account.instanceUrl, session.grant.accessToken, AbortSignal.timeout(this.timeoutMs), run);
    }
  }

  private async createSession(service: string, identifier: string, password: string, signal: AbortSignal): Promise<unknown> {
    return this.xrpc(service, undefined, signal, (agent) => agent.com.atproto.server.createSession({ identifier, password }));
  }

  /** One XRPC call to `service` with `token` as the Bearer; every failure a ProviderError with its call details. */
  private async xrpc<T>(
    service: string,
    token: string | undefined,
    signal: AbortSignal,
    run: (agent: Agent) => Promise<{ data: T }>,
  ): Promise<T> {
    const agent = new Agent(async (path: string, init: RequestInit) => {
      const url = redirectOrigin(this.origins, this.platform, new URL(path, service).toString());
      const headers = new Headers(init.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      const startedAt = Date.now();
      const sending = trackSending();
      try {
        const response = await sending.run(() => this.fetchFn(url, { ...init, headers, signal, redirect: 'manual' }));
        this.logger?.debug(
          {
            platform: this.platform,
            method: init.method,
            path: new URL(url).pathname,
            status: response.status,
            ms: Date.now() - startedAt,
          },
          'network answered',
        );
        return await capped(response);
      } catch (error) {
        const details = { status: 0, sent: sending.sent() ?? !notSent(error) };
        if (signal.aborted) throw new ProviderError('timeout', 'bluesky did not answer in time.', undefined, details);
        // The fetch's own refusals (a server on a private address) say what they are.
        if (error instanceof ProviderError) throw error;
        this.logger?.warn(
          { platform: this.platform, method: init.method, path: new URL(url).pathname, sent: details.sent },
          'network unreachable',
        );
        throw new ProviderError('unavailable', 'bluesky could not be reached.', undefined, details);
      }
    });
    try {
      return (await run(agent)).data;
    } catch (error) {
      throw asProviderError(error, signal);
    }
  }
}

/** Statuses whose answers carry no body (a Response refuses one). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * The answer with its body read here under MAX_ANSWER_BYTES, so the XRPC
 * client (which reads whatever it is given, whole) never holds a huge or
 * endless body: past the cap the call fails as `unavailable`, the rest unread.
 */
async function capped(response: Response): Promise<Response> {
  const body = NULL_BODY_STATUSES.has(response.status) ? null : await readLimitedBytes(response, MAX_ANSWER_BYTES);
  if (body === undefined) {
    throw new ProviderError('unavailable', `bluesky answered more than the ${MAX_ANSWER_BYTES} bytes we accept.`, undefined, {
      status: response.status,
      sent: true,
    });
  }
  const headers = new Headers(response.headers);
  // The body is already decoded and whole.
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** An XRPC failure as a ProviderError: session errors count as 401 (reconnect or renew), other 4xx as refusals, the rest unavailable. */
function asProviderError(error: unknown, signal: AbortSignal): unknown {
  if (error instanceof ProviderError) return error;
  if (!(error instanceof XRPCError)) return error;
  if (error.cause instanceof ProviderError) return error.cause;
  const status = error.status;
  const networkCode = /^[A-Za-z]{1,64}$/.test(error.error ?? '') ? error.error : undefined;
  if (status < 100) {
    // No usable answer: the body broke off or did not match the lexicon.
    if (signal.aborted) return new ProviderError('timeout', 'bluesky did not answer in time.', undefined, { status: 0, sent: true });
    return new ProviderError('unavailable', 'bluesky answered something we cannot read.', networkCode, {
      status: status === 2 ? 200 : 0,
      sent: true,
    });
  }
  const headers = new Headers(
    Object.entries(error.headers ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const details = {
    status: networkCode && SESSION_ERRORS.has(networkCode) ? 401 : status,
    sent: true,
    ...waitOf(headers, Date.now(), status),
  };
  if (status >= 400 && status < 500 && status !== 429)
    return new ProviderError(
      'refused',
      `bluesky refused the request (HTTP ${status}${networkCode ? ` ${networkCode}` : ''}).`,
      networkCode,
      details,
    );
  return new ProviderError('unavailable', `bluesky answered HTTP ${status}.`, networkCode, details);
}

/** A session answer as the grant we seal; `expiresAt` from the access JWT's `exp`. */
function grantOf(session: unknown, appPassword: string, pds: string): BlueskyGrant {
  const accessToken = text(pick(session, 'accessJwt'));
  const refreshToken = text(pick(session, 'refreshJwt'));
  const did = text(pick(session, 'did'));
  if (!accessToken || !refreshToken || !did) throw new ProviderError('unavailable', 'bluesky answered a session without its tokens.');
  const grant: BlueskyGrant = { accessToken, refreshToken, appPassword, did, pds, scopes: [] };
  const expiresAt = jwtExpiry(accessToken);
  if (expiresAt) grant.expiresAt = expiresAt;
  return grant;
}

/** The `exp` of a JWT as RFC 3339, or undefined (we never verify it: the PDS does). */
export function jwtExpiry(jwt: string): string | undefined {
  try {
    const exp = Number(JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')).exp);
    return Number.isFinite(exp) && exp > 0 ? new Date(exp * 1000).toISOString() : undefined;
  } catch {
    return undefined;
  }
}

/** The PDS of a DID document (its `#atproto_pds` service), when the session carried one. */
function pdsOf(didDoc: unknown): string | undefined {
  const services = pick(didDoc, 'service');
  if (!Array.isArray(services)) return undefined;
  const pds = services.find((service) => text(pick(service, 'id')).endsWith('#atproto_pds'));
  const endpoint = httpUrl(pick(pds, 'serviceEndpoint'));
  return endpoint ? new URL(endpoint).origin : undefined;
}

function blueskyGrant(account: ProviderAccount): BlueskyGrant {
  const grant = grantOutsideDelivery(account) as Partial<BlueskyGrant> & ProviderGrant;
  return { ...grant, appPassword: grant.appPassword ?? '', did: grant.did ?? account.externalId, pds: grant.pds ?? account.instanceUrl };
}

/** Outside a delivery (reads, follows): a missing grant is the network's refusal (reconnect). */
function grantOutsideDelivery(account: ProviderAccount): ProviderGrant {
  if (!account.grant) throw new ProviderError('refused', 'The account holds no grant; connect it again.');
  return account.grant;
}

/** An embed's aspectRatio, when both sides are known (Bluesky lays the post out before the media loads). */
function aspectRatio(media: OutgoingMedia): { aspectRatio?: { width: number; height: number } } {
  return media.width > 0 && media.height > 0 ? { aspectRatio: { width: media.width, height: media.height } } : {};
}
