import { Problem, problems } from '@social/platform';

/**
 * How a call to a network failed, for the caller to turn into its own answer
 * (the same refusal means "bad authorization code" at the OAuth callback and
 * "reconnect" when publishing). Messages never carry tokens or network bodies.
 */
export type ProviderFailure =
  /** The network answered 4xx or an OAuth error: it will not do this with what we sent. */
  | 'refused'
  /** Unreachable, 5xx, 429, or an answer we cannot read. */
  | 'unavailable'
  /** No answer within the time allowed. */
  | 'timeout'
  /** The grant is fine but there is no account to connect (a Google account without a YouTube channel). */
  | 'no_account';

/** What delivery needs to know about a failed call (docs/decisions.md "Delivery"): never a token or the network's body. */
export interface ProviderCallDetails {
  /** The HTTP status the network answered; 0 when no answer arrived. */
  status: number;
  /** From `Retry-After` or the network's rate-limit reset header, when it sent one. */
  retryAfterMs?: number;
  /** The same wait as the time it ends (epoch ms): the network's reset time exactly, for answers that name it. */
  retryAt?: number;
  /**
   * false only when the request certainly never reached the network
   * (connection refused, DNS, TLS, connect timeout); true once it may have.
   */
  sent: boolean;
}

export class ProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    /** The network's error code (OAuth `invalid_grant`, XRPC `ExpiredToken`…) when it sent a well-formed one. */
    readonly networkCode?: string,
    /** Status, Retry-After and whether the request left; absent for failures decided without a call. */
    readonly call?: ProviderCallDetails,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * The account's grant lacks what an operation needs (a Mastodon account
 * connected before `write:follows` was asked for): nothing was sent. The
 * account stays active (publishing still works); connecting it again grants
 * the scopes.
 */
export class MissingScopes extends Error {
  constructor(
    readonly scopes: string[],
    message: string,
  ) {
    super(message);
    this.name = 'MissingScopes';
  }
}

/** An OAuth `error` member worth repeating to a client: a short snake_case code, never free text. */
export function oauthErrorCode(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'string' && /^[a-z0-9_.-]{1,64}$/i.test(error) ? error : undefined;
}

/**
 * What adapters throw for operations a network's adapter does not offer yet:
 * a typed refusal callers can switch on, never a pretended success.
 */
export function capabilityUnavailable(platform: string, capability: string): Problem {
  return problems.conflict('provider_capability_unavailable', `${capability} is not available for ${platform} accounts yet.`, {
    platform,
    capability,
  });
}
