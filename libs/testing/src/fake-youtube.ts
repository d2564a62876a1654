import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  answerUnlessLost,
  bearerToken,
  CONTROL_PREFIX,
  drain,
  forward,
  type FakeServer,
  readRaw,
  type ScriptedFailure,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** A channel of a Google account at the fake. */
export interface FakeYouTubeChannelRequest {
  /** `UC` + 22 characters when not given. */
  id?: string;
  title: string;
  /** `snippet.customUrl`, e.g. `@adabuilds`. */
  handle?: string;
  subscribers?: number;
  hidden_subscribers?: boolean;
}

/** A Google account reached with `access_token` as a Bearer; uploads land in its first channel (the grant's own). */
export interface FakeYouTubeAccountRequest {
  access_token: string;
  channels: FakeYouTubeChannelRequest[];
}

export interface FakeYouTubeVideo {
  id: string;
  channel_id: string;
  title: string;
  description: string;
  tags: string[];
  category_id: string;
  privacy_status: string;
  made_for_kids: boolean;
  mime_type: string;
  /** Bytes received and their SHA-256 (hashed as they streamed: the video is never held). */
  size: number;
  sha256: string;
  published_at: string;
  /** The upload session that made it. */
  session_id: string;
  statistics: { viewCount: number; likeCount: number; commentCount: number };
}

/** A resumable upload session (POST …?uploadType=resumable) and what it has received. */
export interface FakeYouTubeSession {
  id: string;
  channel_id: string;
  total: number;
  mime_type: string;
  /** Bytes kept so far (0..received-1). */
  received: number;
  /** PUTs that carried bytes, status queries (`bytes *\/total`), and connections cut by a scripted interruption. */
  chunks: number;
  status_queries: number;
  interruptions: number;
  video_id: string | null;
  /** When the session was opened (RFC 3339 with milliseconds). */
  created_at: string;
}

/** POST /__control/interruptions: the next chunk that carries byte `at_offset` is cut there (after receiving that far). */
export interface FakeYouTubeInterruption {
  at_offset: number;
  times?: number;
}

/** Non-final chunks are multiples of 256 KiB; an interrupted chunk keeps what it received up to such a boundary. */
export const YOUTUBE_CHUNK_UNIT = 256 * 1024;
const MAX_UPLOAD_BYTES = 256 * 1024 ** 3;
const UPLOAD_PATH = '/upload/youtube/v3/videos';
const TITLE_MAX = 100;
const DESCRIPTION_MAX_BYTES = 5_000;
const TAGS_MAX = 500;
const PRIVACY = ['public', 'unlisted', 'private'];
/** The video categories of most regions (videoCategories.list). */
const CATEGORIES = ['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28'];

/** Google's error body (the Data API's error reference): `{"error": {"code", "message", "errors": [{…}], "status"}}`. */
export function googleError(code: number, reason: string, message: string, domain = 'youtube.api'): Record<string, unknown> {
  const status: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
  };
  return { error: { code, message, errors: [{ message, domain, reason }], ...(status[code] ? { status: status[code] } : {}) } };
}

const UNAUTHORIZED = {
  error: {
    code: 401,
    message: 'Request had invalid authentication credentials.',
    errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
    status: 'UNAUTHENTICATED',
  },
};

/** `origin` is what PROVIDER_API_ORIGINS points youtube at; `controlUrl` takes the control API below. */
export type FakeYouTube = FakeServer;

interface Channel {
  id: string;
  title: string;
  handle: string;
  subscribers: number;
  hidden: boolean;
  owner: string;
}

interface Session extends FakeYouTubeSession {
  token: string;
  resource: Record<string, unknown>;
  hash: Hash;
}

const idOf = (length: number) => randomBytes(length).toString('base64url').slice(0, length);

/**
 * A fake YouTube Data API v3 on a real HTTP server, for the adapter's specs, the e2e stack and the bench. It follows
 * the published shapes: channels.list (`part`, `mine=true` or `id`, `maxResults`, `pageToken`; counters as strings),
 * the resumable upload (POST /upload/youtube/v3/videos?uploadType=resumable&part=… with the video resource and
 * X-Upload-Content-Length/-Type → 200 with the session URI in `Location`; PUT chunks with `Content-Range: bytes
 * a-b/total`, non-final ones multiples of 256 KiB, each starting where the server stopped; `308 Resume Incomplete`
 * with `Range: bytes=0-N` (none when nothing is kept); `Content-Range: bytes *\/total` asks for the status; the last
 * byte answers 201 with the video resource), playlistItems.list of a channel's uploads playlist (newest first),
 * videos.list (`statistics`, `snippet`, `status`). Errors are Google error bodies; an unknown Bearer is 401.
 * Uploaded bytes are counted and hashed as they stream, never held.
 *
 * Control API (`/__control`): POST /accounts (FakeYouTubeAccountRequest), GET /videos (oldest first), POST
 * /videos/:id/statistics, GET /sessions, POST /interruptions (FakeYouTubeInterruption), POST/DELETE /failures
 * (ScriptedFailure on `/upload/youtube/v3/videos` with method POST for the session, PUT for chunks and status
 * queries), DELETE /state.
 *
 * With `upstream` (the fake OAuth network's origin), the token endpoint (`/token`) and requests whose Bearer is not
 * one of its accounts are passed on as is.
 */
export async function startFakeYouTube(options: { upstream?: string } = {}): Promise<FakeYouTube> {
  const accounts = new Map<string, string[]>();
  const channels = new Map<string, Channel>();
  let videos: FakeYouTubeVideo[] = [];
  let sessions = new Map<string, Session>();
  let interruptions: Array<FakeYouTubeInterruption & { left: number }> = [];
  const failures = new ScriptedFailures();
  let origin = '';

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/accounts' && req.method === 'POST') {
      const request = body as FakeYouTubeAccountRequest;
      if (!request.access_token || !Array.isArray(request.channels))
        return sendJson(res, 400, { error: 'access_token and channels are required' });
      const ids = request.channels.map((channel) => {
        const id = channel.id ?? `UC${idOf(22)}`;
        channels.set(id, {
          id,
          title: channel.title,
          handle: channel.handle ?? '',
          subscribers: channel.subscribers ?? 0,
          hidden: channel.hidden_subscribers ?? false,
          owner: request.access_token,
        });
        return id;
      });
      accounts.set(request.access_token, ids);
      return sendJson(res, 201, { channels: ids });
    }
    if (path === '/videos' && req.method === 'GET') return sendJson(res, 200, videos);
    const statisticsOf = /^\/videos\/([^/]+)\/statistics$/.exec(path);
    if (statisticsOf && req.method === 'POST') {
      const video = videos.find((candidate) => candidate.id === statisticsOf[1]);
      if (!video) return sendJson(res, 404, { error: 'unknown video' });
      video.statistics = { ...video.statistics, ...(body as Partial<FakeYouTubeVideo['statistics']>) };
      return sendJson(res, 200, video.statistics);
    }
    if (path === '/sessions' && req.method === 'GET') {
      return sendJson(
        res,
        200,
        [...sessions.values()].map(({ token: _token, resource: _resource, hash: _hash, ...session }) => session),
      );
    }
    if (path === '/interruptions' && req.method === 'POST') {
      const interruption = body as FakeYouTubeInterruption;
      if (!Number.isInteger(interruption.at_offset) || interruption.at_offset <= 0)
        return sendJson(res, 400, { error: 'at_offset must be a positive integer' });
      interruptions.push({ ...interruption, left: interruption.times ?? 1 });
      return sendJson(res, 201, interruption);
    }
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      videos = [];
      sessions = new Map();
      interruptions = [];
      failures.clear();
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  const uploadsPlaylistOf = (channelId: string) => `UU${channelId.slice(2)}`;

  function channelJson(channel: Channel, parts: string[]) {
    const own = videos.filter((video) => video.channel_id === channel.id);
    return {
      kind: 'youtube#channel',
      etag: idOf(27),
      id: channel.id,
      ...(parts.includes('snippet')
        ? {
            snippet: {
              title: channel.title,
              description: '',
              ...(channel.handle ? { customUrl: channel.handle } : {}),
              publishedAt: '2020-01-01T00:00:00Z',
              thumbnails: {
                default: { url: `https://yt3.ggpht.example/${channel.id}=s88`, width: 88, height: 88 },
                medium: { url: `https://yt3.ggpht.example/${channel.id}=s240`, width: 240, height: 240 },
                high: { url: `https://yt3.ggpht.example/${channel.id}=s800`, width: 800, height: 800 },
              },
            },
          }
        : {}),
      ...(parts.includes('contentDetails')
        ? { contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(channel.id) } } }
        : {}),
      ...(parts.includes('statistics')
        ? {
            statistics: {
              viewCount: String(own.reduce((sum, video) => sum + video.statistics.viewCount, 0)),
              // A channel that hides its subscribers answers a rounded count: the fake answers 0 for it.
              subscriberCount: String(channel.hidden ? 0 : channel.subscribers),
              hiddenSubscriberCount: channel.hidden,
              videoCount: String(own.length),
            },
          }
        : {}),
    };
  }

  function videoJson(video: FakeYouTubeVideo, parts: string[]) {
    return {
      kind: 'youtube#video',
      etag: idOf(27),
      id: video.id,
      ...(parts.includes('snippet')
        ? {
            snippet: {
              publishedAt: video.published_at,
              channelId: video.channel_id,
              title: video.title,
              description: video.description,
              ...(video.tags.length ? { tags: video.tags } : {}),
              categoryId: video.category_id,
              liveBroadcastContent: 'none',
            },
          }
        : {}),
      ...(parts.includes('status')
        ? {
            status: {
              // Processing takes a second after the upload.
              uploadStatus: Date.now() - Date.parse(video.published_at) > 1_000 ? 'processed' : 'uploaded',
              privacyStatus: video.privacy_status,
              license: 'youtube',
              embeddable: true,
              publicStatsViewable: true,
              madeForKids: video.made_for_kids,
              selfDeclaredMadeForKids: video.made_for_kids,
            },
          }
        : {}),
      ...(parts.includes('statistics')
        ? {
            statistics: {
              viewCount: String(video.statistics.viewCount),
              likeCount: String(video.statistics.likeCount),
              favoriteCount: '0',
              commentCount: String(video.statistics.commentCount),
            },
          }
        : {}),
    };
  }

  /** One page of `items` after `pageToken` (an offset here), `maxResults` 0–50 (default 5). */
  function page<T>(items: T[], url: URL): { slice: T[]; body: Record<string, unknown> } | { error: Record<string, unknown> } {
    const max = url.searchParams.has('maxResults') ? Number(url.searchParams.get('maxResults')) : 5;
    if (!Number.isInteger(max) || max < 0 || max > 50)
      return { error: googleError(400, 'invalidParameter', 'Invalid value for parameter maxResults.', 'global') };
    const token = url.searchParams.get('pageToken');
    const offset = token
      ? Number(
          Buffer.from(token, 'base64url')
            .toString('utf8')
            .replace(/^offset:/, ''),
        )
      : 0;
    if (!Number.isInteger(offset) || offset < 0) return { error: googleError(400, 'invalidPageToken', 'The page token is invalid.') };
    const slice = items.slice(offset, offset + max);
    const body: Record<string, unknown> = { etag: idOf(27), pageInfo: { totalResults: items.length, resultsPerPage: max } };
    if (offset + max < items.length) body.nextPageToken = Buffer.from(`offset:${offset + max}`).toString('base64url');
    if (offset > 0) body.prevPageToken = Buffer.from(`offset:${Math.max(0, offset - max)}`).toString('base64url');
    return { slice, body };
  }

  /** The video resource's problems as videos.insert names them (badRequest reasons), or undefined when it is fine. */
  function invalidResource(resource: Record<string, unknown>): Record<string, unknown> | undefined {
    const snippet = (resource.snippet ?? {}) as Record<string, unknown>;
    const status = (resource.status ?? {}) as Record<string, unknown>;
    const title = snippet.title;
    if (typeof title !== 'string' || !title.trim() || Array.from(title).length > TITLE_MAX || /[<>]/.test(title))
      return googleError(400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.');
    const description = snippet.description ?? '';
    if (typeof description !== 'string' || Buffer.byteLength(description, 'utf8') > DESCRIPTION_MAX_BYTES || /[<>]/.test(description))
      return googleError(400, 'invalidDescription', 'The request metadata specifies an invalid video description.');
    const tags = snippet.tags ?? [];
    if (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string'))
      return googleError(400, 'invalidTags', 'The request metadata specifies invalid video keywords.');
    const tagsLength = (tags as string[]).reduce(
      (sum, tag, index) => sum + Array.from(tag).length + (/\s/.test(tag) ? 2 : 0) + (index ? 1 : 0),
      0,
    );
    if (tagsLength > TAGS_MAX) return googleError(400, 'invalidTags', 'The request metadata specifies invalid video keywords.');
    if (snippet.categoryId !== undefined && !CATEGORIES.includes(String(snippet.categoryId)))
      return googleError(400, 'invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.');
    if (status.privacyStatus !== undefined && !PRIVACY.includes(String(status.privacyStatus)))
      return googleError(400, 'invalidVideoMetadata', 'The request metadata is invalid.');
    if (status.selfDeclaredMadeForKids !== undefined && typeof status.selfDeclaredMadeForKids !== 'boolean')
      return googleError(400, 'invalidVideoMetadata', 'The request metadata is invalid.');
    return undefined;
  }

  /** POST …?uploadType=resumable: checks the resource and the X-Upload-Content-* headers, opens a session. */
  function openSession(req: IncomingMessage, res: ServerResponse, url: URL, raw: Buffer, token: string, failure?: ScriptedFailure): void {
    if (url.searchParams.get('uploadType') !== 'resumable')
      return sendJson(res, 400, googleError(400, 'invalidParameter', 'uploadType must be resumable here.', 'global'));
    const parts = (url.searchParams.get('part') ?? '').split(',').filter(Boolean);
    if (!parts.length) return sendJson(res, 400, googleError(400, 'missingRequiredParameter', 'No part was given.', 'global'));
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return sendJson(res, 400, googleError(400, 'parseError', 'The request body must be a video resource in JSON.', 'global'));
    let resource: Record<string, unknown>;
    try {
      resource = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, googleError(400, 'parseError', 'This API does not support parsing form-encoded input.', 'global'));
    }
    for (const key of ['snippet', 'status']) {
      if (resource[key] !== undefined && !parts.includes(key))
        return sendJson(res, 400, googleError(400, 'unexpectedPart', `The resource names ${key} but part does not.`));
    }
    const total = Number(req.headers['x-upload-content-length']);
    if (!Number.isInteger(total) || total <= 0 || total > MAX_UPLOAD_BYTES)
      return sendJson(res, 400, googleError(400, 'invalidValue', 'X-Upload-Content-Length must be the video size in bytes.', 'global'));
    const type = String(req.headers['x-upload-content-type'] ?? '');
    if (!type.startsWith('video/') && type !== 'application/octet-stream')
      return sendJson(res, 400, googleError(400, 'invalidFilename', 'X-Upload-Content-Type must be video/* or application/octet-stream.'));
    const invalid = invalidResource(resource);
    if (invalid) return sendJson(res, 400, invalid);
    const channelId = accounts.get(token)![0];
    if (!channelId) return sendJson(res, 403, googleError(403, 'youtubeSignupRequired', 'The user has no YouTube channel.'));
    const id = idOf(32);
    sessions.set(id, {
      id,
      channel_id: channelId,
      total,
      mime_type: type,
      received: 0,
      chunks: 0,
      status_queries: 0,
      interruptions: 0,
      video_id: null,
      created_at: new Date().toISOString(),
      token,
      resource,
      hash: createHash('sha256'),
    });
    if (failure?.drop_after_handling) return void req.socket.destroy();
    res.writeHead(200, {
      location: `${origin}${UPLOAD_PATH}?uploadType=resumable&upload_id=${id}&part=${parts.join(',')}`,
      'content-length': '0',
    });
    res.end();
  }

  /** 308 with how far the session got (no Range when it holds nothing). */
  function resumeIncomplete(res: ServerResponse, session: Session): void {
    if (res.destroyed) return;
    res.writeHead(308, { ...(session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {}), 'content-length': '0' });
    res.end();
  }

  function complete(session: Session): FakeYouTubeVideo {
    const snippet = (session.resource.snippet ?? {}) as Record<string, unknown>;
    const status = (session.resource.status ?? {}) as Record<string, unknown>;
    const video: FakeYouTubeVideo = {
      id: idOf(11),
      channel_id: session.channel_id,
      title: String(snippet.title ?? ''),
      description: String(snippet.description ?? ''),
      tags: (snippet.tags as string[] | undefined) ?? [],
      category_id: String(snippet.categoryId ?? '22'),
      privacy_status: String(status.privacyStatus ?? 'public'),
      made_for_kids: status.selfDeclaredMadeForKids === true,
      mime_type: session.mime_type,
      size: session.received,
      sha256: session.hash.digest('hex'),
      published_at: new Date().toISOString(),
      session_id: session.id,
      statistics: { viewCount: 0, likeCount: 0, commentCount: 0 },
    };
    videos.push(video);
    session.video_id = video.id;
    return video;
  }

  /**
   * A PUT to a session: a status query, or a chunk read as it streams. Bytes are kept (and hashed) a 256 KiB unit
   * at a time; a chunk cut short (the client's connection broke, or a scripted interruption) keeps whole units only.
   */
  async function put(req: IncomingMessage, res: ServerResponse, url: URL, failure: ScriptedFailure | undefined): Promise<void> {
    const session = sessions.get(url.searchParams.get('upload_id') ?? '');
    if (!session) {
      await drain(req);
      return sendJson(res, 404, googleError(404, 'notFound', 'The upload session does not exist or has expired.', 'global'));
    }
    const accountChannels = accounts.get(bearerToken(req));
    if (!accountChannels?.includes(session.channel_id)) {
      await drain(req);
      return sendJson(res, 401, UNAUTHORIZED);
    }
    const answerDone = () => {
      const video = videos.find((candidate) => candidate.id === session.video_id)!;
      answerUnlessLost(failure, req, res, 201, videoJson(video, ['snippet', 'status']));
    };
    const range = String(req.headers['content-range'] ?? '');
    const query = /^bytes \*\/(\d+)$/.exec(range);
    if (query) {
      await drain(req);
      session.status_queries += 1;
      if (session.video_id) return answerDone();
      if (failure?.drop_after_handling) return void req.socket.destroy();
      return resumeIncomplete(res, session);
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    const chunk =
      /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range) ??
      (declared === session.total ? [range, '0', String(session.total - 1), String(session.total)] : null);
    if (!chunk) {
      await drain(req);
      return sendJson(res, 400, googleError(400, 'badContent', 'Content-Range must be "bytes a-b/total" or "bytes */total".', 'global'));
    }
    const [start, end, total] = [Number(chunk[1]), Number(chunk[2]), Number(chunk[3])];
    const size = end - start + 1;
    const problem =
      total !== session.total
        ? 'The total in Content-Range differs from X-Upload-Content-Length.'
        : start !== session.received
          ? `The chunk starts at ${start}, but the server holds bytes up to ${session.received}.`
          : end < start || end >= total
            ? 'Content-Range names no bytes of the video.'
            : end + 1 < total && size % YOUTUBE_CHUNK_UNIT !== 0
              ? 'A chunk other than the last must be a multiple of 256 KiB.'
              : Number.isFinite(declared) && declared !== size
                ? 'Content-Length differs from the bytes Content-Range names.'
                : session.video_id
                  ? 'The upload is complete.'
                  : undefined;
    if (problem) {
      await drain(req);
      return sendJson(res, 400, googleError(400, 'badContent', problem, 'global'));
    }
    session.chunks += 1;
    // Leaving the loop below early destroys the request (and its socket reference): the socket is held here.
    const socket = req.socket;
    const interruption = interruptions.find((candidate) => candidate.left > 0 && candidate.at_offset > start && candidate.at_offset <= end);
    const cutAt = interruption ? interruption.at_offset - start : Infinity;
    // Bytes up to the last whole 256 KiB unit of what arrived are hashed at once; the tail after it (less than a unit)
    // waits for the rest of its unit. Nothing is copied: the tail is a view of the piece it came in.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let read = 0;
    let kept = 0;
    const keep = (bytes: Buffer) => {
      const total = pendingBytes + bytes.length;
      if (total < YOUTUBE_CHUNK_UNIT) {
        pending.push(bytes);
        pendingBytes = total;
        return;
      }
      const whole = total - (total % YOUTUBE_CHUNK_UNIT);
      for (const held of pending) session.hash.update(held);
      session.hash.update(bytes.subarray(0, whole - pendingBytes));
      kept += whole;
      const tail = bytes.subarray(whole - pendingBytes);
      pending = tail.length ? [tail] : [];
      pendingBytes = tail.length;
    };
    let cut = false;
    try {
      for await (const piece of req as AsyncIterable<Buffer>) {
        const room = Math.min(size, cutAt) - read;
        const bytes = piece.length > room ? piece.subarray(0, Math.max(0, room)) : piece;
        keep(bytes);
        read += bytes.length;
        if (read >= cutAt) {
          cut = true;
          break;
        }
        // Bytes past the chunk's range are not the video's: read (so the request ends) and dropped.
      }
    } catch {
      // The client's connection broke mid-chunk: what it sent up to a whole unit is kept.
    }
    if (cut || read < size) {
      // Whole 256 KiB units of the chunk are kept; the rest is dropped, as an interrupted real upload may be.
      session.received = start + kept;
      session.interruptions += 1;
      if (interruption) interruption.left -= 1;
      socket.destroy();
      return;
    }
    for (const bytes of pending) session.hash.update(bytes);
    session.received = end + 1;
    if (session.received < session.total) {
      if (failure?.drop_after_handling) return void req.socket.destroy();
      return resumeIncomplete(res, session);
    }
    complete(session);
    return answerDone();
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const token = bearerToken(req);
    const known = accounts.has(token);
    if (method === 'PUT' && path === UPLOAD_PATH) {
      // Chunks stream in (counted and hashed as they arrive): read by their route, not here.
      const failure = failures.take(method, path);
      if (failure?.drop) return void req.socket.destroy();
      if (failure?.status) {
        await drain(req);
        if (await failures.before(failure, req, res)) return;
      }
      if (failure?.delay_ms) await new Promise((resolve) => setTimeout(resolve, failure.delay_ms).unref());
      return put(req, res, url, failure);
    }
    const raw = await readRaw(req);
    if (options.upstream && (path === '/token' || !known)) return forward(req, res, url, raw, options.upstream);
    const failure = failures.take(method, path);
    if (await failures.before(failure, req, res)) return;
    if (!known) return sendJson(res, 401, UNAUTHORIZED);
    const answer = (status: number, body: unknown) => answerUnlessLost(failure, req, res, status, body);
    const parts = (url.searchParams.get('part') ?? '').split(',').filter(Boolean);

    if (method === 'POST' && path === UPLOAD_PATH) return openSession(req, res, url, raw, token, failure);
    if (method === 'GET' && path === '/youtube/v3/channels') {
      if (!parts.length) return sendJson(res, 400, googleError(400, 'missingRequiredParameter', 'No part was given.', 'global'));
      const ids = url.searchParams.get('id');
      let found: Channel[];
      if (url.searchParams.get('mine') === 'true') found = accounts.get(token)!.map((id) => channels.get(id)!);
      else if (ids) found = ids.split(',').flatMap((id) => (channels.has(id) ? [channels.get(id)!] : []));
      else return sendJson(res, 400, googleError(400, 'missingRequiredParameter', 'No filter selected.', 'global'));
      const paged = page(found, url);
      if ('error' in paged) return sendJson(res, 400, paged.error);
      return answer(200, {
        kind: 'youtube#channelListResponse',
        ...paged.body,
        items: paged.slice.map((channel) => channelJson(channel, parts)),
      });
    }
    if (method === 'GET' && path === '/youtube/v3/playlistItems') {
      const playlistId = url.searchParams.get('playlistId') ?? '';
      const channel = [...channels.values()].find((candidate) => uploadsPlaylistOf(candidate.id) === playlistId);
      if (!channel)
        return sendJson(res, 404, googleError(404, 'playlistNotFound', 'The playlist identified with playlistId cannot be found.'));
      const owner = accounts.get(token)!.includes(channel.id);
      const uploads = videos.filter((video) => video.channel_id === channel.id && (owner || video.privacy_status === 'public')).reverse();
      const paged = page(uploads, url);
      if ('error' in paged) return sendJson(res, 400, paged.error);
      return answer(200, {
        kind: 'youtube#playlistItemListResponse',
        ...paged.body,
        items: paged.slice.map((video, index) => ({
          kind: 'youtube#playlistItem',
          etag: idOf(27),
          id: Buffer.from(`${playlistId}.${video.id}`).toString('base64url'),
          snippet: {
            publishedAt: video.published_at,
            channelId: channel.id,
            title: video.title,
            description: video.description,
            channelTitle: channel.title,
            playlistId,
            position: index,
            resourceId: { kind: 'youtube#video', videoId: video.id },
            videoOwnerChannelId: channel.id,
          },
        })),
      });
    }
    if (method === 'GET' && path === '/youtube/v3/videos') {
      if (!parts.length) return sendJson(res, 400, googleError(400, 'missingRequiredParameter', 'No part was given.', 'global'));
      const ids = (url.searchParams.get('id') ?? '').split(',').filter(Boolean);
      if (ids.length > 50) return sendJson(res, 400, googleError(400, 'invalidParameter', 'At most 50 ids may be given.', 'global'));
      const found = ids.flatMap((id) => videos.filter((video) => video.id === id));
      return answer(200, {
        kind: 'youtube#videoListResponse',
        etag: idOf(27),
        pageInfo: { totalResults: found.length, resultsPerPage: found.length },
        items: found.map((video) => videoJson(video, parts)),
      });
    }
    return sendJson(res, 404, googleError(404, 'notFound', `No route for ${method} ${path}.`, 'global'));
  }

  const server = await startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
  origin = server.origin;
  return server;
}
