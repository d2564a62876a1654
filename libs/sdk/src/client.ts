import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { PlatformProblem } from './problem.js';

export interface PlatformClientOptions {
  /** The gateway's origin, e.g. `https://social.example.com` (or with `/api/v1`: every path answers there too). */
  baseUrl: string;
  /** A session's access token or an API token (`spt_…`), sent as `Authorization: Bearer`; omit for public routes. */
  token?: string;
  /** A fetch to use instead of the global one (tests, proxies, retries). */
  fetch?: (request: Request) => Promise<Response>;
}

/** Every operation of `/openapi.json`, typed: `client.GET('/publications/{id}', { params: { path: { id } } })`. */
export type PlatformClient = Client<paths>;

/**
 * A client for the platform's HTTP API. Calls answer openapi-fetch's `{ data, error, response }`;
 * wrap them in `unwrap()` to get the data or a thrown `PlatformProblem`. Operations that take an
 * `Idempotency-Key` declare it as a header parameter: pass it in `params.header`.
 */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: options.fetch });
  if (options.token) client.use(bearer(options.token));
  return client;
}

function bearer(token: string): Middleware {
  return {
    onRequest({ request }) {
      // A per-call Authorization header (e.g. another token for one request) wins.
      if (!request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  };
}

type Result = { data?: unknown; error?: unknown; response: Response };
/** What a successful call answers; an operation without a body (204) types its data `never`, which is `undefined` here. */
type Answer<R extends Result> = [Exclude<R['data'], undefined>] extends [never] ? undefined : Exclude<R['data'], undefined>;

/** The data of a successful call (undefined for 204); a failed one throws its `PlatformProblem`. */
export async function unwrap<R extends Result>(call: Promise<R>): Promise<Answer<R>> {
  const { data, error, response } = await call;
  if (!response.ok) throw PlatformProblem.fromResponse(response, error);
  return data as Answer<R>;
}

/** Whether the platform answered a retried request from its idempotency record instead of doing it again. */
export function isIdempotentReplay(response: Response): boolean {
  return response.headers.get('idempotent-replayed') === 'true';
}
