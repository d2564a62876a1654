import { describe, expect, it } from '@jest/globals';
import { problems } from '@social/platform';
import { capabilityUnavailable, MissingScopes, ProviderError } from '../providers/provider-error.js';
import { DeliveryError } from '../providers/social-provider.js';
import { DEFAULT_RETRY_MS, toFailedCall } from './call-result.js';

/** Every outcome of a network call for insights as the answer insights gets (issue 15). */
describe('toFailedCall', () => {
  const now = Date.parse('2026-11-25T03:00:00.000Z');
  const map = (error: unknown) => toFailedCall(error, 'mastodon', now);
  const refused = (status: number, extra: Partial<{ retryAfterMs: number; retryAt: number }> = {}) =>
    new ProviderError('refused', `refused (HTTP ${status})`, undefined, { status, sent: true, ...extra });
  const unavailable = (status: number, extra: Partial<{ retryAfterMs: number; retryAt: number }> = {}) =>
    new ProviderError('unavailable', `answered ${status}`, undefined, { status, sent: true, ...extra });

  it('429: rate_limited at the reset the network named, else after its Retry-After, else a minute from now', () => {
    expect(map(unavailable(429, { retryAfterMs: 5_000, retryAt: Date.parse('2026-11-25T03:07:00.000Z') })).result).toEqual({
      status: 'rate_limited',
      retry_at: '2026-11-25T03:07:00.000Z',
      code: 'provider_rate_limited',
      message: expect.stringContaining('mastodon'),
    });
    expect(map(unavailable(429, { retryAfterMs: 5_000 })).result).toMatchObject({ retry_at: new Date(now + 5_000).toISOString() });
    expect(map(unavailable(429))).toEqual({
      result: expect.objectContaining({ status: 'rate_limited', retry_at: new Date(now + DEFAULT_RETRY_MS).toISOString() }),
      reconnect: false,
    });
    // A delivery-shaped rate limit (the sandbox's) is the same answer.
    const sandbox = new DeliveryError({
      outcome: 'retryable',
      code: 'rate_limited',
      message: 'slow down',
      httpStatus: 429,
      retryAfterMs: 1_000,
    });
    expect(map(sandbox).result).toMatchObject({ status: 'rate_limited', retry_at: new Date(now + 1_000).toISOString() });
  });

  it('401, 403, no grant, no account, a refused renewal: permission_required, and the account is to be marked', () => {
    for (const error of [
      refused(401),
      refused(403),
      new ProviderError('refused', 'no grant'),
      new ProviderError('no_account', 'no channel', undefined, { status: 200, sent: true }),
      new DeliveryError({ outcome: 'rejected', kind: 'auth', code: 'provider_auth_rejected', message: 'renewal refused', httpStatus: 401 }),
    ]) {
      expect(map(error)).toEqual({
        result: {
          status: 'permission_required',
          missing_scopes: [],
          code: 'provider_auth_rejected',
          message: "mastodon refused the account's authorization; reconnect the account.",
        },
        reconnect: true,
      });
    }
  });

  it('a grant without the scope an operation needs: permission_required naming it, the account left active', () => {
    expect(map(new MissingScopes(['write:follows'], 'Connect it again to follow.'))).toEqual({
      result: {
        status: 'permission_required',
        missing_scopes: ['write:follows'],
        code: 'provider_scope_missing',
        message: 'Connect it again to follow.',
      },
      reconnect: false,
    });
  });

  it("a missing provider app is not the account's fault: failed, never marked", () => {
    const error = new DeliveryError({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_not_configured',
      message: 'No active app.',
      httpStatus: 0,
    });
    expect(map(error)).toEqual({
      result: { status: 'failed', code: 'provider_not_configured', message: 'No active app.' },
      reconnect: false,
    });
  });

  it('404 is not_found; a capability the adapter lacks is unsupported', () => {
    expect(map(refused(404))).toEqual({
      result: { status: 'not_found', code: 'provider_not_found', message: expect.any(String) },
      reconnect: false,
    });
    expect(map(capabilityUnavailable('x', 'Account metrics'))).toEqual({
      result: {
        status: 'unsupported',
        code: 'provider_capability_unavailable',
        message: 'Account metrics is not available for x accounts yet.',
      },
      reconnect: false,
    });
    expect(
      map(
        new DeliveryError({
          outcome: 'rejected',
          kind: 'capability',
          code: 'provider_capability_unavailable',
          message: 'no videos',
          httpStatus: 0,
        }),
      ).result,
    ).toMatchObject({
      status: 'unsupported',
    });
  });

  it('5xx, timeouts, an unreachable network, an outcome in doubt: temporarily_unavailable with a retry time', () => {
    expect(map(unavailable(503, { retryAfterMs: 120_000, retryAt: now + 120_000 })).result).toEqual({
      status: 'temporarily_unavailable',
      retry_at: new Date(now + 120_000).toISOString(),
      code: 'provider_error',
      message: 'mastodon answered HTTP 503; try again later.',
    });
    expect(map(new ProviderError('timeout', 'slow', undefined, { status: 0, sent: true })).result).toMatchObject({
      status: 'temporarily_unavailable',
      code: 'provider_timeout',
      retry_at: new Date(now + DEFAULT_RETRY_MS).toISOString(),
    });
    expect(map(new ProviderError('unavailable', 'down', undefined, { status: 0, sent: false })).result).toMatchObject({
      status: 'temporarily_unavailable',
      code: 'provider_unavailable',
    });
    expect(
      map(new DeliveryError({ outcome: 'retryable', code: 'provider_error', message: 'renewal unreachable', httpStatus: 0 })).result,
    ).toMatchObject({
      status: 'temporarily_unavailable',
      code: 'provider_error',
    });
    expect(
      map(new DeliveryError({ outcome: 'ambiguous', code: 'sandbox_no_answer', message: 'lost', httpStatus: 0 })).result,
    ).toMatchObject({ status: 'temporarily_unavailable' });
  });

  it('another refusal or an unexpected error is failed, and no message carries the network body', () => {
    expect(map(refused(422))).toEqual({
      result: { status: 'failed', code: 'provider_rejected', message: 'mastodon refused the request (HTTP 422).' },
      reconnect: false,
    });
    expect(map(new TypeError('boom: secret-token'))).toEqual({
      result: { status: 'failed', code: 'provider_call_failed', message: 'The mastodon call failed unexpectedly.' },
      reconnect: false,
    });
    expect(map(problems.conflict('duplicate_name', 'x')).result).toMatchObject({ status: 'failed', code: 'provider_call_failed' });
  });
});
