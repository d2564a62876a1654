import { Inject, Injectable } from '@nestjs/common';
import {
  type ListSandboxPostsQuery,
  type Principal,
  SANDBOX_POSTS_PAGE_DEFAULT,
  SANDBOX_PROVIDER,
  type SandboxPostList,
  type SandboxPostPart,
} from '@social/contracts';
import { CursorCodec, isCreatedAtPosition, problems, SERVICE_CONFIG } from '@social/platform';
import { DataSource } from 'typeorm';
import type { PublishingConfig } from '../../config.js';
import { SocialAccountsService } from '../../social-accounts/social-accounts.service.js';
import { sandboxExternalId } from './sandbox.provider.js';

interface SandboxPostRow {
  id: string;
  marker: string;
  created_at: Date;
  content: SandboxPostPart[];
}

/** GET /social-accounts/{id}/sandbox-posts: what the simulated network received for one of its accounts, newest first. */
@Injectable()
export class SandboxPostsService {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: SocialAccountsService,
    @Inject(SERVICE_CONFIG) config: PublishingConfig,
  ) {
    this.cursors = CursorCodec.derive(config.SECRETS_KEY, 'sandbox-posts');
  }

  /** Viewers may read it; an account of another network is 404 like one that does not exist (only sandbox accounts have a post log). */
  async list(principal: Principal, accountId: string, query: ListSandboxPostsQuery): Promise<SandboxPostList> {
    const account = await this.accounts.findVisible(principal, accountId, 'viewer');
    if (account.platform !== SANDBOX_PROVIDER) throw problems.notFound('No such sandbox account.');
    const filters = { social_account_id: account.id };
    const after = query.cursor ? this.cursors.decode(query.cursor, filters, isCreatedAtPosition) : undefined;
    const limit = query.limit ?? SANDBOX_POSTS_PAGE_DEFAULT;
    const values: unknown[] = [account.id, limit + 1];
    const rows: SandboxPostRow[] = await this.dataSource.query(
      `SELECT id, marker, created_at, content FROM sandbox_posts
        WHERE social_account_id = $1 ${after ? 'AND (created_at, id) < ($3::timestamptz, $4::uuid)' : ''}
        ORDER BY created_at DESC, id DESC LIMIT $2`,
      after ? [...values, after.at, after.id] : values,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      posts: page.map((row) => ({
        id: row.id,
        external_id: sandboxExternalId(row.id, 0),
        rendition_id: row.marker,
        created_at: row.created_at.toISOString(),
        parts: row.content,
      })),
      next_cursor: rows.length > limit ? this.cursors.encode({ at: last.created_at.toISOString(), id: last.id }, filters) : '',
    };
  }
}
