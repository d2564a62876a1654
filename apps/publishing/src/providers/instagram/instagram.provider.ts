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
  ConnectedIdentity,
  ConnectOptions,
  OAuthClient,
  OutgoingMedia,
  OutgoingPost,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPost,
} from '../social-provider.js';
import { count, insightValue, normalize } from '../graph/graph-answers.js';
import { GraphClient } from '../graph/graph-client.js';
import { type ContainerPolling, GraphContainers, userId } from '../graph/graph-containers.js';
import { instagramCall, instagramCodes, instagramErrorCode, instagramExpiredToken } from './instagram-failure.js';
import { FACEBOOK_GRAPH_VERSION, GRAPH_ORIGIN as FACEBOOK_GRAPH_ORIGIN } from '../facebook/facebook.network.js';
import { connectedPages } from '../facebook/facebook-pages.js';
import { INSTAGRAM_API_VERSION, type InstagramNetwork } from './instagram.network.js';
import { INSTAGRAM_ASPECT_RATIOS, INSTAGRAM_CAROUSEL_MAX, INSTAGRAM_COMMENT_MAX, INSTAGRAM_MIN_VIDEO_MS } from './instagram.rules.js';

const GRAPH_ORIGIN = 'https://graph.instagram.com';

/** Once a second at first, for at most 5 minutes (Instagram advises polling about once a minute, for at most 5 minutes). */
const DEFAULT_POLLING: ContainerPolling = { firstWaitMs: 1_000, maxWaitMs: 10_000, limitMs: 5 * 60_000 };
/** How many times one media container is made in all when its processing ends in ERROR (Instagram: "generate a new container"). */
const CONTAINER_ATTEMPTS = 2;
/** How far back of `since` a post may be dated (clock skew between us and Instagram). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Media read when reconciling: a full page that does not reach back to `since` means it cannot tell. */
const RECONCILE_PAGE = 50;
/** When the publishing limit is reached and the window's oldest post cannot be read: ours. */
const LIMIT_FALLBACK_WAIT_MS = 60 * 60_000;
/** A moment past the window's end, so the retry finds the place free. */
const LIMIT_MARGIN_MS = 60_000;

/**
 * Instagram professional accounts (Instagram API with Instagram Login, or with Facebook Login when the instance setting
 * `instagram_facebook_login` is on: then each account holds its Page's token and is called at graph.facebook.com,
 * same paths; README.md beside this file): an image, a reel
 * or a carousel of 2 to 10 images and videos, with its caption, fetched by Instagram from each library item's public
 * copy; a first comment where the rendition's settings ask for one; followers and media insights.
 *
 * A post is containers (POST /{ig-user-id}/media, visible to nobody), each polled until FINISHED (one whose processing
 * ends in ERROR is made again, once), then POST /{ig-user-id}/media_publish, the one call that creates the post.
 * Instagram takes no idempotency key: a lost answer there is ambiguous, and `findPost` reads the account's media
 * since the attempt began, matching caption and media type.
 */
export class InstagramProvider extends OAuthProvider {
  /** graph.instagram.com, with the account's Instagram Login token (renewed once when refused). */
  private readonly graph: GraphClient;
  private readonly containers: GraphContainers;
  /** graph.facebook.com, with the Page token of an account connected through Facebook Login (never renewed). */
  private readonly facebookGraph: GraphClient;
  private readonly facebookContainers: GraphContainers;

  constructor(
    private readonly instagram: InstagramNetwork,
    http: ProviderHttp,
    timeoutMs: number,
    polling: ContainerPolling = DEFAULT_POLLING,
  ) {
    super(instagram, http);
    const api = { platform: instagram.platform, errorCodeOf: instagramErrorCode };
    this.graph = new GraphClient(
      http,
      { ...api, origin: GRAPH_ORIGIN, version: INSTAGRAM_API_VERSION, tokenRefused: instagramExpiredToken },
      timeoutMs,
    );
    this.facebookGraph = new GraphClient(http, { ...api, origin: FACEBOOK_GRAPH_ORIGIN, version: FACEBOOK_GRAPH_VERSION }, timeoutMs);
    const edges = {
      create: 'media',
      publish: 'media_publish',
      statusField: 'status_code',
      statusFields: 'status_code,status',
      deliveryCall: instagramCall,
    };
    this.containers = new GraphContainers(this.graph, edges, polling);
    this.facebookContainers = new GraphContainers(this.facebookGraph, edges, polling);
  }

  /**
   * Instagram Login: the code's short-lived token (an hour), traded at once for a long-lived one (60 days) that can be
   * renewed. Facebook Login (`options.extension`): the code traded at Facebook; connectedPages trades the user token.
   */
  override async exchangeCode(
    client: OAuthClient,
    request: { code: string; redirectUri: string; codeVerifier?: string },
    signal: AbortSignal,
    options?: ConnectOptions,
  ): Promise<ProviderGrant> {
    if (options?.extension) {
      const { facebookLogin } = this.instagram;
      return facebookLogin.readGrant(await this.http.json(this.platform, facebookLogin.tokenRequest(client, request), signal), new Date());
    }
    return this.graph.longLived(this.instagram, client, await super.exchangeCode(client, request, signal), signal);
  }

  /**
   * Instagram Login: the account that signed in. Facebook Login: every professional account linked to one of the
   * person's Pages (a Page without one is skipped), each holding its Page's token; none is ProviderError('no_account').
   */
  async fetchIdentities(
    client: OAuthClient,
    grant: ProviderGrant,
    signal: AbortSignal,
    options: ConnectOptions,
  ): Promise<ConnectedIdentity[]> {
    if (!options.extension) return [await this.fetchIdentity(client, grant, signal)];
    const accounts = await connectedPages(this.http, this.instagram.facebookLogin, client, grant, signal);
    if (accounts.length === 0) {
      throw new ProviderError(
        'no_account',
        'None of the Pages this Facebook login covers has a professional Instagram account linked to it. Link the Instagram ' +
          'account to a Facebook Page (in its settings), then connect again.',
      );
    }
    return accounts.map((account) => this.keepable(account));
  }

  override async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    requireGrant(account);
    if (post.parts.length !== 1) throw rejected('threads_unsupported', 'An instagram post is one caption; it has no threads.');
    const [part] = post.parts;
    checkMedia(part.media);
    const firstComment = firstCommentOf(post.settings);
    await this.checkPublishingLimit(account);
    const caption = partText(part);
    // Every public URL before any container: storage failing now fails nothing halfway.
    const inCarousel = part.media.length > 1;
    const items = await Promise.all(part.media.map((media) => mediaParameters(media, inCarousel)));
    const containers = this.containersOf(account);
    const deadline = Date.now() + containers.polling.limitMs;
    let containerId: string;
    if (!inCarousel) {
      containerId = await this.readyContainer(account, { ...items[0], ...(caption ? { caption } : {}) }, deadline);
    } else {
      const children: string[] = [];
      for (const item of items) children.push(await containers.create(account, item));
      for (const [index, child] of children.entries()) children[index] = await this.readyContainer(account, items[index], deadline, child);
      const carousel = { media_type: 'CAROUSEL', children: children.join(','), ...(caption ? { caption } : {}) };
      containerId = await containers.create(account, carousel);
      await this.waitUntilReady(account, containerId, deadline);
    }
    const externalId = await containers.publish(account, containerId);
    if (firstComment) await this.comment(account, externalId, firstComment);
    const externalUrl = await this.graphOf(account).permalink(account, externalId);
    return { externalId, externalUrl, parts: [{ externalId, externalUrl }] };
  }

  /**
   * The post when the account's media since `since` hold one with the same caption and media type (posts other
   * renditions own are skipped); null when none does and the page reaches back before `since`; 'unknown' when a full
   * page does not. Throws when Instagram cannot be asked now.
   */
  override async findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant) return 'unknown';
    const cutoff = since.getTime() - CLOCK_SKEW_MS;
    const answer = await this.graphOf(account).call(account, 'GET', `/${userId(account)}/media`, {
      fields: 'id,caption,media_type,timestamp,permalink',
      limit: String(RECONCILE_PAGE),
    });
    const data = pick(answer.body, 'data');
    if (!Array.isArray(data)) throw new ProviderError('unavailable', 'instagram answered its media listing without data.');
    const ownedElsewhere = new Set(post.ownedElsewhere ?? []);
    const part = post.parts[0];
    const wanted = normalize(part ? partText(part) : '');
    const type = part?.media.length === 1 ? (part.media[0].kind === 'video' ? 'VIDEO' : 'IMAGE') : 'CAROUSEL_ALBUM';
    const recent = data.filter((item) => Date.parse(text(pick(item, 'timestamp')).replace(/\+0000$/, 'Z')) >= cutoff);
    const match = recent.find(
      (item) =>
        !ownedElsewhere.has(text(pick(item, 'id'))) &&
        normalize(text(pick(item, 'caption'))) === wanted &&
        text(pick(item, 'media_type')) === type,
    );
    if (match) {
      const externalId = text(pick(match, 'id'));
      const externalUrl = httpUrl(pick(match, 'permalink'));
      return { externalId, externalUrl, parts: [{ externalId, externalUrl }] };
    }
    const reachesBack = recent.length < data.length || !pick(answer.body, 'paging', 'next');
    return reachesBack ? null : 'unknown';
  }

  /** GET /{ig-user-id}?fields=followers_count,follows_count,media_count. */
  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const answer = await this.graphOf(account).call(account, 'GET', `/${userId(account)}`, {
      fields: 'followers_count,follows_count,media_count',
    });
    return {
      followers: count(pick(answer.body, 'followers_count')),
      following: count(pick(answer.body, 'follows_count')),
      posts: count(pick(answer.body, 'media_count')),
    };
  }

  /**
   * GET /{ig-media-id}/insights?metric=views,likes,comments,shares,saved per post, a few at a time: reposts are
   * shares. A metric Instagram has no data for yet is absent from its answer (0 here); a post it does not know (404, or
   * 400 code 100) or shows no insights for (code 10, too few viewers) is left out; any other failure fails the call.
   */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    return readPostsMetrics(externalIds, async (externalId) => {
      let answer: ProviderAnswer;
      try {
        answer = await this.graphOf(account).call(account, 'GET', `/${encodeURIComponent(externalId)}/insights`, {
          metric: 'views,likes,comments,shares,saved',
        });
      } catch (error) {
        if (unknownObject(error)) return undefined;
        throw error;
      }
      const value = (name: string) => insightValue(answer.body, name);
      return { externalId, views: value('views'), likes: value('likes'), comments: value('comments'), reposts: value('shares') };
    });
  }

  /** The Graph host the account's token is for: graph.facebook.com for a Page token (Facebook Login), else graph.instagram.com. */
  private graphOf(account: ProviderAccount): GraphClient {
    return account.grant?.graphHost === 'facebook' ? this.facebookGraph : this.graph;
  }

  private containersOf(account: ProviderAccount): GraphContainers {
    return account.grant?.graphHost === 'facebook' ? this.facebookContainers : this.containers;
  }

  /**
   * GET /{ig-user-id}/content_publishing_limit?fields=config,quota_usage: at the limit, nothing is made and the delivery
   * waits until the oldest post of the moving window leaves it (read from the account's newest media; an hour when they
   * cannot be read). media_publish enforces the limit anyway (instagram-failure.ts).
   */
  private async checkPublishingLimit(account: ProviderAccount): Promise<void> {
    const answer = await instagramCall(false, () =>
      this.graphOf(account).call(account, 'GET', `/${userId(account)}/content_publishing_limit`, { fields: 'config,quota_usage' }),
    );
    const limit = pick(answer.body, 'data', 0);
    const usage = pick(limit, 'quota_usage');
    const total = pick(limit, 'config', 'quota_total');
    if (typeof usage !== 'number' || typeof total !== 'number' || usage < total) return;
    const duration = pick(limit, 'config', 'quota_duration');
    const windowMs = (typeof duration === 'number' && duration > 0 ? duration : 86_400) * 1000;
    throw new DeliveryError({
      outcome: 'retryable',
      code: 'provider_rate_limited',
      message: 'instagram limits how many posts an account publishes in 24 hours; trying again later.',
      httpStatus: answer.status,
      retryAfterMs: await this.untilWindowFrees(account, total, windowMs),
    });
  }

  /**
   * How long until a place frees: the oldest of the account's newest `total` media still in the window leaves it then.
   * The listing holds posts made in the app too, so this is never earlier than the real time (a retry never comes too soon).
   */
  private async untilWindowFrees(account: ProviderAccount, total: number, windowMs: number): Promise<number> {
    try {
      const answer = await this.graphOf(account).call(account, 'GET', `/${userId(account)}/media`, {
        fields: 'id,timestamp',
        limit: String(Math.min(Math.max(total, 1), 100)),
      });
      const data = pick(answer.body, 'data');
      const now = Date.now();
      const times = (Array.isArray(data) ? data : [])
        .map((item) => Date.parse(text(pick(item, 'timestamp')).replace(/\+0000$/, 'Z')))
        .filter((time) => Number.isFinite(time) && time > now - windowMs);
      if (times.length === 0) return LIMIT_FALLBACK_WAIT_MS;
      return Math.min(windowMs, Math.min(...times) + windowMs - now + LIMIT_MARGIN_MS);
    } catch {
      return LIMIT_FALLBACK_WAIT_MS;
    }
  }

  /**
   * An image or reel container, FINISHED: `existing` when given (a carousel's child made before), else a new one.
   * Processing that ends in ERROR makes a new container (Instagram's advice), CONTAINER_ATTEMPTS in all; the last
   * ERROR rejects the post. Its id.
   */
  private async readyContainer(
    account: ProviderAccount,
    parameters: Record<string, string>,
    deadline: number,
    existing?: string,
  ): Promise<string> {
    let containerId = existing ?? (await this.containersOf(account).create(account, parameters));
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.containersOf(account).untilProcessed(account, containerId, deadline);
      if (outcome.state === 'FINISHED') return containerId;
      if (attempt >= CONTAINER_ATTEMPTS) throw processingFailure(outcome.answer);
      containerId = await this.containersOf(account).create(account, parameters);
    }
  }

  /** The carousel's own container, polled until FINISHED; ERROR rejects the post (it is not made again). */
  private async waitUntilReady(account: ProviderAccount, containerId: string, deadline: number): Promise<void> {
    const outcome = await this.containersOf(account).untilProcessed(account, containerId, deadline);
    if (outcome.state === 'ERROR') throw processingFailure(outcome.answer);
  }

  /**
   * POST /{ig-media-id}/comments `message`: the first comment. The post is live whatever happens here, so a failure
   * is not the delivery's (ProviderHttp logged the call); it is not tried again.
   */
  private async comment(account: ProviderAccount, mediaId: string, message: string): Promise<void> {
    try {
      await this.graphOf(account).call(account, 'POST', `/${encodeURIComponent(mediaId)}/comments`, { message });
    } catch {
      // The post is live: a first comment that did not go out does not fail it.
    }
  }
}

/**
 * What Instagram takes in one post, checked before any call: 1 to 10 media (media-first: a caption alone is refused),
 * aspect ratios within INSTAGRAM_ASPECT_RATIOS (resizing keeps them, so they cannot be fixed at delivery), reels of at
 * least 3 seconds. Sides or durations not known (0) are left to Instagram.
 */
function checkMedia(media: OutgoingMedia[]): void {
  if (media.length === 0) throw rejected('media_required', 'An instagram post needs an image or a video.');
  if (media.length > INSTAGRAM_CAROUSEL_MAX) {
    throw rejected('too_many_media', `An instagram carousel holds at most ${INSTAGRAM_CAROUSEL_MAX} items; this post has ${media.length}.`);
  }
  for (const [index, item] of media.entries()) {
    const bounds = INSTAGRAM_ASPECT_RATIOS[item.kind];
    const ratio = item.width > 0 && item.height > 0 ? item.width / item.height : undefined;
    if (ratio !== undefined && (ratio < bounds.min - 0.005 || ratio > bounds.max + 0.005)) {
      const takes = item.kind === 'image' ? 'images from 4:5 to 1.91:1' : 'reels from 0.01:1 to 10:1';
      throw rejected('aspect_ratio_unsupported', `Media ${index + 1} is ${item.width}×${item.height}; instagram takes ${takes}.`);
    }
    if (item.kind === 'video' && item.durationMs > 0 && item.durationMs < INSTAGRAM_MIN_VIDEO_MS) {
      throw rejected('video_too_short', `Video ${index + 1} lasts under 3 seconds; instagram reels last at least 3.`);
    }
  }
}

/** The rendition's `first_comment` setting: a non-empty string of at most 2,200 characters, else none (a longer one is refused). */
function firstCommentOf(settings: Record<string, unknown> | undefined): string {
  const value = settings?.first_comment;
  if (typeof value !== 'string' || value.trim() === '') return '';
  if (value.length > INSTAGRAM_COMMENT_MAX) {
    throw rejected('first_comment_too_long', `The first comment holds at most ${INSTAGRAM_COMMENT_MAX} characters.`);
  }
  return value;
}

/**
 * An item's container parameters: the library item's public copy, which Instagram fetches, and an image's alt text.
 * A video alone is a reel (`media_type=REELS`); in a carousel it is a `VIDEO` item (`is_carousel_item`).
 */
async function mediaParameters(media: OutgoingMedia, inCarousel: boolean): Promise<Record<string, string>> {
  const url = await media.publicUrl();
  const item: Record<string, string> = inCarousel ? { is_carousel_item: 'true' } : {};
  if (media.kind === 'video') return { media_type: inCarousel ? 'VIDEO' : 'REELS', video_url: url, ...item };
  return { image_url: url, ...item, ...(media.altText ? { alt_text: media.altText } : {}) };
}

/**
 * A container whose processing ended in ERROR (asked with `status_code,status`): the post is rejected, its code naming
 * the 7-digit error Instagram gives in `status` when it gives one.
 */
function processingFailure(answer: ProviderAnswer): DeliveryError {
  const reason = /\b(\d{7})\b/.exec(text(pick(answer.body, 'status')))?.[1];
  return rejected(
    reason ? `media_processing_failed_${reason}` : 'media_processing_failed',
    "instagram could not process the post's media.",
    answer.status,
  );
}

/** Graph's answer for an id it does not know or shows no insights for: 404, 400 with code 100, or code 10. */
function unknownObject(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  const { code } = instagramCodes(error);
  return error.call?.status === 404 || (error.call?.status === 400 && (code === undefined || code === 100 || code === 10));
}
