import { deliveryCall, rejected, requireGrant } from '../delivery-failure.js';
import { partText } from '../outgoing-text.js';
import { count, readPostsMetrics } from '../post-metrics-reads.js';
import { httpUrl, pick, text } from '../oauth/oauth-network.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { MissingScopes, ProviderError } from '../provider-error.js';
import { multipartStream, uploadFilename, uploadTimeoutMs } from '../multipart-stream.js';
import type { ProviderHttp } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  FollowOutcome,
  FollowRecommendation,
  OutgoingMedia,
  OutgoingPost,
  PostMetrics,
  ProviderAccount,
  PublishedPart,
  PublishedPost,
} from '../social-provider.js';
import type { MastodonNetwork } from './mastodon.network.js';

/** Mastodon attaches at most 4 media to a status. */
export const MASTODON_MAX_MEDIA = 4;
/** How long an upload may stay "processing" (202, then 206) before the delivery is retried later. */
const MEDIA_PROCESSING_LIMIT_MS = 30_000;
/** Mastodon keeps an Idempotency-Key for an hour; a partial thread is resumed safely only within it. */
const IDEMPOTENCY_WINDOW_MS = 55 * 60_000;
/** How far back of `since` a status may be dated (clock skew between us and the server). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Statuses of the account read when reconciling (Mastodon's page maximum). */
const RECONCILE_PAGE = 40;
/** Scopes that allow POST /api/v1/accounts/:id/follow (`follow` and `write` are Mastodon's older, wider ones). */
const FOLLOW_SCOPES = ['write:follows', 'write', 'follow'];
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** Mastodon notes are HTML; a bio is shown as text (one pass over entities, so `&amp;lt;` stays `&lt;`). */
const plainText = (html: string) =>
  html
    .replace(/<br\s*\/?>|<\/p>\s*<p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity])
    .trim();

/**
 * Mastodon's operations: posts (text, up to 4 media with alt text, threads
 * as replies), account and post counters, and the server's follow
 * suggestions. Every call goes to the account's own server, bounded by `timeoutMs`.
 *
 * Never twice: each status carries `Idempotency-Key: <marker>#<part index>`,
 * which Mastodon honours for an hour (the same key answers the status it
 * created). A thread that failed at part 2 is therefore resumed by sending it
 * again: part 1 comes back as it was, part 2 is created. Reconciliation
 * (`findPost`) reads the account's latest statuses since the attempt began
 * and matches the text sent, part by part along the reply chain.
 */
export class MastodonProvider extends OAuthProvider {
  constructor(
    network: MastodonNetwork,
    http: ProviderHttp,
    private readonly timeoutMs: number,
  ) {
    super(network, http);
  }

  override async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    requireGrant(account);
    const published: PublishedPart[] = [];
    for (const [index, part] of post.parts.entries()) {
      if (part.media.length > MASTODON_MAX_MEDIA) {
        throw rejected(
          'too_many_media',
          `A mastodon post carries at most ${MASTODON_MAX_MEDIA} media; part ${index + 1} has ${part.media.length}.`,
        );
      }
      const mediaIds: string[] = [];
      for (const media of part.media) mediaIds.push(await this.upload(account, media));
      const parent = published.at(-1)?.externalId;
      const answer = await deliveryCall(this.platform, true, () =>
        this.api(account, 'POST', '/api/v1/statuses', {
          json: {
            status: partText(part),
            visibility: 'public',
            ...(parent ? { in_reply_to_id: parent } : {}),
            ...(mediaIds.length ? { media_ids: mediaIds } : {}),
          },
          headers: { 'idempotency-key': partMarker(post.marker, index) },
        }),
      );
      const externalId = text(pick(answer.body, 'id'));
      if (!externalId) {
        throw new DeliveryError({
          outcome: 'ambiguous',
          code: 'provider_answer_unreadable',
          message: 'mastodon answered the post without its id.',
          httpStatus: answer.status,
        });
      }
      published.push({ externalId, externalUrl: httpUrl(pick(answer.body, 'url')) });
    }
    return { ...published[0], parts: published };
  }

  /**
   * The post when every part is among the account's latest statuses since
   * `since` (same text, each a reply to the one before); null when none is
   * and the page reaches back before `since`, or when only the first parts
   * are there and the Idempotency-Key still holds (sending again resumes the
   * thread); 'unknown' when the server cannot tell; throws when it cannot be asked (the engine asks again later).
   */
  override async findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant) return 'unknown';
    const accountId = account.externalId.split('@')[0];
    // A server that cannot be asked now (5xx, timeout, unreachable) throws: the engine asks again with
    // backoff, then goes to manual resolution. Answering 'unknown' here sent a post whose answer was
    // lost to manual resolution at the first transient failure of the reconciliation.
    const answer = await this.api(account, 'GET', `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?limit=${RECONCILE_PAGE}`);
    if (!Array.isArray(answer.body)) return 'unknown';
    const statuses: unknown[] = answer.body;
    const earliest = since.getTime() - CLOCK_SKEW_MS;
    const recent = statuses.filter((status) => Date.parse(text(pick(status, 'created_at'))) >= earliest);
    // A status another rendition owns is never this one, whatever its text: the account may have posted the
    // same words minutes ago, and taking that status for ours would mark a post that never went out as live.
    const ownedElsewhere = new Set(post.ownedElsewhere ?? []);
    const candidates = recent.filter((status) => !ownedElsewhere.has(text(pick(status, 'id'))));
    const found: PublishedPart[] = [];
    for (const part of post.parts) {
      const wanted = normalize(partText(part));
      const parent = found.at(-1)?.externalId ?? null;
      const match = candidates.find(
        (status) =>
          normalize(plainText(text(pick(status, 'content')))) === wanted &&
          mediaCount(status) === part.media.length &&
          (parent === null || text(pick(status, 'in_reply_to_id')) === parent),
      );
      if (!match) break;
      found.push({ externalId: text(pick(match, 'id')), externalUrl: httpUrl(pick(match, 'url')) });
    }
    if (found.length === post.parts.length) return { ...found[0], parts: found };
    if (found.length > 0) return Date.now() - since.getTime() < IDEMPOTENCY_WINDOW_MS ? null : 'unknown';
    // Nothing matched: certain only when the page reaches back before the attempt.
    const reachesBack = statuses.length < RECONCILE_PAGE || recent.length < statuses.length;
    return reachesBack ? null : 'unknown';
  }

  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const answer = (await this.api(account, 'GET', '/api/v1/accounts/verify_credentials')).body;
    return {
      followers: count(pick(answer, 'followers_count')),
      following: count(pick(answer, 'following_count')),
      posts: count(pick(answer, 'statuses_count')),
    };
  }

  /**
   * One GET /api/v1/statuses/:id per post, a few at a time (readPostsMetrics).
   * Mastodon counts no views: `views` is 0. A status the server no longer has (404) is left out, as Bluesky's
   * getPosts does; any other failure fails the call.
   */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    return readPostsMetrics(externalIds, async (externalId) => {
      let answer: unknown;
      try {
        answer = (await this.api(account, 'GET', `/api/v1/statuses/${encodeURIComponent(externalId)}`)).body;
      } catch (error) {
        if (error instanceof ProviderError && error.call?.status === 404) return undefined;
        throw error;
      }
      return {
        externalId,
        views: 0,
        likes: count(pick(answer, 'favourites_count')),
        comments: count(pick(answer, 'replies_count')),
        reposts: count(pick(answer, 'reblogs_count')),
      };
    });
  }

  /** POST /api/v1/accounts/:id/follow; the relationship says `requested` when the account approves its followers (locked). */
  override async follow(account: ProviderAccount, remoteAccountId: string): Promise<FollowOutcome> {
    // Grants name their scopes; one without a follow scope is refused before anything is sent (the server would answer 403).
    const scopes = account.grant?.scopes ?? [];
    if (scopes.length > 0 && !scopes.some((scope) => FOLLOW_SCOPES.includes(scope))) {
      throw new MissingScopes(
        ['write:follows'],
        'The account was connected without permission to follow accounts; connect it again to grant it.',
      );
    }
    const answer = (await this.api(account, 'POST', `/api/v1/accounts/${encodeURIComponent(remoteAccountId)}/follow`, { json: {} })).body;
    return pick(answer, 'requested') === true && pick(answer, 'following') !== true ? 'requested' : 'following';
  }

  /** The server's suggestions (`/api/v2/suggestions`), in its order; the score falls with the rank. */
  override async fetchFollowRecommendations(account: ProviderAccount, limit: number): Promise<FollowRecommendation[]> {
    const answer = (await this.api(account, 'GET', `/api/v2/suggestions?limit=${Math.max(1, Math.min(limit, 80))}`)).body;
    const suggestions = Array.isArray(answer) ? answer : [];
    return suggestions
      .map((suggestion, index) => ({ suggestion, index, suggested: pick(suggestion, 'account') }))
      .filter(({ suggested }) => text(pick(suggested, 'id')))
      .map(({ suggestion, index, suggested }) => ({
        remoteAccountId: text(pick(suggested, 'id')),
        handle: text(pick(suggested, 'acct')),
        displayName: text(pick(suggested, 'display_name')) || text(pick(suggested, 'username')),
        avatarUrl: httpUrl(pick(suggested, 'avatar')),
        bio: plainText(text(pick(suggested, 'note'))),
        profileUrl: httpUrl(pick(suggested, 'url')),
        followersCount: count(pick(suggested, 'followers_count')),
        followingCount: count(pick(suggested, 'following_count')),
        mutualCount: 0,
        score: Number(Math.max(0.05, 1 - index / Math.max(suggestions.length, 1)).toFixed(2)),
        signals: (Array.isArray(pick(suggestion, 'sources')) ? (pick(suggestion, 'sources') as unknown[]) : []).map(text).filter(Boolean),
      }));
  }

  /**
   * Uploads one media file (POST /api/v2/media: the bytes streamed from storage as multipart, the alt text as
   * `description`) and waits while the server processes it; the media id. A refusal (4xx: too large, alt text
   * too long, a type it does not take) rejects the rendition; 5xx, 429 or a timeout is tried again with the delivery.
   */
  private async upload(account: ProviderAccount, media: OutgoingMedia): Promise<string> {
    const answer = await deliveryCall(this.platform, false, async () => {
      const fields: Record<string, string> = media.altText ? { description: media.altText } : {};
      const body = multipartStream(fields, {
        name: 'file',
        filename: uploadFilename(media.mimeType),
        contentType: media.mimeType || 'application/octet-stream',
        stream: await media.open(),
      });
      return this.api(account, 'POST', '/api/v2/media', { stream: body }, uploadTimeoutMs(this.timeoutMs, media.size));
    });
    const id = text(pick(answer.body, 'id'));
    if (!id)
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'provider_error',
        message: 'mastodon answered the upload without its id.',
        httpStatus: answer.status,
      });
    // 202: still processing; GET /api/v1/media/:id answers 206 until it is done.
    let status = answer.status;
    const deadline = Date.now() + MEDIA_PROCESSING_LIMIT_MS;
    for (let wait = 100; status !== 200; wait = Math.min(wait * 2, 2_000)) {
      if (Date.now() + wait > deadline) {
        throw new DeliveryError({
          outcome: 'retryable',
          code: 'media_processing_timeout',
          message: 'mastodon was still processing the media; trying again later.',
          httpStatus: status,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      status = (await deliveryCall(this.platform, false, () => this.api(account, 'GET', `/api/v1/media/${encodeURIComponent(id)}`))).status;
    }
    return id;
  }

  private async api(
    account: ProviderAccount,
    method: 'GET' | 'POST',
    path: string,
    body: {
      json?: unknown;
      multipart?: FormData;
      stream?: { body: AsyncIterable<Uint8Array>; contentType: string };
      headers?: Record<string, string>;
    } = {},
    timeoutMs = this.timeoutMs,
  ): Promise<{ status: number; body: unknown }> {
    if (!account.grant) throw new ProviderError('refused', 'The account holds no grant; connect it again.');
    return this.http.call(
      this.platform,
      {
        method,
        url: `${account.instanceUrl}${path}`,
        headers: { authorization: `Bearer ${account.grant.accessToken}`, ...body.headers },
        json: body.json,
        multipart: body.multipart,
        stream: body.stream,
      },
      AbortSignal.timeout(timeoutMs),
    );
  }
}

/** The marker of one part of a post: what the network deduplicates on. */
export const partMarker = (marker: string, index: number) => `${marker}#${index}`;

const normalize = (value: string) => value.replace(/\s+/g, ' ').trim();
const mediaCount = (status: unknown) => {
  const attachments = pick(status, 'media_attachments');
  return Array.isArray(attachments) ? attachments.length : 0;
};
