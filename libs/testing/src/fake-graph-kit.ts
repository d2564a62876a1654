import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken, readRaw, sendJson } from './fake-network-kit.js';

/**
 * What the fakes of Meta's Graph APIs (fake-threads.ts, fake-instagram.ts, fake-facebook.ts) share: Graph's error
 * bodies and path shape, the token where Graph takes it, field selection, media fetched by URL, containers whose
 * processing settles over polls, files served for the adapters' public copies, and the token trade.
 */

/** `/v1.0/…`, `/v27.0/…`: every Graph path names its version; the rest is `/{node}/{edge}`. */
const VERSIONED = /^\/v\d+\.\d+(\/.*)$/;

/** The path below its version prefix (`/{node}/{edge}`), or undefined when it names no version. */
export const unversioned = (pathname: string): string | undefined => VERSIONED.exec(pathname)?.[1];

/** A Graph path's node, edge and anything past them (which Graph refuses: code 2500). */
export function graphNode(path: string): { node: string; edge?: string; extra?: string } {
  const [node, edge, extra] = path.slice(1).split('/');
  return { node, edge, extra };
}

/** A Graph API error body (Graph API "Handling errors"): never the caller's token. */
export function graphError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  subcode?: number,
  type = 'OAuthException',
): void {
  sendJson(res, status, {
    error: {
      message,
      type,
      code,
      ...(subcode === undefined ? {} : { error_subcode: subcode }),
      fbtrace_id: randomBytes(8).toString('base64url'),
    },
  });
}

/** Graph's answer (Threads and Instagram wording) for an id it does not know, or may not show: code 100, subcode 33. */
export const unsupportedObject = (res: ServerResponse, node: string) =>
  graphError(
    res,
    400,
    100,
    `Unsupported request - method type: get. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, ` +
      'or does not support this operation.',
    33,
  );

/** The `fields` asked of an object (with `id` always): a field's expansion (`reactions.summary(…)`, `children{…}`) names it. */
export function only(value: Record<string, unknown>, fields: string | string[] | null | undefined): Record<string, unknown> {
  if (!fields) return { id: value.id };
  const names = typeof fields === 'string' ? fields.split(',') : fields;
  const wanted = new Set(['id', ...names.map((field) => field.trim().split(/[.{]/)[0])]);
  return Object.fromEntries(Object.entries(value).filter(([key, item]) => wanted.has(key) && item !== undefined));
}

/** `since` / `until`: a Unix timestamp, or a date strtotime() reads (ISO 8601 here). */
export function timeParameter(value: string): number {
  return /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
}

export function httpUrl(value: string | undefined): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value ?? '').protocol);
  } catch {
    return false;
  }
}

export const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** A Graph call as received: the body read, the form parsed, and the token where Graph takes it (form, query or Bearer). */
export interface GraphCall {
  raw: Buffer;
  contentType: string;
  form: Record<string, string>;
  query: Record<string, string>;
  bearer: string;
  token: string;
  /** Where the token came: `form`, `query`, `bearer` or "" (what specs check; never the token itself). */
  tokenIn: string;
}

export async function readGraphCall(req: IncomingMessage, url: URL): Promise<GraphCall> {
  const raw = await readRaw(req);
  const contentType = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  const form = contentType === 'application/x-www-form-urlencoded' ? Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) : {};
  const query = Object.fromEntries(url.searchParams);
  const bearer = bearerToken(req);
  const token = form.access_token ?? query.access_token ?? bearer;
  const tokenIn = form.access_token ? 'form' : query.access_token ? 'query' : bearer ? 'bearer' : '';
  return { raw, contentType, form, query, bearer, token, tokenIn };
}

/** Parameters as recorded for specs: without the secrets named. */
export const withoutSecrets = (parameters: Record<string, string>, secrets: string[] = ['access_token']) =>
  Object.fromEntries(Object.entries(parameters).filter(([key]) => !secrets.includes(key)));

/**
 * One page of a listing (`items` newest first) as Graph answers it: `limit` items (25 unless asked, 100 at most), its
 * cursors, and a `next` link (`nextUrl?after=…`) when more remain.
 */
export function listingPage<T extends { id: string }>(
  items: T[],
  limit: string | undefined,
  nextUrl: string,
  json: (item: T) => Record<string, unknown>,
): { data: Array<Record<string, unknown>>; paging: Record<string, unknown> } {
  const size = Math.min(Math.max(Number(limit ?? 25) || 25, 1), 100);
  const page = items.slice(0, size);
  const cursors = page.length ? { before: page[0].id, after: page.at(-1)!.id } : {};
  return { data: page.map(json), paging: { cursors, ...(items.length > size ? { next: `${nextUrl}?after=${page.at(-1)!.id}` } : {}) } };
}

/** A publishing-limit answer (`threads_publishing_limit`, `content_publishing_limit`): the `fields` asked of `all`. */
export function publishingLimit(all: Record<string, unknown>, fields: string | undefined): { data: Array<Record<string, unknown>> } {
  const wanted = (fields ?? 'quota_usage').split(',').map((field) => field.trim());
  return { data: [Object.fromEntries(Object.entries(all).filter(([key]) => wanted.includes(key)))] };
}

/** A media object's insights (GET /{media-id}/insights): one lifetime value a metric asked, 0 unless a spec set it. */
export function lifetimeInsights(objectId: string, metrics: string[], counts: Record<string, number | undefined>) {
  return {
    data: metrics.map((metric) => ({
      name: metric,
      period: 'lifetime',
      values: [{ value: counts[metric] ?? 0 }],
      title: metric,
      description: '',
      id: `${objectId}/insights/${metric}/lifetime`,
    })),
  };
}

/** A long-lived token lives 60 days (Threads and Instagram "Long-lived tokens"). */
const LONG_LIVED_SECONDS = 60 * 86_400;

/**
 * GET /access_token (`{prefix}_exchange_token`, with client_secret: a short-lived token traded for a long-lived one) and
 * GET /refresh_access_token (`{prefix}_refresh_token`): a new token of the same account. Whether it answered the call.
 */
export function tradeToken<A>(
  call: { method: string; pathname: string; params: Record<string, string> },
  accounts: Map<string, A>,
  prefix: 'th' | 'ig',
  res: ServerResponse,
  answer: (status: number, body: unknown) => void,
): boolean {
  const { method, pathname, params } = call;
  if (method !== 'GET' || (pathname !== '/refresh_access_token' && pathname !== '/access_token')) return false;
  const grantType = pathname === '/access_token' ? `${prefix}_exchange_token` : `${prefix}_refresh_token`;
  if (params.grant_type !== grantType) graphError(res, 400, 100, `Invalid grant_type; expected ${grantType}.`);
  else if (pathname === '/access_token' && !params.client_secret) graphError(res, 400, 100, 'Missing client_secret.');
  else {
    const account = accounts.get(params.access_token ?? '');
    if (!account) graphError(res, 400, 190, 'Error validating access token: the session is invalid.');
    else {
      const renewed = `${params.access_token.replace(/~[0-9a-f]+$/, '')}~${randomBytes(4).toString('hex')}`;
      accounts.set(renewed, account);
      answer(200, { access_token: renewed, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS });
    }
  }
  return true;
}

/** The profile the OAuth fake answers at `path` for `token` (a Bearer), or undefined when it does not know the token. */
export async function upstreamProfile(upstream: string, path: string, token: string): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(`${upstream}${path}`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
  if (!response?.ok) return undefined;
  return (await response.json()) as Record<string, unknown>;
}

/** Media files the fake serves itself (`/files/<name>`, made through the control API): what adapters' public copies stand for. */
export class FakeMediaFiles {
  private readonly files = new Map<string, { contentType: string; data: Buffer }>();

  /** POST /__control/files `{name, content_type, size}`: random bytes of that type; the URL they are served at. */
  add(origin: string, request: { name: string; content_type: string; size: number }): { url: string } {
    this.files.set(request.name, { contentType: request.content_type, data: randomBytes(request.size) });
    return { url: `${origin}/files/${request.name}` };
  }

  /** Serves GET /files/<name>; false when the request is not for a file. */
  serve(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (req.method !== 'GET' || !url.pathname.startsWith('/files/')) return false;
    const file = this.files.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
    if (!file) sendJson(res, 404, { error: 'not found' });
    else {
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) });
      res.end(file.data);
    }
    return true;
  }
}

/** Graph's answer for a container still processing (code 9007, subcode 2207027). */
export const NOT_READY = 'The media is not ready for publishing, please wait for a moment.';

/** URLs the fakes treat as fetched fixtures (the conformance spec's media name no server): 1 KiB of the kind expected. */
export const FIXTURE_ORIGIN = 'https://media.invalid/';

/**
 * What a Graph network downloads from a media URL ("we will cURL your image using the URL provided"): its type and
 * bytes; undefined when the URL answered no 2xx. Throws when it cannot be reached in time. A fixture URL is answered
 * without a request, as `fixtureType`.
 */
export async function fetchMediaUrl(url: string, fixtureType: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
  if (url.startsWith(FIXTURE_ORIGIN)) return { contentType: fixtureType, bytes: Buffer.alloc(1024) };
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(10_000) });
  if (!response.ok) {
    await response.body?.cancel();
    return undefined;
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  return { contentType, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The part of a media container the processing needs (Threads and Instagram name its state differently). */
export interface FakeGraphContainer {
  id: string;
  account_id: string;
  media_type: string;
  is_carousel_item: boolean;
  children: string[];
  /** GET /{container-id} answers IN_PROGRESS this many more times before settling. */
  polls_left: number;
}

/** How a network's container reads and ends: its state field, and the ERROR a carousel gets when an item failed. */
export interface ContainerStates<C extends FakeGraphContainer> {
  state(container: C): string;
  finish(container: C): void;
  failCarousel(container: C, children: C[]): void;
}

/**
 * Media containers as Graph processes them: IN_PROGRESS while the media is fetched and for the polls asked, then
 * FINISHED (or ERROR, set by the fetch); a carousel settles with its children, and fails when one of them does.
 */
export class FakeContainers<C extends FakeGraphContainer> {
  all = new Map<string, C>();
  private readonly fetches = new Map<string, Promise<void>>();

  constructor(private readonly states: ContainerStates<C>) {}

  /** A new container, its media fetched in the background by `fetch` when it has any. */
  add(container: C, fetch?: () => Promise<void>): void {
    this.all.set(container.id, container);
    if (fetch) {
      const fetching = fetch().finally(() => this.fetches.delete(container.id));
      this.fetches.set(container.id, fetching);
    }
    this.settle(container);
  }

  /** One GET /{container-id}: a poll spent, or the state settled once they are. */
  poll(container: C): void {
    if (container.polls_left > 0) container.polls_left -= 1;
    else this.settle(container);
  }

  /** The container's state as GET answers it, settling a finished fetch or processing first. */
  settle(container: C): void {
    if (this.states.state(container) !== 'IN_PROGRESS') return;
    if (container.media_type === 'CAROUSEL') {
      const children = container.children.map((id) => this.all.get(id)!);
      children.forEach((child) => this.settle(child));
      if (children.some((child) => ['ERROR', 'EXPIRED'].includes(this.states.state(child)))) this.states.failCarousel(container, children);
      else if (children.every((child) => this.states.state(child) === 'FINISHED') && container.polls_left === 0)
        this.states.finish(container);
      return;
    }
    if (this.fetches.has(container.id) || container.polls_left > 0) return;
    this.states.finish(container);
  }

  /**
   * The carousel items a CAROUSEL container names in `children` (a comma-separated list): `min` to `max` of the
   * account's carousel item containers; else the refusal Graph answers (400 code 100), written to `res`.
   */
  carouselChildren(res: ServerResponse, accountId: string, children: string, bounds: { min: number; max: number }): C[] | undefined {
    const ids = children.split(',').filter(Boolean);
    if (ids.length < bounds.min || ids.length > bounds.max) {
      graphError(res, 400, 100, `Param children must name ${bounds.min} to ${bounds.max} carousel items.`);
      return undefined;
    }
    const items = ids.map((id) => this.all.get(id));
    if (items.some((child) => !child || child.account_id !== accountId || !child.is_carousel_item)) {
      graphError(res, 400, 100, 'Param children must name carousel item containers of this user.');
      return undefined;
    }
    return items as C[];
  }

  /**
   * The container `creation_id` names, settled, when the account may publish it now; else the refusal Graph answers
   * (not its container: code 100; a carousel item: code 100; still processing: 9007 / 2207027), written to `res`.
   * What a settled container that is not FINISHED answers is the network's.
   */
  publishable(res: ServerResponse, accountId: string, creationId: string | undefined): C | undefined {
    const container = this.all.get(creationId ?? '');
    if (!container || container.account_id !== accountId) {
      graphError(res, 400, 100, 'Param creation_id must name a media container of this user.', 33);
      return undefined;
    }
    this.settle(container);
    if (container.is_carousel_item) graphError(res, 400, 100, 'A carousel item is published through its carousel.');
    else if (this.states.state(container) === 'IN_PROGRESS') graphError(res, 400, 9007, NOT_READY, 2207027);
    else return container;
    return undefined;
  }

  clear(): void {
    this.all = new Map();
  }
}
