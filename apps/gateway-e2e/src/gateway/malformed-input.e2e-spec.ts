import { describe, expect, it } from '@jest/globals';
import { call, registerUser, TestUser } from '../support/api.js';
import { ODD_VALUES as COMMON_ODD_VALUES } from '../support/odd-values.js';
import { createOrganization, createWorkspace } from '../support/tenancy.js';

/**
 * Whatever a client sends, the answer is a 2xx or a 4xx problem: never a 500,
 * never a hang. Every body member of every operation gets each odd value.
 */
const ODD_VALUES: unknown[] = [...COMMON_ODD_VALUES, 'a\ud800b', { k: '\udfff' }, '2026-13-45T99:99:99Z', '2026-02-31T00:00:00Z'];

/** What a path or base body may refer to: the caller's own organization and workspace. */
interface Owned {
  user: TestUser;
  organizationId: string;
  workspaceId: string;
}

const OPERATIONS: Array<{
  method: string;
  path: string | ((owned: Owned) => string);
  members: string[];
  base?: Record<string, unknown> | ((owned: Owned) => Record<string, unknown>);
}> = [
  { method: 'POST', path: '/auth/register', members: ['email', 'password', 'display_name', 'username'] },
  { method: 'POST', path: '/auth/login', members: ['email', 'password'] },
  { method: 'POST', path: '/auth/refresh', members: ['refresh_token'] },
  {
    method: 'PATCH',
    path: '/auth/me',
    members: ['display_name', 'username', 'avatar_url', 'composer_experience', 'public_profile_enabled', 'public_profile_visible_fields'],
  },
  {
    method: 'PUT',
    path: '/notifications/preferences',
    members: ['digest_time', 'digest_timezone', 'preferences'],
    base: { preferences: {} },
  },
  { method: 'PUT', path: '/notifications/preferences', members: ['post_published', 'no_such_topic'], base: {} },
  { method: 'POST', path: '/notifications/mutes', members: ['workspace_id', 'starts_at', 'ends_at'] },
  { method: 'POST', path: '/organizations', members: ['name'] },
  { method: 'PATCH', path: (o) => `/organizations/${o.organizationId}/members/${o.user.id}`, members: ['role'] },
  {
    method: 'POST',
    path: '/workspaces',
    members: ['organization_id', 'name'],
    base: (o) => ({ organization_id: o.organizationId, name: 'x' }),
  },
  { method: 'PATCH', path: (o) => `/workspaces/${o.workspaceId}`, members: ['name'] },
  { method: 'PATCH', path: (o) => `/workspaces/${o.workspaceId}/members/${o.user.id}`, members: ['role'] },
  { method: 'POST', path: (o) => `/workspaces/${o.workspaceId}/invitations`, members: ['email', 'role'], base: { role: 'viewer' } },
  { method: 'POST', path: '/workspace-invitations/accept', members: ['token'] },
  { method: 'POST', path: '/auth/reauth', members: ['password'] },
  { method: 'POST', path: '/auth/security/passkeys/begin', members: ['reauth_grant'] },
  { method: 'POST', path: '/auth/security/passkeys/finish', members: ['challenge_id', 'credential', 'name'] },
  { method: 'POST', path: '/auth/email-change', members: ['new_email', 'reauth_grant'] },
  { method: 'POST', path: '/api-tokens', members: ['name', 'expires_at', 'workspace_id'], base: { name: 'ci' } },
  {
    method: 'POST',
    path: '/social-sets',
    members: ['workspace_id', 'name', 'is_default', 'accounts'],
    base: (o) => ({ workspace_id: o.workspaceId, name: 'x', accounts: [] }),
  },
  {
    method: 'PUT',
    path: '/social-sets/01900000-0000-7000-8000-000000000000',
    members: ['name', 'is_default', 'accounts'],
    base: { name: 'x', is_default: false, accounts: [] },
  },
  {
    method: 'POST',
    path: '/voice-profiles',
    members: ['workspace_id', 'name', 'definition', 'is_default'],
    base: (o) => ({ workspace_id: o.workspaceId, name: 'x', definition: {} }),
  },
  {
    method: 'PUT',
    path: '/voice-profiles/01900000-0000-7000-8000-000000000000',
    members: ['workspace_id', 'name', 'definition', 'expected_revision'],
    base: (o) => ({ workspace_id: o.workspaceId, name: 'x', definition: {}, expected_revision: 1 }),
  },
  { method: 'PUT', path: '/voice-profiles/01900000-0000-7000-8000-000000000000/assignments', members: ['account_ids'] },
  {
    method: 'POST',
    path: '/publication-builds/angles',
    members: ['workspace_id', 'idea', 'account_ids', 'social_set_id', 'voice_profile_id', 'context_notes', 'direction'],
    base: (o) => ({ workspace_id: o.workspaceId, idea: 'An idea' }),
  },
  {
    method: 'POST',
    path: '/social-accounts/connect',
    members: ['workspace_id', 'provider', 'username', 'instance_url'],
    base: (o) => ({ workspace_id: o.workspaceId, provider: 'mastodon', instance_url: 'https://odd.example' }),
  },
  {
    method: 'POST',
    path: '/publications',
    members: ['workspace_id', 'content_profile', 'title', 'source_text'],
    base: (o) => ({ workspace_id: o.workspaceId, content_profile: 'short_text', title: '', source_text: '' }),
  },
  {
    method: 'PATCH',
    path: '/publications/01900000-0000-7000-8000-000000000000',
    members: [
      'expected_revision',
      'title',
      'source_text',
      'content_profile',
      'audience',
      'goal',
      'intent',
      'source_url',
      'metadata',
      'segments',
    ],
    base: { expected_revision: 1 },
  },
];

describe('gateway: malformed input never becomes a 500', () => {
  it.each(OPERATIONS.map((op) => [`${op.method} ${String(op.path)} (${op.members.join(', ')})`, op] as const))('%s', async (_name, op) => {
    const user = await registerUser();
    const organizationId = await createOrganization(user);
    const owned: Owned = { user, organizationId, workspaceId: await createWorkspace(user, organizationId, 'Main') };
    const path = typeof op.path === 'function' ? op.path(owned) : op.path;
    const base = typeof op.base === 'function' ? op.base(owned) : op.base;
    const failures: string[] = [];
    for (const member of op.members) {
      for (const value of ODD_VALUES) {
        // The second preferences row puts the odd value inside the map.
        const body =
          base && op.path === '/notifications/preferences' && !('preferences' in base)
            ? { preferences: { [member]: value } }
            : { ...base, [member]: value };
        const response = await call(op.method, path, { token: user.token, body });
        const isProblem = (response.headers.get('content-type') ?? '').startsWith('application/problem+json');
        if (response.status >= 500 || (response.status >= 400 && !isProblem)) {
          failures.push(`${JSON.stringify(body).slice(0, 80)} → ${response.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ['a NUL in an id', 'DELETE', '/notifications/mutes/%00'],
    ['a 3,000-character id', 'DELETE', `/notifications/mutes/${'a'.repeat(3_000)}`],
    ['an encoded path traversal', 'DELETE', '/notifications/mutes/..%2f..%2fauth'],
    ['a broken percent-encoding', 'DELETE', '/notifications/mutes/%E0%A4%A'],
    ['a dot-dot schema name', 'GET', '/api/v1/schemas/%2e%2e'],
    ['a 5,000-character schema name', 'GET', `/api/v1/schemas/${'x'.repeat(5_000)}`],
    ['a NUL in a workspace id', 'GET', '/workspaces/%00/members'],
    ['a 3,000-character organization id', 'DELETE', `/organizations/${'a'.repeat(3_000)}`],
    ['a broken percent-encoding in an invitation id', 'POST', '/workspaces/x/invitations/%E0%A4%A/resend'],
    ['an array where a query value belongs', 'GET', '/workspaces?organization_id=a&organization_id=b'],
    ['a NUL in a query value', 'GET', '/workspaces?organization_id=%00'],
    ['a NUL in a passkey id', 'DELETE', '/auth/security/passkeys/%00'],
    ['a NUL in an email-change id', 'POST', '/auth/email-change/%00/confirm'],
    ['a NUL in an API token id', 'DELETE', '/api-tokens/%00'],
    ['a NUL in a social set id', 'PUT', '/social-sets/%00'],
    ['an array where the social sets workspace_id belongs', 'GET', '/social-sets?workspace_id=a&workspace_id=b'],
    ['a NUL in a voice profile id', 'PUT', '/voice-profiles/%00/assignments'],
    ['a NUL in the voice profiles workspace_id', 'GET', '/voice-profiles?workspace_id=%00'],
    ['a NUL in an OAuth state', 'GET', '/social-accounts/callback/x?code=c&state=%00'],
    ['a NUL in an OAuth network name', 'GET', '/social-accounts/callback/%00?code=c&state=s'],
    ['a repeated OAuth code', 'GET', '/social-accounts/callback/x?code=a&code=b&state=s'],
    ['a NUL in a publication id', 'PATCH', '/publications/%00'],
    ['a NUL in the publications cursor', 'GET', '/publications?workspace_id=01900000-0000-7000-8000-000000000000&cursor=%00'],
    [
      'an array where the publications status belongs',
      'GET',
      '/publications?workspace_id=01900000-0000-7000-8000-000000000000&status=draft&status=failed',
    ],
    [
      'an array where the publications limit belongs',
      'GET',
      '/publications?workspace_id=01900000-0000-7000-8000-000000000000&limit=1&limit=2',
    ],
  ])('%s answers a 4xx problem', async (_name, method, path) => {
    const user = await registerUser();
    const response = await call(method, path, { token: user.token });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
