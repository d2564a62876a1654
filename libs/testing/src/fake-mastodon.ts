import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import sharp from 'sharp';
import {
  answerUnlessLost,
  bearerToken,
  CONTROL_PREFIX,
  drain,
  forward,
  FakeServer,
  readMultipart,
  readRaw,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** An account of the fake server, reached with `access_token` as a Bearer. */
export interface FakeMastodonAccountRequest {
  access_token: string;
  username: string;
  display_name?: string;
  followers_count?: number;
  following_count?: number;
  /** Approves its followers: following it answers a relationship with `requested`. */
  locked?: boolean;
  /**
   * Another token of an account made before (the id it answered): a server
   * knows an account by every token it issued, e.g. after a refresh.
   */
  id?: string;
}

export interface FakeMastodonStatus {
  id: string;
  created_at: string;
  /** The text as sent (what a test checks). */
  text: string;
  /** The HTML Mastodon answers. */
  content: string;
  in_reply_to_id: string | null;
  media_ids: string[];
  idempotency_key: string;
  account_id: string;
  visibility: string;
}

/** Counters a test sets on a status (GET /api/v1/statuses/:id answers them); unset ones keep the fake's defaults. */
export interface FakeMastodonStatusCounts {
  replies_count?: number;
  reblogs_count?: number;
  favourites_count?: number;
}

/** A follow made through POST /api/v1/accounts/:id/follow. */
export interface FakeMastodonFollow {
  account_id: string;
  target_id: string;
  requested: boolean;
}

export interface FakeMastodonMedia {
  id: string;
  account_id: string;
  /** `image`, `gifv` or `video`, as Mastodon types attachments. */
  type: string;
  size: number;
  /** SHA-256 of the bytes received, hex. */
  sha256: string;
  mime_type: string;
  /** Sides of an image (read from its bytes); 0 for a video (the fake does not decode video). */
  width: number;
  height: number;
  /** Whether the image received still carried EXIF metadata. */
  exif: boolean;
  description: string;
  /** GET /api/v1/media/:id answers 206 this many more times before 200. */
  polls_left: number;
  /** The status it was attached to; "" until then. */
  status_id: string;
}

/** Mastodon's limits (the server's MediaAttachment defaults; POST /__control/limits changes them for a test or a bench). */
export interface FakeMastodonLimits {
  image_bytes: number;
  video_bytes: number;
  description_length: number;
}

const DEFAULT_LIMITS: FakeMastodonLimits = { image_bytes: 16 * 1024 * 1024, video_bytes: 99 * 1024 * 1024, description_length: 1_500 };
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/avif'];
const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/ogg'];
/** A video is "processed" after this many polls unless POST /processing says more: Mastodon transcodes videos asynchronously. */
const VIDEO_PROCESSING_POLLS = 2;

export interface FakeMastodon extends FakeServer {
  /** Media files the adapter downloads: `${origin}/files/<name>`, created with POST /__control/files. */
  filesUrl: string;
}

interface Account extends FakeMastodonAccountRequest {
  id: string;
}

const MAX_CHARACTERS = 500;
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
/** A link as Mastodon renders it: the scheme and the part past 30 characters invisible, the rest with an ellipsis. */
const LINK_HTML =
  '<a href="$1$2$3" rel="nofollow noopener" target="_blank"><span class="invisible">$1</span>' +
  '<span class="ellipsis">$2</span><span class="invisible">$3</span></a>';
/** Roughly what Mastodon renders: paragraphs, line breaks, links with their invisible parts. */
const toHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .map(
      (paragraph) =>
        `<p>${escapeHtml(paragraph)
          .replace(/(https?:\/\/)([^\s<]{0,30})([^\s<]*)/g, LINK_HTML)
          .replace(/\n/g, '<br />')}</p>`,
    )
    .join('');

/**
 * A fake Mastodon server on a real HTTP server, for the adapter specs (and
 * the lead's delivery e2e). It implements what the adapter calls, with
 * Mastodon's shapes: POST /api/v1/statuses (Idempotency-Key honoured per
 * account, replies, media_ids, 500-character limit → 422), POST
 * /api/v2/media (multipart; 202 while "processing") and GET
 * /api/v1/media/:id (206 until processed), GET /api/v1/accounts/verify_credentials,
 * /api/v1/accounts/:id/statuses, /api/v1/statuses/:id, /api/v2/suggestions,
 * POST /api/v1/accounts/:id/follow (`requested` when the account is locked).
 * Unknown Bearer → 401. Control API (`/__control`): POST /accounts, POST
 * /files `{name, content_type, size}`, GET /statuses (everything posted,
 * oldest first), POST /statuses/:id/counts (FakeMastodonStatusCounts), GET
 * /follows (every follow made), GET /media, POST/DELETE /failures (ScriptedFailure),
 * POST /processing `{polls}` (how many 206 a new upload answers), POST /limits (FakeMastodonLimits), DELETE /state.
 *
 * With `upstream` (the fake OAuth network's origin), what this server does
 * not know — `/oauth/*` and requests whose Bearer is not one of its accounts —
 * is passed to it as is, so a stack can connect a mastodon account through
 * the OAuth fake and then publish to it here (register the same access token
 * with POST /accounts).
 */
export async function startFakeMastodon(options: { upstream?: string } = {}): Promise<FakeMastodon> {
  const accounts = new Map<string, Account>();
  let statuses: FakeMastodonStatus[] = [];
  let counts = new Map<string, FakeMastodonStatusCounts>();
  let follows: FakeMastodonFollow[] = [];
  let media = new Map<string, FakeMastodonMedia>();
  const files = new Map<string, { contentType: string; data: Buffer }>();
  const failures = new ScriptedFailures();
  let processingPolls = 0;
  let limits = { ...DEFAULT_LIMITS };
  let nextId = 110_000_000_000_000_000n;
  const newId = () => String((nextId += 1n));
  let origin = '';

  const statusJson = (status: FakeMastodonStatus) => {
    const account = [...accounts.values()].find((candidate) => candidate.id === status.account_id)!;
    return {
      id: status.id,
      created_at: status.created_at,
      in_reply_to_id: status.in_reply_to_id,
      in_reply_to_account_id: status.in_reply_to_id ? status.account_id : null,
      visibility: status.visibility,
      uri: `${origin}/users/${account.username}/statuses/${status.id}`,
      url: `${origin}/@${account.username}/${status.id}`,
      content: status.content,
      replies_count: counts.get(status.id)?.replies_count ?? statuses.filter((candidate) => candidate.in_reply_to_id === status.id).length,
      reblogs_count: counts.get(status.id)?.reblogs_count ?? 2,
      favourites_count: counts.get(status.id)?.favourites_count ?? 5,
      media_attachments: status.media_ids.map((id) => mediaJson(media.get(id)!)),
      account: accountJson(account),
    };
  };
  const accountJson = (account: Account) => ({
    id: account.id,
    username: account.username,
    acct: account.username,
    display_name: account.display_name ?? account.username,
    avatar: `${origin}/avatars/${account.id}.png`,
    url: `${origin}/@${account.username}`,
    note: '<p>Fake &amp; friendly</p>',
    locked: account.locked ?? false,
    followers_count: account.followers_count ?? 10,
    following_count: account.following_count ?? 3,
    statuses_count: statuses.filter((status) => status.account_id === account.id).length,
  });
  const mediaJson = (item: FakeMastodonMedia) => ({
    id: item.id,
    type: item.type,
    url: item.polls_left > 0 ? null : `${origin}/media/${item.id}`,
    preview_url: item.polls_left > 0 ? null : `${origin}/media/${item.id}/small`,
    remote_url: null,
    text_url: null,
    // What Mastodon answers once processed: the original's sides (images), its size.
    meta:
      item.polls_left > 0
        ? null
        : item.type === 'image'
          ? {
              original: {
                width: item.width,
                height: item.height,
                size: `${item.width}x${item.height}`,
                aspect: item.height ? item.width / item.height : 0,
              },
            }
          : { original: { width: item.width, height: item.height } },
    description: item.description || null,
    blurhash: null,
  });

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/accounts' && req.method === 'POST') {
      const request = body as FakeMastodonAccountRequest;
      if (!request.access_token || !request.username) return sendJson(res, 400, { error: 'access_token and username are required' });
      if (request.id && ![...accounts.values()].some((known) => known.id === request.id))
        return sendJson(res, 400, { error: 'unknown account id' });
      const account = { ...request, id: request.id ?? newId() };
      accounts.set(request.access_token, account);
      return sendJson(res, 201, accountJson(account));
    }
    if (path === '/files' && req.method === 'POST') {
      const { name, content_type, size } = body as { name: string; content_type: string; size: number };
      files.set(name, { contentType: content_type, data: randomBytes(size) });
      return sendJson(res, 201, { url: `${origin}/files/${name}` });
    }
    if (path === '/statuses' && req.method === 'GET') return sendJson(res, 200, statuses);
    const countsOf = /^\/statuses\/([^/]+)\/counts$/.exec(path);
    if (countsOf && req.method === 'POST') {
      if (!statuses.some((status) => status.id === countsOf[1])) return sendJson(res, 404, { error: 'unknown status' });
      counts.set(countsOf[1], { ...counts.get(countsOf[1]), ...(body as FakeMastodonStatusCounts) });
      return sendJson(res, 200, counts.get(countsOf[1]));
    }
    if (path === '/follows' && req.method === 'GET') return sendJson(res, 200, follows);
    if (path === '/media' && req.method === 'GET') return sendJson(res, 200, [...media.values()]);
    if (path === '/limits' && req.method === 'POST') {
      limits = { ...limits, ...(body as Partial<FakeMastodonLimits>) };
      return sendJson(res, 200, limits);
    }
    if (path === '/processing' && req.method === 'POST') {
      processingPolls = Number((body as { polls?: number }).polls ?? 0);
      return sendJson(res, 200, { polls: processingPolls });
    }
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      statuses = [];
      counts = new Map();
      follows = [];
      media = new Map();
      failures.clear();
      processingPolls = 0;
      limits = { ...DEFAULT_LIMITS };
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path.startsWith('/files/')) {
      const file = files.get(decodeURIComponent(path.slice('/files/'.length)));
      if (!file) return sendJson(res, 404, { error: 'Record not found' });
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) });
      return void res.end(file.data);
    }
    const bearer = bearerToken(req);
    // Uploads stream in (a large video is never held whole): read by their route, not here.
    if (method === 'POST' && path === '/api/v2/media' && accounts.has(bearer)) return upload(req, res, accounts.get(bearer)!);
    const raw = await readRaw(req);
    if (options.upstream && (path.startsWith('/oauth/') || !accounts.has(bearer))) return forward(req, res, url, raw, options.upstream);
    const failure = failures.take(method, path);
    if (await failures.before(failure, req, res)) return;
    const answer = (status: number, body: unknown) => answerUnlessLost(failure, req, res, status, body);
    const account = accounts.get(bearer);
    if (!account) return sendJson(res, 401, { error: 'The access token is invalid' });

    if (method === 'POST' && path === '/api/v1/statuses') {
      const body = JSON.parse(raw.toString('utf8') || '{}') as {
        status?: string;
        in_reply_to_id?: string;
        media_ids?: string[];
        visibility?: string;
      };
      const key = String(req.headers['idempotency-key'] ?? '');
      const seen = key && statuses.find((status) => status.account_id === account.id && status.idempotency_key === key);
      if (seen) return answer(200, statusJson(seen));
      const text = body.status ?? '';
      const mediaIds = body.media_ids ?? [];
      if (!text && mediaIds.length === 0) return sendJson(res, 422, { error: "Validation failed: Text can't be blank" });
      if ([...text].length > MAX_CHARACTERS)
        return sendJson(res, 422, { error: `Validation failed: Text character limit of ${MAX_CHARACTERS} exceeded` });
      if (mediaIds.length > 4) return sendJson(res, 422, { error: 'Validation failed: Media attachments too many' });
      for (const id of mediaIds) {
        const item = media.get(id);
        if (!item || item.account_id !== account.id) return sendJson(res, 422, { error: 'Validation failed: media not found' });
        if (item.polls_left > 0)
          return sendJson(res, 422, { error: 'Cannot attach files that have not finished processing. Try again in a moment!' });
      }
      const kinds = mediaIds.map((id) => media.get(id)!.type);
      if (kinds.includes('video') && kinds.length > 1)
        return sendJson(res, 422, { error: 'Cannot attach a video to a post that already contains images' });
      if (body.in_reply_to_id && !statuses.some((status) => status.id === body.in_reply_to_id))
        return sendJson(res, 404, { error: 'Record not found' });
      const status: FakeMastodonStatus = {
        id: newId(),
        created_at: new Date().toISOString(),
        text,
        content: toHtml(text),
        in_reply_to_id: body.in_reply_to_id ?? null,
        media_ids: mediaIds,
        idempotency_key: key,
        account_id: account.id,
        visibility: body.visibility ?? 'public',
      };
      statuses.push(status);
      for (const id of mediaIds) media.get(id)!.status_id = status.id;
      return answer(200, statusJson(status));
    }
    const mediaMatch = /^\/api\/v1\/media\/([^/]+)$/.exec(path);
    if (method === 'GET' && mediaMatch) {
      const item = media.get(mediaMatch[1]);
      if (!item || item.account_id !== account.id) return sendJson(res, 404, { error: 'Record not found' });
      if (item.polls_left > 0) {
        item.polls_left -= 1;
        return answer(206, mediaJson({ ...item, polls_left: 1 }));
      }
      return answer(200, mediaJson(item));
    }
    if (method === 'GET' && path === '/api/v1/accounts/verify_credentials') return answer(200, accountJson(account));
    const timeline = /^\/api\/v1\/accounts\/([^/]+)\/statuses$/.exec(path);
    if (method === 'GET' && timeline) {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), 40);
      const own = statuses
        .filter((status) => status.account_id === timeline[1])
        .reverse()
        .slice(0, limit);
      return answer(200, own.map(statusJson));
    }
    const one = /^\/api\/v1\/statuses\/([^/]+)$/.exec(path);
    if (method === 'GET' && one) {
      const status = statuses.find((candidate) => candidate.id === one[1]);
      return status ? answer(200, statusJson(status)) : sendJson(res, 404, { error: 'Record not found' });
    }
    if (method === 'GET' && path === '/api/v2/suggestions') {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 40), 80);
      // One entry per account (an account may be known by several tokens), never the caller; the newest first
      // (a suite sharing the fake with others finds the accounts it just made within the page).
      const others = [
        ...new Map([...accounts.values()].filter((candidate) => candidate.id !== account.id).map((other) => [other.id, other])).values(),
      ].reverse();
      return answer(
        200,
        others.slice(0, limit).map((other) => ({ source: 'global', sources: ['featured'], account: accountJson(other) })),
      );
    }
    const follow = /^\/api\/v1\/accounts\/([^/]+)\/follow$/.exec(path);
    if (method === 'POST' && follow) {
      const target = [...accounts.values()].find((candidate) => candidate.id === follow[1]);
      if (!target) return sendJson(res, 404, { error: 'Record not found' });
      const requested = target.locked ?? false;
      if (!follows.some((known) => known.account_id === account.id && known.target_id === target.id))
        follows.push({ account_id: account.id, target_id: target.id, requested });
      return answer(200, {
        id: target.id,
        following: !requested,
        requested,
        showing_reblogs: true,
        notifying: false,
        followed_by: false,
        blocking: false,
        muting: false,
      });
    }
    return sendJson(res, 404, { error: 'Not found' });
  }

  /**
   * POST /api/v2/media as Mastodon answers it: the multipart body read as it streams (hashed, counted; an
   * image kept to look at its sides), refused with 422 `{"error": …}` over the size limits, for a type it does
   * not take, or a description over 1,500 characters; 200 when processed at once (images), 202 while
   * processing (videos, or POST /processing) — GET /api/v1/media/:id then answers 206 until done.
   */
  async function upload(req: IncomingMessage, res: ServerResponse, account: Account): Promise<void> {
    const failure = failures.take('POST', '/api/v2/media');
    if (failure) {
      // A scripted answer comes after the body, as a server that read it would (never a reset mid-upload).
      await drain(req);
      if (await failures.before(failure, req, res)) return;
    }
    const { fields, files } = await readMultipart(req, (type) => (type.startsWith('image/') ? limits.image_bytes + 1 : 0));
    const file = files.find((candidate) => candidate.field === 'file');
    if (!file) return sendJson(res, 422, { error: 'Validation failed: File is missing' });
    const isImage = IMAGE_TYPES.includes(file.contentType);
    const isVideo = VIDEO_TYPES.includes(file.contentType);
    if (!isImage && !isVideo) return sendJson(res, 422, { error: 'Validation failed: File content type is invalid' });
    const limit = isImage ? limits.image_bytes : limits.video_bytes;
    if (file.size > limit)
      return sendJson(res, 422, { error: `Validation failed: File file size must be less than ${Math.round(limit / 1024 / 1024)} MB` });
    const description = fields.description ?? '';
    if ([...description].length > limits.description_length) {
      return sendJson(res, 422, {
        error: `Validation failed: Description is too long (maximum is ${limits.description_length} characters)`,
      });
    }
    let sides = { width: 0, height: 0, exif: false };
    if (isImage) {
      try {
        const meta = await sharp(file.head).metadata();
        sides = { width: meta.width ?? 0, height: meta.pageHeight ?? meta.height ?? 0, exif: meta.exif !== undefined };
      } catch {
        return sendJson(res, 422, { error: 'Validation failed: File could not be processed' });
      }
    }
    const item: FakeMastodonMedia = {
      id: newId(),
      account_id: account.id,
      type: isVideo ? 'video' : file.contentType === 'image/gif' ? 'gifv' : 'image',
      size: file.size,
      sha256: file.sha256,
      mime_type: file.contentType,
      ...sides,
      description,
      polls_left: isVideo ? Math.max(processingPolls, VIDEO_PROCESSING_POLLS) : processingPolls,
      status_id: '',
    };
    media.set(item.id, item);
    return answerUnlessLost(failure, req, res, item.polls_left > 0 ? 202 : 200, mediaJson(item));
  }

  const server = await startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
  origin = server.origin;
  return { ...server, filesUrl: `${origin}/files` };
}
