import { rejected, requireGrant } from '../delivery-failure.js';
import { partText } from '../outgoing-text.js';
import { readPostsMetrics } from '../post-metrics-reads.js';
import { httpUrl, pick, text } from '../oauth/oauth-network.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { ProviderError } from '../provider-error.js';
import type { ProviderAnswer, ProviderHttp } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  OAuthClient,
  OutgoingMedia,
  OutgoingPost,
  OutgoingPostPart,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPart,
  PublishedPost,
} from '../social-provider.js';
import { count, insightValue, normalize } from '../graph/graph-answers.js';
import { GraphClient } from '../graph/graph-client.js';
import { type ContainerPolling, GraphContainers, userId } from '../graph/graph-containers.js';
import { expiredToken, graphErrorCode, graphCall, unknownObject } from '../graph/graph-failure.js';
import type { ThreadsNetwork } from './threads.network.js';

/**
 * The Threads API version every call names. Pinned, not "latest": Meta changes fields and defaults between
 * versions, and an adapter checked against one version's documents must not drift to another unnoticed
 * (README.md "Adapter: API version").
 */
export const THREADS_API_VERSION = 'v1.0';
const GRAPH_ORIGIN = 'https://graph.threads.net';
/** A carousel holds 2 to 20 images and videos (Threads "Posts": carousel posts). */
export const THREADS_MAX_MEDIA = 20;
/** Every few seconds, for at most the 5 minutes Threads' troubleshooting document advises. */
const DEFAULT_POLLING: ContainerPolling = { firstWaitMs: 1_000, maxWaitMs: 5_000, limitMs: 5 * 60_000 };
/** How far back of `since` a post may be dated (clock skew between us and Threads). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Posts read when reconciling: Graph's largest page; a full page means the listing may not reach back far enough. */
const RECONCILE_PAGE = 100;
const RECONCILE_FIELDS = 'id,text,timestamp,permalink,media_type,children,is_reply,replied_to,root_post';
/** Without this permission Threads will not tell reply quota (Threads "Reply management": rate limits). */
const REPLY_QUOTA_SCOPE = 'threads_manage_replies';

/**
 * Threads' operations (Meta's Threads API, README.md beside this file): text, image, video and carousel posts
 * (2 to 20 media, fetched by Threads from each library item's public URL), threads as a chain of replies, the
 * profile's followers and each post's insights.
 *
 * A post is two calls: a media container (POST /{user-id}/threads, visible to nobody), polled until FINISHED,
 * then POST /{user-id}/threads_publish, the one call that creates the post. Threads takes no idempotency key,
 * so a thread cut short after its first part went live is never sent again blindly: it is reported
 * ambiguous and reconciliation leaves it to a person. `findPost` reads the account's posts (and replies) since the
 * attempt began and matches text, media count and reply chain.
 */
export class ThreadsProvider extends OAuthProvider {
  private readonly graph: GraphClient;
  private readonly containers: GraphContainers;

  constructor(
    private readonly threads: ThreadsNetwork,
    http: ProviderHttp,
    timeoutMs: number,
    polling: ContainerPolling = DEFAULT_POLLING,
  ) {
    super(threads, http);
    this.graph = new GraphClient(
      http,
      {
        platform: threads.platform,
        origin: GRAPH_ORIGIN,
        version: THREADS_API_VERSION,
        errorCodeOf: graphErrorCode,
        tokenRefused: expiredToken,
      },
      timeoutMs,
    );
    this.containers = new GraphContainers(
      this.graph,
      {
        create: 'threads',
        publish: 'threads_publish',
        statusField: 'status',
        statusFields: 'status,error_message',
        deliveryCall: (creates, call) => graphCall(this.platform, creates, call),
      },
      polling,
    );
  }

  /**
   * The code's short-lived token (an hour), traded at once for a long-lived one (60 days), which ProviderAccounts
   * renews before it expires (`refresh_access_token`); a short-lived token kept as it is could never be renewed.
   */
  override async exchangeCode(
    client: OAuthClient,
    request: { code: string; redirectUri: string; codeVerifier?: string },
    signal: AbortSignal,
  ): Promise<ProviderGrant> {
    return this.graph.longLived(this.threads, client, await super.exchangeCode(client, request, signal), signal);
  }

  override async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    requireGrant(account);
    for (const [index, part] of post.parts.entries()) {
      if (part.media.length > THREADS_MAX_MEDIA) {
        throw rejected(
          'too_many_media',
          `A threads post carries at most ${THREADS_MAX_MEDIA} media; part ${index + 1} has ${part.media.length}.`,
        );
      }
    }
    await this.checkPublishingLimit(account, post);
    // Every part's media parameters before anything goes live: storage failing now fails the post, not a thread halfway.
    const media = await Promise.all(post.parts.map((part) => Promise.all(part.media.map(mediaParameters))));
    const published: PublishedPart[] = [];
    for (const [index, part] of post.parts.entries()) {
      try {
        published.push(await this.publishPart(account, part, media[index], published.at(-1)?.externalId));
      } catch (error) {
        if (published.length === 0) throw error;
        // The first parts are live and Threads cannot deduplicate a second attempt: never retried blindly.
        throw new DeliveryError({
          outcome: 'ambiguous',
          code: 'thread_incomplete',
          message: `threads published ${published.length} of ${post.parts.length} parts; part ${index + 1} failed.`,
          httpStatus: error instanceof DeliveryError ? error.failure.httpStatus : 0,
        });
      }
    }
    return { ...published[0], parts: published };
  }

  /**
   * The post when every part is among the account's posts since `since` (the first among its threads, the
   * others among its replies, each replying to the one before, same text and media count); null when nothing
   * matches and the listing reaches back before `since`; 'unknown' when only the first parts are there (a thread
   * cut short: sending again would repeat them) or the listing is a full page. Throws when Threads cannot be asked now.
   */
  override async findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant) return 'unknown';
    const after = Math.floor((since.getTime() - CLOCK_SKEW_MS) / 1000);
    const posts = await this.listSince(account, 'threads', after);
    const replies = post.parts.length > 1 ? await this.listSince(account, 'replies', after) : { items: [], complete: true };
    // A post another rendition owns is never this one, whatever its text (the account may post the same words twice).
    const ownedElsewhere = new Set(post.ownedElsewhere ?? []);
    const candidates = (items: unknown[]) => items.filter((item) => !ownedElsewhere.has(text(pick(item, 'id'))));
    const found: PublishedPart[] = [];
    for (const [index, part] of post.parts.entries()) {
      const wanted = normalize(partText(part));
      const parent = found.at(-1)?.externalId;
      const match = candidates(index === 0 ? posts.items : replies.items).find(
        (item) =>
          normalize(text(pick(item, 'text'))) === wanted &&
          carries(item, part.media.length) &&
          (parent === undefined || text(pick(item, 'replied_to', 'id')) === parent),
      );
      if (!match) break;
      found.push({ externalId: text(pick(match, 'id')), externalUrl: httpUrl(pick(match, 'permalink')) });
    }
    if (found.length === post.parts.length) return { ...found[0], parts: found };
    if (found.length > 0) return 'unknown';
    return posts.complete ? null : 'unknown';
  }

  /** GET /{user-id}/threads_insights?metric=followers_count; Threads tells neither following nor post counts (0). */
  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const answer = await this.graph.call(account, 'GET', `/${userId(account)}/threads_insights`, { metric: 'followers_count' });
    const data = pick(answer.body, 'data');
    const followers = Array.isArray(data) ? data.find((metric) => pick(metric, 'name') === 'followers_count') : undefined;
    return { followers: count(pick(followers, 'total_value', 'value')), following: 0, posts: 0 };
  }

  /**
   * GET /{media-id}/insights?metric=views,likes,replies,reposts,quotes per post, a few at a time (readPostsMetrics):
   * comments are replies, reposts are reposts and quotes together. A post Threads does not know (or no longer
   * shows: 404, or 400 without a Graph code other than 100) is left out; any other failure fails the call.
   */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    return readPostsMetrics(externalIds, async (externalId) => {
      let answer: ProviderAnswer;
      try {
        answer = await this.graph.call(account, 'GET', `/${encodeURIComponent(externalId)}/insights`, {
          metric: 'views,likes,replies,reposts,quotes',
        });
      } catch (error) {
        if (unknownObject(error)) return undefined;
        throw error;
      }
      const value = (name: string) => insightValue(answer.body, name);
      return {
        externalId,
        views: value('views'),
        likes: value('likes'),
        comments: value('replies'),
        reposts: value('reposts') + value('quotes'),
      };
    });
  }

  /**
   * GET /{user-id}/threads_publishing_limit (Threads "Overview": 250 posts, and "Reply management": 1,000 replies,
   * each in a moving 24 hours): when this post would go over, nothing is sent and the delivery waits the
   * limit's `quota_duration` (Threads tells no time at which a place frees). Reply quota is asked only of grants
   * that may read it; threads_publish enforces both limits anyway.
   */
  private async checkPublishingLimit(account: ProviderAccount, post: OutgoingPost): Promise<void> {
    const replies = post.parts.length - 1;
    const scopes = account.grant?.scopes ?? [];
    const askReplies = replies > 0 && (scopes.length === 0 || scopes.includes(REPLY_QUOTA_SCOPE));
    const fields = askReplies ? 'quota_usage,config,reply_quota_usage,reply_config' : 'quota_usage,config';
    const answer = await graphCall(this.platform, false, () =>
      this.graph.call(account, 'GET', `/${userId(account)}/threads_publishing_limit`, { fields }),
    );
    const limit = pick(answer.body, 'data', 0);
    const over = (usage: unknown, config: unknown, adding: number) => {
      const total = pick(config, 'quota_total');
      return typeof usage === 'number' && typeof total === 'number' && usage + adding > total;
    };
    const exceeded = over(pick(limit, 'quota_usage'), pick(limit, 'config'), 1)
      ? pick(limit, 'config')
      : askReplies && over(pick(limit, 'reply_quota_usage'), pick(limit, 'reply_config'), replies)
        ? pick(limit, 'reply_config')
        : undefined;
    if (exceeded === undefined) return;
    const duration = pick(exceeded, 'quota_duration');
    throw new DeliveryError({
      outcome: 'retryable',
      code: 'provider_rate_limited',
      message: 'threads limits how many posts a profile publishes in 24 hours; trying again later.',
      httpStatus: answer.status,
      retryAfterMs: (typeof duration === 'number' && duration > 0 ? duration : 86_400) * 1000,
    });
  }

  /** One post of a thread: its container (children first for a carousel), ready, then published; its id and permalink. */
  private async publishPart(
    account: ProviderAccount,
    part: OutgoingPostPart,
    media: Array<Record<string, string>>,
    replyTo: string | undefined,
  ): Promise<PublishedPart> {
    const deadline = Date.now() + this.containers.polling.limitMs;
    const body = partText(part);
    const common = { ...(body ? { text: body } : {}), ...(replyTo ? { reply_to_id: replyTo } : {}) };
    let containerId: string;
    if (media.length === 0) {
      containerId = await this.containers.create(account, { media_type: 'TEXT', ...common });
    } else if (media.length === 1) {
      containerId = await this.containers.create(account, { ...media[0], ...common });
    } else {
      const children: string[] = [];
      for (const item of media) children.push(await this.containers.create(account, { ...item, is_carousel_item: 'true' }));
      for (const child of children) await this.waitUntilReady(account, child, deadline);
      containerId = await this.containers.create(account, { media_type: 'CAROUSEL', children: children.join(','), ...common });
    }
    await this.waitUntilReady(account, containerId, deadline);
    const externalId = await this.containers.publish(account, containerId);
    return { externalId, externalUrl: await this.graph.permalink(account, externalId) };
  }

  /**
   * The container, polled until FINISHED (Threads "Troubleshooting": publishing status). ERROR rejects the post with
   * the error_message Threads names (FAILED_DOWNLOADING_VIDEO, INVALID_DURATION…).
   */
  private async waitUntilReady(account: ProviderAccount, containerId: string, deadline: number): Promise<void> {
    const outcome = await this.containers.untilProcessed(account, containerId, deadline);
    if (outcome.state === 'FINISHED') return;
    const reason = text(pick(outcome.answer.body, 'error_message'));
    const code = /^[A-Z][A-Z_]{0,63}$/.test(reason) ? reason.toLowerCase() : 'media_processing_failed';
    throw rejected(code, `threads could not process the post's media${reason ? ` (${code})` : ''}.`);
  }

  /** The account's posts (or replies) since `after` (Unix seconds), newest first; `complete` when the page holds them all. */
  private async listSince(
    account: ProviderAccount,
    edge: 'threads' | 'replies',
    after: number,
  ): Promise<{ items: unknown[]; complete: boolean }> {
    const answer = await this.graph.call(account, 'GET', `/${userId(account)}/${edge}`, {
      fields: RECONCILE_FIELDS,
      since: String(after),
      limit: String(RECONCILE_PAGE),
    });
    const data = pick(answer.body, 'data');
    if (!Array.isArray(data)) throw new ProviderError('unavailable', `threads answered its ${edge} listing without data.`);
    return { items: data, complete: data.length < RECONCILE_PAGE && !pick(answer.body, 'paging', 'next') };
  }
}

/** An image or video container's parameters: the library item's public URL, which Threads fetches, and its alt text. */
async function mediaParameters(media: OutgoingMedia): Promise<Record<string, string>> {
  const url = await media.publicUrl();
  return media.kind === 'video'
    ? { media_type: 'VIDEO', video_url: url, ...(media.altText ? { alt_text: media.altText } : {}) }
    : { media_type: 'IMAGE', image_url: url, ...(media.altText ? { alt_text: media.altText } : {}) };
}

/** Whether a listed post carries `media` images and videos (a carousel's children when listed, else any 2 or more). */
function carries(item: unknown, media: number): boolean {
  const type = text(pick(item, 'media_type'));
  if (type === 'CAROUSEL_ALBUM') {
    const children = pick(item, 'children', 'data');
    return Array.isArray(children) ? children.length === media : media >= 2;
  }
  if (type === 'IMAGE' || type === 'VIDEO') return media === 1;
  return media === 0;
}
