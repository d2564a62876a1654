import { readLimited } from '@social/platform';
import type { Logger } from 'pino';
import { ProviderApiOrigins, redirectOrigin } from './provider-api-origins.js';
import { oauthErrorCode, ProviderCallDetails, ProviderError } from './provider-error.js';
import { trackSending } from './request-sending.js';
import { streamingFetch } from './streaming-fetch.js';

/** Networks answer small JSON documents; anything larger is not an answer we asked for. */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/** The longest wait a network's rate-limit header may ask of us (a larger one is clamped). */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * Error codes of Node's fetch (undici) that mean the request never left this
 * machine: nothing can have been created at the network.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: URLSearchParams;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as multipart/form-data (uploads). */
  multipart?: FormData;
  /** Sent as is with the given content type (raw uploads). */
  bytes?: { data: Uint8Array; contentType: string };
  /** Streamed as it is read, with the given content type (large uploads: never held whole in memory). */
  stream?: { body: AsyncIterable<Uint8Array>; contentType: string };
  /**
   * What logs show instead of the URL's path, for URLs that carry a secret (a Telegram bot token, a Discord
   * webhook's token): e.g. `/bot…/sendMessage`.
   */
  loggedPath?: string;
  /**
   * Where the network names its error in a refusal's body, for networks whose code is not an OAuth/XRPC `error`
   * member (LinkedIn's `code`, Graph's `error.code`); only a short well-formed code is kept, never free text.
   */
  errorCodeOf?: (body: unknown) => unknown;
  /**
   * Where a 429's body names its wait, in seconds, for networks that say it only there (Telegram's
   * `parameters.retry_after`); used when the answer's headers name none.
   */
  retryAfterOf?: (body: unknown) => unknown;
  /**
   * Integers beyond Number.MAX_SAFE_INTEGER in the answer are kept as their decimal strings, for networks whose ids
   * are int64 JSON numbers (TikTok's public post ids), which a double would round.
   */
  exactIntegers?: boolean;
  /**
   * Statuses outside 2xx that are an answer, not a failure, for this call (YouTube's `308 Resume Incomplete`
   * with its `Range` header): answered as they are, with their headers.
   */
  acceptStatuses?: readonly number[];
}

export interface ProviderAnswer {
  status: number;
  body: unknown;
  /** The answer's headers (LinkedIn names a created post in `x-restli-id`; X reports its rate limit in `x-rate-limit-*`). */
  headers: Headers;
}

/** Redirects a media download may follow. */
const MAX_MEDIA_REDIRECTS = 5;

export type FetchFunction = typeof fetch;

/**
 * The one way adapters talk to networks: JSON in and out, the configured
 * origin override applied, redirects refused, bounded by the caller's signal,
 * and every failure a ProviderError carrying the status, the network's
 * Retry-After and whether the request left (for delivery). Logs method,
 * network, path and status; never headers, query strings or bodies (they
 * carry tokens and codes).
 */
export class ProviderHttp {
  constructor(
    private readonly origins: ProviderApiOrigins,
    private readonly logger?: Logger,
    private readonly fetchFn: FetchFunction = fetch,
    /** For streamed bodies (uploads): one that reads the source only as fast as the network takes it (streamingFetch). */
    private readonly streamFetchFn: FetchFunction = streamingFetch,
  ) {}

  /** The parsed JSON of a 2xx answer; a ProviderError otherwise. */
  async json(platform: string, request: ProviderRequest, signal: AbortSignal): Promise<unknown> {
    return (await this.call(platform, request, signal)).body;
  }

  /** Like `json`, with the 2xx status (202 "still processing" differs from 200). */
  async call(platform: string, request: ProviderRequest, signal: AbortSignal): Promise<ProviderAnswer> {
    const url = redirectOrigin(this.origins, platform, request.url);
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    let body: string | FormData | Uint8Array | AsyncIterable<Uint8Array> | undefined;
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = request.form.toString();
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.multipart) {
      body = request.multipart;
    } else if (request.bytes) {
      headers['content-type'] = request.bytes.contentType;
      body = request.bytes.data;
    } else if (request.stream) {
      headers['content-type'] = request.stream.contentType;
      body = request.stream.body;
    }
    const startedAt = Date.now();
    const path = request.loggedPath ?? new URL(url).pathname;
    let response: Response | undefined;
    let text: string;
    const sending = trackSending();
    try {
      const init = { method: request.method, headers, body, signal, redirect: 'manual' } as RequestInit;
      // A streamed body goes out as it is read, chunked, never held whole.
      const fetcher = request.stream ? this.streamFetchFn : this.fetchFn;
      response = await sending.run(() => fetcher(url, init));
      const answer = await readLimited(response, MAX_ANSWER_BYTES);
      if (answer === undefined)
        throw new ProviderError('unavailable', 'The network answered more than we accept.', undefined, {
          status: response.status,
          sent: true,
        });
      text = answer;
    } catch (error) {
      const sent = response !== undefined || (sending.sent() ?? !notSent(error));
      const details: ProviderCallDetails = { status: response?.status ?? 0, sent };
      if (signal.aborted) throw new ProviderError('timeout', `${platform} did not answer in time.`, undefined, details);
      if (error instanceof ProviderError) throw error;
      this.logger?.warn(
        { platform, method: request.method, path, sent, err: { message: (error as Error).message } },
        'network unreachable',
      );
      throw new ProviderError('unavailable', `${platform} could not be reached.`, undefined, details);
    }
    this.logger?.debug({ platform, method: request.method, path, status: response.status, ms: Date.now() - startedAt }, 'network answered');
    const parsed = parseJson(text, request.exactIntegers);
    const details: ProviderCallDetails = {
      status: response.status,
      sent: true,
      ...waitOf(response.headers, Date.now(), response.status),
    };
    if (request.acceptStatuses?.includes(response.status))
      return { status: response.status, body: parsed ?? null, headers: response.headers };
    if (response.status === 429 && details.retryAfterMs === undefined) Object.assign(details, bodyWait(parsed, request.retryAfterOf));
    if (response.status >= 400 && response.status < 500 && response.status !== 429) {
      throw new ProviderError(
        'refused',
        `${platform} refused the request (HTTP ${response.status}).`,
        networkErrorCode(parsed, request.errorCodeOf),
        details,
      );
    }
    if (response.status < 200 || response.status >= 300) {
      throw new ProviderError(
        'unavailable',
        `${platform} answered HTTP ${response.status}.`,
        networkErrorCode(parsed, request.errorCodeOf),
        details,
      );
    }
    // Some calls answer 2xx with an empty body (LinkedIn's create, an upload part): that is an answer, not an unreadable one.
    if (parsed === undefined && text.trim() !== '')
      throw new ProviderError('unavailable', `${platform} answered something that is not JSON.`, undefined, details);
    return { status: response.status, body: parsed ?? null, headers: response.headers };
  }

  /**
   * The bytes at `url` (media to upload), at most `maxBytes`: larger is a
   * refusal (the post cannot be sent as it is), unreachable or 5xx is
   * `unavailable`. Not redirected by PROVIDER_API_ORIGINS: it is our media,
   * not the network. Redirects are followed (media hosts use them), each hop
   * through our fetch, so none can lead to a server the fetch refuses.
   */
  async download(url: string, maxBytes: number, signal: AbortSignal): Promise<{ data: Uint8Array; contentType: string }> {
    let response: Response;
    let target = url;
    try {
      for (let hop = 0; ; hop++) {
        response = await this.fetchFn(target, { method: 'GET', signal, redirect: 'manual' });
        const location = response.headers.get('location');
        if (![301, 302, 303, 307, 308].includes(response.status) || !location) break;
        await response.body?.cancel();
        if (hop === MAX_MEDIA_REDIRECTS)
          throw new ProviderError('unavailable', 'The media redirected too many times.', undefined, {
            status: response.status,
            sent: false,
          });
        target = new URL(location, target).toString();
      }
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (signal.aborted) throw new ProviderError('timeout', 'The media did not download in time.', undefined, { status: 0, sent: false });
      throw new ProviderError('unavailable', 'The media could not be downloaded.', undefined, { status: 0, sent: false });
    }
    if (!response.ok) {
      await response.body?.cancel();
      const failure = response.status >= 400 && response.status < 500 && response.status !== 429 ? 'refused' : 'unavailable';
      throw new ProviderError(failure, `The media answered HTTP ${response.status}.`, 'media_unavailable', {
        status: response.status,
        sent: false,
      });
    }
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw new ProviderError('refused', `The media is larger than ${maxBytes} bytes.`, 'media_too_large', { status: 413, sent: false });
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > maxBytes)
          throw new ProviderError('refused', `The media is larger than ${maxBytes} bytes.`, 'media_too_large', {
            status: 413,
            sent: false,
          });
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (signal.aborted) throw new ProviderError('timeout', 'The media did not download in time.', undefined, { status: 0, sent: false });
      throw new ProviderError('unavailable', 'The media download broke off.', undefined, { status: 0, sent: false });
    }
    return { data: Buffer.concat(chunks), contentType: response.headers.get('content-type')?.split(';')[0].trim() ?? '' };
  }
}

/** Whether a fetch failure certainly happened before the request left, by its cause's code (for fetches whose sending is not tracked). */
export function notSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && NOT_SENT_CODES.has(code);
}

/** Headers that say when a network's rate-limit window ends. */
const RESET_HEADERS = ['x-ratelimit-reset', 'x-rate-limit-reset', 'ratelimit-reset'];

/**
 * How long a network asks us to wait: `Retry-After` (seconds or an HTTP
 * date), else, for a rate limit (429), the window's reset (Mastodon's `X-RateLimit-Reset`, an ISO
 * time; X's `x-rate-limit-reset` and Bluesky's `RateLimit-Reset`, epoch seconds). undefined when none.
 * Networks send the reset on every answer (X does): a 5xx waits only for a Retry-After, never for the
 * window to end.
 */
export function retryAfterMs(headers: Headers, now = Date.now(), status = 429): number | undefined {
  for (const name of status === 429 ? ['retry-after', ...RESET_HEADERS] : ['retry-after']) {
    const value = headers.get(name)?.trim();
    if (!value) continue;
    let ms: number;
    if (/^\d+(\.\d+)?$/.test(value)) {
      const seconds = Number(value);
      // A reset header holds an epoch time; Retry-After a delay.
      ms = seconds > 1e9 ? seconds * 1000 - now : seconds * 1000;
    } else {
      const at = Date.parse(value);
      if (Number.isNaN(at)) continue;
      ms = at - now;
    }
    return Math.min(Math.max(0, Math.round(ms)), MAX_RETRY_AFTER_MS);
  }
  return undefined;
}

/** The wait a 429's body names (`retryAfterOf`, seconds), as waitOf answers it; {} when none. */
function bodyWait(body: unknown, retryAfterOf?: (body: unknown) => unknown): Pick<ProviderCallDetails, 'retryAfterMs' | 'retryAt'> {
  const seconds = retryAfterOf?.(body);
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return {};
  const wait = Math.min(Math.ceil(seconds) * 1000, MAX_RETRY_AFTER_MS);
  return { retryAfterMs: wait, retryAt: Date.now() + wait };
}

/** The wait a network's answer asks for, as a duration and as the time it ends; {} when none. */
export function waitOf(headers: Headers, now = Date.now(), status = 429): Pick<ProviderCallDetails, 'retryAfterMs' | 'retryAt'> {
  const wait = retryAfterMs(headers, now, status);
  return wait === undefined ? {} : { retryAfterMs: wait, retryAt: now + wait };
}

/** The network's own error code (`errorCodeOf`), else an OAuth `error` or an XRPC `error` name, when well-formed. */
function networkErrorCode(body: unknown, errorCodeOf?: (body: unknown) => unknown): string | undefined {
  const own = errorCodeOf?.(body);
  const code = typeof own === 'number' && Number.isInteger(own) ? String(own) : own;
  return typeof code === 'string' && /^[a-z0-9_.-]{1,64}$/i.test(code) ? code : oauthErrorCode(body);
}

/** JSON.parse's reviver with the source text of each value (ES2025 JSON.parse source text access). */
type SourceReviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;
const keepLargeIntegers: SourceReviver = (_key, value, context) =>
  typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source) ? context.source : value;

function parseJson(text: string, exactIntegers = false): unknown {
  try {
    return exactIntegers ? JSON.parse(text, keepLargeIntegers as Parameters<typeof JSON.parse>[1]) : JSON.parse(text);
  } catch {
    return undefined;
  }
}
