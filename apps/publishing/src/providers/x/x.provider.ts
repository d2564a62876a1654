import type { Readable } from 'node:stream';
import { deliveryCall, rejected, requireGrant } from '../delivery-failure.js';
import { partText } from '../outgoing-text.js';
import { pick, text } from '../oauth/oauth-network.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { uploadTimeoutMs } from '../multipart-stream.js';
import { MissingScopes, ProviderError } from '../provider-error.js';
import type { ProviderAnswer, ProviderHttp } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  FollowOutcome,
  OutgoingMedia,
  OutgoingPost,
  OutgoingPostPart,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPart,
  PublishedPost,
} from '../social-provider.js';
import type { XNetwork } from './x.network.js';
import { count } from '../post-metrics-reads.js';

const API = 'https://api.x.com';

const DUPLICATE_CONTENT = 'duplicate_content';
/**
 * X's errors are problem details (`{title, detail, type, status}`); a duplicate of a recent post is a 403 whose
 * `detail` alone says so ("…duplicate content."), so that is the one refusal read from the body.
 */
export const xErrorCode = (body: unknown): string | undefined =>
  /duplicate content/i.test(text(pick(body, 'detail'))) ? DUPLICATE_CONTENT : undefined;
/** A post carries at most 4 images, or one video or GIF (README: create a post). */
export const X_MAX_MEDIA = 4;
/** APPEND segments: X takes up to 5 MB each; 4 MiB keeps one segment in memory at a time, well inside. */
export const X_SEGMENT_BYTES = 4 * 1024 * 1024;
/** How long a video or GIF may stay in processing before the delivery is retried later. */
const MEDIA_PROCESSING_LIMIT_MS = 120_000;
/** The shortest and longest wait between STATUS polls, whatever `check_after_secs` says. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 10_000;
/** How far back of `since` a post may be dated (clock skew between us and X). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** The user posts timeline's page maximum, and how many pages a reconciliation reads at most. */
const TIMELINE_PAGE = 100;
const TIMELINE_PAGES = 5;
/** GET /2/tweets takes up to 100 ids a call. */
const LOOKUP_IDS = 100;
/** POST /2/users/:id/following needs it (the older grants were asked without). */
const FOLLOW_SCOPE = 'follows.write';
const TIMELINE_FIELDS = 'tweet.fields=created_at,conversation_id,referenced_tweets';

/** The grant an operation uses; replaced when X refused the access token and it was renewed. */
interface Session {
  grant: ProviderGrant;
}

/** A post of the account as the user posts timeline answers it. */
interface TimelinePost {
  id: string;
  text: string;
  createdAt: number;
  repliedTo: string | null;
}

/**
 * X's operations over the X API v2 (README.md beside this file): posts (text, up to 4 images or one video or GIF
 * with alt text, threads as replies), account and post counters, and following. Every call is bounded by
 * `timeoutMs` (uploads by their size), and a 401 renews the grant once through `account.renewGrant`.
 *
 * X offers no idempotency key: a post whose answer was lost is found again (`findPost`) in the account's
 * timeline by its text and reply chain. Every part's media is uploaded before the first post is created, so a
 * thread fails whole or not at all on uploads; a thread that fails after its first post went out is ambiguous
 * (sending it again would post its first parts twice) and reconciled.
 */
export class XProvider extends OAuthProvider {
  constructor(
    network: XNetwork,
    http: ProviderHttp,
    private readonly timeoutMs: number,
  ) {
    super(network, http);
  }

  override async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const session = { grant: requireGrant(account) };
    const mediaIds: string[][] = [];
    for (const [index, part] of post.parts.entries()) {
      if (part.media.length > X_MAX_MEDIA) {
        throw rejected('too_many_media', `An X post carries at most ${X_MAX_MEDIA} media; part ${index + 1} has ${part.media.length}.`);
      }
      const ids: string[] = [];
      for (const media of part.media) ids.push(await this.upload(account, session, media));
      mediaIds.push(ids);
    }
    const published: PublishedPart[] = [];
    for (const [index, part] of post.parts.entries()) {
      try {
        published.push(await this.createPost(account, session, part, mediaIds[index], published.at(-1)?.externalId));
      } catch (error) {
        if (published.length === 0 || !(error instanceof DeliveryError) || error.failure.outcome === 'ambiguous') throw error;
        throw new DeliveryError({
          outcome: 'ambiguous',
          code: 'thread_incomplete',
          message: `x took ${published.length} of the thread's ${post.parts.length} posts, then not the next; it will be looked up.`,
          httpStatus: error.failure.httpStatus,
        });
      }
    }
    return { ...published[0], parts: published };
  }

  /**
   * The post when every part is among the account's posts since `since` (the same text, links masked since X
   * shows them through t.co; each a reply to the one before), skipping posts other renditions own. null when
   * none is and the timeline reaches back before `since`; 'unknown' when only the first parts are there (the
   * thread is half live) or the timeline is longer than we read; throws when X cannot be asked now.
   */
  override async findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant) return 'unknown';
    const session: Session = { grant: account.grant };
    const { posts, complete } = await this.timeline(account, session, new Date(since.getTime() - CLOCK_SKEW_MS));
    const ownedElsewhere = new Set(post.ownedElsewhere ?? []);
    const candidates = posts.filter((candidate) => !ownedElsewhere.has(candidate.id));
    const found: PublishedPart[] = [];
    for (const part of post.parts) {
      const wanted = comparable(partText(part));
      const parent = found.at(-1)?.externalId ?? null;
      const match = candidates.find((candidate) => comparable(candidate.text) === wanted && candidate.repliedTo === parent);
      if (!match) break;
      found.push(this.published(account, match.id));
    }
    if (found.length === post.parts.length) return { ...found[0], parts: found };
    if (found.length > 0) return 'unknown';
    return complete ? null : 'unknown';
  }

  /** GET /2/users/me with `public_metrics`. */
  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const answer = await this.api(account, sessionOutsideDelivery(account), {
      method: 'GET',
      path: '/2/users/me?user.fields=public_metrics',
    });
    const metrics = pick(answer.body, 'data', 'public_metrics');
    return {
      followers: count(pick(metrics, 'followers_count')),
      following: count(pick(metrics, 'following_count')),
      posts: count(pick(metrics, 'tweet_count')),
    };
  }

  /**
   * GET /2/tweets?ids=… with `public_metrics`, 100 ids a call: impressions are views, retweets and quotes are
   * reposts. A post X no longer has (named in `errors`) is left out.
   */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    const session = sessionOutsideDelivery(account);
    const metrics: PostMetrics[] = [];
    for (let start = 0; start < externalIds.length; start += LOOKUP_IDS) {
      const ids = externalIds
        .slice(start, start + LOOKUP_IDS)
        .map(encodeURIComponent)
        .join(',');
      const answer = await this.api(account, session, { method: 'GET', path: `/2/tweets?ids=${ids}&tweet.fields=public_metrics` });
      const data = pick(answer.body, 'data');
      for (const item of Array.isArray(data) ? data : []) {
        const externalId = text(pick(item, 'id'));
        if (!externalId) continue;
        const counters = pick(item, 'public_metrics');
        metrics.push({
          externalId,
          views: count(pick(counters, 'impression_count')),
          likes: count(pick(counters, 'like_count')),
          comments: count(pick(counters, 'reply_count')),
          reposts: count(pick(counters, 'retweet_count')) + count(pick(counters, 'quote_count')),
        });
      }
    }
    return metrics;
  }

  /** POST /2/users/:id/following; `pending_follow` (the account's posts are protected) is a request. */
  override async follow(account: ProviderAccount, remoteAccountId: string): Promise<FollowOutcome> {
    const scopes = account.grant?.scopes ?? [];
    if (scopes.length > 0 && !scopes.includes(FOLLOW_SCOPE)) {
      throw new MissingScopes(
        [FOLLOW_SCOPE],
        'The account was connected without permission to follow accounts; connect it again to grant it.',
      );
    }
    const answer = await this.api(account, sessionOutsideDelivery(account), {
      method: 'POST',
      path: `/2/users/${encodeURIComponent(account.externalId)}/following`,
      json: { target_user_id: remoteAccountId },
    });
    return pick(answer.body, 'data', 'pending_follow') === true && pick(answer.body, 'data', 'following') !== true
      ? 'requested'
      : 'following';
  }

  /**
   * POST /2/tweets: the text, the media, and the post it answers (a thread's later parts). A 403 is X's
   * answer both for a token it refuses and for a duplicate of a recent post; only its `detail` tells them apart.
   */
  private async createPost(
    account: ProviderAccount,
    session: Session,
    part: OutgoingPostPart,
    mediaIds: string[],
    parent: string | undefined,
  ): Promise<PublishedPart> {
    const body = {
      text: partText(part),
      ...(mediaIds.length ? { media: { media_ids: mediaIds } } : {}),
      ...(parent ? { reply: { in_reply_to_tweet_id: parent } } : {}),
    };
    const answer = await deliveryCall(this.platform, true, async () => {
      try {
        return await this.api(account, session, { method: 'POST', path: '/2/tweets', json: body });
      } catch (error) {
        if (error instanceof ProviderError && error.networkCode === DUPLICATE_CONTENT) {
          throw rejected(
            'duplicate_content',
            'x refuses a post whose text the account posted recently; change the text to post it again.',
            403,
          );
        }
        throw error;
      }
    });
    const id = text(pick(answer.body, 'data', 'id'));
    if (!id) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'provider_answer_unreadable',
        message: 'x answered the post without its id.',
        httpStatus: answer.status,
      });
    }
    return this.published(account, id);
  }

  /**
   * The account's posts (GET /2/users/:id/tweets), newest first, since `start` (whole seconds, as X takes it),
   * following `next_token` for up to `pages` pages; `complete` when no page is left.
   */
  private async timeline(
    account: ProviderAccount,
    session: Session,
    start: Date | undefined,
    pages = TIMELINE_PAGES,
  ): Promise<{ posts: TimelinePost[]; complete: boolean }> {
    const posts: TimelinePost[] = [];
    let token = '';
    for (let page = 0; page < pages; page++) {
      const query = new URLSearchParams({ max_results: String(TIMELINE_PAGE) });
      if (start) query.set('start_time', start.toISOString().replace(/\.\d{3}Z$/, 'Z'));
      if (token) query.set('pagination_token', token);
      const answer = await this.api(account, session, {
        method: 'GET',
        path: `/2/users/${encodeURIComponent(account.externalId)}/tweets?${query}&${TIMELINE_FIELDS}`,
      });
      const data = pick(answer.body, 'data');
      for (const item of Array.isArray(data) ? data : []) {
        const references = pick(item, 'referenced_tweets');
        const repliedTo = Array.isArray(references) ? references.find((reference) => pick(reference, 'type') === 'replied_to') : undefined;
        posts.push({
          id: text(pick(item, 'id')),
          text: text(pick(item, 'text')),
          createdAt: Date.parse(text(pick(item, 'created_at'))),
          repliedTo: repliedTo ? text(pick(repliedTo, 'id')) : null,
        });
      }
      token = text(pick(answer.body, 'meta', 'next_token'));
      if (!token) return { posts, complete: true };
    }
    return { posts, complete: false };
  }

  /**
   * The chunked upload of one media file: INITIALIZE (type, size, category), APPEND in segments of at most
   * X_SEGMENT_BYTES read from storage as they come (a video is never held whole), FINALIZE, then STATUS polls
   * while X processes a video or GIF; the alt text of an image through the media metadata endpoint. The media
   * id. A refusal rejects the rendition; 5xx, 429 or a timeout is tried again with the delivery.
   */
  private async upload(account: ProviderAccount, session: Session, media: OutgoingMedia): Promise<string> {
    const initialized = await deliveryCall(this.platform, false, () =>
      this.api(account, session, {
        method: 'POST',
        path: '/2/media/upload/initialize',
        json: { media_type: media.mimeType, total_bytes: media.size, media_category: mediaCategory(media) },
      }),
    );
    const id = text(pick(initialized.body, 'data', 'id'));
    if (!id) throw retryable('provider_error', 'x answered the upload without its media id.', initialized.status);
    const path = `/2/media/upload/${encodeURIComponent(id)}`;
    await deliveryCall(this.platform, false, async () => {
      let index = 0;
      for await (const segment of segments(await media.open(), X_SEGMENT_BYTES)) {
        const form = new FormData();
        form.set('segment_index', String(index++));
        form.set('media', new Blob([segment], { type: 'application/octet-stream' }), 'blob');
        await this.api(
          account,
          session,
          { method: 'POST', path: `${path}/append`, multipart: form },
          uploadTimeoutMs(this.timeoutMs, segment.length),
        );
      }
    });
    const finalized = await deliveryCall(this.platform, false, () =>
      this.api(account, session, { method: 'POST', path: `${path}/finalize` }),
    );
    await this.processed(account, session, id, finalized);
    if (media.altText && media.kind === 'image') {
      await deliveryCall(this.platform, false, () =>
        this.api(account, session, {
          method: 'POST',
          path: '/2/media/metadata',
          json: { id, metadata: { alt_text: { text: media.altText } } },
        }),
      );
    }
    return id;
  }

  /** Polls GET /2/media/upload?command=STATUS as `processing_info` asks until `succeeded`; a `failed` one rejects the rendition. */
  private async processed(account: ProviderAccount, session: Session, id: string, answer: ProviderAnswer): Promise<void> {
    const deadline = Date.now() + MEDIA_PROCESSING_LIMIT_MS;
    for (let info = pick(answer.body, 'data', 'processing_info'); info !== undefined;) {
      const state = text(pick(info, 'state'));
      if (state === 'succeeded') return;
      if (state === 'failed') {
        throw rejected('media_processing_failed', 'x could not process the media; it cannot be posted as it is.', answer.status);
      }
      const wait = Math.min(Math.max(count(pick(info, 'check_after_secs')) * 1000, MIN_POLL_MS), MAX_POLL_MS);
      if (Date.now() + wait > deadline) {
        throw retryable('media_processing_timeout', 'x was still processing the media; trying again later.', answer.status);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      answer = await deliveryCall(this.platform, false, () =>
        this.api(account, session, { method: 'GET', path: `/2/media/upload?command=STATUS&media_id=${encodeURIComponent(id)}` }),
      );
      info = pick(answer.body, 'data', 'processing_info');
    }
  }

  private published(account: ProviderAccount, id: string): PublishedPart {
    return { externalId: id, externalUrl: `https://x.com/${encodeURIComponent(account.username)}/status/${encodeURIComponent(id)}` };
  }

  /** One call to the X API with the session's Bearer; a 401 renews the grant once (when it can be) and repeats the call. */
  private async api(
    account: ProviderAccount,
    session: Session,
    request: { method: 'GET' | 'POST'; path: string; json?: unknown; multipart?: FormData },
    timeoutMs = this.timeoutMs,
  ): Promise<ProviderAnswer> {
    const send = () =>
      this.http.call(
        this.platform,
        {
          method: request.method,
          url: `${API}${request.path}`,
          headers: { authorization: `Bearer ${session.grant.accessToken}` },
          errorCodeOf: xErrorCode,
          json: request.json,
          multipart: request.multipart,
        },
        AbortSignal.timeout(timeoutMs),
      );
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof ProviderError) || error.call?.status !== 401 || !account.renewGrant) throw error;
      session.grant = await account.renewGrant();
      return send();
    }
  }
}

/**
 * A text as X shows it compared with one we sent: X answers `&`, `<` and `>` escaped, every link through
 * t.co, and a link to the media after the text; links are masked and trailing ones dropped on both sides.
 */
export function comparable(value: string): string {
  return value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/https?:\/\/\S+/g, '\u0000')
    .replace(/\s+/g, ' ')
    .replace(/(\s*\u0000)+$/, '')
    .trim();
}

/** The upload's `media_category`: an animated GIF, a video, or an image. */
function mediaCategory(media: OutgoingMedia): 'tweet_gif' | 'tweet_video' | 'tweet_image' {
  if (media.kind === 'video') return 'tweet_video';
  return media.mimeType === 'image/gif' ? 'tweet_gif' : 'tweet_image';
}

/** The stream in segments of `size` bytes (the last one shorter); at most one segment and one read are held at a time. */
export async function* segments(stream: Readable, size: number): AsyncGenerator<Uint8Array> {
  let pending: Buffer[] = [];
  let held = 0;
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (held + bytes.length >= size) {
      const take = size - held;
      yield Buffer.concat([...pending, bytes.subarray(0, take)]);
      bytes = bytes.subarray(take);
      pending = [];
      held = 0;
    }
    if (bytes.length) {
      pending.push(bytes);
      held += bytes.length;
    }
  }
  if (held > 0) yield Buffer.concat(pending);
}

/** Outside a delivery (reads, follows): a missing grant is the network's refusal (reconnect). */
function sessionOutsideDelivery(account: ProviderAccount): Session {
  if (!account.grant) throw new ProviderError('refused', 'The account holds no grant; connect it again.');
  return { grant: account.grant };
}

const retryable = (code: string, message: string, httpStatus: number) =>
  new DeliveryError({ outcome: 'retryable', code, message, httpStatus });
