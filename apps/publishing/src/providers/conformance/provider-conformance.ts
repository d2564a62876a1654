import type { SocialPlatform } from '@social/contracts';
import { randomUUID } from 'node:crypto';
import type { ConnectedIdentity, ProviderAccount, ProviderGrant, SocialProvider } from '../social-provider.js';

/**
 * What every network adapter is held to, whatever its network (docs/decisions.md "Delivery adapters"): one spec
 * (`provider-conformance.spec.ts`) runs the same cases over every network, each against its fake. A network's
 * folder holds its case as `<network>/<network>.conformance.ts`, exporting `conformance: ProviderConformanceCase`;
 * the spec finds it there, so adding a network adds no line here.
 *
 * The fake is the network as its published documents describe it (request shapes, error bodies, rate-limit
 * headers, asynchronous processing), on a real HTTP server; `PROVIDER_API_ORIGINS` points the adapter at it.
 */
export interface ProviderConformanceCase {
  platform: string;
  /** What the network offers through its API; anything else must be refused the documented way. */
  supports: {
    /**
     * Whether a post may be text alone. Media-first networks (Instagram, YouTube, TikTok) take none: the cases that
     * need any post send one with the first kind of media the network takes (an image, else a video), and a text
     * alone must be refused as `validation` or `capability` without calling the network.
     */
    textOnly: boolean;
    /** Whether a post may carry an image / a video. */
    images: boolean;
    videos: boolean;
    /** Whether a post of several parts goes out as a chain of replies. */
    threads: boolean;
    /**
     * `finds`: after an answer was lost, `findPost` finds the post the network made (no second one is sent);
     * `unknown`: the API cannot be asked, so `findPost` answers 'unknown' and the rendition goes to manual resolution;
     * `finds_or_unknown`: `findPost` finds the post once the network lists it, and answers 'unknown' (never null) when it
     * does not, because the listing cannot prove a post absent (TikTok lists no post in moderation or not public).
     */
    reconcile: 'finds' | 'unknown' | 'finds_or_unknown';
    accountMetrics: boolean;
    postMetrics: boolean;
  };
  /** A fresh fake and the adapter pointed at it. */
  start(): Promise<ConformanceNetwork>;
}

/** A failure as the network documents it, on the next call that creates a post (or, for `answer_lost`, after it). */
export type ConformanceFailure =
  /** 429 with the network's rate-limit headers or body (a wait of a few seconds). */
  | 'rate_limited'
  /** 500/503 with the network's error body. */
  | 'server_error'
  /** The network's answer for a revoked or expired token. */
  | 'auth'
  /** The network's answer for a post it will not take as it is (a duplicate, too long, a bad parameter). */
  | 'validation'
  /** The post is created, then the connection closes before the answer (the outcome is unknown to the adapter). */
  | 'answer_lost';

/** A post as the fake network holds it. */
export interface ConformancePost {
  externalId: string;
  /** The text as the network shows it (unescaped). */
  text: string;
  /** How many images and videos it carries. */
  media: number;
  /** The post it answers (a thread's earlier part); null for the first. */
  replyTo: string | null;
}

export interface ConformanceNetwork {
  provider: SocialProvider;
  /** Connects an account the network's way (OAuth code exchange, credentials, a webhook URL, a bot and a chat). */
  connect(): Promise<{ identity: ConnectedIdentity; account: ProviderAccount }>;
  /** The account's posts at the fake, oldest first. */
  posts(): Promise<ConformancePost[]>;
  fail(failure: ConformanceFailure): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What a case's `connect` answers once the network connected `identity` with `grant`: the account as
 * ProviderAccounts hands it to the adapter (`instanceUrl` only for a network with servers of its own).
 */
export function connectedAccount(
  platform: SocialPlatform,
  identity: ConnectedIdentity,
  grant: ProviderGrant,
  instanceUrl = '',
): { identity: ConnectedIdentity; account: ProviderAccount } {
  const account = { id: randomUUID(), platform, externalId: identity.externalId, username: identity.username, instanceUrl, grant };
  return { identity, account };
}
