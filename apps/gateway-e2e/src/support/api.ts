import { randomInt, randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is (e.g. malformed JSON); wins over `body`. */
  rawBody?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
  /** The caller's address as the proxy in front reports it (the e2e gateway trusts X-Forwarded-For). */
  ip?: string;
}

export const baseUrl = (): string => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the e2e suites through jest (global setup boots the stack).');
  return url;
};

/** A fresh client address per call unless one is given, so per-IP limits only bite where a test means them to. */
export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? randomIp(), ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | Buffer | undefined = options.rawBody;
  if (payload === undefined && options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl()}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let body: unknown = text;
  if (/json/.test(response.headers.get('content-type') ?? '') && text) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: body as T };
}

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID()}@example.com`;
export const PASSWORD = 'correct horse battery staple';

export interface TestUser {
  email: string;
  password: string;
  token: string;
  refreshToken: string;
  id: string;
}

export async function registerUser(extra: Record<string, unknown> = {}): Promise<TestUser> {
  const email = uniqueEmail();
  const response = await call('POST', '/auth/register', { body: { email, password: PASSWORD, ...extra } });
  expect(response.status).toBe(201);
  return {
    email,
    password: PASSWORD,
    token: response.body.access_token,
    refreshToken: response.body.refresh_token,
    id: response.body.user.id,
  };
}

export const schemaUrlFor = (name: string) => `${baseUrl()}/api/v1/schemas/${name}.json`;

/** Contract §1 problem shape, with the status and code expected. */
export function expectProblem(response: ApiResponse, status: number, code?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = response.body;
  expect(body).toEqual(
    expect.objectContaining({
      $schema: schemaUrlFor('ErrorModel'),
      type: 'about:blank',
      status,
      title: expect.any(String),
      detail: expect.any(String),
      code: code ?? expect.any(String),
      request_id: response.headers.get('x-request-id'),
    }),
  );
  expect(JSON.stringify(body)).not.toMatch(/at .*\.js:\d+|QueryFailedError|SELECT |accounts\.|notifications\./);
  return body;
}

/** Polls `check` until it passes or `timeoutMs` runs out (for effects promised "within N seconds"). */
export async function eventually(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The `errors[].location` of a validation problem, in order. */
export const locations = (problem: { errors?: Array<{ location: string }> }) => (problem.errors ?? []).map((e) => e.location);

/** An RFC 3339 UTC time with milliseconds, as every time member is written (contract §1). */
export const RFC3339_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
