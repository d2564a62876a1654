import type { FakeFailure, FakeGrantRequest, RecordedRequest } from '@social/testing';
import { fakeControl } from './fake-control.js';

/**
 * The fake OAuth network global setup starts (E2E_FAKE_NETWORK_URL is its
 * control API); publishing reaches it for every OAuth network through
 * PROVIDER_API_ORIGINS. Suites play the user at the network with it.
 */
const control = fakeControl('E2E_FAKE_NETWORK_URL', 'the fake network');

export type Approval = Omit<FakeGrantRequest, 'client_id' | 'redirect_uri' | 'code_challenge'>;

/**
 * What a user approving at the network does: the network issues a code for
 * the client, redirect URI and PKCE challenge of the authorization URL, and
 * later trades it only against those (and `client_secret`, when given).
 */
export async function approveAtNetwork(authorizationUrl: string, approval: Approval): Promise<string> {
  const params = new URL(authorizationUrl).searchParams;
  const grant: FakeGrantRequest = {
    ...approval,
    client_id: params.get('client_id') ?? params.get('client_key') ?? '',
    redirect_uri: params.get('redirect_uri') ?? '',
    ...(params.get('code_challenge') ? { code_challenge: params.get('code_challenge')! } : {}),
  };
  return (await control('POST', '/grants', grant)).code;
}

/** Every request the network received, oldest first. */
export function networkRequests(): Promise<RecordedRequest[]> {
  return control('GET', '/requests');
}

/** The network's next answer(s) at `path` fail as described. */
export async function failNext(failure: FakeFailure): Promise<void> {
  await control('POST', '/failures', failure);
}

export async function clearNetworkFailures(): Promise<void> {
  await control('DELETE', '/failures');
}
