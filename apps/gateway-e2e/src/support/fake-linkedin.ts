import type { FakeLinkedInMemberRequest, FakeLinkedInOrganizationRequest, FakeLinkedInPost, ScriptedFailure } from '@social/testing';
import { afterAll, beforeAll, expect } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { adminCall, registerAdmin } from './admin.js';
import type { TestUser } from './api.js';
import { fakeControl } from './fake-control.js';

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

export interface LinkedInApp {
  clientId: string;
  clientSecret: string;
}

/**
 * The linkedin provider app (one per instance), saved by an admin before the suite's tests and deleted after them
 * (the admin suites share this stack and expect the apps they create to be new). Call it in a `describe`.
 */
export function linkedinAppForSuite(tag: string): LinkedInApp {
  const app: LinkedInApp = { clientId: `li-${tag}-${randomUUID().slice(0, 8)}`, clientSecret: `li-secret-${randomUUID()}` };
  let admin: TestUser;
  let appId = '';
  beforeAll(async () => {
    admin = await registerAdmin();
    const saved = await adminCall('POST', '/admin/provider-apps', {
      token: admin.token,
      body: {
        provider: 'linkedin',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        redirect_uri: '',
        connection_mode: 'oauth',
        is_active: true,
      },
    });
    expect(saved.status).toBe(200);
    appId = saved.body.app.id;
  });
  afterAll(async () => {
    if (appId) await adminCall('DELETE', `/admin/provider-apps/${appId}`, { token: admin.token });
  });
  return app;
}
