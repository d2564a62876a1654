import { expect } from '@jest/globals';
import { call, expectProblem } from './api.js';

export interface IntrusionAttempt {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Defaults to the resource URL itself; sub-resources and actions (e.g. `${url}/resend`) go here. */
  path?: string;
  body?: unknown;
  /** 404 unless the attempt names a workspace the intruder is not a member of in its query or body (403). */
  status?: 403 | 404;
}

export interface IsolationCase {
  /** A resource created by the owning tenant, e.g. `/workspaces/<id>`. */
  url: string;
  ownerToken: string;
  intruderToken: string;
  /** Every write and action the resource supports, as the intruder would try them. GET of `url` is always tried. */
  attempts: IntrusionAttempt[];
  /** What proves nothing changed (default: the owner's GET of `url`). */
  ownerView?: string[];
}

async function snapshot(paths: string[], token: string): Promise<unknown[]> {
  return Promise.all(
    paths.map(async (path) => {
      const response = await call('GET', path, { token });
      expect(response.status).toBe(200);
      return response.body;
    }),
  );
}

/**
 * Contract §1 isolation: another tenant replaying any operation on a resource
 * gets 404 (403 where it names a workspace it is not a member of) and nothing
 * the owner sees changes. Every e2e suite calls this for every resource it creates.
 */
export async function expectTenantIsolation(spec: IsolationCase): Promise<void> {
  const views = spec.ownerView ?? [spec.url];
  const before = await snapshot(views, spec.ownerToken);
  const attempts: IntrusionAttempt[] = [{ method: 'GET' }, ...spec.attempts];
  for (const attempt of attempts) {
    const path = attempt.path ?? spec.url;
    const response = await call(attempt.method, path, { token: spec.intruderToken, body: attempt.body });
    const status = attempt.status ?? 404;
    try {
      expectProblem(response, status);
    } catch (error) {
      throw new Error(`${attempt.method} ${path} by another tenant answered ${response.status}, expected ${status}: ${String(error)}`);
    }
  }
  expect(await snapshot(views, spec.ownerToken)).toEqual(before);
}
