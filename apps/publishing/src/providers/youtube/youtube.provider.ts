import { deliveryCall, rejected, requireGrant } from '../delivery-failure.js';
import { httpUrl, pick, requireAccountId, text } from '../oauth/oauth-network.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { uploadTimeoutMs } from '../multipart-stream.js';
import { ProviderError } from '../provider-error.js';
import type { ProviderAnswer, ProviderHttp, ProviderRequest } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  ConnectedIdentity,
  OAuthClient,
  OutgoingMedia,
  OutgoingPost,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPost,
} from '../social-provider.js';
import { asRateLimit, FORBIDDEN_VIDEO_REASONS, googleReason } from './youtube-failure.js';
import { isShort, videoResource, videoUrl, type VideoResource } from './youtube-metadata.js';
import { DEFAULT_UPLOAD_TUNING, CHUNK_UNIT, uploadInSession, type UploadTuning } from './youtube-upload.js';
import type { YouTubeNetwork } from './youtube.network.js';

const API = 'https://www.googleapis.com/youtube/v3';
/** Uploads go to the upload host; the session URI it answers is kept on that host (see `sessionUriOf`). */
const UPLOAD_ORIGIN = 'https://www.googleapis.com';
const UPLOAD_PATH = '/upload/youtube/v3/videos';
/**
 * What one upload costs of the project's quota (the Data API's quota calculator): `videos.insert` has a bucket of
 * its own, 100 calls a day by default, one per call (it used to cost 1,600 of the shared 10,000 daily units).
 * Documented in README.md beside this file, so an operator can tell what a day's uploads cost.
 */
export const VIDEOS_INSERT_QUOTA_COST = 1;
/** channels.list, playlistItems.list and videos.list take up to 50 items a page. */
const PAGE_SIZE = 50;
/** How many pages of the uploads playlist a reconciliation reads at most. */
const UPLOAD_PAGES = 4;
/** How far back of `since` an upload may be dated (clock skew between us and YouTube). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** How many pages of channels a connect reads at most. */
const CHANNEL_PAGES = 10;

const count = (value: unknown) => {
  // YouTube answers its counters as strings ("12345").
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? Math.floor(number) : 0;
};

/** The grant an operation uses; replaced when YouTube refused the access token and it was renewed. */
interface Session {
  account: ProviderAccount;
  grant: ProviderGrant;
}

export interface YouTubeProviderOptions {
  /** How the video is cut and resumed; tests use small chunks and short waits. */
  upload?: Partial<UploadTuning>;
}

/**
 * YouTube over the Data API v3 (README.md beside this file): every channel of the Google account is an account; a
 * post is one video uploaded with the resumable protocol (youtube-upload.ts) with its title, description, tags,
 * privacy and made-for-kids flag (youtube-metadata.ts); a lost answer is found again in the channel's uploads
 * playlist; channel and video statistics are the metrics. Spent quota is a rate limit until midnight Pacific Time.
 */
export class YouTubeProvider extends OAuthProvider {
  private readonly tuning: UploadTuning;

  constructor(
    network: YouTubeNetwork,
    http: ProviderHttp,
    private readonly timeoutMs: number,
    options: YouTubeProviderOptions = {},
  ) {
    super(network, http);
    this.tuning = { ...DEFAULT_UPLOAD_TUNING, ...options.upload };
    if (this.tuning.chunkBytes <= 0 || this.tuning.chunkBytes % CHUNK_UNIT !== 0) {
      throw new Error(`YouTube upload chunks must be a multiple of ${CHUNK_UNIT} bytes.`);
    }
  }

  /** Every channel `mine=true` lists (all pages), the first the one the callback answers; none → `no_account`. */
  async fetchIdentities(_client: OAuthClient, grant: ProviderGrant, signal: AbortSignal): Promise<ConnectedIdentity[]> {
    const identities: ConnectedIdentity[] = [];
    let pageToken = '';
    for (let page = 0; page < CHANNEL_PAGES; page++) {
      const query = new URLSearchParams({ part: 'snippet,contentDetails,statistics', mine: 'true', maxResults: String(PAGE_SIZE) });
      if (pageToken) query.set('pageToken', pageToken);
      const body = await this.http.json(
        this.platform,
        { method: 'GET', url: `${API}/channels?${query}`, headers: bearer(grant), errorCodeOf: googleReason },
        signal,
      );
      const items = pick(body, 'items');
      for (const channel of Array.isArray(items) ? items : []) identities.push(this.keepable(channelIdentity(channel)));
      pageToken = text(pick(body, 'nextPageToken'));
      if (!pageToken) break;
    }
    if (identities.length === 0) {
      throw new ProviderError('no_account', 'This Google account has no YouTube channel; create one, then connect again.');
    }
    return identities;
  }

  /**
   * One video: the first part's single video with that part's title and text, under the rendition's settings. A
   * text or an image alone is refused before any call (YouTube takes videos only).
   */
  override async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const session: Session = { account, grant: requireGrant(account) };
    const { part, video } = this.videoOf(post);
    const resource = videoResource(part, post.settings ?? {});
    const sessionUri = await this.openSession(session, video, resource);
    const body = await uploadInSession(
      {
        put: (uri, request) => this.putChunk(session, uri, request),
        renew: () => this.renew(session),
      },
      sessionUri,
      video,
      this.tuning,
    );
    const id = text(pick(body, 'id'));
    if (!id) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'provider_answer_unreadable',
        message: 'youtube answered the upload without the video id.',
        httpStatus: 200,
      });
    }
    const published = { externalId: id, externalUrl: videoUrl(id, isShort(video)) };
    return { ...published, parts: [published] };
  }

  /**
   * The video among the channel's uploads (its uploads playlist, newest first) since `since`, with the title and
   * description this post is sent with; not one other renditions own. null when none is and the playlist reaches
   * back before `since`; 'unknown' when the playlist is longer than we read.
   */
  override async findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant) return 'unknown';
    let wanted: VideoResource;
    let video: OutgoingMedia;
    try {
      const chosen = this.videoOf(post);
      video = chosen.video;
      wanted = videoResource(chosen.part, post.settings ?? {});
    } catch {
      // A post that cannot be sent was never sent.
      return null;
    }
    const session: Session = { account, grant: account.grant };
    const playlist = await this.uploadsPlaylist(session);
    const ownedElsewhere = new Set(post.ownedElsewhere ?? []);
    const earliest = since.getTime() - CLOCK_SKEW_MS;
    let pageToken = '';
    for (let page = 0; page < UPLOAD_PAGES; page++) {
      const query = new URLSearchParams({ part: 'snippet', playlistId: playlist, maxResults: String(PAGE_SIZE) });
      if (pageToken) query.set('pageToken', pageToken);
      const answer = await this.api(session, { method: 'GET', url: `${API}/playlistItems?${query}` });
      const items = pick(answer.body, 'items');
      let reachedBefore = false;
      for (const item of Array.isArray(items) ? items : []) {
        const snippet = pick(item, 'snippet');
        const id = text(pick(snippet, 'resourceId', 'videoId'));
        const publishedAt = Date.parse(text(pick(snippet, 'publishedAt')));
        if (Number.isFinite(publishedAt) && publishedAt < earliest) {
          reachedBefore = true;
          continue;
        }
        if (!id || ownedElsewhere.has(id)) continue;
        if (text(pick(snippet, 'title')) === wanted.snippet.title && text(pick(snippet, 'description')) === wanted.snippet.description) {
          const published = { externalId: id, externalUrl: videoUrl(id, isShort(video)) };
          return { ...published, parts: [published] };
        }
      }
      pageToken = text(pick(answer.body, 'nextPageToken'));
      if (reachedBefore || !pageToken) return null;
    }
    return 'unknown';
  }

  /** The channel's statistics: subscribers (0 when the channel hides them) and videos; YouTube counts no follows. */
  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const channel = await this.channel(sessionOutsideDelivery(account), 'statistics');
    const statistics = pick(channel, 'statistics');
    const hidden = pick(statistics, 'hiddenSubscriberCount') === true;
    return {
      followers: hidden ? 0 : count(pick(statistics, 'subscriberCount')),
      following: 0,
      posts: count(pick(statistics, 'videoCount')),
    };
  }

  /** videos.list `statistics`, 50 ids a call: views, likes, comments; YouTube has no reposts. A video it no longer has is left out. */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    const session = sessionOutsideDelivery(account);
    const metrics: PostMetrics[] = [];
    const ids = [...new Set(externalIds)];
    for (let start = 0; start < ids.length; start += PAGE_SIZE) {
      const query = new URLSearchParams({ part: 'statistics', id: ids.slice(start, start + PAGE_SIZE).join(','), maxResults: '50' });
      const answer = await this.api(session, { method: 'GET', url: `${API}/videos?${query}` });
      const items = pick(answer.body, 'items');
      for (const item of Array.isArray(items) ? items : []) {
        const externalId = text(pick(item, 'id'));
        if (!externalId) continue;
        const statistics = pick(item, 'statistics');
        metrics.push({
          externalId,
          views: count(pick(statistics, 'viewCount')),
          likes: count(pick(statistics, 'likeCount')),
          comments: count(pick(statistics, 'commentCount')),
          reposts: 0,
        });
      }
    }
    return metrics;
  }

  /** The post's one video: the first part's only media, a video; anything else is refused without a call. */
  private videoOf(post: OutgoingPost): { part: OutgoingPost['parts'][number]; video: OutgoingMedia } {
    const [part] = post.parts;
    const media = part?.media ?? [];
    if (post.parts.length !== 1 || media.length !== 1 || media[0].kind !== 'video') {
      throw rejected('video_required', 'A YouTube post is exactly one video; text and images alone cannot be posted.');
    }
    return { part, video: media[0] };
  }

  /**
   * POST /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status with the resource as JSON and the
   * video's size and type in X-Upload-Content-*: the session URI from `Location`. Nothing is created yet, so any
   * failure here is safe to try again; the reasons YouTube gives for the metadata reject the rendition.
   */
  private async openSession(session: Session, video: OutgoingMedia, resource: VideoResource): Promise<string> {
    const answer = await deliveryCall(this.platform, false, async () => {
      try {
        return await this.api(session, {
          method: 'POST',
          url: `${UPLOAD_ORIGIN}${UPLOAD_PATH}?uploadType=resumable&part=snippet,status`,
          headers: {
            'x-upload-content-length': String(video.size),
            'x-upload-content-type': video.mimeType || 'application/octet-stream',
          },
          bytes: { data: Buffer.from(JSON.stringify(resource), 'utf8'), contentType: 'application/json; charset=UTF-8' },
        });
      } catch (error) {
        throw videoRefusal(error);
      }
    });
    const sessionUri = sessionUriOf(answer.headers.get('location'));
    if (!sessionUri) {
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'provider_error',
        message: 'youtube opened no upload session (no Location); trying again later.',
        httpStatus: answer.status,
      });
    }
    return sessionUri;
  }

  /** One PUT to the session (a chunk streamed from storage, or an empty status query); 308 is an answer here. */
  private async putChunk(
    session: Session,
    sessionUri: string,
    request: { headers: Record<string, string>; body?: AsyncIterable<Uint8Array>; contentType: string; size: number },
  ): Promise<ProviderAnswer> {
    const contentType = request.contentType || 'application/octet-stream';
    const call: ProviderRequest = {
      method: 'PUT',
      url: sessionUri,
      headers: { ...bearer(session.grant), ...request.headers, 'content-length': String(request.size) },
      acceptStatuses: [308],
      errorCodeOf: googleReason,
      // The session URI carries the upload id: logs show the path alone.
      loggedPath: UPLOAD_PATH,
      ...(request.body ? { stream: { body: request.body, contentType } } : { bytes: { data: new Uint8Array(0), contentType } }),
    };
    try {
      return await this.http.call(this.platform, call, AbortSignal.timeout(uploadTimeoutMs(this.timeoutMs, request.size)));
    } catch (error) {
      // Refusals are judged by the upload (a refused status query after a lost last byte is not a rejection).
      throw asRateLimit(error);
    }
  }

  /** The grant renewed after a 401; a grant that cannot be renewed rejects the rendition (reconnect). */
  private async renew(session: Session): Promise<void> {
    if (!session.account.renewGrant) {
      throw new DeliveryError({
        outcome: 'rejected',
        kind: 'auth',
        code: 'provider_auth_rejected',
        message: "youtube refused the account's authorization; reconnect the account.",
        httpStatus: 401,
      });
    }
    session.grant = await session.account.renewGrant();
  }

  /** channels.list for the account's own channel with `part`; a channel YouTube no longer answers is a refusal (reconnect). */
  private async channel(session: Session, part: string): Promise<unknown> {
    const query = new URLSearchParams({ part, id: session.account.externalId });
    const answer = await this.api(session, { method: 'GET', url: `${API}/channels?${query}` });
    const channel = pick(answer.body, 'items', 0);
    if (!channel)
      throw new ProviderError('refused', 'youtube no longer answers for this channel; connect it again.', undefined, {
        status: 404,
        sent: true,
      });
    return channel;
  }

  /** The channel's uploads playlist (`contentDetails.relatedPlaylists.uploads`). */
  private async uploadsPlaylist(session: Session): Promise<string> {
    const playlist = text(pick(await this.channel(session, 'contentDetails'), 'contentDetails', 'relatedPlaylists', 'uploads'));
    if (!playlist) throw new ProviderError('unavailable', 'youtube answered the channel without its uploads playlist.');
    return playlist;
  }

  /** One Data API call with the session's Bearer; a 401 renews the grant once (when it can be) and repeats it. */
  private async api(session: Session, request: Omit<ProviderRequest, 'errorCodeOf'>): Promise<ProviderAnswer> {
    const send = () =>
      this.http.call(
        this.platform,
        { ...request, headers: { ...bearer(session.grant), ...request.headers }, errorCodeOf: googleReason },
        AbortSignal.timeout(this.timeoutMs),
      );
    try {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof ProviderError) || error.call?.status !== 401 || !session.account.renewGrant) throw error;
        session.grant = await session.account.renewGrant();
        return await send();
      }
    } catch (error) {
      throw asRateLimit(error);
    }
  }
}

const bearer = (grant: ProviderGrant) => ({ authorization: `Bearer ${grant.accessToken}` });

/** A channel of channels.list as an identity: the handle (`customUrl`) as username, else the title. */
function channelIdentity(channel: unknown): ConnectedIdentity {
  const title = text(pick(channel, 'snippet', 'title'));
  const thumbnails = pick(channel, 'snippet', 'thumbnails');
  return {
    externalId: requireAccountId('youtube', text(pick(channel, 'id'))),
    username: text(pick(channel, 'snippet', 'customUrl')) || title,
    displayName: title,
    avatarUrl:
      httpUrl(pick(thumbnails, 'high', 'url')) || httpUrl(pick(thumbnails, 'medium', 'url')) || httpUrl(pick(thumbnails, 'default', 'url')),
  };
}

/**
 * The session URI from `Location`, kept on the upload host: only its path and query are taken, so the token that
 * goes with every PUT never leaves Google whatever the header names (PROVIDER_API_ORIGINS still redirects it).
 */
export function sessionUriOf(location: string | null): string | undefined {
  if (!location) return undefined;
  try {
    const url = new URL(location, UPLOAD_ORIGIN);
    if (url.pathname !== UPLOAD_PATH || !url.searchParams.get('upload_id')) return undefined;
    return `${UPLOAD_ORIGIN}${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

/**
 * A refusal about the video itself where YouTube answers 403 (a privacy or license setting the channel may not use)
 * rejects the rendition as it is rather than asking for a reconnect; quota refusals become rate limits; the rest as is.
 */
function videoRefusal(error: unknown): unknown {
  if (error instanceof ProviderError && error.networkCode && FORBIDDEN_VIDEO_REASONS.has(error.networkCode)) {
    return rejected('provider_rejected', `youtube refused the video (${error.networkCode}); it cannot be sent as it is.`, 403);
  }
  if (error instanceof ProviderError && error.failure === 'refused' && error.networkCode && (error.call?.status ?? 0) === 400) {
    return rejected('provider_rejected', `youtube refused the video (${error.networkCode}); it cannot be sent as it is.`, 400);
  }
  return asRateLimit(error);
}

/** Outside a delivery (reads): a missing grant is the network's refusal (reconnect). */
function sessionOutsideDelivery(account: ProviderAccount): Session {
  if (!account.grant) throw new ProviderError('refused', 'The account holds no grant; connect it again.');
  return { account, grant: account.grant };
}
