import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  answerUnlessLost,
  bearerToken,
  CONTROL_PREFIX,
  drain,
  type FakeServer,
  forward,
  readRaw,
  type ScriptedFailure,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** A creator of the fake TikTok, reached with `access_token` as a Bearer. */
export interface FakeTikTokAccountRequest {
  access_token: string;
  username: string;
  display_name?: string;
  /** Another token of a creator made before names its open_id (a renewed token names the same creator). */
  open_id?: string;
  /** Renews the access token at POST /v2/oauth/token/ (grant_type=refresh_token); rotated at each use. */
  refresh_token?: string;
  /** What creator_info/query answers; default every level of a public account. */
  privacy_level_options?: string[];
  max_video_post_duration_sec?: number;
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  follower_count?: number;
  following_count?: number;
  /** Scopes the token carries; default every scope the adapter asks for. */
  scopes?: string[];
  /** Posts a day after which init answers spam_risk_too_many_posts; default none. */
  daily_post_cap?: number;
}

/** A publish task (a video or photo init) and what became of it. */
export interface FakeTikTokTask {
  publish_id: string;
  open_id: string;
  media_type: 'VIDEO' | 'PHOTO';
  post_info: Record<string, unknown>;
  source_info: Record<string, unknown>;
  /** PROCESSING_UPLOAD (bytes expected), PROCESSING_DOWNLOAD (photos being fetched), PUBLISH_COMPLETE or FAILED. */
  status: string;
  fail_reason: string;
  /** Chunks received in order: their Content-Range and size. */
  chunks: Array<{ range: string; size: number }>;
  uploaded_bytes: number;
  video_sha256: string;
  /** Status fetches still answered as processing once the media arrived. */
  polls_left: number;
  post_id: string;
  created_at: string;
}

/** A published post as the fake holds it. */
export interface FakeTikTokPost {
  /** The public post id: an int64, answered by status fetch as a JSON number. */
  id: string;
  open_id: string;
  publish_id: string;
  media_type: 'VIDEO' | 'PHOTO';
  title: string;
  description: string;
  privacy_level: string;
  /** Photos, or 1 for the video. */
  media_count: number;
  disable_comment: boolean;
  create_time: number;
}

/** Counters a test sets on a post (video/query answers them). */
export interface FakeTikTokCounts {
  view_count?: number;
  like_count?: number;
  comment_count?: number;
  share_count?: number;
}

/** One request as received (never the token): for specs checking shapes. */
export interface FakeTikTokRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  content_type: string;
  /** The JSON body (or, for a chunk PUT, its Content-Range and size). */
  body: unknown;
}

const MIB = 1024 * 1024;
/** Media Transfer Guide: chunks of 5 to 64 MB, the final one up to 128 MB; below 5 MB the video goes whole; 1 to 1000 chunks. */
const MIN_CHUNK = 5 * MIB;
const MAX_CHUNK = 64 * MIB;
const MAX_FINAL_CHUNK = 128 * MIB;
const MAX_CHUNKS = 1000;
const MAX_VIDEO_BYTES = 4 * 1024 * MIB;
const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
const PHOTO_TYPES = ['image/jpeg', 'image/webp'];
const MAX_PHOTOS = 35;
const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
const ALL_SCOPES = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.publish', 'video.list'];
const ACCESS_TOKEN_SECONDS = 86_400;
const USER_FIELDS = [
  'open_id',
  'union_id',
  'avatar_url',
  'display_name',
  'username',
  'bio_description',
  'follower_count',
  'following_count',
  'likes_count',
  'video_count',
];
const STATS_FIELDS = ['follower_count', 'following_count', 'likes_count', 'video_count'];
const VIDEO_FIELDS = [
  'id',
  'create_time',
  'title',
  'video_description',
  'share_url',
  'duration',
  'cover_image_url',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
];
/** URLs the fake treats as fetched fixtures (the conformance spec's media name no server): a JPEG as far as it can tell. */
const FIXTURE_ORIGIN = 'https://media.invalid/';

/**
 * A fake of TikTok's Content Posting API and Display API (open.tiktokapis.com v2) on a real HTTP server, following
 * the published documents: POST /v2/post/publish/creator_info/query/; POST /v2/post/publish/video/init/ (Direct Post,
 * FILE_UPLOAD: the chunk rules checked) and PUT of each chunk to the answered `upload_url` (`Content-Range`,
 * `Content-Length` and `Content-Type` checked, chunks in order; 206, then 201 for the last); POST
 * /v2/post/publish/content/init/ (PHOTO, PULL_FROM_URL: the fake FETCHES each URL, as TikTok does); POST
 * /v2/post/publish/status/fetch/ answering PROCESSING_UPLOAD / PROCESSING_DOWNLOAD, then PUBLISH_COMPLETE with
 * `publicaly_available_post_id` (an int64 JSON number) or FAILED with a `fail_reason`; POST /v2/video/list/ and
 * /v2/video/query/ (`fields` in the query); GET /v2/user/info/; POST /v2/oauth/token/ with grant_type=refresh_token
 * (the refresh token rotates; access tokens expire after 24 hours). Every answer is `{data, error: {code, message,
 * log_id}}`; a privacy level the creator may not use is 403 privacy_level_option_mismatch, a bad field 400
 * invalid_params, an unknown or expired token 401 access_token_invalid, a missing scope 401 scope_not_authorized.
 *
 * Control API (`/__control`): POST /accounts, POST /accounts/:open_id/expire-token, POST /files `{name,
 * content_type, size}`, GET /posts (oldest first; `?settle=true` first publishes what finished arriving), GET /tasks,
 * GET/DELETE /requests, POST /posts/:id/counts,
 * POST /processing `{polls, fail_next?}`, POST /verified-prefixes `{prefixes}` (PULL_FROM_URL outside them is
 * url_ownership_unverified; default: every URL), POST/DELETE /failures (ScriptedFailure; paths as sent, e.g.
 * `/v2/post/publish/video/init/`, or `/upload` for every chunk PUT), DELETE /state.
 *
 * With `upstream` (the fake OAuth network's origin), the authorization-code exchange and unknown tokens are passed to it.
 */
export async function startFakeTikTok(options: { upstream?: string } = {}): Promise<FakeTikTok> {
  const accounts = new Map<string, Account>();
  const tokens = new Map<string, { openId: string; expiresAt: number }>();
  let tasks = new Map<string, FakeTikTokTask>();
  const uploads = new Map<string, Upload>();
  /** Photo tasks whose URLs are still being fetched. */
  const fetching = new Set<string>();
  let posts: FakeTikTokPost[] = [];
  let counts = new Map<string, FakeTikTokCounts>();
  let requests: FakeTikTokRequest[] = [];
  let processing = { polls: 1, fail_next: '' };
  let verifiedPrefixes: string[] | undefined;
  const files = new Map<string, { contentType: string; data: Buffer }>();
  const failures = new ScriptedFailures();
  let origin = '';
  let sequence = 7_400_000_000_000_000_000n;
  const postId = () => String((sequence += BigInt(1 + Math.floor(Math.random() * 100_000))));

  const issueToken = (openId: string, token = `act.${randomBytes(12).toString('hex')}`) => {
    tokens.set(token, { openId, expiresAt: Date.now() + ACCESS_TOKEN_SECONDS * 1000 });
    return token;
  };

  async function control(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/accounts' && req.method === 'POST') {
      const request = body as FakeTikTokAccountRequest;
      if (!request.access_token || !request.username) return sendJson(res, 400, { error: 'access_token and username are required' });
      const known = request.open_id ? accounts.get(request.open_id) : undefined;
      const account: Account = { ...known, ...request, open_id: request.open_id ?? `open-${randomBytes(8).toString('hex')}` };
      accounts.set(account.open_id, account);
      issueToken(account.open_id, request.access_token);
      return sendJson(res, 201, { open_id: account.open_id, username: account.username });
    }
    const expire = /^\/accounts\/([^/]+)\/expire-token$/.exec(path);
    if (expire && req.method === 'POST') {
      for (const [token, owner] of tokens) if (owner.openId === expire[1]) tokens.set(token, { ...owner, expiresAt: 0 });
      return sendJson(res, 200, { expired: true });
    }
    if (path === '/files' && req.method === 'POST') {
      const { name, content_type, size } = body as { name: string; content_type: string; size: number };
      files.set(name, { contentType: content_type, data: randomBytes(size) });
      return sendJson(res, 201, { url: `${origin}/files/${name}` });
    }
    if (path === '/posts' && req.method === 'GET') {
      // `?settle=true`: as some time later, when TikTok has processed every post whose media arrived (a lost answer's too).
      if (query.get('settle') === 'true') tasks.forEach(advanceUnpolled);
      return sendJson(res, 200, posts);
    }
    if (path === '/tasks' && req.method === 'GET') return sendJson(res, 200, [...tasks.values()]);
    if (path === '/requests' && req.method === 'GET') return sendJson(res, 200, requests);
    if (path === '/requests' && req.method === 'DELETE') {
      requests = [];
      return sendJson(res, 200, { deleted: true });
    }
    const countsOf = /^\/posts\/([^/]+)\/counts$/.exec(path);
    if (countsOf && req.method === 'POST') {
      if (!posts.some((post) => post.id === countsOf[1])) return sendJson(res, 404, { error: 'unknown post' });
      counts.set(countsOf[1], { ...counts.get(countsOf[1]), ...(body as FakeTikTokCounts) });
      return sendJson(res, 200, counts.get(countsOf[1]));
    }
    if (path === '/processing' && req.method === 'POST') {
      const { polls, fail_next } = body as { polls?: number; fail_next?: string };
      processing = { polls: Number(polls ?? processing.polls), fail_next: fail_next ?? '' };
      return sendJson(res, 200, processing);
    }
    if (path === '/verified-prefixes' && req.method === 'POST') {
      verifiedPrefixes = (body as { prefixes?: string[] }).prefixes;
      return sendJson(res, 200, { prefixes: verifiedPrefixes ?? null });
    }
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      tasks = new Map();
      uploads.clear();
      posts = [];
      counts = new Map();
      requests = [];
      failures.clear();
      processing = { polls: 1, fail_next: '' };
      verifiedPrefixes = undefined;
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  /** The creator a Bearer token names: the account, or why not (unknown, expired, or without the scope). */
  const authorize = (req: IncomingMessage, scope: string): Account | { status: number; code: string; message: string } => {
    const token = tokens.get(bearerToken(req));
    const account = token ? accounts.get(token.openId) : undefined;
    if (!token || !account)
      return { status: 401, code: 'access_token_invalid', message: 'The access token is invalid or not found in the request.' };
    if (token.expiresAt <= Date.now()) return { status: 401, code: 'access_token_invalid', message: 'The access token has expired.' };
    if (!(account.scopes ?? ALL_SCOPES).includes(scope))
      return { status: 401, code: 'scope_not_authorized', message: `The user did not authorize the scope required (${scope}).` };
    return account;
  };

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (method === 'GET' && path.startsWith('/files/')) {
      const file = files.get(decodeURIComponent(path.slice('/files/'.length)));
      if (!file) return sendJson(res, 404, { error: 'not found' });
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) });
      return void res.end(file.data);
    }
    const contentType = String(req.headers['content-type'] ?? '');
    // A chunk streams in (hashed as it arrives, never held whole): read by its route.
    if (method === 'PUT' && path === '/video/') {
      const failure = failures.take(method, '/upload');
      if (await failures.before(failure, req, res)) return;
      return receiveChunk(req, res, url, failure);
    }
    const raw = await readRaw(req);
    if (options.upstream && path === '/v2/oauth/token/' && !isLocalRefresh(raw)) return forward(req, res, url, raw, options.upstream);
    if (options.upstream && path !== '/v2/oauth/token/' && !tokens.has(bearerToken(req)))
      return forward(req, res, url, raw, options.upstream);
    let body: Record<string, unknown> = {};
    if (method === 'POST' && path !== '/v2/oauth/token/' && raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        return tiktokError(res, 400, 'invalid_params', 'The request body is not valid JSON.');
      }
    }
    requests.push({
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      content_type: contentType,
      body: path === '/v2/oauth/token/' ? {} : body,
    });
    const failure = failures.take(method, path);
    if (await failures.before(failure, req, res)) return;
    const answer = (status: number, data: unknown) => answerUnlessLost(failure, req, res, status, { data, error: ok() });

    if (method === 'POST' && path === '/v2/oauth/token/')
      return refresh(res, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))));
    if (method === 'POST' && path.startsWith('/v2/') && !contentType.startsWith('application/json'))
      return tiktokError(res, 400, 'invalid_params', 'Content-Type must be application/json; charset=UTF-8.');

    if (method === 'GET' && path === '/v2/user/info/') {
      const fields = fieldList(url, USER_FIELDS);
      if (typeof fields === 'string') return tiktokError(res, 400, 'invalid_params', fields);
      const account = authorize(req, fields.some((field) => STATS_FIELDS.includes(field)) ? 'user.info.stats' : 'user.info.basic');
      if (!isAccount(account)) return tiktokError(res, account.status, account.code, account.message);
      const user: Record<string, unknown> = {
        open_id: account.open_id,
        union_id: `union-${account.open_id}`,
        avatar_url: `https://p16-sign.tiktokcdn-us.com/${account.open_id}.jpeg`,
        display_name: account.display_name ?? account.username,
        username: account.username,
        bio_description: '',
        follower_count: account.follower_count ?? 42,
        following_count: account.following_count ?? 7,
        likes_count: 0,
        video_count: posts.filter((post) => post.open_id === account.open_id).length,
      };
      return answer(200, { user: Object.fromEntries(fields.map((field) => [field, user[field]])) });
    }
    if (method === 'POST' && path === '/v2/post/publish/creator_info/query/') {
      const account = authorize(req, 'video.publish');
      if (!isAccount(account)) return tiktokError(res, account.status, account.code, account.message);
      return answer(200, {
        creator_avatar_url: `https://p16-sign.tiktokcdn-us.com/${account.open_id}.jpeg`,
        creator_username: account.username,
        creator_nickname: account.display_name ?? account.username,
        privacy_level_options: account.privacy_level_options ?? PRIVACY_LEVELS,
        comment_disabled: account.comment_disabled ?? false,
        duet_disabled: account.duet_disabled ?? false,
        stitch_disabled: account.stitch_disabled ?? false,
        max_video_post_duration_sec: account.max_video_post_duration_sec ?? 600,
      });
    }
    if (method === 'POST' && (path === '/v2/post/publish/video/init/' || path === '/v2/post/publish/content/init/')) {
      const account = authorize(req, 'video.publish');
      if (!isAccount(account)) return tiktokError(res, account.status, account.code, account.message);
      const refusal = path === '/v2/post/publish/video/init/' ? checkVideoInit(account, body) : checkPhotoInit(account, body);
      if (refusal) return tiktokError(res, refusal.status, refusal.code, refusal.message);
      const task: FakeTikTokTask = {
        publish_id: `v_pub_file~v2-1.${postId()}`,
        open_id: account.open_id,
        media_type: path === '/v2/post/publish/video/init/' ? 'VIDEO' : 'PHOTO',
        post_info: (body.post_info ?? {}) as Record<string, unknown>,
        source_info: body.source_info as Record<string, unknown>,
        status: path === '/v2/post/publish/video/init/' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
        fail_reason: '',
        chunks: [],
        uploaded_bytes: 0,
        video_sha256: '',
        polls_left: processing.polls,
        post_id: '',
        created_at: new Date().toISOString(),
      };
      tasks.set(task.publish_id, task);
      if (task.media_type === 'VIDEO') {
        const upload: Upload = { hash: createHash('sha256'), token: randomBytes(8).toString('hex'), done: false };
        uploads.set(task.publish_id, upload);
        const uploadUrl = `${origin}/video/?upload_id=${encodeURIComponent(task.publish_id)}&upload_token=${upload.token}`;
        return answer(200, { publish_id: task.publish_id, upload_url: uploadUrl });
      }
      void pullPhotos(task);
      return answer(200, { publish_id: task.publish_id });
    }
    if (method === 'POST' && path === '/v2/post/publish/status/fetch/') {
      const account = authorize(req, 'video.publish');
      if (!isAccount(account)) return tiktokError(res, account.status, account.code, account.message);
      const task = tasks.get(String(body.publish_id ?? ''));
      if (!task || task.open_id !== account.open_id) return tiktokError(res, 400, 'invalid_params', 'publish_id is invalid.');
      advance(task);
      const data = {
        status: task.status,
        ...(task.fail_reason ? { fail_reason: task.fail_reason } : {}),
        publicaly_available_post_id: task.post_id && publicOf(task) ? [INT64_MARK + task.post_id] : [],
        uploaded_bytes: task.uploaded_bytes,
      };
      if (failure?.drop_after_handling) return void req.socket.destroy();
      return sendText(res, 200, JSON.stringify({ data, error: ok() }).replace(new RegExp(`"${INT64_MARK}(\\d+)"`, 'g'), '$1'));
    }
    if (method === 'POST' && (path === '/v2/video/list/' || path === '/v2/video/query/')) {
      const fields = fieldList(url, VIDEO_FIELDS);
      if (typeof fields === 'string') return tiktokError(res, 400, 'invalid_params', fields);
      const account = authorize(req, 'video.list');
      if (!isAccount(account)) return tiktokError(res, account.status, account.code, account.message);
      tasks.forEach(advanceUnpolled);
      const mine = posts.filter((post) => post.open_id === account.open_id && post.privacy_level === 'PUBLIC_TO_EVERYONE').reverse();
      const shown = (post: FakeTikTokPost) => Object.fromEntries(fields.map((field) => [field, videoJson(account, post)[field]]));
      if (path === '/v2/video/query/') {
        const ids = (body.filters as { video_ids?: unknown } | undefined)?.video_ids;
        if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20)
          return tiktokError(res, 400, 'invalid_params', 'filters.video_ids must name 1 to 20 video ids.');
        return answer(200, { videos: mine.filter((post) => ids.includes(post.id)).map(shown) });
      }
      const maxCount = body.max_count === undefined ? 10 : Number(body.max_count);
      if (!Number.isInteger(maxCount) || maxCount < 1 || maxCount > 20)
        return tiktokError(res, 400, 'invalid_params', 'max_count must be 1 to 20.');
      const cursor = body.cursor === undefined ? Infinity : Number(body.cursor);
      const older = mine.filter((post) => post.create_time * 1000 < cursor);
      const page = older.slice(0, maxCount);
      return answer(200, {
        videos: page.map(shown),
        cursor: page.length ? page.at(-1)!.create_time * 1000 : 0,
        has_more: older.length > page.length,
      });
    }
    return tiktokError(res, 404, 'invalid_params', `Unknown endpoint ${method} ${path}.`);
  }

  /** A refresh whose token this fake issued (else, with an upstream, the OAuth fake answers it). */
  function isLocalRefresh(raw: Buffer): boolean {
    const form = new URLSearchParams(raw.toString('utf8'));
    return (
      form.get('grant_type') === 'refresh_token' &&
      [...accounts.values()].some((account) => account.refresh_token === form.get('refresh_token'))
    );
  }

  /** POST /v2/oauth/token/ grant_type=refresh_token: a new 24-hour access token and a rotated refresh token. */
  function refresh(res: ServerResponse, form: Record<string, string>): void {
    if (!form.client_key || !form.client_secret)
      return sendJson(res, 400, {
        error: 'invalid_request',
        error_description: 'client_key and client_secret are required.',
        log_id: logId(),
      });
    if (form.grant_type !== 'refresh_token')
      return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Unsupported grant_type.', log_id: logId() });
    const account = [...accounts.values()].find((candidate) => candidate.refresh_token && candidate.refresh_token === form.refresh_token);
    if (!account)
      return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Refresh token is invalid or expired.', log_id: logId() });
    account.refresh_token = `rft.${randomBytes(12).toString('hex')}`;
    const accessToken = issueToken(account.open_id);
    return sendJson(res, 200, {
      access_token: accessToken,
      expires_in: ACCESS_TOKEN_SECONDS,
      open_id: account.open_id,
      refresh_expires_in: 31_536_000,
      refresh_token: account.refresh_token,
      scope: (account.scopes ?? ALL_SCOPES).join(','),
      token_type: 'Bearer',
    });
  }

  function checkPostInfo(account: Account, postInfo: Record<string, unknown> | undefined, titleMax: number): Refusal | undefined {
    if (!postInfo || typeof postInfo !== 'object') return invalid('post_info is required.');
    const privacy = postInfo.privacy_level;
    if (typeof privacy !== 'string' || !PRIVACY_LEVELS.includes(privacy)) return invalid('post_info.privacy_level is invalid.');
    if (!(account.privacy_level_options ?? PRIVACY_LEVELS).includes(privacy))
      return {
        status: 403,
        code: 'privacy_level_option_mismatch',
        message: "privacy_level is not among the creator's privacy_level_options.",
      };
    if (typeof postInfo.title === 'string' && postInfo.title.length > titleMax)
      return invalid(`post_info.title is longer than ${titleMax}.`);
    if (postInfo.brand_content_toggle === true && privacy === 'SELF_ONLY') return invalid('Branded content cannot be private.');
    const today = posts.filter((post) => post.open_id === account.open_id && post.create_time * 1000 > Date.now() - 86_400_000).length;
    if (account.daily_post_cap !== undefined && today >= account.daily_post_cap)
      return { status: 403, code: 'spam_risk_too_many_posts', message: 'The daily post cap from the API is reached for the current user.' };
    return undefined;
  }

  function checkVideoInit(account: Account, body: Record<string, unknown>): Refusal | undefined {
    const refusal = checkPostInfo(account, body.post_info as Record<string, unknown> | undefined, 2_200);
    if (refusal) return refusal;
    const source = body.source_info as Record<string, unknown> | undefined;
    if (source?.source === 'PULL_FROM_URL') return invalid('This fake takes videos by FILE_UPLOAD.');
    if (source?.source !== 'FILE_UPLOAD') return invalid('source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
    const size = source.video_size;
    const chunk = source.chunk_size;
    const total = source.total_chunk_count;
    if (![size, chunk, total].every((value) => Number.isSafeInteger(value) && (value as number) > 0))
      return invalid('video_size, chunk_size and total_chunk_count are required positive integers.');
    const [videoSize, chunkSize, chunkCount] = [size, chunk, total] as number[];
    if (videoSize > MAX_VIDEO_BYTES) return invalid('The video is larger than 4 GB.');
    if (videoSize < MIN_CHUNK && chunkSize !== videoSize)
      return invalid('A video under 5 MB is uploaded whole: chunk_size must be video_size.');
    if (videoSize >= MIN_CHUNK && (chunkSize < MIN_CHUNK || chunkSize > MAX_CHUNK)) return invalid('chunk_size must be 5 MB to 64 MB.');
    if (chunkCount !== Math.floor(videoSize / chunkSize)) return invalid('total_chunk_count must be video_size / chunk_size rounded down.');
    if (chunkCount > MAX_CHUNKS) return invalid('A video is at most 1000 chunks.');
    if (videoSize - (chunkCount - 1) * chunkSize > MAX_FINAL_CHUNK) return invalid('The final chunk is at most 128 MB.');
    return undefined;
  }

  function checkPhotoInit(account: Account, body: Record<string, unknown>): Refusal | undefined {
    if (body.media_type !== 'PHOTO') return invalid('media_type must be PHOTO.');
    if (body.post_mode !== 'DIRECT_POST' && body.post_mode !== 'MEDIA_UPLOAD')
      return invalid('post_mode must be DIRECT_POST or MEDIA_UPLOAD.');
    const postInfo = body.post_info as Record<string, unknown> | undefined;
    const refusal = checkPostInfo(account, postInfo, 90);
    if (refusal) return refusal;
    if (typeof postInfo?.description === 'string' && postInfo.description.length > 4_000)
      return invalid('post_info.description is longer than 4000.');
    const source = body.source_info as Record<string, unknown> | undefined;
    if (source?.source !== 'PULL_FROM_URL') return invalid('Photos are posted with source PULL_FROM_URL only.');
    const images = source.photo_images;
    if (!Array.isArray(images) || images.length === 0 || images.length > MAX_PHOTOS || !images.every(httpUrl))
      return invalid(`photo_images must list 1 to ${MAX_PHOTOS} URLs.`);
    const cover = source.photo_cover_index;
    if (!Number.isInteger(cover) || (cover as number) < 0 || (cover as number) >= images.length)
      return invalid('photo_cover_index is out of range.');
    if (verifiedPrefixes && !images.every((url: string) => verifiedPrefixes!.some((prefix) => url.startsWith(prefix))))
      return { status: 403, code: 'url_ownership_unverified', message: 'The URL prefix or domain is not verified for this client.' };
    return undefined;
  }

  /** TikTok fetches each photo; one it cannot fetch, or of a type it does not take, fails the post. */
  async function pullPhotos(task: FakeTikTokTask): Promise<void> {
    const urls = (task.source_info.photo_images ?? []) as string[];
    fetching.add(task.publish_id);
    try {
      for (const url of urls) {
        let type = 'image/jpeg';
        if (!url.startsWith(FIXTURE_ORIGIN)) {
          const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
          if (!response?.ok) {
            await response?.body?.cancel();
            return fail(task, 'photo_pull_failed');
          }
          type = (response.headers.get('content-type') ?? '').split(';')[0].trim();
          await response.arrayBuffer();
        }
        if (!PHOTO_TYPES.includes(type)) return fail(task, 'file_format_check_failed');
      }
    } finally {
      fetching.delete(task.publish_id);
    }
  }

  /** PUT {upload_url}: one chunk, in order, its Content-Range, Content-Length and Content-Type as the guide says. */
  async function receiveChunk(req: IncomingMessage, res: ServerResponse, url: URL, failure: ScriptedFailure | undefined): Promise<void> {
    const task = tasks.get(url.searchParams.get('upload_id') ?? '');
    const upload = task ? uploads.get(task.publish_id) : undefined;
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    const length = Number(req.headers['content-length'] ?? NaN);
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    requests.push({
      method: 'PUT',
      path: '/video/',
      query: {},
      content_type: type,
      body: { content_range: req.headers['content-range'] ?? '', length },
    });
    const refuse = async (status: number, code: string, message: string) => {
      await drain(req);
      tiktokError(res, status, code, message);
    };
    if (!task || !upload || url.searchParams.get('upload_token') !== upload.token) return refuse(404, 'invalid_params', 'Unknown upload.');
    if (task.status !== 'PROCESSING_UPLOAD' || upload.done) return refuse(403, 'invalid_params', 'The upload is complete or closed.');
    if (!VIDEO_TYPES.includes(type))
      return refuse(400, 'invalid_file_upload', 'Content-Type must be video/mp4, video/quicktime or video/webm.');
    if (!range) return refuse(400, 'invalid_params', 'Content-Range must be bytes {first}-{last}/{total}.');
    const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    const source = task.source_info as { video_size: number; chunk_size: number; total_chunk_count: number };
    const index = task.chunks.length;
    const isFinal = index === source.total_chunk_count - 1;
    const expectedEnd = isFinal ? source.video_size - 1 : (index + 1) * source.chunk_size - 1;
    if (total !== source.video_size || first !== index * source.chunk_size || last !== expectedEnd)
      return refuse(
        416,
        'invalid_params',
        `Chunk ${index + 1} must be bytes ${index * source.chunk_size}-${expectedEnd}/${source.video_size}.`,
      );
    if (length !== last - first + 1) return refuse(400, 'invalid_params', 'Content-Length must be the size of the chunk.');
    let received = 0;
    for await (const piece of req as AsyncIterable<Buffer>) {
      received += piece.length;
      upload.hash.update(piece);
    }
    if (received !== length) return tiktokError(res, 400, 'invalid_file_upload', 'The chunk is shorter than its Content-Length.');
    task.chunks.push({ range: `bytes ${first}-${last}/${total}`, size: received });
    task.uploaded_bytes += received;
    if (!isFinal) return answerUnlessLost(failure, req, res, 206, { data: {}, error: ok() });
    upload.done = true;
    task.video_sha256 = upload.hash.digest('hex');
    return answerUnlessLost(failure, req, res, 201, { data: {}, error: ok() });
  }

  /** A status fetch moves the task on: media arrived → processing for `polls` fetches → published (or failed). */
  function advance(task: FakeTikTokTask): void {
    if (task.status === 'PUBLISH_COMPLETE' || task.status === 'FAILED') return;
    if (task.media_type === 'VIDEO' && !uploads.get(task.publish_id)?.done) return;
    if (fetching.has(task.publish_id)) return;
    if (task.polls_left > 0) {
      task.polls_left -= 1;
      return;
    }
    complete(task);
  }

  /** A task whose media arrived is published in the end even when nobody asks its status (a lost answer). */
  function advanceUnpolled(task: FakeTikTokTask): void {
    if (task.status === 'PUBLISH_COMPLETE' || task.status === 'FAILED' || fetching.has(task.publish_id)) return;
    if (task.media_type === 'VIDEO' && !uploads.get(task.publish_id)?.done) return;
    complete(task);
  }

  function complete(task: FakeTikTokTask): void {
    if (processing.fail_next) {
      const reason = processing.fail_next;
      processing.fail_next = '';
      return fail(task, reason);
    }
    const photos = (task.source_info.photo_images ?? []) as string[];
    const post: FakeTikTokPost = {
      id: postId(),
      open_id: task.open_id,
      publish_id: task.publish_id,
      media_type: task.media_type,
      title: String(task.post_info.title ?? ''),
      description: String(task.post_info.description ?? ''),
      privacy_level: String(task.post_info.privacy_level ?? ''),
      media_count: task.media_type === 'VIDEO' ? 1 : photos.length,
      disable_comment: task.post_info.disable_comment === true,
      create_time: Math.floor(Date.now() / 1000),
    };
    posts.push(post);
    task.post_id = post.id;
    task.status = 'PUBLISH_COMPLETE';
  }

  function fail(task: FakeTikTokTask, reason: string): void {
    task.status = 'FAILED';
    task.fail_reason = reason;
  }

  /** A post's public id is given once it is public: TikTok tells no id of a post only its creator sees. */
  const publicOf = (task: FakeTikTokTask) => task.post_info.privacy_level !== 'SELF_ONLY';

  function videoJson(account: Account, post: FakeTikTokPost): Record<string, unknown> {
    const counted = counts.get(post.id) ?? {};
    return {
      id: post.id,
      create_time: post.create_time,
      title: post.title,
      video_description: post.media_type === 'VIDEO' ? post.title : post.description,
      share_url: `https://www.tiktok.com/@${account.username}/${post.media_type === 'VIDEO' ? 'video' : 'photo'}/${post.id}`,
      duration: 0,
      cover_image_url: `https://p16-sign.tiktokcdn-us.com/${post.id}.jpeg`,
      like_count: counted.like_count ?? 0,
      comment_count: counted.comment_count ?? 0,
      share_count: counted.share_count ?? 0,
      view_count: counted.view_count ?? 0,
    };
  }

  const server = await startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`)
      ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length), url.searchParams)
      : api(req, res, url),
  );
  origin = server.origin;
  return { ...server, filesUrl: `${origin}/files` };
}

export interface FakeTikTok extends FakeServer {
  /** Media files served by the fake itself: `${filesUrl}/<name>`, created with POST /__control/files. */
  filesUrl: string;
}

interface Account extends FakeTikTokAccountRequest {
  open_id: string;
}

/** A video task's upload as it runs: the bytes hashed as they arrive, the token of its upload_url. */
interface Upload {
  hash: ReturnType<typeof createHash>;
  token: string;
  done: boolean;
}

interface Refusal {
  status: number;
  code: string;
  message: string;
}

const INT64_MARK = '__int64__';
const isAccount = (value: Account | Refusal): value is Account => 'open_id' in value;
const invalid = (message: string): Refusal => ({ status: 400, code: 'invalid_params', message });
const logId = () => `2026${randomBytes(13).toString('hex').toUpperCase()}`;
const ok = () => ({ code: 'ok', message: '', log_id: logId() });

/** TikTok's error body: `{error: {code, message, log_id}}` beside an empty `data`. */
function tiktokError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { data: {}, error: { code, message, log_id: logId() } });
}

function sendText(res: ServerResponse, status: number, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

/** The `fields` query parameter: the fields asked, or why it is refused. */
function fieldList(url: URL, known: string[]): string[] | string {
  const fields = (url.searchParams.get('fields') ?? '')
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (fields.length === 0) return 'The fields query parameter is required.';
  const unknown = fields.find((field) => !known.includes(field));
  return unknown ? `Unknown field ${unknown}.` : fields;
}

function httpUrl(value: unknown): boolean {
  try {
    return typeof value === 'string' && ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
