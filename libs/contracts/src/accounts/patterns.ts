import type { Principal } from '../common/rpc.js';
import { ProfileOperations } from './profile.operations.js';

/** NATS subjects served by the accounts service (`<service>.<feature>.<verb>`). */
export const ACCOUNTS_SERVICE = 'accounts';

/** Service to service; the operations the gateway forwards are declared in `*.operations.ts`. */
export const AccountsPatterns = {
  /** An HTTP operation (`ProfileOperations.get`) that creative also asks, for the name of a revision's author. */
  getProfile: ProfileOperations.get.subject,
  /** Sessions revoked recently enough that their access tokens may still be unexpired. */
  listRevokedSessions: 'accounts.sessions.list-revoked',
  /** Asked by the gateway for bearer tokens that are API tokens, not JWTs. */
  verifyApiToken: 'accounts.api-tokens.verify',
  /** Asked by other services that need a user's contact address. */
  getContact: 'accounts.users.get-contact',
  /** Several users' contact addresses at once (notifications' immediate mail and digests). */
  listContacts: 'accounts.users.contacts',
} as const;

/** Core NATS subject (fan-out, no queue group) every gateway replica listens on. */
export const SESSION_REVOKED_SUBJECT = 'events.accounts.session-revoked';

export interface SessionRevokedEvent {
  /** A session id, or an API token id (tokens are revoked like sessions). */
  sessionId: string;
  /** ISO time after which the session's access tokens have expired anyway. */
  until: string;
}

/** Claims every access token carries; the accounts service signs, every gateway checks. */
export const ACCESS_TOKEN_ISSUER = 'social-accounts';
export const ACCESS_TOKEN_AUDIENCE = 'social-api';

/** Prefix of API tokens, so the gateway can tell them from JWTs without parsing. */
export const API_TOKEN_PREFIX = 'spk_';

/** Payload of `verifyApiToken` (gateway to accounts). */
export interface VerifyApiTokenRequest {
  token: string;
}

/** Answer of `verifyApiToken`: whom the token speaks for, and until when (null: no expiry) a gateway may keep that answer. */
export interface VerifiedApiToken {
  principal: Principal;
  expires_at: string | null;
}

/** Payload of `getContact` (service to service, no principal). */
export interface GetContactRequest {
  userId: string;
}

export interface UserContact {
  userId: string;
  email: string;
  emailVerified: boolean;
}

/** Asked by the admin service for E9 (users are owned here). */
export const AccountsDirectoryPatterns = {
  listUsers: 'accounts.directory.list-users',
} as const;
