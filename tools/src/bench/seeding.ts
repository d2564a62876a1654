import { randomBytes } from 'node:crypto';
/**
 * What the bench targets share to seed and load a stack through its API.
 */

/** One API call with a bearer token; throws naming the call unless it answered `expected`. Returns the JSON body (undefined when none). */
export async function api<T>(baseUrl: string, token: string, method: string, path: string, body?: object, expected = 200): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await res.json().catch(() => undefined)) as T;
  if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Runs `work` for 0…count-1 with at most `concurrency` in flight. */
export async function inParallel(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** A fresh organization (its name made unique) with one workspace, for a bench to seed into: `{ id }` of the workspace. */
export async function createBenchWorkspace(baseUrl: string, token: string, name: string): Promise<{ id: string }> {
  const organization = await api<{ id: string }>(
    baseUrl,
    token,
    'POST',
    '/organizations',
    { name: `${name} ${randomBytes(3).toString('hex')}` },
    201,
  );
  return api<{ id: string }>(baseUrl, token, 'POST', '/workspaces', { organization_id: organization.id, name }, 201);
}
