import { httpUrl, pick, text } from '../oauth/oauth-network.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { capabilityUnavailable, ProviderError } from '../provider-error.js';
import type { ProviderHttp } from '../provider-http.js';
import type { AccountMetrics, FollowRecommendation, OutgoingPost, PostMetrics, ProviderAccount, PublishedPost } from '../social-provider.js';
import type { MastodonNetwork } from './mastodon.network.js';

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0);
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** Mastodon notes are HTML; a bio is shown as text (one pass over entities, so `&amp;lt;` stays `&lt;`). */
const plainText = (html: string) =>
  html
    .replace(/<br\s*\/?>|<\/p>\s*<p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity])
    .trim();

/**
 * Mastodon's API is small and stable, so its operations are built: text
 * posts, account and post counters, and the server's follow suggestions.
 * Media posts need uploads first and refuse for now. Every call goes to the
 * account's own server, bounded by `timeoutMs`.
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
    const [part] = post.parts;
    if (post.parts.length > 1 || part.media.length > 0) throw capabilityUnavailable(this.platform, 'Publishing threads and media');
    const status = [part.title, part.text, part.link].filter(Boolean).join('\n\n');
    const answer = await this.api(account, 'POST', '/api/v1/statuses', { status });
    const externalId = text(pick(answer, 'id'));
    if (!externalId) throw new ProviderError('unavailable', 'mastodon answered the post without its id.');
    const published = { externalId, externalUrl: httpUrl(pick(answer, 'url')) };
    return { ...published, parts: [published] };
  }

  override async findPost(_account: ProviderAccount, _post: OutgoingPost, _since: Date): Promise<PublishedPost | null | 'unknown'> {
    return 'unknown';
  }

  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const answer = await this.api(account, 'GET', '/api/v1/accounts/verify_credentials');
    return { followers: count(pick(answer, 'followers_count')), following: count(pick(answer, 'following_count')), posts: count(pick(answer, 'statuses_count')) };
  }

  /** Mastodon counts no views: `views` is 0. */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    const metrics: PostMetrics[] = [];
    for (const externalId of externalIds) {
      const answer = await this.api(account, 'GET', `/api/v1/statuses/${encodeURIComponent(externalId)}`);
      metrics.push({
        externalId,
        views: 0,
        likes: count(pick(answer, 'favourites_count')),
        comments: count(pick(answer, 'replies_count')),
        reposts: count(pick(answer, 'reblogs_count')),
      });
    }
    return metrics;
  }

  /** The server's suggestions (`/api/v2/suggestions`), in its order; the score falls with the rank. */
  override async fetchFollowRecommendations(account: ProviderAccount, limit: number): Promise<FollowRecommendation[]> {
    const answer = await this.api(account, 'GET', `/api/v2/suggestions?limit=${Math.max(1, Math.min(limit, 80))}`);
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

  private api(account: ProviderAccount, method: 'GET' | 'POST', path: string, json?: unknown): Promise<unknown> {
    if (!account.grant) throw new ProviderError('refused', 'The account holds no grant; connect it again.');
    return this.http.json(
      this.platform,
      { method, url: `${account.instanceUrl}${path}`, headers: { authorization: `Bearer ${account.grant.accessToken}` }, json },
      AbortSignal.timeout(this.timeoutMs),
    );
  }
}
