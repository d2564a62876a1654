import { HttpReply, SocialAccount } from '@social/contracts';
import { isUniqueViolation, problems, SecretBox } from '@social/platform';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { ConnectedIdentity, ProviderGrant } from '../providers/social-provider.js';
import { SocialAccountEntity } from './social-account.entity.js';
import { toSocialAccount } from './social-account.view.js';

/** Parallel connections of the same identity (or a disconnect in between) settle within a few rounds. */
const UPSERT_ATTEMPTS = 3;

export interface ConnectedAccount {
  workspaceId: string;
  platform: string;
  /** Origin of the account's server ("" for networks without). */
  instanceUrl: string;
  /** Who connected it: the tokens are now this user's. */
  userId: string;
  identity: ConnectedIdentity;
  grant: ProviderGrant;
}

/**
 * Connects a network identity to a workspace, OAuth or credentials alike: a
 * new identity is inserted (201); one the workspace has (same network
 * account id) gets the new grant, profile and `connected_by` and is `active`
 * again (200). The grant is sealed with context `social_accounts:<id>`.
 */
export async function upsertConnectedAccount(
  dataSource: DataSource,
  secrets: SecretBox,
  input: ConnectedAccount,
): Promise<HttpReply<SocialAccount>> {
  const accounts = dataSource.getRepository(SocialAccountEntity);
  const seal = (id: string) => secrets.seal(JSON.stringify(input.grant), `social_accounts:${id}`);
  const profile: Pick<SocialAccountEntity, 'username' | 'displayName' | 'avatarUrl' | 'instanceUrl' | 'status' | 'connectedBy'> = {
    username: input.identity.username,
    displayName: input.identity.displayName,
    avatarUrl: input.identity.avatarUrl,
    instanceUrl: input.instanceUrl,
    status: 'active',
    connectedBy: input.userId,
  };
  for (let attempt = 0; attempt < UPSERT_ATTEMPTS; attempt++) {
    const existing = await accounts.findOneBy({
      workspaceId: input.workspaceId,
      platform: input.platform,
      externalId: input.identity.externalId,
    });
    const now = new Date();
    if (existing) {
      const changes = { ...profile, credentials: seal(existing.id), updatedAt: now };
      const updated = await accounts.update({ id: existing.id }, changes);
      if (updated.affected) return { status: 200, body: toSocialAccount({ ...existing, ...changes }), replayed: false };
      // Disconnected meanwhile: connected afresh on the next round.
      continue;
    }
    const id = uuidv7();
    const account: SocialAccountEntity = {
      id,
      workspaceId: input.workspaceId,
      platform: input.platform,
      externalId: input.identity.externalId,
      ...profile,
      credentials: seal(id),
      createdAt: now,
      updatedAt: now,
    };
    try {
      await accounts.insert(account);
      return { status: 201, body: toSocialAccount(account), replayed: false };
    } catch (error) {
      // A parallel connection of the same identity came first: refreshed on the next round.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw problems.conflict('concurrent_update', 'The account changed while connecting; connect again.');
}
