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
