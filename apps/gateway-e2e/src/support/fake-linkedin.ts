import type { FakeLinkedInMemberRequest, FakeLinkedInOrganizationRequest, FakeLinkedInPost, ScriptedFailure } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { fakeControl } from './fake-control.js';
import { type OAuthApp, providerAppForSuite } from './oauth-account.js';

/**
 * The fake LinkedIn global setup starts (E2E_FAKE_LINKEDIN_URL is its control API); publishing reaches it as
 * LinkedIn through PROVIDER_API_ORIGINS. It passes OAuth and unknown tokens on to the fake OAuth network, so a
 * member is connected as usual (approveAtNetwork) and can post here once its access token is registered with
 * `linkedinMember`.
 */
const control = fakeControl('E2E_FAKE_LINKEDIN_URL', 'the fake LinkedIn');

/** A member of the fake LinkedIn reached with `access_token`. */
export async function linkedinMember(member: FakeLinkedInMemberRequest): Promise<void> {
  await control('POST', '/accounts', member);
}

/** An organization page of the fake LinkedIn, administered by the person ids it names. */
export async function linkedinOrganization(organization: FakeLinkedInOrganizationRequest): Promise<void> {
  await control('POST', '/organizations', organization);
}

/** Every post made, oldest first. */
export function linkedinPosts(): Promise<FakeLinkedInPost[]> {
  return control('GET', '/posts');
}

/** The fake's next answer(s) at `path` fail as described. */
export async function failNextAtLinkedIn(failure: ScriptedFailure): Promise<void> {
  await control('POST', '/failures', failure);
}

export async function clearLinkedInFailures(): Promise<void> {
  await control('DELETE', '/failures');
}

/** The linkedin provider app (one per instance), saved for the suite's tests only (providerAppForSuite). Call it in a `describe`. */
export function linkedinAppForSuite(tag: string): OAuthApp {
  const app: OAuthApp = { clientId: `li-${tag}-${randomUUID().slice(0, 8)}`, clientSecret: `li-secret-${randomUUID()}` };
  providerAppForSuite('linkedin', app);
  return app;
}
