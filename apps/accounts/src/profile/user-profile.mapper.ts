import type { UserProfile } from '@social/contracts';
import type { UserEntity } from '../users/user.entity.js';

/** The one place a user row becomes the published UserProfile. */
export function toUserProfile(user: UserEntity): UserProfile {
  return {
    id: user.id,
    email: user.email,
    email_verified: user.emailVerified,
    display_name: user.displayName,
    username: user.username ?? '',
    avatar_url: user.avatarUrl,
    composer_experience: user.composerExperience,
    created_at: user.createdAt.toISOString(),
    has_password: user.passwordHash !== null,
    password_usable: user.passwordHash !== null,
    is_admin: user.isAdmin,
    is_managed: false,
    managed_organization_name: '',
    legal_acceptance_required: false,
    legal_accepted_at: null,
    privacy_version: '',
    terms_version: '',
    public_profile_enabled: user.publicProfileEnabled,
    public_profile_visible_fields: user.publicProfileVisibleFields,
  };
}
