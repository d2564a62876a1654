import { rejected, requireGrant } from '../delivery-failure.js';
import { count, insightValue } from '../graph/graph-answers.js';
import { GraphClient } from '../graph/graph-client.js';
import { graphErrorCode, unknownObject } from '../graph/graph-failure.js';
import { multipartStream, uploadFilename, uploadTimeoutMs } from '../multipart-stream.js';
import { httpUrl, pick, text } from '../oauth/oauth-network.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { readPostsMetrics } from '../post-metrics-reads.js';
import { ProviderError } from '../provider-error.js';
import type { ProviderAnswer, ProviderHttp, ProviderRequest } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  ConnectedIdentity,
  ConnectOptions,
  OAuthClient,
  OutgoingMedia,
  OutgoingPost,
  OutgoingPostPart,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPost,
} from '../social-provider.js';
import { FACEBOOK_GRAPH_VERSION, type FacebookNetwork, GRAPH_ORIGIN, GRAPH_VIDEO_ORIGIN } from './facebook.network.js';
import { connectedPages } from './facebook-pages.js';
import { facebookCall, matchesPost, postUrl, videoUrl } from './facebook.posts.js';

/** A post carries at most this many photos (our rules table; Graph documents no lower bound for attached_media). */
export const FACEBOOK_MAX_PHOTOS = 10;
/** Posts read when reconciling; a full page means the listing may not reach back far enough. */
const RECONCILE_PAGE = 100;
/** How far back of `since` a post may be dated (clock skew between us and Facebook). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Times one video chunk is sent when Facebook answers it with a passing failure. */
const CHUNK_ATTEMPTS = 3;

/** How often and how long an uploaded video is asked whether Facebook has processed it. */
export interface VideoPolling {
  firstWaitMs: number;
  maxWaitMs: number;
  /** Past this the video is left processing: it is live once Facebook is done, so the post is answered anyway. */
  limitMs: number;
}
const DEFAULT_POLLING: VideoPolling = { firstWaitMs: 1_000, maxWaitMs: 5_000, limitMs: 2 * 60_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Facebook Pages through the Graph API (README.md beside this file). Each Page is an account of its own holding its
 * own Page token (fetchIdentities); the person who connected is never an account.
 *
 * Text and link posts go to /{page-id}/feed; one photo to /{page-id}/photos (published with its caption); several
 * photos are uploaded unpublished, then posted together as /{page-id}/feed `attached_media`; a video goes through
 * the resumable upload phases of /{page-id}/videos (start, transfer of each range Facebook asks for, finish).
 * Photo and video bytes stream from storage as multipart parts, never held whole.
 *
 * Graph takes no idempotency key: a create whose answer was lost is ambiguous, and `findPost` looks for it among the
 * Page's published posts (or videos) since the attempt, by its message and media count. Never sent twice blindly.
 */
export class FacebookProvider extends OAuthProvider {
  /** Page tokens are never renewed (they do not expire; a refused one means reconnecting): no `tokenRefused`. */
  private readonly client: GraphClient;

  constructor(
    private readonly facebook: FacebookNetwork,
    http: ProviderHttp,
    private readonly timeoutMs: number,
    private readonly polling: VideoPolling = DEFAULT_POLLING,
  ) {
    super(facebook, http);
    this.client = new GraphClient(
      http,
      { platform: facebook.platform, origin: GRAPH_ORIGIN, version: FACEBOOK_GRAPH_VERSION, errorCodeOf: graphErrorCode },
      timeoutMs,
    );
  }

  /**
   * Every Page the grant covers, in Facebook's order, each with its own Page token: the user token is first traded
   * for a long-lived one, so the Page tokens read with it do not expire. No Page: ProviderError('no_account').
   */
  async fetchIdentities(
    client: OAuthClient,
    grant: ProviderGrant,
    signal: AbortSignal,
    _options: ConnectOptions,
  ): Promise<ConnectedIdentity[]> {
    const pages = (await connectedPages(this.http, this.facebook, client, grant, signal)).map((page) => this.keepable(page));
    if (pages.length === 0) {
      throw new ProviderError(
        'no_account',
        'The Facebook login covers no Page: posts go to Pages, a personal profile cannot be published to. Grant access to a Page.',
      );
    }
    return pages;
  }

  override async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    requireGrant(account);
    if (post.parts.length !== 1) throw rejected('threads_unsupported', 'Facebook has no threads; the post must be one part.');
    const [part] = post.parts;
    const videos = part.media.filter((media) => media.kind === 'video');
    if (videos.length > 0 && part.media.length > 1) {
      throw rejected('media_mix_unsupported', 'A Facebook post carries one video alone, or photos.');
    }
    if (part.media.length > FACEBOOK_MAX_PHOTOS) {
      throw rejected('too_many_media', `A Facebook post carries at most ${FACEBOOK_MAX_PHOTOS} photos.`);
    }
    if (videos.length === 1) return this.publishVideo(account, part, videos[0]);
    if (part.media.length === 1) return this.publishPhoto(account, part, part.media[0]);
    if (part.media.length > 1) return this.publishAlbum(account, part);
    const answer = await this.create(account, 'POST', `/${pageId(account)}/feed`, {
      message: messageOf(part),
      ...(part.link ? { link: part.link } : {}),
    });
    return published(postIdOf(answer), postUrl);
  }

  /**
   * The post among the Page's own since `since` (a video among its videos), with the message sent and as many media,
   * not owned by another rendition; null when none is and the listing reaches back before `since`; 'unknown' when it
   * does not (a full page). Throws when Facebook cannot be asked now.
   */
  override async findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant || post.parts.length !== 1) return 'unknown';
    const [part] = post.parts;
    const after = Math.floor((since.getTime() - CLOCK_SKEW_MS) / 1000);
    const video = part.media.some((media) => media.kind === 'video');
    const answer = await this.graph(account, 'GET', `/${pageId(account)}/${video ? 'videos' : 'published_posts'}`, {
      fields: video ? 'id,description,title,created_time,permalink_url' : 'id,message,created_time,permalink_url,attachments',
      since: String(after),
      limit: String(RECONCILE_PAGE),
    });
    const data = pick(answer.body, 'data');
    if (!Array.isArray(data)) return 'unknown';
    const ownedElsewhere = new Set(post.ownedElsewhere ?? []);
    const match = data.find(
      (item) =>
        !ownedElsewhere.has(text(pick(item, 'id'))) &&
        Date.parse(text(pick(item, 'created_time'))) >= after * 1000 &&
        matchesPost(item, video ? descriptionOf(part) : messageOf(part), part.media.length, video),
    );
    if (match) {
      const id = text(pick(match, 'id'));
      const permalink = facebookUrl(pick(match, 'permalink_url'));
      return published(id, () => permalink || (video ? videoUrl(account.externalId, id) : postUrl(id)));
    }
    return data.length < RECONCILE_PAGE && !pick(answer.body, 'paging', 'next') ? null : 'unknown';
  }

  /** The Page's followers (`followers_count`, else its likes `fan_count`); Facebook counts neither Pages followed nor posts: 0. */
  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const answer = await this.graph(account, 'GET', `/${pageId(account)}`, { fields: 'followers_count,fan_count' });
    const followers = pick(answer.body, 'followers_count') ?? pick(answer.body, 'fan_count');
    return { followers: count(followers), following: 0, posts: 0 };
  }

  /**
   * Per post: its reactions, comments and shares (the post's fields, summaries only), and its views from insights
   * (`post_media_view`; a video's `total_video_views` from video_insights). A post Facebook does not know (any more)
   * is left out; a metric it will not give (insights on a Page under 100 likes, a retired metric) counts 0.
   */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    return readPostsMetrics(externalIds, async (externalId) => {
      const node = `/${encodeURIComponent(externalId)}`;
      const video = !externalId.includes('_');
      let fields: ProviderAnswer;
      try {
        fields = await this.graph(account, 'GET', node, {
          fields: `reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)${video ? '' : ',shares'}`,
        });
      } catch (error) {
        if (unknownObject(error)) return undefined;
        throw error;
      }
      const views = await this.insight(account, video ? `${node}/video_insights` : `${node}/insights`, video);
      return {
        externalId,
        views,
        likes: count(pick(fields.body, 'reactions', 'summary', 'total_count')),
        comments: count(pick(fields.body, 'comments', 'summary', 'total_count')),
        reposts: count(pick(fields.body, 'shares', 'count')),
      };
    });
  }

  /** One post's views; 0 when Facebook will not give the metric (code 100: unknown metric, or no insights for this object). */
  private async insight(account: ProviderAccount, path: string, video: boolean): Promise<number> {
    const metric = video ? 'total_video_views' : 'post_media_view';
    try {
      const answer = await this.graph(account, 'GET', path, { metric });
      return insightValue(answer.body, metric);
    } catch (error) {
      if (unknownObject(error)) return 0;
      throw error;
    }
  }

  /** One photo: POST /{page-id}/photos with its bytes as `source` and the caption as `message`, published at once. */
  private async publishPhoto(account: ProviderAccount, part: OutgoingPostPart, media: OutgoingMedia): Promise<PublishedPost> {
    const answer = await this.uploadPhoto(account, media, { message: partTextOf(part) }, true);
    const postId = text(pick(answer.body, 'post_id'));
    if (!postId) throw unreadable(answer.status, true);
    return published(postId, postUrl);
  }

  /** Several photos: each uploaded unpublished (nobody sees them), then one /feed post attaching them all, in order. */
  private async publishAlbum(account: ProviderAccount, part: OutgoingPostPart): Promise<PublishedPost> {
    const ids: string[] = [];
    for (const media of part.media) {
      const answer = await this.uploadPhoto(account, media, { published: 'false' }, false);
      const id = text(pick(answer.body, 'id'));
      if (!id) throw unreadable(answer.status, false);
      ids.push(id);
    }
    const attached = Object.fromEntries(ids.map((id, index) => [`attached_media[${index}]`, JSON.stringify({ media_fbid: id })]));
    const answer = await this.create(account, 'POST', `/${pageId(account)}/feed`, { message: partTextOf(part), ...attached });
    return published(postIdOf(answer), postUrl);
  }

  /** POST /{page-id}/photos, the bytes streamed from storage as the multipart `source`, the alt text as `alt_text_custom`. */
  private async uploadPhoto(
    account: ProviderAccount,
    media: OutgoingMedia,
    fields: Record<string, string>,
    creates: boolean,
  ): Promise<ProviderAnswer> {
    const stream = await media.open();
    return facebookCall(creates, async () => {
      try {
        return await this.send({
          method: 'POST',
          url: `${GRAPH_ORIGIN}/${FACEBOOK_GRAPH_VERSION}/${pageId(account)}/photos`,
          stream: multipartStream(
            { access_token: token(account), ...fields, ...(media.altText ? { alt_text_custom: media.altText } : {}) },
            { name: 'source', filename: uploadFilename(media.mimeType), contentType: media.mimeType, stream },
          ),
          timeoutMs: uploadTimeoutMs(this.timeoutMs, media.size),
        });
      } finally {
        stream.destroy();
      }
    });
  }

  /**
   * The resumable upload phases of POST /{page-id}/videos (graph-video host): `start` with the file size answers
   * the session and the first range Facebook wants; each `transfer` sends that range (read from storage as it is
   * sent) and answers the next, until start equals end; `finish` with the title and description publishes the video
   * (the one call that creates the post). Then its processing status, until ready.
   */
  private async publishVideo(account: ProviderAccount, part: OutgoingPostPart, media: OutgoingMedia): Promise<PublishedPost> {
    const videos = `/${pageId(account)}/videos`;
    const start = await this.create(account, 'POST', videos, { upload_phase: 'start', file_size: String(media.size) }, false, true);
    const sessionId = text(pick(start.body, 'upload_session_id'));
    const videoId = text(pick(start.body, 'video_id'));
    if (!sessionId || !videoId) throw unreadable(start.status, false);
    let range = offsets(start.body, media.size);
    while (range && range.start < range.end) range = await this.transfer(account, media, sessionId, range);
    if (!range) throw unreadable(start.status, false);
    const description = descriptionOf(part);
    await this.create(
      account,
      'POST',
      videos,
      {
        upload_phase: 'finish',
        upload_session_id: sessionId,
        ...(part.title ? { title: part.title } : {}),
        ...(description ? { description } : {}),
      },
      true,
      true,
    );
    const permalink = await this.untilProcessed(account, videoId);
    return published(videoId, () => permalink || videoUrl(account.externalId, videoId));
  }

  /** One `transfer`: bytes start..end-1 streamed as `video_file_chunk`; sent again (up to CHUNK_ATTEMPTS) after a passing failure. */
  private async transfer(
    account: ProviderAccount,
    media: OutgoingMedia,
    sessionId: string,
    range: { start: number; end: number },
  ): Promise<{ start: number; end: number } | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        const stream = await media.open({ start: range.start, end: range.end - 1 });
        const answer = await facebookCall(false, async () => {
          try {
            return await this.send({
              method: 'POST',
              url: `${GRAPH_VIDEO_ORIGIN}/${FACEBOOK_GRAPH_VERSION}/${pageId(account)}/videos`,
              stream: multipartStream(
                {
                  access_token: token(account),
                  upload_phase: 'transfer',
                  upload_session_id: sessionId,
                  start_offset: String(range.start),
                },
                { name: 'video_file_chunk', filename: 'chunk', contentType: 'application/octet-stream', stream },
              ),
              timeoutMs: uploadTimeoutMs(this.timeoutMs, range.end - range.start),
            });
          } finally {
            stream.destroy();
          }
        });
        return offsets(answer.body, media.size);
      } catch (error) {
        const passing = error instanceof DeliveryError && error.failure.outcome === 'retryable';
        if (!passing || attempt >= CHUNK_ATTEMPTS) throw error;
        await sleep(this.polling.firstWaitMs);
      }
    }
  }

  /**
   * GET /{video-id}?fields=status,permalink_url until `status.video_status` is `ready` (Video API "Video status"):
   * `error` rejects the post (Facebook could not process the video); still processing at the limit, the video goes
   * live when Facebook is done, so the post is answered. A status that cannot be read does not fail a published video.
   */
  private async untilProcessed(account: ProviderAccount, videoId: string): Promise<string> {
    const deadline = Date.now() + this.polling.limitMs;
    let permalink = '';
    for (let wait = this.polling.firstWaitMs; ; wait = Math.min(wait * 2, this.polling.maxWaitMs)) {
      let answer: ProviderAnswer;
      try {
        answer = await this.graph(account, 'GET', `/${encodeURIComponent(videoId)}`, { fields: 'status,permalink_url' });
      } catch {
        return permalink;
      }
      permalink = facebookUrl(pick(answer.body, 'permalink_url'));
      const status = text(pick(answer.body, 'status', 'video_status'));
      if (status === 'ready') return permalink;
      if (status === 'error') {
        throw rejected('media_processing_failed', 'Facebook could not process the video; the post cannot be sent with it.', answer.status);
      }
      if (Date.now() + wait > deadline) return permalink;
      await sleep(wait);
    }
  }

  /** A Graph call whose failure is a DeliveryError (`creates`: whether it may have made the post). */
  private async create(
    account: ProviderAccount,
    method: 'GET' | 'POST',
    path: string,
    parameters: Record<string, string>,
    creates = true,
    video = false,
  ): Promise<ProviderAnswer> {
    return facebookCall(creates, () => this.graph(account, method, path, parameters, video));
  }

  /**
   * One Graph API call with the Page's token (graph-video host for `video`). A Page token is never renewed (it does not
   * expire; a refused one means reconnecting): 190 is a rejected auth.
   */
  private graph(
    account: ProviderAccount,
    method: 'GET' | 'POST',
    path: string,
    parameters: Record<string, string>,
    video = false,
  ): Promise<ProviderAnswer> {
    return this.client.send(method, path, parameters, token(account), video ? GRAPH_VIDEO_ORIGIN : GRAPH_ORIGIN);
  }

  private send(request: ProviderRequest & { timeoutMs?: number }): Promise<ProviderAnswer> {
    const { timeoutMs, ...rest } = request;
    return this.http.call(this.platform, { ...rest, errorCodeOf: graphErrorCode }, AbortSignal.timeout(timeoutMs ?? this.timeoutMs));
  }
}

/** The Page's token (the account's own grant). */
const token = (account: ProviderAccount) => requireGrant(account).accessToken;
const pageId = (account: ProviderAccount) => encodeURIComponent(account.externalId);

/** A feed post's message: title and text; the link goes as the `link` parameter (Facebook draws its card). */
function messageOf(part: OutgoingPostPart): string {
  return [part.title, part.text].filter(Boolean).join('\n\n');
}

/** A photo's caption, which takes no `link` parameter: the link is written in. */
function partTextOf(part: OutgoingPostPart): string {
  const body = messageOf(part);
  return part.link && !body.includes(part.link) ? [body, part.link].filter(Boolean).join('\n\n') : body;
}

/** A video's description (its title goes as `title`): the text, and the link written in. */
function descriptionOf(part: OutgoingPostPart): string {
  return part.link && !part.text.includes(part.link) ? [part.text, part.link].filter(Boolean).join('\n\n') : part.text;
}

function postIdOf(answer: ProviderAnswer): string {
  const id = text(pick(answer.body, 'id'));
  if (!id) throw unreadable(answer.status, true);
  return id;
}

function published(externalId: string, url: (id: string) => string): PublishedPost {
  const part = { externalId, externalUrl: url(externalId) };
  return { ...part, parts: [part] };
}

/** The range Facebook asks for next (`start_offset`, `end_offset`, strings), when it lies within the file. */
function offsets(body: unknown, size: number): { start: number; end: number } | undefined {
  const start = Number(pick(body, 'start_offset'));
  const end = Number(pick(body, 'end_offset'));
  const valid = Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= 0 && start <= end && end <= size;
  return valid ? { start, end } : undefined;
}

/** Graph names a video's permalink as a path (`/{page}/videos/{id}/`): made absolute. */
function facebookUrl(value: unknown): string {
  const link = text(value);
  return link.startsWith('/') ? `https://www.facebook.com${link}` : httpUrl(link);
}

const unreadable = (status: number, creates: boolean) =>
  new DeliveryError(
    creates
      ? {
          outcome: 'ambiguous',
          code: 'provider_answer_unreadable',
          message: 'facebook answered the post without its id.',
          httpStatus: status,
        }
      : {
          outcome: 'retryable',
          code: 'provider_error',
          message: 'facebook answered the upload without what it must name.',
          httpStatus: status,
        },
  );
