import { randomInt, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
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

/** An answer's members but `$schema`: the same resource as it appears inside a list. */
export const withoutSchema = ({ $schema: _ignored, ...rest }: Record<string, unknown>) => rest;

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

/** An RFC 3339 UTC time with milliseconds, as every time member is written (docs/decisions.md). */
export const RFC3339_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Sends a body over a limit (its whole length declared) and answers the status and problem. The gateway
 * answers such a body before reading it and closes the connection, so a client still writing may meet
 * EPIPE: this speaks HTTP by hand and sends the head and the body's first 64 KiB only.
 */
export async function sendOversized(
  base: string,
  method: string,
  path: string,
  token: string | undefined,
  body: string,
): Promise<{ status: number; contentType: string; problem: any }> {
  const { hostname, port } = new URL(base);
  const answer = await new Promise<string>((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: e2e\r\n` +
          `${token ? `Authorization: Bearer ${token}\r\n` : ''}Content-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 64 * 1024)}`,
      );
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', (error) => (received ? resolve(received) : reject(error)));
    socket.on('close', () => resolve(received));
  });
  const head = answer.slice(0, answer.indexOf('\r\n\r\n'));
  let rest = answer.slice(head.length + 4);
  if (/transfer-encoding: chunked/i.test(head)) rest = rest.replace(/^[0-9a-f]+\r\n/i, '').split('\r\n')[0];
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    contentType: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? '',
    problem: JSON.parse(rest),
  };
}
