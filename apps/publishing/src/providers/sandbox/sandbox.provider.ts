import { createHash } from 'node:crypto';
import { SANDBOX_PROVIDER } from '@social/contracts';
import type {
  AccountMetrics,
  ConnectedIdentity,
  FollowRecommendation,
  InstantConnectProvider,
  OutgoingPost,
  PostMetrics,
  ProviderAccount,
  PublishedPost,
} from '../social-provider.js';

/** Deterministic numbers from a seed: the same account or post always reports the same figures. */
function seeded(seed: string, salt: string, max: number): number {
  return createHash('sha256').update(`${salt}:${seed}`).digest().readUInt32BE(0) % (max + 1);
}

function digest(value: string, length = 16): string {
  return createHash('sha256').update(value).digest('hex').slice(0, length);
}

/**
 * The built-in simulated network (contract §4): no network traffic, no
 * credentials; accepts every post and reports deterministic metrics and
 * recommendations, so trials and tests see realistic, repeatable data.
 */
export class SandboxProvider implements InstantConnectProvider {
  readonly platform = SANDBOX_PROVIDER;
  readonly connectMode = 'instant';

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

  async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const parts = post.parts.map((_part, index) => {
      const externalId = `post-${digest(`${account.externalId}:${post.marker}:${index}`)}`;
      return { externalId, externalUrl: `https://sandbox.invalid/${encodeURIComponent(account.username)}/posts/${externalId}` };
    });
    return { ...parts[0], parts };
  }

  async findPost(_account: ProviderAccount, _post: OutgoingPost, _since: Date): Promise<PublishedPost | null | 'unknown'> {
    return 'unknown';
  }

  async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    return {
      followers: 100 + seeded(account.externalId, 'followers', 9_900),
      following: 10 + seeded(account.externalId, 'following', 990),
      posts: seeded(account.externalId, 'posts', 500),
    };
  }

  async fetchPostMetrics(_account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    return externalIds.map((externalId) => {
      const views = 50 + seeded(externalId, 'views', 5_000);
      return {
        externalId,
        views,
        likes: seeded(externalId, 'likes', Math.floor(views / 5)),
        comments: seeded(externalId, 'comments', Math.floor(views / 50)),
        reposts: seeded(externalId, 'reposts', Math.floor(views / 40)),
      };
    });
  }

  async fetchFollowRecommendations(account: ProviderAccount, limit: number): Promise<FollowRecommendation[]> {
    return Array.from({ length: Math.min(limit, 20) }, (_, index) => {
      const seed = `${account.externalId}:${index}`;
      const handle = `sandbox_peer_${digest(seed, 6)}`;
      return {
        remoteAccountId: `sandbox-${digest(seed)}`,
        handle,
        displayName: `Sandbox peer ${index + 1}`,
        avatarUrl: '',
        bio: 'A simulated account on the sandbox network.',
        profileUrl: `https://sandbox.invalid/${handle}`,
        followersCount: seeded(seed, 'followers', 20_000),
        followingCount: seeded(seed, 'following', 2_000),
        mutualCount: seeded(seed, 'mutuals', 25),
        // Best first: scores fall with the index.
        score: Number((0.95 - index * 0.04).toFixed(2)),
        signals: index % 2 === 0 ? ['mutual_followers'] : ['similar_topics'],
      };
    });
  }
}
