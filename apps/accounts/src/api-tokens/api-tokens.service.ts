import { Injectable } from '@nestjs/common';
import type { Principal } from '@social/contracts';
import { problems } from '@social/platform';
import { DataSource, IsNull, LessThan, Or } from 'typeorm';
import { hashOpaqueToken } from '../auth/opaque-tokens.js';
import { UserEntity } from '../users/user.entity.js';
import { ApiTokenEntity } from './api-token.entity.js';

/** `last_used_at` is a hint, not an audit log: written at most once a minute per token. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ApiTokensService {
  constructor(private readonly dataSource: DataSource) {}

  /** Who an API token speaks for; any unknown, revoked or expired token is the same 401. */
  async verify(token: string): Promise<Principal> {
    const found = await this.dataSource.getRepository(ApiTokenEntity).findOneBy({ tokenHash: hashOpaqueToken(token) });
    const now = new Date();
    if (!found || found.revokedAt || (found.expiresAt && found.expiresAt <= now)) {
      throw problems.invalidToken();
    }
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: found.userId });
    if (!user) throw problems.invalidToken();
    await this.dataSource.getRepository(ApiTokenEntity).update(
      { id: found.id, lastUsedAt: Or(IsNull(), LessThan(new Date(now.getTime() - LAST_USED_RESOLUTION_MS))) },
      { lastUsedAt: now },
    );
    return {
      userId: user.id,
      // The token id stands in for a session: revoking the token revokes it like a session.
      sessionId: found.id,
      isAdmin: user.isAdmin,
      tokenKind: 'api_token',
      workspaceId: found.workspaceId,
    };
  }
}
