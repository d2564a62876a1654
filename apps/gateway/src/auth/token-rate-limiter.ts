import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { KV, Kvm } from '@nats-io/kv';
import { jetStreamReplicas, problems } from '@social/platform';
import type { Logger } from 'pino';
import { GATEWAY_CONFIG, GatewayConfig } from '../config.js';
import { GATEWAY_LOGGER } from '../logger.js';
import { GATEWAY_NATS } from '../rpc/rpc.module.js';

const WINDOW_MS = 60_000;
const FLUSH_EVERY_MS = 1_000;
const BUCKET = 'gateway-token-rate';

interface WindowCount {
  window: number;
  /** Settles once the shared total for this window has been read (first request of the window here). */
  loaded: Promise<void>;
  /** Requests counted here and not yet added to the shared total. */
  pending: number;
  /** The shared total (all replicas) as of our last flush. */
  shared: number;
}

/**
 * Requests per token per minute (docs/decisions.md: 1,200), held across gateway
 * replicas. Each replica counts locally on the hot path and, once a second,
 * adds its counts to a shared per-window total in a NATS JetStream KV bucket
 * (compare-and-set), so the limit holds everywhere within about a second
 * without a network hop per request.
 */
@Injectable()
export class TokenRateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly counts = new Map<string, WindowCount>();
  private kv?: KV;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(GATEWAY_NATS) private readonly nats: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit() {
    try {
      this.kv = await new Kvm(this.nats).create(BUCKET, { ttl: 2 * WINDOW_MS, history: 1, replicas: jetStreamReplicas() });
    } catch (error) {
      this.logger.warn({ err: error }, 'JetStream KV unavailable: token rate limits are per replica');
    }
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS).unref();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  /**
   * Counts one request of `tokenId`; throws 429 once the minute's budget is
   * spent. Only a token's first request of a minute on this replica waits for
   * the shared total; the rest are counted in memory.
   */
  async hit(
    tokenId: string,
    now = Date.now(),
    limit = this.config.TOKEN_RATE_LIMIT_PER_MINUTE,
    detail = 'This token has made too many requests this minute.',
  ): Promise<void> {
    const window = Math.floor(now / WINDOW_MS);
    let count = this.counts.get(tokenId);
    if (!count || count.window !== window) {
      const fresh: WindowCount = { window, pending: 0, shared: 0, loaded: Promise.resolve() };
      fresh.loaded = this.readShared(`w${window}.${tokenId}`).then((shared) => {
        fresh.shared = Math.max(fresh.shared, shared);
      });
      count = fresh;
      this.counts.set(tokenId, count);
    }
    await count.loaded;
    if (count.shared + count.pending >= limit) {
      throw problems.tooManyRequests(((window + 1) * WINDOW_MS - now) / 1000, detail);
    }
    count.pending += 1;
  }

  private async flush() {
    const current = Math.floor(Date.now() / WINDOW_MS);
    for (const [tokenId, count] of this.counts) {
      if (count.window < current) {
        this.counts.delete(tokenId);
        continue;
      }
      if (count.pending === 0 || !this.kv) continue;
      const adding = count.pending;
      try {
        count.shared = await this.addShared(`w${count.window}.${tokenId}`, adding);
        count.pending -= adding;
      } catch (error) {
        this.logger.debug({ err: error }, 'token rate limit flush failed; retrying next second');
      }
    }
  }

  private async readShared(key: string): Promise<number> {
    if (!this.kv) return 0;
    try {
      const entry = await this.kv.get(key);
      return entry && entry.operation === 'PUT' ? Number(entry.string()) : 0;
    } catch {
      return 0;
    }
  }

  /** Adds to the shared counter with compare-and-set, retrying when another replica got there first. */
  private async addShared(key: string, amount: number): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      const entry = await this.kv!.get(key);
      const total = (entry && entry.operation === 'PUT' ? Number(entry.string()) : 0) + amount;
      try {
        if (entry) await this.kv!.update(key, String(total), entry.revision);
        else await this.kv!.create(key, String(total));
        return total;
      } catch (error) {
        if (attempt >= 4) throw error;
      }
    }
  }
}
