import type { FakeXAccountRequest, FakeXMedia, FakeXProcessing, FakeXTweet, ScriptedFailure } from '@social/testing';
import { afterAll, beforeAll, expect } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { adminCall, registerAdmin } from './admin.js';
import type { TestUser } from './api.js';
import { fakeControl } from './fake-control.js';

/**
 * The fake X API global setup starts (E2E_FAKE_X_URL is its control API); publishing reaches it as api.x.com
 * through PROVIDER_API_ORIGINS. It passes the token endpoint and unknown tokens on to the fake OAuth network, so an
 * account is connected as usual (approveAtNetwork) and becomes postable here once its access token is registered
 * with `xAccount`.
 */
const control = fakeControl('E2E_FAKE_X_URL', 'the fake X API');

/** An account of the fake X API reached with `access_token`: its user id and username. */
export function xAccount(account: FakeXAccountRequest): Promise<{ id: string; username: string }> {
  return control('POST', '/accounts', account);
}

/** Every post made at the fake, oldest first. */
export function xTweets(): Promise<FakeXTweet[]> {
  return control('GET', '/tweets');
}

/** Every upload session (initialized, appended, finalized, processed). */
export function xMedia(): Promise<FakeXMedia[]> {
  return control('GET', '/media');
}

/** How videos are processed after FINALIZE (STATUS polls before `succeeded`, `check_after_secs`). */
export async function setXProcessing(processing: Partial<FakeXProcessing>): Promise<void> {
  await control('POST', '/processing', processing);
}

/** The fake's next answer(s) at `path` fail as described (`/2/media/upload/append` or `…/finalize` for any media). */
export async function failNextAtX(failure: ScriptedFailure): Promise<void> {
  await control('POST', '/failures', failure);
}

export async function clearXFailures(): Promise<void> {
  await control('DELETE', '/failures');
}

export interface XApp {
  clientId: string;
  clientSecret: string;
}

/**
 * The X provider app, saved by an admin before the suite's tests and deleted after them (the admin suites share
 * this stack and expect the apps they create to be new). Call it in a `describe`.
 */
export function xAppForSuite(): XApp {
  const app: XApp = { clientId: `x-${randomUUID().slice(0, 8)}`, clientSecret: `x-secret-${randomUUID()}` };
  let admin: TestUser;
  let appId = '';
  beforeAll(async () => {
    admin = await registerAdmin();
    const saved = await adminCall('POST', '/admin/provider-apps', {
      token: admin.token,
      body: {
        provider: 'x',
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
