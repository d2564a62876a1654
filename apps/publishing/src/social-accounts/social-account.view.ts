import type { SocialAccount } from '@social/contracts';
import type { SocialAccountEntity } from './social-account.entity.js';

/**
 * The one place a stored account becomes its published shape (credentials
 * never leave the service); `postsPublished` from the sandbox network.
 */
export function toSocialAccount(account: SocialAccountEntity, postsPublished = 0): SocialAccount {
  return {
    id: account.id,
    workspace_id: account.workspaceId,
    platform: account.platform,
    username: account.username,
    display_name: account.displayName,
    avatar_url: account.avatarUrl,
    status: account.status,
    created_at: account.createdAt.toISOString(),
    posts_published: postsPublished,
  };
}
