import type { PublicDestinations } from '@social/platform';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, Readable } from 'node:stream';
import type { FetchFunction } from './provider-http.js';

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function responseOf(res: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  const status = res.statusCode ?? 0;
  if (NULL_BODY_STATUSES.has(status)) {
    res.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, headers });
}

/**
 * `fetch` for streamed request bodies (uploads), over Node's http client. Node 20's fetch keeps a streamed
 * request body in memory as it sends it (a 500 MiB video grows the process by as much); `http.request` fed
 * through `pipeline` reads the source only as fast as the socket takes it. Answers a standard Response,
 * never follows redirects, honours `signal`, and fails as fetch does: a TypeError whose `cause` carries the
 * socket's error code (so "never sent" is told apart the same way).
 */
export const streamingFetch: FetchFunction = streamingFetchThrough();

/** streamingFetch whose connections follow `destinations` (public addresses only, checked on the address connected). */
export function streamingFetchThrough(destinations?: PublicDestinations): FetchFunction {
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : input.toString());
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      // Throws for a URL naming a private address: the promise rejects with it, nothing sent.
      const lookup = destinations?.lookupFor(url);
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        reject(new TypeError('fetch failed', { cause: error }));
      };
      const options = {
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        signal: init.signal ?? undefined,
        ...(lookup ? { lookup } : {}),
      };
      const req = send(url, options, (res) => {
        if (settled) return void res.resume();
        settled = true;
        resolve(responseOf(res));
      });
      req.on('error', fail);
      const body = init.body as unknown as AsyncIterable<Uint8Array> | Uint8Array | string | null | undefined;
      if (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array) {
        req.end(body ?? undefined);
        return;
      }
      // An error of either side ends both (the source stops being read); one after the answer changes nothing.
      pipeline(Readable.from(body), req, (error) => {
        if (error) fail(error);
      });
    })) as FetchFunction;
}
