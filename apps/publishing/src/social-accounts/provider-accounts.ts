import { Injectable } from '@nestjs/common';
import { SecretBox } from '@social/platform';
import { DataSource } from 'typeorm';
import type { ProviderAccount, ProviderGrant } from '../providers/social-provider.js';
import { SocialAccountEntity } from './social-account.entity.js';

/**
 * The one way the service hands a connected account to its network adapter:
 * the row with its grant unsealed. Delivery and metrics ask here, so grant
 * handling (refreshing before expiry) lives in one place.
 */
@Injectable()
export class ProviderAccounts {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
  ) {}

  /** The account by id as its adapter needs it, or null when it is gone. */
  async find(accountId: string): Promise<ProviderAccount | null> {
    const row = await this.dataSource.getRepository(SocialAccountEntity).findOneBy({ id: accountId });
    return row ? this.toProviderAccount(row) : null;
  }

  toProviderAccount(row: SocialAccountEntity): ProviderAccount {
    return {
      id: row.id,
      platform: row.platform as ProviderAccount['platform'],
      externalId: row.externalId,
      username: row.username,
      instanceUrl: row.instanceUrl,
      grant: row.credentials ? (JSON.parse(this.secrets.open(row.credentials, `social_accounts:${row.id}`)) as ProviderGrant) : null,
    };
  }
}
