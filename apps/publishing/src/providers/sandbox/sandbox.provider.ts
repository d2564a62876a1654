import {
  SANDBOX_PROVIDER,
  type SandboxPostPart,
  sandboxAccountMetrics,
  sandboxDigest as digest,
  sandboxFollowRecommendations,
  sandboxFollowState,
  sandboxPostMetrics,
} from '@social/contracts';
import type { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ProviderError } from '../provider-error.js';
import { receiveMedia, sandboxMediaProblem } from './sandbox-media.js';
import {
  DeliveryError,
  type AccountMetrics,
  type ConnectedIdentity,
  type FollowOutcome,
  type FollowRecommendation,
  type InstantConnectProvider,
  type OutgoingPost,
  type OutgoingPostPart,
  type PostMetrics,
  type ProviderAccount,
  type PublishedPost,
} from '../social-provider.js';

/** How long `[sandbox:slow]` holds a call (a test marker: a replica killed meanwhile never stores the post). */
export const SANDBOX_SLOW_MS = 2_000;
const UNKNOWN_ONCE = '[sandbox:unknown-once]';

/** Deterministic numbers from a seed: the same account or post always reports the same figures. */
/**
 * The built-in simulated network (docs/decisions.md): no network traffic, no
 * credentials; accepts posts into its own table (so a duplicate delivery is
 * visible), reports deterministic metrics and recommendations, so trials and
 * tests see realistic, repeatable data.
 */
export class SandboxProvider implements InstantConnectProvider {
  readonly platform = SANDBOX_PROVIDER;
  readonly connectMode = 'instant';

  /** The network keeps what it accepted in `sandbox_posts` of the service's schema. */
  constructor(private readonly dataSource?: DataSource) {}

  connect({ accountId, username }: { accountId: string; username?: string }): ConnectedIdentity {
    const handle = username ?? `sandbox_${accountId.replace(/-/g, '').slice(-8)}`;
    return {
      // The handle is the identity on the simulated network: connecting it again in the workspace finds the same account.
      externalId: `sandbox-${digest(handle.toLowerCase())}`,
      username: handle,
      displayName: `Sandbox ${handle}`,
      avatarUrl: '',
    };
  }

  /**
   * Accepts the post into `sandbox_posts` (the network's own store) unless a
   * marker in its text says otherwise (docs/decisions.md):
   * `[sandbox:reject]` refuses it (validation, not retryable);
   * `[sandbox:rate-limit-once]` answers 429 with Retry-After 1 s the first time;
   * `[sandbox:ambiguous-once]` stores it the first time but loses the answer;
   * `[sandbox:rate-limit-always]` (tests) answers 429 without Retry-After every time, so the attempts run out;
   * `[sandbox:slow]` (tests) holds the call SANDBOX_SLOW_MS before storing, so a replica can die mid-call;
   * `[sandbox:unknown-once]` (tests) loses the answer the first time without storing, and `findPost`
   * cannot tell (as a network without markers), so the rendition goes to manual resolution.
   */
  async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const text = post.parts.map((part) => part.text).join('\n\n');
    if (text.includes('[sandbox:reject]')) {
      throw new DeliveryError({
        outcome: 'rejected',
        kind: 'validation',
        code: 'sandbox_rejected',
        message: 'The sandbox network refused this post ([sandbox:reject]).',
        httpStatus: 422,
      });
    }
    if (text.includes('[sandbox:rate-limit-once]') && (await this.firstTime(post.marker, 'rate-limit'))) {
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'rate_limited',
        message: 'The sandbox network is rate limiting this account ([sandbox:rate-limit-once]).',
        httpStatus: 429,
        retryAfterMs: 1_000,
      });
    }
    if (text.includes('[sandbox:rate-limit-always]')) {
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'rate_limited',
        message: 'The sandbox network is rate limiting this account ([sandbox:rate-limit-always]).',
        httpStatus: 429,
      });
    }
    if (text.includes(UNKNOWN_ONCE) && (await this.firstTime(post.marker, 'unknown'))) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'sandbox_no_answer',
        message: 'The sandbox network never answered ([sandbox:unknown-once]).',
        httpStatus: 0,
      });
    }
    if (text.includes('[sandbox:slow]')) await new Promise((resolve) => setTimeout(resolve, SANDBOX_SLOW_MS));
    const content = await this.receive(post.parts);
    const ambiguous = text.includes('[sandbox:ambiguous-once]') && (await this.firstTime(post.marker, 'ambiguous'));
    const id = uuidv7();
    await this.db().query(
      `INSERT INTO sandbox_posts (id, social_account_id, marker, parts, text, content) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, account.id, post.marker, post.parts.length, text, JSON.stringify(content)],
    );
    if (ambiguous) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'sandbox_no_answer',
        message: 'The sandbox network took the post but never answered ([sandbox:ambiguous-once]).',
        httpStatus: 0,
      });
    }
    return this.publishedPost(account, id, post.parts.length);
  }

  /**
   * The sandbox knows: the post stored under the marker, or null (none: sending
   * again is safe); `[sandbox:unknown-once]` plays a network that cannot tell.
   */
  async findPost(account: ProviderAccount, post: OutgoingPost, _since: Date): Promise<PublishedPost | null | 'unknown'> {
    const [row] = await this.db().query<Array<{ id: string; parts: number }>>(
      `SELECT id, parts FROM sandbox_posts WHERE marker = $1 AND social_account_id = $2 ORDER BY created_at, id LIMIT 1`,
      [post.marker, account.id],
    );
    if (row) return this.publishedPost(account, row.id, row.parts);
    return post.parts.some((part) => part.text.includes(UNKNOWN_ONCE)) ? 'unknown' : null;
  }

  /** Posts the sandbox accepted per account (`posts_published`); accounts it never posted for are absent. */
  async countPosts(accountIds: string[]): Promise<Map<string, number>> {
    if (accountIds.length === 0) return new Map();
    const rows = await this.db().query<Array<{ id: string; count: number }>>(
      `SELECT social_account_id AS id, count(*)::int AS count FROM sandbox_posts WHERE social_account_id = ANY($1::uuid[]) GROUP BY 1`,
      [accountIds],
    );
    return new Map(rows.map((row) => [row.id, row.count]));
  }

  /**
   * What the network receives of each part, checked against its rules (sandbox.rules.ts) as a network checks
   * an upload: a part that breaks them is refused (rejected `validation`), nothing stored.
   */
  private async receive(parts: OutgoingPostPart[]): Promise<SandboxPostPart[]> {
    const received: SandboxPostPart[] = [];
    for (const [index, part] of parts.entries()) {
      const before = sandboxMediaProblem(part.media);
      if (before) throw refused(before.code, `Part ${index + 1}: ${before.message}`);
      const media = [];
      for (const item of part.media) {
        const got = await receiveMedia(item);
        if (got.problem) throw refused(got.problem.code, `Part ${index + 1}: ${got.problem.message}`);
        media.push(got.media);
      }
      received.push({ text: part.text, media });
    }
    return received;
  }

  private publishedPost(account: ProviderAccount, id: string, parts: number): PublishedPost {
    const published = Array.from({ length: parts }, (_, index) => {
      const externalId = sandboxExternalId(id, index);
      return { externalId, externalUrl: `https://sandbox.invalid/${encodeURIComponent(account.username)}/posts/${externalId}` };
    });
    return { ...published[0], parts: published };
  }

  /** True for the first call with this marker and kind, on any replica. */
  private async firstTime(marker: string, kind: string): Promise<boolean> {
    const rows: unknown[] = await this.db().query(
      `INSERT INTO sandbox_once (marker, kind) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING marker`,
      [marker, kind],
    );
    return rows.length === 1;
  }

  private db(): DataSource {
    if (!this.dataSource) throw new Error('The sandbox network needs the database to publish.');
    return this.dataSource;
  }

  async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    return sandboxAccountMetrics(account.externalId);
  }

  async fetchPostMetrics(_account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    return externalIds.map(sandboxPostMetrics);
  }

  async fetchFollowRecommendations(account: ProviderAccount, limit: number): Promise<FollowRecommendation[]> {
    return sandboxFollowRecommendations(account.externalId, limit);
  }

  /** Deterministic (sandboxFollowState): the same peer always answers the same. */
  async follow(_account: ProviderAccount, remoteAccountId: string): Promise<FollowOutcome> {
    // Only the sandbox's own peers exist there (the ids its recommendations carry).
    if (!/^sandbox-[0-9a-f]{16}$/.test(remoteAccountId)) {
      throw new ProviderError('refused', 'The sandbox network has no such account.', 'not_found', { status: 404, sent: true });
    }
    return sandboxFollowState(remoteAccountId);
  }
}

/** The external id of part `index` of the sandbox post `id` (the first part's is the rendition's external_id). */
export const sandboxExternalId = (id: string, index: number) => `post-${digest(`${id}:${index}`)}`;

const refused = (code: string, message: string) =>
  new DeliveryError({ outcome: 'rejected', kind: 'validation', code, message, httpStatus: 422 });
