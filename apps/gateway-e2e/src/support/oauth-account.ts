import { afterAll, beforeAll, expect } from '@jest/globals';
import { adminCall, registerAdmin } from './admin.js';
import { call, type TestUser } from './api.js';
import { type Approval, approveAtNetwork } from './fake-network.js';
import type { Tenant } from './tenancy.js';

/** An OAuth provider app: its client, and for a network with servers of its own (mastodon) the server's URL. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  instanceUrl?: string;
}

/**
 * `app`, saved by an admin as the `provider` provider app before the suite's tests and deleted after them (the admin
 * suites share this stack and expect the apps they create to be new). Call it in a `describe`.
 */
export function providerAppForSuite(provider: string, app: OAuthApp): void {
  let admin: TestUser;
  let appId = '';
  beforeAll(async () => {
    admin = await registerAdmin();
    const saved = await adminCall('POST', '/admin/provider-apps', {
      token: admin.token,
      body: {
        provider,
        client_id: app.clientId,
        client_secret: app.clientSecret,
        ...(app.instanceUrl ? { instance_url: app.instanceUrl } : {}),
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
}

/**
 * An account of `provider` connected through its OAuth flow by `tenant`'s owner: the connect started (with
 * `connectBody`, e.g. mastodon's `instance_url`), `approval` given at the fake OAuth network, the callback followed;
 * each step must succeed. The authorization URL publishing sent the user to, and the connected account.
 */
export async function connectThroughOAuth(
  tenant: Tenant,
  provider: string,
  approval: Approval,
  connectBody: Record<string, unknown> = {},
): Promise<{ authorizationUrl: string; account: any }> {
  const started = await call('POST', '/social-accounts/connect', {
    token: tenant.owner.token,
    body: { workspace_id: tenant.workspaceId, provider, ...connectBody },
  });
  expect(started.status).toBe(200);
  const code = await approveAtNetwork(started.body.authorization_url, approval);
  const connected = await call('GET', `/social-accounts/callback/${provider}?${new URLSearchParams({ code, state: started.body.state })}`, {
    token: tenant.owner.token,
  });
  expect(connected.status).toBe(201);
  return { authorizationUrl: started.body.authorization_url, account: connected.body };
}
