import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  API_TOKEN_PREFIX,
  ApiToken,
  ApiTokenCreated,
  ApiTokenList,
  CreateApiTokenRequest,
  Principal,
  SESSION_REVOKED_SUBJECT,
  SessionRevokedEvent,
  VerifiedApiToken,
} from '@social/contracts';
import { AccessControl, isUuid, NATS_CONNECTION, pathId, problems } from '@social/platform';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, IsNull, LessThan, MoreThan, Or } from 'typeorm';
import { hashOpaqueToken, newOpaqueToken } from '../auth/opaque-tokens.js';
import { UserEntity } from '../users/user.entity.js';
import { ApiTokenEntity } from './api-token.entity.js';
import { enqueueSecurityAction } from '../users/security-events.js';

/** `last_used_at` is a hint, not an audit log: written at most once a minute per token. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Gateways keep a verified API token for 30 s; a revocation is announced for longer than that. */
const REVOCATION_HORIZON_MS = 120_000;
/** A small list (docs/decisions.md answers it whole); nobody needs more live tokens than this. */
export const MAX_API_TOKENS = 100;

/** The one place a token row becomes its published shape (never the secret, never the hash). */
export function toApiToken(token: ApiTokenEntity): ApiToken {
  return {
    id: token.id,
    name: token.name,
    workspace_id: token.workspaceId ?? '',
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt?.toISOString() ?? null,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
  };
}

@Injectable()
export class ApiTokensService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly access: AccessControl,
  ) {}

  /** A workspace-bound token needs a membership there (any role: the token never does more than its user may). */
  async create(principal: Principal, input: CreateApiTokenRequest): Promise<ApiTokenCreated> {
    const userId = principal.userId;
    const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at);
    if (expiresAt && expiresAt <= new Date()) throw problems.invalid('body.expires_at', 'must be in the future', input.expires_at);
    const workspace = input.workspace_id ? await this.access.requireWorkspace(principal, input.workspace_id, 'viewer', 'body') : null;
    return this.dataSource.transaction(async (db) => {
      const tokens = db.getRepository(ApiTokenEntity);
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`api-tokens:${userId}`]);
      if (
        (await tokens.countBy([
          { userId, revokedAt: IsNull(), expiresAt: IsNull() },
          { userId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) },
        ])) >= MAX_API_TOKENS
      ) {
        throw problems.conflict('too_many_api_tokens', `At most ${MAX_API_TOKENS} API tokens may exist; delete one first.`);
      }
      const secret = newOpaqueToken(API_TOKEN_PREFIX.replace(/_$/, ''));
      const saved = await tokens.save({
        id: uuidv7(),
        userId,
        name: input.name.trim(),
        tokenHash: secret.hash,
        workspaceId: workspace?.workspace_id ?? null,
        createdAt: new Date(),
        expiresAt,
        lastUsedAt: null,
        revokedAt: null,
      });
      await enqueueSecurityAction(db, userId, 'api_token_created', saved.name);
      return { token: secret.token, item: toApiToken(saved) };
    });
  }

  /** Live and expired tokens alike (an expired one stays listed until deleted), newest first. */
  async list(userId: string): Promise<ApiTokenList> {
    const tokens = await this.dataSource
      .getRepository(ApiTokenEntity)
      .find({ where: { userId, revokedAt: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' } });
    return { api_tokens: tokens.map(toApiToken) };
  }

  /** One live or expired token of the caller (the `Location` of a new one); another user's or a deleted one is 404. */
  async get(userId: string, rawId: string): Promise<ApiToken> {
    const token = await this.dataSource
      .getRepository(ApiTokenEntity)
      .findOneBy({ id: pathId(rawId, 'No such API token.'), userId, revokedAt: IsNull() });
    if (!token) throw problems.notFound('No such API token.');
    return toApiToken(token);
  }

  /** Another user's token is answered exactly like a missing one; gateways drop it at once. */
  async delete(userId: string, tokenId: string): Promise<void> {
    const revokedAt = new Date();
    const result = isUuid(tokenId)
      ? await this.dataSource.getRepository(ApiTokenEntity).update({ id: tokenId, userId, revokedAt: IsNull() }, { revokedAt })
      : { affected: 0 };
    if (!result.affected) throw problems.notFound('No such API token.');
    this.nats.publish(SESSION_REVOKED_SUBJECT, JSON.stringify(this.revocationEvent({ id: tokenId, revokedAt })));
  }

  /** Tokens revoked recently enough that a gateway may still hold them, for a gateway that (re)connects. */
  async recentlyRevoked(): Promise<SessionRevokedEvent[]> {
    const since = new Date(Date.now() - REVOCATION_HORIZON_MS);
    const tokens = await this.dataSource
      .getRepository(ApiTokenEntity)
      .find({ where: { revokedAt: MoreThan(since) }, select: { id: true, revokedAt: true } });
    return tokens.map((t) => this.revocationEvent(t));
  }

  /** Tells every gateway at once that these tokens are revoked (after the caller committed it). */
  announceRevoked(tokenIds: string[], revokedAt: Date): void {
    for (const id of tokenIds) this.nats.publish(SESSION_REVOKED_SUBJECT, JSON.stringify(this.revocationEvent({ id, revokedAt })));
  }

  private revocationEvent(token: Pick<ApiTokenEntity, 'id' | 'revokedAt'>): SessionRevokedEvent {
    return { sessionId: token.id, until: new Date(token.revokedAt!.getTime() + REVOCATION_HORIZON_MS).toISOString() };
  }

  /** Who an API token speaks for; any unknown, revoked or expired token is the same 401. */
  async verify(token: string): Promise<VerifiedApiToken> {
    const found = await this.dataSource.getRepository(ApiTokenEntity).findOneBy({ tokenHash: hashOpaqueToken(token) });
    const now = new Date();
    if (!found || found.revokedAt || (found.expiresAt && found.expiresAt <= now)) {
      throw problems.invalidToken();
    }
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: found.userId });
    if (!user) throw problems.invalidToken();
    await this.dataSource
      .getRepository(ApiTokenEntity)
      .update({ id: found.id, lastUsedAt: Or(IsNull(), LessThan(new Date(now.getTime() - LAST_USED_RESOLUTION_MS))) }, { lastUsedAt: now });
    return {
      principal: {
        userId: user.id,
        // The token id stands in for a session: revoking the token revokes it like a session.
        sessionId: found.id,
        isAdmin: user.isAdmin,
        tokenKind: 'api_token',
        workspaceId: found.workspaceId,
      },
      expires_at: found.expiresAt?.toISOString() ?? null,
    };
  }
}
