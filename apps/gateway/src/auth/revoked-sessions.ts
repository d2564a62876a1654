import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { AccountsPatterns, SESSION_REVOKED_SUBJECT, SessionRevokedEvent } from '@social/contracts';
import { RpcClient, subscribeSafely } from '@social/platform';
import type { Logger } from 'pino';
import { GATEWAY_LOGGER } from '../logger.js';
import { GATEWAY_NATS } from '../rpc/rpc.module.js';

/**
 * Sessions revoked while their access tokens may still be unexpired. Every
 * gateway replica hears each revocation on NATS (no queue group) and loads the
 * recent ones from accounts at start and after a reconnect.
 */
@Injectable()
export class RevokedSessions implements OnModuleInit, OnApplicationShutdown {
  private readonly until = new Map<string, number>();
  private subscription?: Subscription;
  private syncTimer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;

  constructor(
    @Inject(GATEWAY_NATS) private readonly nats: NatsConnection,
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  isRevoked(sessionId: string): boolean {
    const until = this.until.get(sessionId);
    return until !== undefined && until > Date.now();
  }

  onModuleInit() {
    // Anything may arrive on the subject: a malformed event is logged and counted, never thrown into the connection.
    this.subscription = subscribeSafely(this.nats, SESSION_REVOKED_SUBJECT, {
      logger: this.logger,
      parse: parseRevocation,
      handle: (event) => this.remember(event),
    });
    void this.syncUntilDone();
    void this.resyncOnReconnect();
    this.pruneTimer = setInterval(() => this.prune(), 60_000).unref();
  }

  onApplicationShutdown() {
    this.subscription?.unsubscribe();
    clearTimeout(this.syncTimer);
    clearInterval(this.pruneTimer);
  }

  private remember(event: SessionRevokedEvent) {
    this.until.set(event.sessionId, Date.parse(event.until));
  }

  private async syncUntilDone(): Promise<void> {
    try {
      const events = await this.rpc.send<SessionRevokedEvent[]>(
        AccountsPatterns.listRevokedSessions,
        {},
        {
          requestId: 'revocation-sync',
          timeoutMs: 2_000,
        },
      );
      events.forEach((event) => this.remember(event));
    } catch {
      this.syncTimer = setTimeout(() => void this.syncUntilDone(), 2_000);
      this.syncTimer.unref();
    }
  }

  private async resyncOnReconnect() {
    for await (const status of this.nats.status()) {
      if (status.type === 'reconnect') {
        this.logger.info('NATS reconnected; reloading revoked sessions');
        void this.syncUntilDone();
      }
    }
  }

  private prune() {
    const now = Date.now();
    for (const [sessionId, until] of this.until) if (until <= now) this.until.delete(sessionId);
  }
}

function parseRevocation(value: unknown): SessionRevokedEvent {
  const event = value as Partial<SessionRevokedEvent> | null;
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof event.sessionId !== 'string' ||
    typeof event.until !== 'string' ||
    Number.isNaN(Date.parse(event.until))
  ) {
    throw new Error('not a session revocation ({sessionId, until})');
  }
  return { sessionId: event.sessionId, until: event.until };
}
