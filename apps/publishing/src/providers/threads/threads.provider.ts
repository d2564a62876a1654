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
import { expiredToken, graphCode, graphErrorCode, graphCall } from '../graph/graph-failure.js';
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
/** How often and how long a container is asked whether it is ready to publish. */
export interface ContainerPolling {
  /** The wait before the second look (the first is at once: a text container is ready at once), doubling up to `maxWaitMs`. */
  firstWaitMs: number;
  maxWaitMs: number;
  /** Past this, a container still IN_PROGRESS is given up for now (retryable `media_processing_timeout`). */
  limitMs: number;
}
/** Every few seconds, for at most the 5 minutes Threads' troubleshooting document advises. */
const DEFAULT_POLLING: ContainerPolling = { firstWaitMs: 1_000, maxWaitMs: 5_000, limitMs: 5 * 60_000 };
/** How far back of `since` a post may be dated (clock skew between us and Threads). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Posts read when reconciling: Graph's largest page; a full page means the listing may not reach back far enough. */
const RECONCILE_PAGE = 100;
const RECONCILE_FIELDS = 'id,text,timestamp,permalink,media_type,children,is_reply,replied_to,root_post';
/** Without this permission Threads will not tell reply quota (Threads "Reply management": rate limits). */
const REPLY_QUOTA_SCOPE = 'threads_manage_replies';

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0);
const normalize = (value: string) => value.replace(/\s+/g, ' ').trim();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  constructor(
    private readonly threads: ThreadsNetwork,
    http: ProviderHttp,
    private readonly timeoutMs: number,
    private readonly polling: ContainerPolling = DEFAULT_POLLING,
  ) {
    super(threads, http);
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
    const shortLived = await super.exchangeCode(client, request, signal);
    const answer = await this.http.json(this.platform, this.threads.longLivedTokenRequest(client, shortLived), signal);
    return this.threads.readRefreshedGrant(answer, shortLived, new Date());
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
    const answer = await this.graph(account, 'GET', `/${userId(account)}/threads_insights`, { metric: 'followers_count' });
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
        answer = await this.graph(account, 'GET', `/${encodeURIComponent(externalId)}/insights`, {
          metric: 'views,likes,replies,reposts,quotes',
        });
      } catch (error) {
        if (unknownObject(error)) return undefined;
        throw error;
      }
      const value = (name: string) => {
        const data = pick(answer.body, 'data');
        const metric = Array.isArray(data) ? data.find((item) => pick(item, 'name') === name) : undefined;
        return count(pick(metric, 'values', 0, 'value') ?? pick(metric, 'total_value', 'value'));
      };
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
      this.graph(account, 'GET', `/${userId(account)}/threads_publishing_limit`, { fields }),
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
    const deadline = Date.now() + this.polling.limitMs;
    const body = partText(part);
    const common = { ...(body ? { text: body } : {}), ...(replyTo ? { reply_to_id: replyTo } : {}) };
    let containerId: string;
    if (media.length === 0) {
      containerId = await this.createContainer(account, { media_type: 'TEXT', ...common });
    } else if (media.length === 1) {
      containerId = await this.createContainer(account, { ...media[0], ...common });
    } else {
      const children: string[] = [];
      for (const item of media) children.push(await this.createContainer(account, { ...item, is_carousel_item: 'true' }));
      for (const child of children) await this.waitUntilReady(account, child, deadline);
      containerId = await this.createContainer(account, { media_type: 'CAROUSEL', children: children.join(','), ...common });
    }
    await this.waitUntilReady(account, containerId, deadline);
    const answer = await graphCall(this.platform, true, () =>
      this.graph(account, 'POST', `/${userId(account)}/threads_publish`, { creation_id: containerId }),
    );
    const externalId = text(pick(answer.body, 'id'));
    if (!externalId) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'provider_answer_unreadable',
        message: 'threads answered the publish without its id.',
        httpStatus: answer.status,
      });
    }
    return { externalId, externalUrl: await this.permalink(account, externalId) };
  }

  /** POST /{user-id}/threads: a container, which nobody sees until it is published (a failure here created nothing). */
  private async createContainer(account: ProviderAccount, parameters: Record<string, string>): Promise<string> {
    const answer = await graphCall(this.platform, false, () => this.graph(account, 'POST', `/${userId(account)}/threads`, parameters));
    const id = text(pick(answer.body, 'id'));
    if (!id) {
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'provider_error',
        message: 'threads answered the container without its id.',
        httpStatus: answer.status,
      });
    }
    return id;
  }

  /**
   * Asks GET /{container-id}?fields=status,error_message until FINISHED (Threads "Troubleshooting": publishing
   * status): at once, then every few seconds until `deadline`. ERROR rejects the post with the error_message
   * Threads names (FAILED_DOWNLOADING_VIDEO, INVALID_DURATION…); EXPIRED (not published within 24 hours) and a
   * container still processing at the deadline are tried again later with new containers.
   */
  private async waitUntilReady(account: ProviderAccount, containerId: string, deadline: number): Promise<void> {
    for (let wait = this.polling.firstWaitMs; ; wait = Math.min(wait * 2, this.polling.maxWaitMs)) {
      const answer = await graphCall(this.platform, false, () =>
        this.graph(account, 'GET', `/${encodeURIComponent(containerId)}`, { fields: 'status,error_message' }),
      );
      const status = text(pick(answer.body, 'status'));
      if (status === 'FINISHED') return;
      if (status === 'ERROR') {
        const reason = text(pick(answer.body, 'error_message'));
        const code = /^[A-Z][A-Z_]{0,63}$/.test(reason) ? reason.toLowerCase() : 'media_processing_failed';
        throw rejected(code, `threads could not process the post's media${reason ? ` (${code})` : ''}.`);
      }
      if (status === 'EXPIRED') {
        throw new DeliveryError({
          outcome: 'retryable',
          code: 'container_expired',
          message: 'threads let the media container expire; trying again with a new one.',
          httpStatus: answer.status,
        });
      }
      if (Date.now() + wait > deadline) {
        throw new DeliveryError({
          outcome: 'retryable',
          code: 'media_processing_timeout',
          message: 'threads was still processing the media; trying again later.',
          httpStatus: answer.status,
        });
      }
      await sleep(wait);
    }
  }

  /** The post's permalink, or "" when it cannot be read now (the post is live: a failed read must not fail the delivery). */
  private async permalink(account: ProviderAccount, externalId: string): Promise<string> {
    try {
      const answer = await this.graph(account, 'GET', `/${encodeURIComponent(externalId)}`, { fields: 'permalink' });
      return httpUrl(pick(answer.body, 'permalink'));
    } catch {
      return '';
    }
  }

  /** The account's posts (or replies) since `after` (Unix seconds), newest first; `complete` when the page holds them all. */
  private async listSince(
    account: ProviderAccount,
    edge: 'threads' | 'replies',
    after: number,
  ): Promise<{ items: unknown[]; complete: boolean }> {
    const answer = await this.graph(account, 'GET', `/${userId(account)}/${edge}`, {
      fields: RECONCILE_FIELDS,
      since: String(after),
      limit: String(RECONCILE_PAGE),
    });
    const data = pick(answer.body, 'data');
    if (!Array.isArray(data)) throw new ProviderError('unavailable', `threads answered its ${edge} listing without data.`);
    return { items: data, complete: data.length < RECONCILE_PAGE && !pick(answer.body, 'paging', 'next') };
  }

  /**
   * One call to the Threads API as its documents show it: `access_token` a query parameter of a GET, a form
   * field of a POST (with the other parameters). A refused token (401, or Graph code 190) is renewed once
   * through `account.renewGrant` and the call repeated: nothing was done with the refused one.
   */
  private async graph(
    account: ProviderAccount,
    method: 'GET' | 'POST',
    path: string,
    parameters: Record<string, string>,
  ): Promise<ProviderAnswer> {
    const send = (accessToken: string) => {
      const params = new URLSearchParams({ ...parameters, access_token: accessToken });
      const url = `${GRAPH_ORIGIN}/${THREADS_API_VERSION}${path}`;
      return this.http.call(
        this.platform,
        method === 'GET'
          ? { method, url: `${url}?${params}`, errorCodeOf: graphErrorCode }
          : { method, url, form: params, errorCodeOf: graphErrorCode },
        AbortSignal.timeout(this.timeoutMs),
      );
    };
    if (!account.grant) throw new ProviderError('refused', 'The account holds no grant; connect it again.');
    try {
      return await send(account.grant.accessToken);
    } catch (error) {
      if (!expiredToken(error) || !account.renewGrant) throw error;
      return send((await account.renewGrant()).accessToken);
    }
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

/** Graph's answer for an id it does not know or no longer shows: 404, or 400 with code 100 (or no Graph code to tell). */
function unknownObject(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  const code = graphCode(error);
  return error.call?.status === 404 || (error.call?.status === 400 && (code === undefined || code === 100));
}

const userId = (account: ProviderAccount) => encodeURIComponent(account.externalId);
