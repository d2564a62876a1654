import { describe, expect, it } from '@jest/globals';
import { call, registerUser } from '../support/api.js';

/**
 * Whatever a client sends, the answer is a 2xx or a 4xx problem: never a 500,
 * never a hang. Every body member of every operation gets each odd value.
 */
const ODD_VALUES: unknown[] = [
  null, true, 0, -1, 1e308, '', ' ', 'x'.repeat(5_000), [], [1], {}, { a: 1 }, '😀', 'a\u0000b', '2026-13-45T99:99:99Z',
];

const OPERATIONS: Array<{ method: string; path: string; members: string[]; base?: Record<string, unknown> }> = [
  { method: 'POST', path: '/auth/register', members: ['email', 'password', 'display_name', 'username'] },
  { method: 'POST', path: '/auth/login', members: ['email', 'password'] },
  { method: 'POST', path: '/auth/refresh', members: ['refresh_token'] },
  {
    method: 'PATCH',
    path: '/auth/me',
    members: ['display_name', 'username', 'avatar_url', 'composer_experience', 'public_profile_enabled', 'public_profile_visible_fields'],
  },
  { method: 'PUT', path: '/notifications/preferences', members: ['digest_time', 'digest_timezone', 'preferences'], base: { preferences: {} } },
  { method: 'PUT', path: '/notifications/preferences', members: ['post_published', 'no_such_topic'], base: {} },
  { method: 'POST', path: '/notifications/mutes', members: ['workspace_id', 'starts_at', 'ends_at'] },
];

describe('gateway: malformed input never becomes a 500', () => {
  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path} (${op.members.join(', ')})`, op] as const))('%s', async (_name, op) => {
    const user = await registerUser();
    const failures: string[] = [];
    for (const member of op.members) {
      for (const value of ODD_VALUES) {
        // The second preferences row puts the odd value inside the map.
        const body = op.base && !('preferences' in op.base) ? { preferences: { [member]: value } } : { ...op.base, [member]: value };
        const response = await call(op.method, op.path, { token: user.token, body });
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
  ])('%s answers a 4xx problem', async (_name, method, path) => {
    const user = await registerUser();
    const response = await call(method, path, { token: user.token });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
