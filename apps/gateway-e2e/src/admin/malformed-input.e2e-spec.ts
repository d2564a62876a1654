import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call, TestUser } from '../support/api.js';
import { registerAdmin } from '../support/admin.js';
import { ODD_VALUES as COMMON_ODD_VALUES } from '../support/odd-values.js';

/**
 * Whatever an administrator sends to /admin, the answer is a 2xx or a 4xx
 * problem: never a 500, never a hang (as gateway/malformed-input does for the
 * other operations, here with an admin's token so the input reaches validation).
 */
const ODD_VALUES: unknown[] = [...COMMON_ODD_VALUES, '2026-13-45T99:99:99Z'];
/** Accepted by @IsUrl, refused by WHATWG URL (the origin normalization of mastodon instances). */
const ODD_URLS = [
  'https://xn--a.example.com',
  'https://a\uFFFDb.example.com',
  'https://xn--.example.com',
  'https://[::1]',
  'https://example.com:99999',
  'https://exa mple.com',
  'https://%41.example.com',
  'https://example.com/../..',
  'https://ex\u00ADample.com',
];
const ODD_QUERY_VALUES = ['', ' ', '-0', '1e3', '0x10', '١', '%00', '9'.repeat(40), 'created_at;DROP TABLE users', '%25', '😀'];

const BODY_OPERATIONS: Array<{
  method: string;
  path: string;
  members: string[];
  base: Record<string, unknown>;
  wrap?: (body: object) => object;
}> = [
  {
    method: 'POST',
    path: '/admin/provider-apps',
    members: [
      'provider',
      'client_id',
      'client_secret',
      'name',
      'redirect_uri',
      'instance_url',
      'bot_token',
      'webhook_secret',
      'connection_mode',
      'is_active',
    ],
    base: { provider: 'tiktok', client_id: 'odd' },
  },
  {
    method: 'POST',
    path: '/admin/provider-apps',
    members: ['instance_url', 'client_id', 'client_secret', 'connection_mode'],
    base: { provider: 'mastodon', client_id: 'odd', instance_url: 'https://odd.example.com' },
  },
  {
    method: 'PUT',
    path: '/admin/instance-settings',
    members: ['key', 'value', 'unset'],
    base: { key: 'ai_model', value: 'odd-model' },
    wrap: (item) => ({ settings: [item] }),
  },
  { method: 'PUT', path: '/admin/instance-settings', members: ['settings'], base: {} },
  { method: 'PUT', path: '/admin/ai-prompts/media.alt_text', members: ['value'], base: {} },
];

describe('admin: malformed input never becomes a 500', () => {
  let admin: TestUser;

  beforeAll(async () => {
    admin = await registerAdmin();
  });

  afterAll(async () => {
    // Leave the shared stack as it was.
    await call('PUT', '/admin/instance-settings', { token: admin.token, body: { settings: [{ key: 'ai_model', unset: true }] } });
    await call('DELETE', '/admin/ai-prompts/media.alt_text', { token: admin.token });
  });

  const isBad = (response: { status: number; headers: Headers }) =>
    response.status >= 500 ||
    (response.status >= 400 && !(response.headers.get('content-type') ?? '').startsWith('application/problem+json'));

  it.each(BODY_OPERATIONS.map((op) => [`${op.method} ${op.path} (${op.members.join(', ')})`, op] as const))('%s', async (_name, op) => {
    const failures: string[] = [];
    for (const member of op.members) {
      for (const value of ODD_VALUES) {
        const item = { ...op.base, [member]: value };
        const body = op.wrap ? op.wrap(item) : item;
        const response = await call(op.method, op.path, { token: admin.token, body });
        if (isBad(response)) failures.push(`${JSON.stringify(body).slice(0, 80)} → ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('POST /admin/provider-apps with odd mastodon instance URLs', async () => {
    const failures: string[] = [];
    for (const instance_url of ODD_URLS) {
      const response = await call('POST', '/admin/provider-apps', {
        token: admin.token,
        body: { provider: 'mastodon', client_id: 'odd', instance_url },
      });
      if (isBad(response)) failures.push(`${instance_url} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('GET /admin/users with odd query values', async () => {
    const failures: string[] = [];
    for (const name of ['page', 'per_page', 'search', 'sort', 'direction']) {
      for (const value of ODD_QUERY_VALUES) {
        const response = await call('GET', `/admin/users?${name}=${encodeURIComponent(value)}`, { token: admin.token });
        if (isBad(response)) failures.push(`${name}=${value} → ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ['a NUL in a prompt key', 'GET', '/admin/ai-prompts/%00'],
    ['a 3,000-character prompt key', 'PUT', `/admin/ai-prompts/${'k'.repeat(3_000)}`],
    ['an encoded path traversal', 'GET', '/admin/ai-prompts/..%2f..%2fusers'],
    ['a NUL in a provider app id', 'DELETE', '/admin/provider-apps/%00'],
    ['a broken percent-encoding', 'DELETE', '/admin/provider-apps/%E0%A4%A'],
  ])('%s answers a 4xx problem', async (_name, method, path) => {
    const response = await call(method, path, { token: admin.token, body: method === 'PUT' ? { value: 'x' } : undefined });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
