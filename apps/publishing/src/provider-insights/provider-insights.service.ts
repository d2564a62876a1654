import { Inject, Injectable, Optional } from '@nestjs/common';
import type {
  ListProviderAccountsInput,
  ListPublishedRenditionsInput,
  ProviderAccountInput,
  ProviderAccountMetrics,
  ProviderAccountPage,
  ProviderCallResult,
  ProviderFollowInput,
  ProviderFollowOutcome,
  ProviderFollowRecommendation,
  ProviderPostMetrics,
  ProviderPostMetricsInput,
  ProviderRecommendationsInput,
  PublishedRenditionPage,
  PublishedRenditionSummary,
} from '@social/contracts';
import { preparedQuery, Problem, SERVICE_LOGGER, statementNameFor } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ProviderRegistry } from '../providers/provider-registry.js';
import type { ProviderAccount, SocialProviderOperations } from '../providers/social-provider.js';
import { markReconnectRequired, ProviderAccounts } from '../social-accounts/provider-accounts.js';
import { SocialAccountEntity } from '../social-accounts/social-account.entity.js';
import { toFailedCall } from './call-result.js';

/** Rows a page answers when the request names no limit. */
export const DEFAULT_PAGE = 500;
/** Characters of what was sent that a published rendition's summary carries. */
export const EXCERPT_LENGTH = 200;

/** A summary as PostgreSQL hands it over (its time still a Date). */
type RenditionRow = Omit<PublishedRenditionSummary, 'published_at'> & { published_at: Date };

/**
 * What insights asks of publishing (issue 15, internal NATS only): the
 * connected accounts and the published renditions (keyset-paged reads), and
 * the network calls insights cannot make itself (grants never leave
 * publishing). Every network outcome is an answer (ProviderCallResult); only
 * an account that is not the workspace's is a 404 problem.
 */
@Injectable()
export class ProviderInsightsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ProviderRegistry,
    private readonly accounts: ProviderAccounts,
    @Optional() @Inject(SERVICE_LOGGER) private readonly logger?: Logger,
  ) {}

  /** Accounts by id, `limit` per page (one more is read to know whether a next page exists). */
  async listAccounts(input: ListProviderAccountsInput): Promise<ProviderAccountPage> {
    const limit = input.limit ?? DEFAULT_PAGE;
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (input.workspace_id !== undefined) where.push(`workspace_id = ${param(input.workspace_id.toLowerCase())}`);
    if (input.account_ids !== undefined) where.push(`id = ANY(${param(input.account_ids.map((id) => id.toLowerCase()))}::uuid[])`);
    if (input.after_id !== undefined) where.push(`id > ${param(input.after_id.toLowerCase())}`);
    const text = `SELECT id, workspace_id, platform, external_id, username, display_name, avatar_url, instance_url, status, credentials,
         connected_by, created_at, updated_at
         FROM social_accounts ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT ${param(limit + 1)}`;
    // Named: insights asks for an account it meets for the first time as its renditions go live.
    const rows = await preparedQuery<Record<string, unknown>>(
      this.dataSource,
      statementNameFor('publishing.provider-insights.accounts', text),
      text,
      params,
    );
    const page = rows.slice(0, limit).map((row) => this.summary(row));
    return { accounts: page, next_after_id: rows.length > limit ? page[page.length - 1].id : '' };
  }

  /** Live renditions oldest first, keyset by (published_at, rendition id). */
  async listPublishedRenditions(input: ListPublishedRenditionsInput): Promise<PublishedRenditionPage> {
    const limit = input.limit ?? DEFAULT_PAGE;
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const where = [`r.published_at IS NOT NULL`, `r.delivery_state = 'live'`];
    if (input.workspace_id !== undefined) where.push(`p.workspace_id = ${param(input.workspace_id.toLowerCase())}`);
    if (input.social_account_id !== undefined) where.push(`r.social_account_id = ${param(input.social_account_id.toLowerCase())}`);
    // Asked by id, the renditions are looked up one by one: as `r.id = ANY(…)`, the generic plan walked the index of
    // every live rendition in publishing order (4 ms a call at 10,000 live, growing with them; 0.05 ms this way).
    const asked =
      input.rendition_ids === undefined
        ? ''
        : `unnest(${param([...new Set(input.rendition_ids.map((id) => id.toLowerCase()))])}::uuid[]) AS asked (id)
           JOIN renditions r ON r.id = asked.id`;
    if (input.after) {
      where.push(
        `(r.published_at, r.id) > (${param(new Date(input.after.published_at))}::timestamptz, ` +
          `${param(input.after.rendition_id.toLowerCase())}::uuid)`,
      );
    }
    const text = `SELECT r.id AS rendition_id, r.publication_id, p.workspace_id, r.social_account_id, r.platform,
              COALESCE(NULLIF(r.title, ''), p.title) AS title, p.content_profile,
              left(COALESCE(NULLIF(r.body, ''),
                            (SELECT s.body FROM rendition_segments s WHERE s.rendition_id = r.id ORDER BY s.position LIMIT 1),
                            ''),
                   ${EXCERPT_LENGTH}) AS excerpt,
              r.external_id, r.external_url, r.published_at
         FROM ${asked || 'renditions r'} JOIN publications p ON p.id = r.publication_id
        WHERE ${where.join(' AND ')}
        ORDER BY r.published_at, r.id
        LIMIT ${param(limit + 1)}`;
    // Named: insights asks for every rendition that goes live.
    const rows = await preparedQuery<RenditionRow>(
      this.dataSource,
      statementNameFor('publishing.provider-insights.renditions', text),
      text,
      params,
    );
    const page: PublishedRenditionSummary[] = rows.slice(0, limit).map((row) => ({ ...row, published_at: row.published_at.toISOString() }));
    const last = page[page.length - 1];
    return {
      renditions: page,
      next_after: rows.length > limit ? { published_at: last.published_at, rendition_id: last.rendition_id } : null,
    };
  }

  accountMetrics(input: ProviderAccountInput): Promise<ProviderCallResult<ProviderAccountMetrics>> {
    return this.call(input, async (provider, account) => {
      const metrics = await provider.fetchAccountMetrics(account);
      return { followers: metrics.followers, following: metrics.following, posts: metrics.posts };
    });
  }

  /** The posts the network still has, each once, in the order asked. */
  postMetrics(input: ProviderPostMetricsInput): Promise<ProviderCallResult<ProviderPostMetrics[]>> {
    const wanted = [...new Set(input.external_ids)];
    return this.call(input, async (provider, account) => {
      if (wanted.length === 0) return [];
      const found = new Map((await provider.fetchPostMetrics(account, wanted)).map((metrics) => [metrics.externalId, metrics]));
      return wanted
        .filter((id) => found.has(id))
        .map((id) => {
          const metrics = found.get(id)!;
          return { external_id: id, views: metrics.views, likes: metrics.likes, comments: metrics.comments, reposts: metrics.reposts };
        });
    });
  }

  recommendations(input: ProviderRecommendationsInput): Promise<ProviderCallResult<ProviderFollowRecommendation[]>> {
    return this.call(input, async (provider, account) =>
      (await provider.fetchFollowRecommendations(account, input.limit)).slice(0, input.limit).map((recommendation) => ({
        remote_account_id: recommendation.remoteAccountId,
        handle: recommendation.handle,
        display_name: recommendation.displayName,
        avatar_url: recommendation.avatarUrl,
        bio: recommendation.bio,
        profile_url: recommendation.profileUrl,
        followers_count: recommendation.followersCount,
        following_count: recommendation.followingCount,
        mutual_count: recommendation.mutualCount,
        mutuals: recommendation.mutuals ?? [],
        score: recommendation.score,
        signals: recommendation.signals,
      })),
    );
  }

  follow(input: ProviderFollowInput): Promise<ProviderCallResult<ProviderFollowOutcome>> {
    return this.call(input, async (provider, account) => ({ follow_state: await provider.follow(account, input.remote_account_id) }));
  }

  /**
   * The account (404 `account_not_found` unless it is the workspace's), its
   * adapter called with a fresh grant, and every outcome as an answer. A
   * `reconnect_required` account answers `permission_required` without a
   * call; a grant the network refuses makes it `reconnect_required` and
   * raises account.needs-attention (once: markReconnectRequired acts only on
   * an active account).
   */
  private async call<T>(
    request: ProviderAccountInput,
    run: (provider: SocialProviderOperations, account: ProviderAccount) => Promise<T>,
  ): Promise<ProviderCallResult<T>> {
    const accountId = request.account_id.toLowerCase();
    const row = await this.accounts.row(accountId);
    if (!row || row.workspaceId !== request.workspace_id.toLowerCase()) {
      throw new Problem(404, 'account_not_found', 'No such social account in this workspace.');
    }
    if (row.status === 'reconnect_required') {
      return {
        status: 'permission_required',
        missing_scopes: [],
        code: 'account_reconnect_required',
        message: `The ${row.platform} account must be connected again before the network can be asked.`,
      };
    }
    const provider = this.registry.get(row.platform);
    if (!provider)
      return {
        status: 'unsupported',
        code: 'provider_capability_unavailable',
        message: `${row.platform} is not available on this instance.`,
      };
    try {
      const account = await this.accounts.ready(row);
      return { status: 'ok', data: await run(provider, account) };
    } catch (error) {
      const failed = toFailedCall(error, row.platform);
      if (failed.result.status === 'failed' && failed.result.code === 'provider_call_failed') {
        this.logger?.error({ err: error, accountId: row.id, platform: row.platform }, 'insights provider call failed unexpectedly');
      }
      if (failed.reconnect) {
        await this.dataSource.transaction((manager) => markReconnectRequired(manager, row.id, 'grant_rejected'));
        this.logger?.info(
          { accountId: row.id, platform: row.platform },
          'network refused the grant during an insights call; account needs reconnecting',
        );
      }
      return failed.result;
    }
  }

  private summary(row: Record<string, unknown>): ProviderAccountPage['accounts'][number] {
    let scopes: string[] = [];
    try {
      const entity = {
        id: row.id,
        platform: row.platform,
        externalId: row.external_id,
        username: row.username,
        instanceUrl: row.instance_url,
        credentials: row.credentials,
      } as SocialAccountEntity;
      scopes = this.accounts.toProviderAccount(entity).grant?.scopes ?? [];
    } catch (error) {
      // A grant that cannot be opened has no scopes to report; the provider calls will say what is wrong.
      this.logger?.warn({ err: { message: (error as Error).message }, accountId: row.id }, 'could not open the grant to read its scopes');
    }
    return {
      id: String(row.id),
      workspace_id: String(row.workspace_id),
      platform: String(row.platform),
      username: String(row.username),
      display_name: String(row.display_name),
      avatar_url: String(row.avatar_url),
      status: String(row.status),
      scopes: Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [],
      connected_at: (row.created_at as Date).toISOString(),
    };
  }
}
