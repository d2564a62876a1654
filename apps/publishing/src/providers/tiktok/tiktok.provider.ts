import { ChunkedReader } from '../chunked-reader.js';
import { rejected, requireGrant } from '../delivery-failure.js';
import { uploadTimeoutMs } from '../multipart-stream.js';
import { httpUrl, pick, text } from '../oauth/oauth-network.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { partText } from '../outgoing-text.js';
import { ProviderError } from '../provider-error.js';
import type { ProviderAnswer, ProviderHttp } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  OutgoingMedia,
  OutgoingPost,
  OutgoingPostPart,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPost,
} from '../social-provider.js';
import { chunkPlan, type ChunkRange } from './tiktok-chunks.js';
import { failReasonFailure, tiktokCall, tiktokErrorCode, tiktokFailure } from './tiktok-failure.js';
import { type CreatorInfo, photoPostInfo, readCreatorInfo, videoPostInfo } from './tiktok-post-info.js';
import type { TikTokNetwork } from './tiktok.network.js';
import { count } from '../post-metrics-reads.js';

const API = 'https://open.tiktokapis.com';
/** A photo post carries up to 35 images (Photo: `photo_images`). */
export const TIKTOK_MAX_PHOTOS = 35;
/** How often and how long Get Post Status is asked after the media went to TikTok. */
export interface StatusPolling {
  /** The wait before the first look, doubling up to `maxWaitMs` (status fetch allows 30 requests a minute a token). */
  firstWaitMs: number;
  maxWaitMs: number;
  /** Past this, a post still processing is taken as published under its publish id (it was accepted; it is never sent again). */
  limitMs: number;
}
/** TikTok processes 1 GB in about a minute, and moderation "usually finishes within one minute". */
const DEFAULT_POLLING: StatusPolling = { firstWaitMs: 2_000, maxWaitMs: 10_000, limitMs: 5 * 60_000 };
/** video/list and video/query take at most 20 videos a call. */
const PAGE = 20;
/** Pages of the creator's videos a reconciliation reads at most. */
const RECONCILE_PAGES = 5;
/** How far back of `since` a post may be dated (clock skew between us and TikTok). */
const CLOCK_SKEW_MS = 5 * 60_000;
const JSON_UTF8 = 'application/json; charset=UTF-8';

const normalize = (value: string) => value.replace(/\s+/g, ' ').trim();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The grant an operation uses; replaced once when TikTok refused the access token and it was renewed. */
interface Session {
  grant: ProviderGrant;
  renewed: boolean;
}

/**
 * TikTok's operations over the Content Posting API and the Display API (README.md beside this file): one video
 * (Direct Post, FILE_UPLOAD in chunks streamed from storage) or a photo post of up to 35 images (fetched by TikTok from
 * the library's public copies), each after the creator info query (privacy levels the creator may use, the longest
 * video, interactions turned off), then Get Post Status until TikTok published or failed it; the creator's counts
 * and each video's counts.
 *
 * TikTok takes no idempotency key. A video's post exists only once its last chunk arrived, so only that chunk, and a
 * photo post's init, may leave the outcome unknown; `findPost` then looks for the caption among the creator's recent
 * videos, and answers 'unknown' (never "none") when it is not there: a post still in moderation, or not public, is
 * not listed.
 */
export class TikTokProvider extends OAuthProvider {
  constructor(
    network: TikTokNetwork,
    http: ProviderHttp,
    private readonly timeoutMs: number,
    private readonly polling: StatusPolling = DEFAULT_POLLING,
  ) {
    super(network, http);
  }

  override async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const session: Session = { grant: requireGrant(account), renewed: false };
    const part = onePart(post);
    const videos = part.media.filter((media) => media.kind === 'video');
    const images = part.media.filter((media) => media.kind === 'image');
    const creator = readCreatorInfo(
      (await tiktokCall(false, () => this.api(account, session, 'POST', '/v2/post/publish/creator_info/query/'))).body,
    );
    let publishId: string;
    if (videos.length === 1) {
      const video = videos[0];
      const longest = creator.maxVideoPostDurationSec;
      if (longest > 0 && video.durationMs > longest * 1000) {
        throw rejected('video_too_long', `tiktok lets this creator post videos of up to ${longest} seconds; this one lasts longer.`);
      }
      publishId = await this.sendVideo(account, session, video, videoPostInfo(creator, post, part));
    } else {
      publishId = await this.sendPhotos(account, session, images, post, photoPostInfo(creator, post, part));
    }
    return this.waitUntilPublished(account, session, creator, publishId, videos.length === 1 ? 'video' : 'photo');
  }

  /**
   * The post among the creator's videos since `since` (POST /v2/video/list/, newest first): the same caption, not owned
   * by another rendition. 'unknown' when none is: TikTok lists only public posts, and a post still in moderation not
   * yet, so its absence never proves that nothing was made. Throws when TikTok cannot be asked now.
   */
  override async findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant || post.parts.length !== 1) return 'unknown';
    const session: Session = { grant: account.grant, renewed: false };
    const part = post.parts[0];
    const isVideo = part.media.some((media) => media.kind === 'video');
    const after = (since.getTime() - CLOCK_SKEW_MS) / 1000;
    const ownedElsewhere = new Set(post.ownedElsewhere ?? []);
    let cursor: unknown;
    for (let page = 0; page < RECONCILE_PAGES; page++) {
      const answer = await this.api(account, session, 'POST', '/v2/video/list/?fields=id,title,video_description,create_time,share_url', {
        max_count: PAGE,
        ...(cursor === undefined ? {} : { cursor }),
      });
      const videos = pick(answer.body, 'data', 'videos');
      const listed = Array.isArray(videos) ? videos : [];
      const match = listed.find(
        (video) =>
          count(pick(video, 'create_time')) >= after &&
          !ownedElsewhere.has(text(pick(video, 'id'))) &&
          sameCaption(part, text(pick(video, 'title')), text(pick(video, 'video_description'))),
      );
      if (match) {
        const externalId = text(pick(match, 'id'));
        const externalUrl = httpUrl(pick(match, 'share_url')) || postUrl(account.username, externalId, isVideo ? 'video' : 'photo');
        return { externalId, externalUrl, parts: [{ externalId, externalUrl }] };
      }
      const oldest = listed.at(-1);
      if (pick(answer.body, 'data', 'has_more') !== true || !oldest || count(pick(oldest, 'create_time')) < after) break;
      cursor = pick(answer.body, 'data', 'cursor');
    }
    return 'unknown';
  }

  /** GET /v2/user/info/ with the creator's counts (scope user.info.stats). */
  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const answer = await this.api(
      account,
      readSession(account),
      'GET',
      '/v2/user/info/?fields=open_id,follower_count,following_count,video_count',
    );
    const user = pick(answer.body, 'data', 'user');
    return {
      followers: count(pick(user, 'follower_count')),
      following: count(pick(user, 'following_count')),
      posts: count(pick(user, 'video_count')),
    };
  }

  /**
   * POST /v2/video/query/ with `filters.video_ids`, 20 ids a call (scope video.list): views, likes, comments, and
   * shares as reposts. A post TikTok does not list (removed, not public, or known only by its publish id) is left out.
   */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    const session = readSession(account);
    const metrics: PostMetrics[] = [];
    for (let start = 0; start < externalIds.length; start += PAGE) {
      const ids = externalIds.slice(start, start + PAGE);
      const answer = await this.api(
        account,
        session,
        'POST',
        '/v2/video/query/?fields=id,like_count,comment_count,share_count,view_count',
        {
          filters: { video_ids: ids },
        },
      );
      const videos = pick(answer.body, 'data', 'videos');
      for (const video of Array.isArray(videos) ? videos : []) {
        const externalId = text(pick(video, 'id'));
        if (!ids.includes(externalId)) continue;
        metrics.push({
          externalId,
          views: count(pick(video, 'view_count')),
          likes: count(pick(video, 'like_count')),
          comments: count(pick(video, 'comment_count')),
          reposts: count(pick(video, 'share_count')),
        });
      }
    }
    return metrics;
  }

  /**
   * Direct Post of a video with FILE_UPLOAD: POST /v2/post/publish/video/init/ with the chunk plan, then each chunk
   * PUT to `upload_url` in order, streamed from storage (`open` of its range). Nothing is posted until the last chunk
   * arrives, so only that chunk's lost answer leaves the outcome unknown; any earlier failure is tried again later
   * with a new init. The publish id.
   */
  private async sendVideo(
    account: ProviderAccount,
    session: Session,
    video: OutgoingMedia,
    postInfo: Record<string, unknown>,
  ): Promise<string> {
    const plan = chunkPlan(video.size);
    const init = await tiktokCall(false, () =>
      this.api(account, session, 'POST', '/v2/post/publish/video/init/', {
        post_info: postInfo,
        source_info: { source: 'FILE_UPLOAD', video_size: video.size, chunk_size: plan.chunkSize, total_chunk_count: plan.totalChunkCount },
      }),
    );
    const publishId = text(pick(init.body, 'data', 'publish_id'));
    const uploadUrl = text(pick(init.body, 'data', 'upload_url'));
    if (!publishId || !httpUrl(uploadUrl)) {
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'provider_error',
        message: 'tiktok answered the video init without its publish id or upload URL.',
        httpStatus: init.status,
      });
    }
    // One storage read runs on from chunk to chunk (ChunkedReader).
    const source = new ChunkedReader(video);
    try {
      for (const [index, chunk] of plan.chunks.entries()) {
        const last = index === plan.chunks.length - 1;
        await tiktokCall(last, () => this.putChunk(uploadUrl, video, source, chunk));
      }
    } finally {
      source.close();
    }
    return publishId;
  }

  /** PUT of one chunk (Media Transfer Guide): Content-Range and Content-Length named, the bytes streamed as storage reads them. */
  private async putChunk(uploadUrl: string, video: OutgoingMedia, source: ChunkedReader, chunk: ChunkRange): Promise<ProviderAnswer> {
    const length = chunk.end - chunk.start + 1;
    const body = await source.take(chunk.start, length);
    try {
      return await this.http.call(
        this.platform,
        {
          method: 'PUT',
          url: uploadUrl,
          headers: { 'content-range': `bytes ${chunk.start}-${chunk.end}/${video.size}`, 'content-length': String(length) },
          stream: { body, contentType: video.mimeType || 'video/mp4' },
          errorCodeOf: tiktokErrorCode,
          loggedPath: '/upload',
        },
        AbortSignal.timeout(uploadTimeoutMs(this.timeoutMs, length)),
      );
    } catch (error) {
      source.close();
      throw error;
    }
  }

  /**
   * Photo post, Direct Post: POST /v2/post/publish/content/init/ with PULL_FROM_URL (TikTok takes photos by URL only)
   * naming each image's public copy; this call makes the post, so a lost answer is ambiguous. The publish id.
   */
  private async sendPhotos(
    account: ProviderAccount,
    session: Session,
    images: OutgoingMedia[],
    post: OutgoingPost,
    postInfo: Record<string, unknown>,
  ): Promise<string> {
    const urls: string[] = [];
    for (const image of images) urls.push(await image.publicUrl());
    const cover = post.settings?.photo_cover_index;
    const coverIndex = typeof cover === 'number' && Number.isInteger(cover) && cover >= 0 && cover < urls.length ? cover : 0;
    const init = await tiktokCall(true, () =>
      this.api(account, session, 'POST', '/v2/post/publish/content/init/', {
        post_info: postInfo,
        source_info: { source: 'PULL_FROM_URL', photo_cover_index: coverIndex, photo_images: urls },
        post_mode: 'DIRECT_POST',
        media_type: 'PHOTO',
      }),
    );
    const publishId = text(pick(init.body, 'data', 'publish_id'));
    if (!publishId) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'provider_answer_unreadable',
        message: 'tiktok answered the photo post without its publish id.',
        httpStatus: init.status,
      });
    }
    return publishId;
  }

  /**
   * POST /v2/post/publish/status/fetch/ until PUBLISH_COMPLETE (the public post id when TikTok gives one, else the
   * publish id: contract §4) or FAILED (its `fail_reason` mapped). PROCESSING_UPLOAD, PROCESSING_DOWNLOAD and a
   * status that cannot be read now are asked again with a growing wait; SEND_TO_USER_INBOX, a failure to read it
   * that will not pass, and a post still processing at the limit answer the publish id (TikTok accepted the post:
   * it is never sent again).
   */
  private async waitUntilPublished(
    account: ProviderAccount,
    session: Session,
    creator: CreatorInfo,
    publishId: string,
    kind: 'video' | 'photo',
  ): Promise<PublishedPost> {
    const username = creator.username || account.username;
    const deadline = Date.now() + this.polling.limitMs;
    for (let wait = this.polling.firstWaitMs; ; wait = Math.min(wait * 2, this.polling.maxWaitMs)) {
      if (Date.now() + wait > deadline) break;
      await sleep(wait);
      let answer: ProviderAnswer;
      try {
        answer = await this.api(account, session, 'POST', '/v2/post/publish/status/fetch/', { publish_id: publishId });
      } catch (error) {
        if (tiktokFailure(error, false).outcome === 'retryable') continue;
        break;
      }
      const status = text(pick(answer.body, 'data', 'status'));
      if (status === 'FAILED') throw new DeliveryError(failReasonFailure(text(pick(answer.body, 'data', 'fail_reason'))));
      if (status === 'PUBLISH_COMPLETE') {
        const ids = pick(answer.body, 'data', 'publicaly_available_post_id');
        const publicId = Array.isArray(ids) ? text(ids[0]) : '';
        if (publicId) return published(publicId, postUrl(username, publicId, kind));
        break;
      }
      if (status === 'SEND_TO_USER_INBOX') break;
    }
    return published(publishId, '');
  }

  /**
   * One call to the TikTok API as its documents show it: the Bearer token, a JSON body in UTF-8, and the answer's
   * `error.code` checked even beside a 2xx. A refused token (access_token_invalid, or a 401) is renewed once through
   * `account.renewGrant` and the call repeated: nothing was done with the refused one.
   */
  private async api(
    account: ProviderAccount,
    session: Session,
    method: 'GET' | 'POST',
    path: string,
    json?: unknown,
  ): Promise<ProviderAnswer> {
    const send = async () => {
      const answer = await this.http.call(
        this.platform,
        {
          method,
          url: `${API}${path}`,
          headers: { authorization: `Bearer ${session.grant.accessToken}` },
          ...(method === 'POST' ? { bytes: { data: Buffer.from(JSON.stringify(json ?? {}), 'utf8'), contentType: JSON_UTF8 } } : {}),
          errorCodeOf: tiktokErrorCode,
          exactIntegers: true,
        },
        AbortSignal.timeout(this.timeoutMs),
      );
      const code = tiktokErrorCode(answer.body);
      if (code) {
        throw new ProviderError('refused', `tiktok refused the request (${code}).`, code, { status: answer.status, sent: true });
      }
      return answer;
    };
    try {
      return await send();
    } catch (error) {
      const expired = error instanceof ProviderError && (error.networkCode === 'access_token_invalid' || error.call?.status === 401);
      if (!expired || session.renewed || !account.renewGrant) throw error;
      session.renewed = true;
      session.grant = await account.renewGrant();
      return send();
    }
  }
}

/** The one part a TikTok post is, with media of one kind: a video, or 1 to 35 images. Refused before any call otherwise. */
function onePart(post: OutgoingPost): OutgoingPostPart {
  if (post.parts.length !== 1) throw rejected('threads_unsupported', 'tiktok has no threads; a post is one part.');
  const part = post.parts[0];
  const videos = part.media.filter((media) => media.kind === 'video').length;
  const images = part.media.length - videos;
  if (part.media.length === 0) throw rejected('media_required', 'tiktok takes a video or photos; a text alone cannot be posted.');
  if (videos > 0 && images > 0) throw rejected('mixed_media', 'tiktok takes one video or photos, not both in one post.');
  if (videos > 1) throw rejected('too_many_media', 'tiktok takes one video a post.');
  if (images > TIKTOK_MAX_PHOTOS) throw rejected('too_many_media', `tiktok takes at most ${TIKTOK_MAX_PHOTOS} photos a post.`);
  return part;
}

/**
 * Whether a listed post carries the part's caption: a video's is the whole part (its title, or description), a photo
 * post's the part's title and the rest as description. Reconciliation may not know the media's kind (it passes
 * stand-ins), so either shape matches.
 */
function sameCaption(part: OutgoingPostPart, title: string, description: string): boolean {
  const whole = normalize(partText(part));
  const rest = normalize(partText({ ...part, title: '' }));
  const [listedTitle, listedDescription] = [normalize(title), normalize(description)];
  if (whole && (listedTitle === whole || listedDescription === whole)) return true;
  return listedTitle === normalize(part.title) && listedDescription === rest && (listedTitle !== '' || rest !== '');
}

/** A read outside delivery: its failures stay ProviderErrors (insights records them). */
function readSession(account: ProviderAccount): Session {
  if (!account.grant) throw new ProviderError('refused', 'The account holds no grant; connect it again.');
  return { grant: account.grant, renewed: false };
}

const published = (externalId: string, externalUrl: string): PublishedPost => ({
  externalId,
  externalUrl,
  parts: [{ externalId, externalUrl }],
});

/** Where a public post is seen: tiktok.com/@<username>/video/<id> (photo posts under /photo/); "" without a username. */
function postUrl(username: string, id: string, kind: 'video' | 'photo'): string {
  return username ? `https://www.tiktok.com/@${encodeURIComponent(username)}/${kind}/${encodeURIComponent(id)}` : '';
}
