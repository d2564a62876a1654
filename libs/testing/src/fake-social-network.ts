import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken, CONTROL_PREFIX, type FakeServer, readRaw, sendJson, startFakeServer } from './fake-network-kit.js';

/** What the user "approved" at the network: the code it will redirect with, and what it answers for it. */
export interface FakeGrantRequest {
  client_id: string;
  /** When set, the token request must prove it (HTTP Basic or client_secret in the form). */
  client_secret?: string;
  redirect_uri: string;
  /** When set (S256), the token request must carry the matching code_verifier. */
  code_challenge?: string;
  access_token: string;
  refresh_token?: string;
  /** The token endpoint's answer; default RFC 6749 §5.1 built from the tokens above. */
  token_response?: unknown;
  /** What any GET with the access token as a Bearer answers (the network's profile shape). */
  profile: unknown;
}

/** The next `times` requests to `path` answer `status`/`body` after `delay_ms`, or have their connection dropped. */
export interface FakeFailure {
  path: string;
  status?: number;
  body?: unknown;
  delay_ms?: number;
  /** Close the connection without answering (an unreachable network). */
  drop?: boolean;
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** application/x-www-form-urlencoded members; {} otherwise. */
  form: Record<string, string>;
  received_at: string;
}

/**
 * `origin` is what PROVIDER_API_ORIGINS points each network at; `controlUrl`
 * takes POST /grants, GET/DELETE /requests, POST/DELETE /failures.
 */
export type FakeSocialNetwork = FakeServer;

interface StoredGrant extends FakeGrantRequest {
  code: string;
  used: boolean;
  /** How many times it was refreshed: tokens get a `~<n>` suffix per refresh. */
  refreshes?: number;
}

const readBody = async (req: IncomingMessage): Promise<string> => (await readRaw(req)).toString('utf8');

/**
 * A fake OAuth social network for the e2e suites, on a real HTTP server (the
 * platform never reaches the internet in tests). It does what a network's
 * token and profile endpoints do, whatever their paths: a form POST with
 * `grant_type=authorization_code` trades a code issued through the control
 * API (checking client, redirect_uri and PKCE like a network; a code works
 * once), a form POST with `grant_type=refresh_token` renews a traded grant
 * (new tokens `<old>~<n>`, the old refresh token stops working), and a GET
 * with that grant's Bearer token answers its profile. It
 * records every request and can be scripted to fail, stall or drop.
 */
export async function startFakeSocialNetwork(): Promise<FakeSocialNetwork> {
  const grants = new Map<string, StoredGrant>();
  const recorded: RecordedRequest[] = [];
  let failures: Array<FakeFailure & { left: number }> = [];

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readBody(req)) || '{}') : undefined;
    if (path === '/grants' && req.method === 'POST') {
      const grant = body as FakeGrantRequest;
      if (!grant?.client_id || !grant.redirect_uri || !grant.access_token)
        return sendJson(res, 400, { error: 'client_id, redirect_uri and access_token are required' });
      const code = `code-${randomBytes(12).toString('hex')}`;
      grants.set(code, { ...grant, code, used: false });
      return sendJson(res, 201, { code });
    }
    if (path === '/requests' && req.method === 'GET') return sendJson(res, 200, recorded);
    if (path === '/requests' && req.method === 'DELETE') {
      recorded.length = 0;
      return sendJson(res, 200, { deleted: true });
    }
    if (path === '/failures' && req.method === 'POST') {
      const failure = body as FakeFailure;
      if (!failure?.path) return sendJson(res, 400, { error: 'path is required' });
      failures.push({ ...failure, left: failure.times ?? 1 });
      return sendJson(res, 201, failure);
    }
    if (path === '/failures' && req.method === 'DELETE') {
      failures = [];
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  function tokenAnswer(form: Record<string, string>, authorization: string | undefined): { status: number; body: unknown } {
    const grant = grants.get(form.code ?? '');
    if (!grant || grant.used) return { status: 400, body: { error: 'invalid_grant', error_description: 'unknown or used code' } };
    let clientId = form.client_id ?? form.client_key;
    let clientSecret = form.client_secret;
    if (authorization?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(authorization.slice(6), 'base64')
        .toString('utf8')
        .split(':')
        .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      clientId = id;
      clientSecret = secret;
    }
    if (clientId !== grant.client_id || (grant.client_secret !== undefined && clientSecret !== grant.client_secret)) {
      return { status: 401, body: { error: 'invalid_client' } };
    }
    if (form.redirect_uri !== grant.redirect_uri)
      return { status: 400, body: { error: 'invalid_grant', error_description: 'redirect_uri mismatch' } };
    if (grant.code_challenge) {
      const proof = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (proof !== grant.code_challenge)
        return { status: 400, body: { error: 'invalid_grant', error_description: 'code_verifier mismatch' } };
    }
    grant.used = true;
    return {
      status: 200,
      body: grant.token_response ?? {
        access_token: grant.access_token,
        token_type: 'bearer',
        expires_in: 7200,
        ...(grant.refresh_token ? { refresh_token: grant.refresh_token } : {}),
      },
    };
  }

  /** RFC 6749 §6: the refresh token of a traded grant gets new tokens, and rotates (the old one stops working). */
  function refreshAnswer(form: Record<string, string>): { status: number; body: unknown } {
    const grant = [...grants.values()].find(
      (candidate) => candidate.used && candidate.refresh_token && candidate.refresh_token === form.refresh_token,
    );
    if (!grant) return { status: 400, body: { error: 'invalid_grant', error_description: 'unknown or rotated refresh token' } };
    const generation = (grant.refreshes ?? 0) + 1;
    grant.refreshes = generation;
    grant.access_token = `${grant.access_token.replace(/~\d+$/, '')}~${generation}`;
    grant.refresh_token = `${grant.refresh_token!.replace(/~\d+$/, '')}~${generation}`;
    return {
      status: 200,
      body: { access_token: grant.access_token, token_type: 'bearer', expires_in: 7200, refresh_token: grant.refresh_token },
    };
  }

  async function network(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const text = await readBody(req);
    const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const form = isForm ? Object.fromEntries(new URLSearchParams(text)) : {};
    recorded.push({
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)])),
      form,
      received_at: new Date().toISOString(),
    });
    const failure = failures.find((candidate) => candidate.path === url.pathname && candidate.left > 0);
    if (failure) {
      failure.left -= 1;
      if (failure.delay_ms) await new Promise((resolve) => setTimeout(resolve, failure.delay_ms));
      if (failure.drop) {
        req.socket.destroy();
        return;
      }
      if (failure.status) return sendJson(res, failure.status, failure.body ?? { error: 'scripted_failure' });
    }
    if (req.method === 'POST' && form.grant_type === 'refresh_token') {
      const answer = refreshAnswer(form);
      return sendJson(res, answer.status, answer.body);
    }
    if (req.method === 'POST' && form.grant_type === 'authorization_code') {
      const answer = tokenAnswer(form, req.headers.authorization);
      return sendJson(res, answer.status, answer.body);
    }
    const bearer = bearerToken(req);
    if (req.method === 'GET' && bearer) {
      const grant = [...grants.values()].find((candidate) => candidate.used && candidate.access_token === bearer);
      return grant ? sendJson(res, 200, grant.profile) : sendJson(res, 401, { error: 'invalid_token' });
    }
    return sendJson(res, 404, { error: 'not_found' });
  }

  return startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : network(req, res, url),
  );
}

/** The networks that connect by OAuth, all pointed at the fake. */
export const FAKE_NETWORK_PLATFORMS = ['x', 'linkedin', 'mastodon', 'threads', 'facebook', 'instagram', 'tiktok', 'youtube'];

/**
 * Publishing's environment for a stack on the fake networks: every OAuth
 * network's server-side origin replaced by the fake OAuth network's, then by
 * `overrides` (network → origin: the fake PDS for bluesky, the fake Mastodon
 * server for mastodon), and a short network budget so the "too slow" case
 * answers well within the suites' gateway timeout.
 */
export const fakeNetworkEnvironment = (origin: string, overrides: Record<string, string> = {}): Record<string, string> => ({
  PROVIDER_API_ORIGINS: JSON.stringify({
    ...Object.fromEntries(FAKE_NETWORK_PLATFORMS.map((platform) => [platform, origin])),
    ...overrides,
  }),
  PROVIDER_TIMEOUT_MS: '2000',
});
