import { problems } from '@social/platform';
import type { AccountsConfig } from '../config.js';

export interface RelyingParty {
  id: string;
  origin: string;
}

/**
 * WEBAUTHN_RP_ID / WEBAUTHN_ORIGIN, each defaulting from PUBLIC_BASE_URL (docs/decisions.md);
 * undefined when neither says where clients live (passkey registration then answers 503).
 */
export function relyingPartyFrom(config: AccountsConfig): RelyingParty | undefined {
  const origin = config.WEBAUTHN_ORIGIN ?? config.PUBLIC_BASE_URL;
  if (!origin) return undefined;
  const url = new URL(origin);
  return { id: config.WEBAUTHN_RP_ID ?? url.hostname, origin: url.origin };
}

/** The relying party, or 503 when the instance does not say where clients live. */
export function requireRelyingParty(relyingParty: RelyingParty | undefined): RelyingParty {
  if (!relyingParty)
    throw problems.unavailable('passkeys_unavailable', 'Passkeys are not configured (WEBAUTHN_ORIGIN or PUBLIC_BASE_URL).');
  return relyingParty;
}

/**
 * Whether a credential sent by a browser has the members verification reads (`id`, `rawId`, `type`, and the named
 * strings of its `response`): a malformed value is then refused plainly rather than by a TypeError deep inside.
 */
export function hasCredentialMembers(value: unknown, responseMembers: string[]): boolean {
  const credential = value as { id?: unknown; rawId?: unknown; type?: unknown; response?: Record<string, unknown> } | null;
  return (
    !!credential &&
    typeof credential === 'object' &&
    typeof credential.id === 'string' &&
    typeof credential.rawId === 'string' &&
    typeof credential.type === 'string' &&
    !!credential.response &&
    typeof credential.response === 'object' &&
    responseMembers.every((member) => typeof credential.response![member] === 'string')
  );
}
