import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the fake networks (fake Mastodon, fake Bluesky PDS) share: a real HTTP
 * server with a control API under `/__control`, and scripted failures.
 */
export const CONTROL_PREFIX = '/__control';

/**
 * The next `times` (default 1) requests to `path` (and `method`, when given) fail:
 * - `status` (+ `body`, `headers`, e.g. `{"retry-after": "2"}`): that answer instead of the real one;
 * - `delay_ms`: wait first (a stall longer than the client's timeout);
 * - `drop`: close the connection without handling the request;
 * - `drop_after_handling`: do the work (the post is created) and close the
 *   connection instead of answering — the answer is lost (an ambiguous outcome);
 * - `cut_answer`: do the work, send the status line, headers and half the
 *   body, then close the connection (a reset mid-answer).
 */
export interface ScriptedFailure {
  path: string;
  method?: string;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delay_ms?: number;
  drop?: boolean;
  drop_after_handling?: boolean;
  cut_answer?: boolean;
  times?: number;
}

export interface FakeServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** `${origin}/__control` */
  controlUrl: string;
  stop(): Promise<void>;
}

/** One call to a fake's control API (`controlUrl` + `path`): its JSON answer, whatever the status (the caller checks what it expects). */
export async function callControl(controlUrl: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${controlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Scripted failures of one fake: `take` consumes the first matching one. */
export class ScriptedFailures {
  private failures: Array<ScriptedFailure & { left: number }> = [];

  add(failure: ScriptedFailure): void {
    this.failures.push({ ...failure, left: failure.times ?? 1 });
  }

  clear(): void {
    this.failures = [];
  }

  /** The control routes every fake offers: POST /failures scripts one, DELETE /failures clears them; true when answered. */
  control(path: string, method: string | undefined, body: unknown, res: ServerResponse): boolean {
    if (path !== '/failures') return false;
    if (method === 'POST') {
      this.add(body as ScriptedFailure);
      sendJson(res, 201, body);
      return true;
    }
    if (method === 'DELETE') {
      this.clear();
      sendJson(res, 200, { deleted: true });
      return true;
    }
    return false;
  }

  take(method: string, path: string): ScriptedFailure | undefined {
    const failure = this.failures.find(
      (candidate) => candidate.path === path && (!candidate.method || candidate.method === method) && candidate.left > 0,
    );
    if (failure) failure.left -= 1;
    return failure;
  }

  /**
   * Plays the part of a failure that comes before the work: true when the
   * request was answered (or dropped) and the caller must stop.
   */
  async before(failure: ScriptedFailure | undefined, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (!failure) return false;
    if (failure.delay_ms) await new Promise((resolve) => setTimeout(resolve, failure.delay_ms).unref());
    if (failure.drop) {
      req.socket.destroy();
      return true;
    }
    if (failure.status) {
      sendJson(res, failure.status, failure.body ?? { error: 'ScriptedFailure', message: 'scripted failure' }, failure.headers);
      return true;
    }
    return false;
  }
}

/** Answers the work's result, unless `failure` says to lose it (dropped before, or cut in the middle of, the answer). */
export function answerUnlessLost(
  failure: ScriptedFailure | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
): void {
  if (failure?.drop_after_handling) return void req.socket.destroy();
  if (failure?.cut_answer) {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.write(text.slice(0, Math.floor(text.length / 2)), () => req.socket.destroy());
    return;
  }
  sendJson(res, status, body);
}

/** The token of an `Authorization: Bearer` header; '' without one. */
export const bearerToken = (req: IncomingMessage): string =>
  req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : '';

/** Passes a request on to `upstream` unchanged and its answer back (a dropped upstream connection drops this one). */
export async function forward(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer, upstream: string): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || ['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  let response: Response;
  try {
    response = await fetch(`${upstream}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      redirect: 'manual',
    });
  } catch {
    req.socket.destroy();
    return;
  }
  const answer = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'application/json' });
  res.end(answer);
}

/** Starts `handler` on 127.0.0.1 at a free port; a throw answers 400 (a fake must never hang its client). */
export async function startFakeServer(
  handler: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>,
): Promise<FakeServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    handler(req, res, url).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 400, { error: 'InvalidRequest', message: String((error as Error)?.message ?? error) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A CIDv1 (sha2-256, base32) of `bytes`, as AT Protocol servers answer: `codec` 0x71 dag-cbor (records) or 0x55 raw (blobs). */
export function cidOf(bytes: Uint8Array | string, codec = 0x71): string {
  return cidOfDigest(createHash('sha256').update(bytes).digest(), codec);
}

/** cidOf for bytes already hashed (a blob hashed as it streamed): `digest` is their SHA-256. */
export function cidOfDigest(digest: Buffer, codec = 0x55): string {
  const raw = Buffer.concat([Buffer.from([0x01, codec, 0x12, 0x20]), digest]);
  let bits = 0;
  let value = 0;
  let out = 'b';
  for (const byte of raw) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** One file of a multipart body as a fake received it: counted and hashed as it streamed, its first `keepBytes` kept. */
export interface ReceivedFile {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  /** The first bytes (up to the reader's `keepBytes`): enough to look at an image, never a whole video. */
  head: Buffer;
}

/**
 * Reads a multipart/form-data request as it streams (RFC 7578), never holding a file whole: text fields
 * are kept (at most 64 KiB each), files are hashed and counted, each keeping its first `keepBytes(type)`
 * bytes. Throws on a body that is not multipart.
 */
export async function readMultipart(
  req: IncomingMessage,
  keepBytes: (contentType: string) => number,
): Promise<{ fields: Record<string, string>; files: ReceivedFile[] }> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(String(req.headers['content-type'] ?? ''));
  if (!boundary) throw new Error('not a multipart/form-data body');
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`, 'latin1');
  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  // The body's first delimiter has no CRLF before it: one is put in front so every delimiter looks the same.
  let pending: Buffer = Buffer.from('\r\n', 'latin1');
  // Changed inside consume(): typed wide so the loop below does not narrow it.
  let state = 'boundary' as 'boundary' | 'headers' | 'body' | 'done';
  let part:
    | {
        name: string;
        filename?: string;
        contentType: string;
        hash: ReturnType<typeof createHash>;
        size: number;
        kept: Buffer[];
        keptBytes: number;
        keep: number;
      }
    | undefined;
  const write = (bytes: Buffer) => {
    if (!part || bytes.length === 0) return;
    part.size += bytes.length;
    if (part.filename !== undefined) part.hash.update(bytes);
    const room = part.keep - part.keptBytes;
    if (room > 0) {
      part.kept.push(bytes.subarray(0, room));
      part.keptBytes += Math.min(room, bytes.length);
    }
  };
  const finish = () => {
    if (!part) return;
    if (part.filename === undefined) fields[part.name] = Buffer.concat(part.kept).toString('utf8');
    else
      files.push({
        field: part.name,
        filename: part.filename,
        contentType: part.contentType,
        size: part.size,
        sha256: part.hash.digest('hex'),
        head: Buffer.concat(part.kept),
      });
    part = undefined;
  };
  const consume = () => {
    for (;;) {
      if (state === 'boundary') {
        const at = pending.indexOf(delimiter);
        if (at < 0 || pending.length < at + delimiter.length + 2) return;
        const after = pending.subarray(at + delimiter.length, at + delimiter.length + 2).toString('latin1');
        pending = pending.subarray(at + delimiter.length + 2);
        if (after === '--') {
          state = 'done';
          return;
        }
        state = 'headers';
      } else if (state === 'headers') {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headers = pending.subarray(0, end).toString('utf8');
        pending = pending.subarray(end + 4);
        const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
        const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '';
        const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
        const contentType =
          /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? (filename === undefined ? 'text/plain' : 'application/octet-stream');
        part = {
          name,
          filename,
          contentType,
          hash: createHash('sha256'),
          size: 0,
          kept: [],
          keptBytes: 0,
          keep: filename === undefined ? 65_536 : keepBytes(contentType),
        };
        state = 'body';
      } else if (state === 'body') {
        const at = pending.indexOf(delimiter);
        if (at >= 0) {
          write(pending.subarray(0, at));
          finish();
          pending = pending.subarray(at);
          state = 'boundary';
          continue;
        }
        // Everything but a tail that may be the start of the next delimiter belongs to the part.
        const safe = Math.max(0, pending.length - delimiter.length + 1);
        write(pending.subarray(0, safe));
        pending = Buffer.from(pending.subarray(safe));
        return;
      } else {
        return;
      }
    }
  };
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (state === 'done') continue;
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    consume();
  }
  if (state !== 'done') throw new Error('the multipart body ended before its closing boundary');
  return { fields, files };
}

/** Reads a raw body as it streams: its size, SHA-256 and first `keepBytes` (a large upload is never held whole). */
export async function readStreamed(req: IncomingMessage, keepBytes: number): Promise<{ size: number; sha256: string; head: Buffer }> {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (size < keepBytes) kept.push(chunk.subarray(0, keepBytes - size));
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(kept) };
}

/** Drains a request without keeping it (an answer decided before reading the body). */
export async function drain(req: IncomingMessage): Promise<void> {
  for await (const _chunk of req as AsyncIterable<Buffer>) {
    // discarded
  }
}
