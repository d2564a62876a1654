import { createHash } from 'node:crypto';

/**
 * The sandbox network's numbers (docs/decisions.md: it "reports deterministic
 * metrics and recommendations"). One definition: the sandbox adapter answers
 * with these, and tests that read them back through analytics (E24) and
 * growth (E23) compute what they expect with the same functions.
 */

/** A number in 0..max derived from the seed, the same on every call. */
export function sandboxSeeded(seed: string, salt: string, max: number): number {
  return createHash('sha256').update(`${salt}:${seed}`).digest().readUInt32BE(0) % (max + 1);
}

export function sandboxDigest(value: string, length = 16): string {
  return createHash('sha256').update(value).digest('hex').slice(0, length);
}

/** An account's counters, from its external id. */
export function sandboxAccountMetrics(accountExternalId: string): { followers: number; following: number; posts: number } {
  return {
    followers: 100 + sandboxSeeded(accountExternalId, 'followers', 9_900),
    following: 10 + sandboxSeeded(accountExternalId, 'following', 990),
    posts: sandboxSeeded(accountExternalId, 'posts', 500),
  };
}

/** A post's counters, from its external id. */
export function sandboxPostMetrics(externalId: string): {
  externalId: string;
  views: number;
  likes: number;
  comments: number;
  reposts: number;
} {
  const views = 50 + sandboxSeeded(externalId, 'views', 5_000);
  return {
    externalId,
    views,
    likes: sandboxSeeded(externalId, 'likes', Math.floor(views / 5)),
    comments: sandboxSeeded(externalId, 'comments', Math.floor(views / 50)),
    reposts: sandboxSeeded(externalId, 'reposts', Math.floor(views / 40)),
  };
}

/** People the sandbox's accounts are named after (mutuals). */
const SANDBOX_PEOPLE = [
  'Ada Byrne',
  'Noor Haddad',
  'Kenji Mori',
  'Lucía Ferreira',
  'Tomasz Wójcik',
  'Amara Okafor',
  'Priya Raman',
  'Jonas Lindqvist',
  'Mei Chen',
  'Diego Álvarez',
  'Sofia Rossi',
  'Kwame Mensah',
];

/** A mutual: an account the connected account follows that follows the recommended one (the interface's capitalised keys). */
export interface SandboxMutual {
  RemoteID: string;
  Handle: string;
  DisplayName: string;
  AvatarURL: string;
}

/**
 * The 1–3 mutuals the sandbox names for a recommendation, from its seed: sandbox accounts (ids a
 * follow accepts) with people's names, a handle made from the name, and an avatar URL.
 */
export function sandboxMutuals(recommendationSeed: string): SandboxMutual[] {
  const count = 1 + sandboxSeeded(recommendationSeed, 'mutual-count', 2);
  const first = sandboxSeeded(recommendationSeed, 'mutual-people', SANDBOX_PEOPLE.length - 1);
  return Array.from({ length: count }, (_, j) => {
    const seed = `${recommendationSeed}:mutual:${j}`;
    // Steps of 5 through 12 names: three different people.
    const name = SANDBOX_PEOPLE[(first + j * 5) % SANDBOX_PEOPLE.length];
    const ascii = name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/ /g, '_');
    const remoteId = `sandbox-${sandboxDigest(seed)}`;
    return {
      RemoteID: remoteId,
      Handle: `${ascii}_${sandboxDigest(seed, 4)}`,
      DisplayName: name,
      AvatarURL: `https://sandbox.invalid/avatars/${remoteId}.png`,
    };
  });
}

/** Up to 20 accounts to follow, best first, from the account's external id. */
export function sandboxFollowRecommendations(accountExternalId: string, limit: number) {
  return Array.from({ length: Math.min(limit, 20) }, (_, index) => {
    const seed = `${accountExternalId}:${index}`;
    const handle = `sandbox_peer_${sandboxDigest(seed, 6)}`;
    const remoteAccountId = `sandbox-${sandboxDigest(seed)}`;
    const mutuals = sandboxMutuals(seed);
    return {
      remoteAccountId,
      handle,
      displayName: `Sandbox peer ${index + 1}`,
      avatarUrl: '',
      bio: 'A simulated account on the sandbox network.',
      profileUrl: `https://sandbox.invalid/${handle}`,
      // From the peer's id, so following it (sandboxFollowState) agrees with the count shown here.
      followersCount: sandboxPeerFollowers(remoteAccountId),
      followingCount: sandboxSeeded(seed, 'following', 2_000),
      // The network counts more mutuals than it names: never fewer.
      mutualCount: Math.max(mutuals.length, sandboxSeeded(seed, 'mutuals', 25)),
      mutuals,
      // Best first: scores fall with the index.
      score: Number((0.95 - index * 0.04).toFixed(2)),
      signals: index % 2 === 0 ? ['mutual_followers'] : ['similar_topics'],
    };
  });
}

/** A sandbox peer's follower count, from its id (a recommendation's `remoteAccountId`). */
export function sandboxPeerFollowers(remoteAccountId: string): number {
  return sandboxSeeded(remoteAccountId, 'followers', 20_000);
}

/**
 * Following an account on the sandbox: `requested` when the peer approves its
 * followers, which it does when its follower count (sandboxPeerFollowers, the
 * `followersCount` its recommendation shows) is odd; `following` otherwise.
 * The same id always answers the same.
 */
export function sandboxFollowState(remoteAccountId: string): 'following' | 'requested' {
  return sandboxPeerFollowers(remoteAccountId) % 2 === 1 ? 'requested' : 'following';
}
