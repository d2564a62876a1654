import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  answerUnlessLost,
  bearerToken,
  CONTROL_PREFIX,
  FakeServer,
  forward,
  readMultipart,
  readRaw,
  ReceivedFile,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';
import { graphError as graphErrorBody, httpUrl, only, timeParameter, unversioned } from './fake-graph-kit.js';

/** A Page a fake user manages: its own Page token is what publishing to it needs. */
export interface FakeFacebookPageRequest {
  id?: string;
  name: string;
  username?: string;
  access_token: string;
  followers_count?: number;
  fan_count?: number;
}

/**
 * A person who manages Pages. `id` links them to the OAuth fake's profile (a short-lived token it issued is traded
 * here for a long-lived one); `access_token`, when given, is a short-lived user token this fake knows itself.
 */
export interface FakeFacebookUserRequest {
  id?: string;
  name?: string;
  access_token?: string;
  pages: FakeFacebookPageRequest[];
}

/** A Page post as the fake holds it. */
export interface FakeFacebookPost {
  id: string;
  page_id: string;
  message: string;
  link: string;
  /** status, link, photo, album or video. */
  type: string;
  /** Photos and videos it carries. */
  media_count: number;
  photo_ids: string[];
  video_id: string;
  title: string;
  created_time: string;
}

/** An uploaded photo (published with its post, or unpublished until a /feed post attaches it). */
export interface FakeFacebookPhoto {
  id: string;
  page_id: string;
  published: boolean;
  content_type: string;
  size: number;
  sha256: string;
  alt_text: string;
  attached_to: string;
}

/** A resumable video upload session and the video it makes. */
export interface FakeFacebookVideo {
  id: string;
  upload_session_id: string;
  page_id: string;
  file_size: number;
  received: number;
  /** SHA-256 over each chunk's SHA-256, in order (the same bytes in the same ranges give the same value). */
  sha256: string;
  transfers: number;
  finished: boolean;
  /** processing, ready or error (GET /{video-id}?fields=status: `video_status`). */
  video_status: string;
  polls_left: number;
  title: string;
  description: string;
  created_time: string;
}

/** Counters a test sets on a post or video (insights and the post's summaries answer them). */
export interface FakeFacebookInsights {
  views?: number;
  reactions?: number;
  comments?: number;
  shares?: number;
}

/** One request as received: never the token itself, only where it came and whose it was. */
export interface FakeFacebookRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Form or multipart text fields (never `access_token`). */
  fields: Record<string, string>;
  files: Array<{ field: string; content_type: string; size: number }>;
  /** query, form, multipart, bearer or "" */
  token_in: string;
  /** `page:<id>`, `user:<id>` or "" (unknown). */
  token_of: string;
  content_type: string;
}

const MAX_MESSAGE = 63_206;
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'];
const MAX_PHOTO_BYTES = 4 * 1024 * 1024;
/** A long-lived user token lives about 60 days (Facebook Login "Long-lived access tokens"). */
const LONG_LIVED_SECONDS = 5_183_944;
const DEFAULT_CHUNK = 1024 * 1024;

interface Page extends FakeFacebookPageRequest {
  id: string;
}
interface User {
  id: string;
  name: string;
  pages: Page[];
}

/**
 * A fake of the Graph API for Facebook Pages on a real HTTP server, following Meta's published documents:
 * GET /oauth/access_token `grant_type=fb_exchange_token` (a long-lived user token), GET /me/accounts (the Pages a
 * user token covers, each with its Page token; `limit`, `after` cursors and `paging.next`), POST /{page-id}/feed
 * (`message`, `link`, `attached_media[n]={"media_fbid":…}` of the Page's unpublished photos), POST /{page-id}/photos
 * (multipart `source` or `url`, `message`, `published`, `alt_text_custom`; answers `{id, post_id}`, or `{id}`
 * unpublished), POST /{page-id}/videos `upload_phase` start (`file_size` → session, video id and the first range),
 * transfer (`upload_session_id`, `start_offset`, multipart `video_file_chunk` holding exactly the range asked) and
 * finish (publishes it; `title`, `description`), GET /{video-id}?fields=status (processing for `polls` polls, then
 * ready), GET /{page-id}/published_posts|feed|videos (`since`, `limit`, newest first), GET /{page-id}?fields=
 * followers_count,fan_count, GET /{post-id}?fields=… (reactions/comments summaries, shares), /{post-id}/insights
 * (`post_media_view`), /{video-id}/video_insights (`total_video_views`).
 *
 * A Page's edges take only THAT Page's token (another token: 403 code 200, as Graph refuses). Errors are Graph error
 * bodies `{error: {message, type, code, error_subcode?, fbtrace_id}}`: an unknown token 400 code 190, a bad
 * parameter 400 code 100. Every answer carries `x-app-usage`.
 *
 * Control API (`/__control`): POST /users (FakeFacebookUserRequest), GET /posts, /photos, /videos, POST
 * /posts/:id/insights, POST /processing `{polls, fail?}`, POST /chunk `{bytes}` (the range size asked per transfer), POST /listing `{size}`
 * (the most Pages one /me/accounts answer lists),
 * GET/DELETE /requests, POST/DELETE /failures (ScriptedFailure; `path` as sent, e.g. `/v27.0/<page>/feed`, or
 * `/v27.0/<page>/videos#finish` for one upload phase), DELETE /state.
 *
 * With `upstream` (the OAuth fake): the code exchange is passed to it, and a user token it issued is known by asking
 * it for the profile (GET /{version}/me with the token as a Bearer).
 */
export async function startFakeFacebook(options: { upstream?: string } = {}): Promise<FakeServer> {
  const users = new Map<string, User>();
  /** token → who it is */
  const tokens = new Map<string, { kind: 'user' | 'page'; id: string; longLived: boolean }>();
  let posts: FakeFacebookPost[] = [];
  let photos = new Map<string, FakeFacebookPhoto>();
  let videos = new Map<string, FakeFacebookVideo>();
  let insights = new Map<string, FakeFacebookInsights>();
  let requests: FakeFacebookRequest[] = [];
  let processing = { polls: 1, fail: false };
  let chunk = DEFAULT_CHUNK;
  /** The most Pages one /me/accounts answer lists, whatever `limit` asks (Graph may answer fewer). */
  let listing = 100;
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  const failures = new ScriptedFailures();
  let sequence = 100_000_000_000_000n;
  const newId = () => String((sequence += BigInt(1 + Math.floor(Math.random() * 1000))));
  const allPages = () => [...users.values()].flatMap((user) => user.pages);
  const pageById = (id: string) => allPages().find((page) => page.id === id);

  function register(request: FakeFacebookUserRequest): User {
    const id = request.id ?? newId();
    const user: User = users.get(id) ?? { id, name: request.name ?? 'Fake Person', pages: [] };
    if (request.name) user.name = request.name;
    for (const pageRequest of request.pages ?? []) {
      const page: Page = {
        ...pageRequest,
        id: pageRequest.id ?? allPages().find((known) => known.access_token === pageRequest.access_token)?.id ?? newId(),
      };
      user.pages = [...user.pages.filter((known) => known.id !== page.id), page];
      tokens.set(page.access_token, { kind: 'page', id: page.id, longLived: true });
    }
    users.set(id, user);
    if (request.access_token) tokens.set(request.access_token, { kind: 'user', id, longLived: false });
    return user;
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/users' && req.method === 'POST') {
      const request = body as FakeFacebookUserRequest;
      if (!Array.isArray(request.pages) || request.pages.some((page) => !page.access_token || !page.name))
        return sendJson(res, 400, { error: 'pages, each with name and access_token, are required' });
      const user = register(request);
      return sendJson(res, 201, { id: user.id, name: user.name, pages: user.pages });
    }
    if (path === '/posts' && req.method === 'GET') return sendJson(res, 200, posts);
    if (path === '/photos' && req.method === 'GET') return sendJson(res, 200, [...photos.values()]);
    if (path === '/videos' && req.method === 'GET') return sendJson(res, 200, [...videos.values()]);
    if (path === '/requests' && req.method === 'GET') return sendJson(res, 200, requests);
    if (path === '/requests' && req.method === 'DELETE') {
      requests = [];
      return sendJson(res, 200, { deleted: true });
    }
    const insightsOf = /^\/posts\/([^/]+)\/insights$/.exec(path);
    if (insightsOf && req.method === 'POST') {
      insights.set(insightsOf[1], { ...insights.get(insightsOf[1]), ...(body as FakeFacebookInsights) });
      return sendJson(res, 200, insights.get(insightsOf[1]));
    }
    if (path === '/processing' && req.method === 'POST') {
      processing = { polls: Number(body.polls ?? 0), fail: body.fail === true };
      return sendJson(res, 200, processing);
    }
    if (path === '/listing' && req.method === 'POST') {
      listing = Math.max(1, Number(body.size ?? 100));
      return sendJson(res, 200, { size: listing });
    }
    if (path === '/chunk' && req.method === 'POST') {
      chunk = Math.max(1, Number(body.bytes ?? DEFAULT_CHUNK));
      return sendJson(res, 200, { bytes: chunk });
    }
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      posts = [];
      photos = new Map();
      videos = new Map();
      insights = new Map();
      requests = [];
      processing = { polls: 1, fail: false };
      chunk = DEFAULT_CHUNK;
      listing = 100;
      failures.clear();
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const contentType = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    let raw: Buffer = Buffer.alloc(0);
    let fields: Record<string, string> = {};
    let files: ReceivedFile[] = [];
    if (contentType === 'multipart/form-data') {
      // A video chunk is hashed as it streams (never held); a photo keeps its head, enough to check its type.
      const received = await readMultipart(req, (type) => (type.startsWith('image/') ? 64 : 0));
      fields = received.fields;
      files = received.files;
    } else {
      raw = await readRaw(req);
      if (contentType === 'application/x-www-form-urlencoded') fields = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    }
    const query = Object.fromEntries(url.searchParams);
    const bearer = bearerToken(req);
    const token = fields.access_token ?? query.access_token ?? bearer;
    const params = { ...query, ...fields };
    delete params.access_token;
    const holder = tokens.get(token);
    requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(Object.entries(query).filter(([key]) => key !== 'access_token')),
      fields: Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'access_token')),
      files: files.map((file) => ({ field: file.field, content_type: file.contentType, size: file.size })),
      token_in: fields.access_token
        ? contentType === 'multipart/form-data'
          ? 'multipart'
          : 'form'
        : query.access_token
          ? 'query'
          : bearer
            ? 'bearer'
            : '',
      token_of: holder ? `${holder.kind}:${holder.id}` : '',
      content_type: contentType,
    });
    const versioned = unversioned(url.pathname);
    const path = versioned ?? url.pathname;
    const exchange = path === '/oauth/access_token' && params.grant_type === 'fb_exchange_token';
    if (options.upstream && !exchange && (path.startsWith('/oauth/') || (!holder && token)))
      return forward(req, res, url, raw, options.upstream);
    const failure = failures.take(method, `${url.pathname}#${params.upload_phase ?? ''}`) ?? failures.take(method, url.pathname);
    if (await failures.before(failure, req, res)) return;
    const usage = { 'x-app-usage': JSON.stringify({ call_count: 1, total_cputime: 1, total_time: 1 }) };
    const answer = (status: number, body: unknown) =>
      failure ? answerUnlessLost(failure, req, res, status, body) : sendJson(res, status, body, usage);

    if (exchange && method === 'GET') {
      if (!params.client_id || !params.client_secret) return graphError(res, 400, 101, 'Missing client_id or client_secret parameter.');
      let user = tokens.get(params.fb_exchange_token ?? '');
      if (!user && options.upstream && params.fb_exchange_token) {
        const profile = await upstreamProfile(
          options.upstream,
          versioned !== undefined ? url.pathname.slice(0, -'/oauth/access_token'.length) : '',
          params.fb_exchange_token,
        );
        if (profile) {
          register({ id: profile.id, name: profile.name, access_token: params.fb_exchange_token, pages: [] });
          user = tokens.get(params.fb_exchange_token);
        }
      }
      if (!user || user.kind !== 'user') return graphError(res, 400, 190, 'Error validating access token: the session is invalid.', 463);
      const longLived = `EAAL${randomBytes(12).toString('hex')}`;
      tokens.set(longLived, { kind: 'user', id: user.id, longLived: true });
      return answer(200, { access_token: longLived, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS });
    }
    if (versioned === undefined) return graphError(res, 400, 2500, 'Unknown path components.');
    if (!token) return graphError(res, 400, 2500, 'An active access token must be used to query information about the current user.');
    if (!holder) return graphError(res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
    const [node, edge, extra] = path.slice(1).split('/');
    if (extra !== undefined) return graphError(res, 400, 2500, 'Unknown path components.');
    const self = node === 'me' ? holder.id : node;
    const user = holder.kind === 'user' ? users.get(holder.id) : undefined;
    const page = pageById(self);

    if (node === 'me' && edge === undefined && method === 'GET' && user)
      return answer(200, only({ id: user.id, name: user.name }, (params.fields ?? 'id,name').split(',')));
    if (node === 'me' && edge === 'accounts' && method === 'GET') {
      if (!user) return graphError(res, 400, 100, '(#100) Tried accessing nonexisting field (accounts) on node type (Page)');
      const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), listing);
      const from = params.after ? user.pages.findIndex((known) => cursor(known.id) === params.after) + 1 : 0;
      if (params.after && from === 0) return graphError(res, 400, 100, 'Invalid after cursor.');
      const slice = user.pages.slice(from, from + limit);
      const more = from + limit < user.pages.length;
      const wanted = (params.fields ?? 'id,name,access_token').split(',').map((field) => field.trim());
      return answer(200, {
        data: slice.map((known) =>
          only(
            {
              id: known.id,
              name: known.name,
              ...(known.username ? { username: known.username } : {}),
              access_token: known.access_token,
              category: 'Software',
              tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
              picture: { data: { url: `https://scontent.example/${known.id}.jpg`, is_silhouette: false, height: 50, width: 50 } },
            },
            wanted,
          ),
        ),
        paging: {
          cursors: slice.length ? { before: cursor(slice[0].id), after: cursor(slice.at(-1)!.id) } : {},
          ...(more ? { next: `https://graph.facebook.com${url.pathname}?after=${cursor(slice.at(-1)!.id)}&limit=${limit}` } : {}),
        },
      });
    }
    if (page && edge !== undefined && method === 'POST') {
      if (holder.kind !== 'page' || holder.id !== page.id)
        return graphError(
          res,
          403,
          200,
          '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin',
        );
      if (edge === 'feed') return feed(page, params, answer, res);
      if (edge === 'photos') return photo(page, params, files, answer, res);
      if (edge === 'videos') return video(page, params, files, answer, res);
      return unsupported(res, node, 'post');
    }
    if (page && method === 'GET') {
      if (holder.kind !== 'page' || holder.id !== page.id)
        return graphError(res, 403, 190, '(#190) This method must be called with a Page Access Token');
      if (edge === undefined) {
        const all = {
          id: page.id,
          name: page.name,
          username: page.username,
          followers_count: page.followers_count ?? 42,
          fan_count: page.fan_count ?? 40,
        };
        return answer(200, only(all, (params.fields ?? 'id,name').split(',')));
      }
      if (edge === 'published_posts' || edge === 'feed' || edge === 'posts' || edge === 'videos') {
        const since = params.since ? timeParameter(params.since) : -Infinity;
        if (Number.isNaN(since)) return graphError(res, 400, 100, 'Param since must be a Unix timestamp or a date.');
        const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), 100);
        const items =
          edge === 'videos'
            ? [...videos.values()].filter((video) => video.page_id === page.id && video.finished).map(videoJson)
            : posts.filter((post) => post.page_id === page.id).map(postJson);
        const listed = items.filter((item) => Date.parse(String(item.created_time)) >= since).reverse();
        const wanted = (params.fields ?? 'id,message,created_time').split(',');
        return answer(200, {
          data: listed.slice(0, limit).map((item) => only(item, wanted)),
          paging: listed.length > limit ? { next: `https://graph.facebook.com${url.pathname}?after=x` } : {},
        });
      }
      return unsupported(res, node, 'get');
    }
    // A post, photo or video of a Page: read with that Page's token.
    const post = posts.find((candidate) => candidate.id === node);
    const uploaded = videos.get(node);
    const owner = post?.page_id ?? uploaded?.page_id ?? photos.get(node)?.page_id;
    if (!owner || holder.kind !== 'page' || holder.id !== owner || method !== 'GET') return unsupported(res, node, method.toLowerCase());
    const counts = insights.get(node) ?? {};
    if (edge === undefined) {
      const requested = (params.fields ?? 'id').split(/,(?![^(]*\))/).map((field) => field.trim());
      const base: Record<string, unknown> = uploaded ? videoJson(uploaded) : post ? postJson(post) : { id: node };
      const out: Record<string, unknown> = { id: node };
      for (const field of requested) {
        const name = field.split('.')[0];
        if (name === 'reactions' || name === 'comments') {
          const total = name === 'reactions' ? counts.reactions : counts.comments;
          out[name] = { data: [], summary: { total_count: total ?? 0, ...(name === 'comments' ? { order: 'ranked' } : {}) } };
        } else if (name === 'shares' && post) {
          if (counts.shares) out.shares = { count: counts.shares };
        } else if (name === 'status' && uploaded) {
          if (uploaded.video_status === 'processing') {
            if (uploaded.polls_left > 0) uploaded.polls_left -= 1;
            else uploaded.video_status = processing.fail ? 'error' : 'ready';
          }
          out.status = {
            video_status: uploaded.video_status,
            uploading_phase: { status: 'complete', bytes_transferred: uploaded.received },
            processing_phase: {
              status: uploaded.video_status === 'processing' ? 'in_progress' : uploaded.video_status === 'ready' ? 'complete' : 'error',
            },
            publishing_phase: { status: uploaded.video_status === 'ready' ? 'complete' : 'not_started' },
          };
        } else if (name in base) out[name] = base[name];
      }
      return answer(200, out);
    }
    if ((edge === 'insights' && post) || (edge === 'video_insights' && uploaded)) {
      const metrics = (params.metric ?? '').split(',').filter(Boolean);
      const known = edge === 'insights' ? ['post_media_view', 'post_clicks', 'post_reactions_by_type_total'] : ['total_video_views'];
      if (metrics.length === 0) return graphError(res, 400, 3001, 'No metric was specified to be fetched.', 1504028);
      if (metrics.some((metric) => !known.includes(metric)))
        return graphError(res, 400, 100, '(#100) The value must be a valid insights metric');
      return answer(200, {
        data: metrics.map((metric) => ({
          name: metric,
          period: 'lifetime',
          values: [{ value: counts.views ?? 0 }],
          title: metric,
          description: '',
          id: `${node}/insights/${metric}/lifetime`,
        })),
        paging: {},
      });
    }
    return unsupported(res, node, 'get');
  }

  function feed(page: Page, params: Record<string, string>, answer: Answer, res: ServerResponse): void {
    const message = params.message ?? '';
    const attached: string[] = [];
    for (let index = 0; params[`attached_media[${index}]`] !== undefined; index++) {
      let fbid = '';
      try {
        fbid = String((JSON.parse(params[`attached_media[${index}]`]) as { media_fbid?: unknown }).media_fbid ?? '');
      } catch {
        return graphError(res, 400, 100, '(#100) param attached_media must be an array of objects with media_fbid.');
      }
      const known = photos.get(fbid);
      if (!known || known.page_id !== page.id || known.published || known.attached_to)
        return graphError(res, 400, 100, `(#100) attached_media[${index}] must name an unpublished photo of this Page.`);
      attached.push(fbid);
    }
    if (!message && !params.link && attached.length === 0) return graphError(res, 400, 100, '(#100) Invalid parameter');
    if ([...message].length > MAX_MESSAGE) return graphError(res, 400, 100, '(#100) The message is too long.');
    if (params.link && !httpUrl(params.link)) return graphError(res, 400, 100, '(#100) link URL is not properly formatted');
    const post = newPost(page, {
      message,
      link: params.link ?? '',
      type: attached.length > 1 ? 'album' : attached.length === 1 ? 'photo' : params.link ? 'link' : 'status',
      media_count: attached.length,
      photo_ids: attached,
    });
    for (const id of attached) photos.get(id)!.attached_to = post.id;
    return answer(200, { id: post.id });
  }

  function photo(page: Page, params: Record<string, string>, files: ReceivedFile[], answer: Answer, res: ServerResponse): void {
    const source = files.find((file) => file.field === 'source');
    if (!source && !httpUrl(params.url)) return graphError(res, 400, 324, '(#324) Requires upload file');
    const contentType = source ? sniff(source.head) || source.contentType : 'image/jpeg';
    if (!PHOTO_TYPES.includes(contentType)) return graphError(res, 400, 324, '(#324) Missing or invalid image file');
    if ((source?.size ?? 0) > MAX_PHOTO_BYTES) return graphError(res, 400, 100, '(#100) The photo is larger than 4 MB.');
    const published = params.published !== 'false';
    const stored: FakeFacebookPhoto = {
      id: newId(),
      page_id: page.id,
      published,
      content_type: contentType,
      size: source?.size ?? 0,
      sha256: source?.sha256 ?? '',
      alt_text: params.alt_text_custom ?? '',
      attached_to: '',
    };
    photos.set(stored.id, stored);
    if (!published) return answer(200, { id: stored.id });
    const post = newPost(page, { message: params.message ?? '', link: '', type: 'photo', media_count: 1, photo_ids: [stored.id] });
    stored.attached_to = post.id;
    return answer(200, { id: stored.id, post_id: post.id });
  }

  function video(page: Page, params: Record<string, string>, files: ReceivedFile[], answer: Answer, res: ServerResponse): void {
    const phase = params.upload_phase;
    if (phase === 'start') {
      const size = Number(params.file_size);
      if (!Number.isSafeInteger(size) || size <= 0) return graphError(res, 400, 100, '(#100) file_size must be a positive integer.');
      const made: FakeFacebookVideo = {
        id: newId(),
        upload_session_id: newId(),
        page_id: page.id,
        file_size: size,
        received: 0,
        sha256: '',
        transfers: 0,
        finished: false,
        video_status: 'uploading',
        polls_left: 0,
        title: '',
        description: '',
        created_time: '',
      };
      videos.set(made.id, made);
      hashes.set(made.id, createHash('sha256'));
      return answer(200, {
        upload_session_id: made.upload_session_id,
        video_id: made.id,
        start_offset: '0',
        end_offset: String(Math.min(chunk, size)),
      });
    }
    const session = [...videos.values()].find((known) => known.upload_session_id === params.upload_session_id && known.page_id === page.id);
    if (phase !== 'transfer' && phase !== 'finish')
      return graphError(res, 400, 100, '(#100) upload_phase must be start, transfer or finish.');
    if (!session) return graphError(res, 400, 6000, 'There was a problem uploading your video file. Please try again.', 1363030);
    if (phase === 'transfer') {
      const file = files.find((candidate) => candidate.field === 'video_file_chunk');
      if (!file) return graphError(res, 400, 100, '(#100) video_file_chunk is required.');
      if (Number(params.start_offset) !== session.received)
        return graphError(res, 400, 6001, 'There was a problem uploading your video: the start offset is not the one expected.', 1363037);
      const expected = Math.min(chunk, session.file_size - session.received);
      if (file.size !== expected)
        return graphError(res, 400, 6001, 'There was a problem uploading your video: the chunk is not the size expected.', 1363019);
      session.received += file.size;
      session.transfers += 1;
      hashes.get(session.id)!.update(file.sha256);
      const next = Math.min(session.received + chunk, session.file_size);
      return answer(200, { start_offset: String(session.received), end_offset: String(next) });
    }
    if (session.received !== session.file_size)
      return graphError(res, 400, 6001, 'There was a problem uploading your video: it is not complete.', 1363040);
    if (session.finished) return graphError(res, 400, 6000, 'The upload session is finished.', 1363030);
    session.finished = true;
    session.title = params.title ?? '';
    session.description = params.description ?? '';
    session.video_status = 'processing';
    session.polls_left = processing.polls;
    session.created_time = graphTime(new Date());
    session.sha256 = hashes.get(session.id)!.digest('hex');
    newPost(page, {
      message: session.description,
      link: '',
      type: 'video',
      media_count: 1,
      photo_ids: [],
      video_id: session.id,
      title: session.title,
    });
    return answer(200, { success: true });
  }

  function newPost(
    page: Page,
    fields: Omit<FakeFacebookPost, 'id' | 'page_id' | 'created_time' | 'video_id' | 'title'> & Partial<FakeFacebookPost>,
  ) {
    const post: FakeFacebookPost = {
      video_id: '',
      title: '',
      ...fields,
      id: `${page.id}_${newId()}`,
      page_id: page.id,
      created_time: graphTime(new Date()),
    };
    posts.push(post);
    return post;
  }

  const postJson = (post: FakeFacebookPost): Record<string, unknown> => ({
    id: post.id,
    message: post.message || undefined,
    created_time: post.created_time,
    permalink_url: `https://www.facebook.com/${post.page_id}/posts/${post.id.split('_')[1]}`,
    attachments:
      post.type === 'status'
        ? undefined
        : {
            data: [
              post.type === 'album'
                ? {
                    media_type: 'album',
                    type: 'album',
                    subattachments: { data: post.photo_ids.map((id) => ({ media_type: 'photo', type: 'photo', target: { id } })) },
                  }
                : { media_type: post.type === 'link' ? 'link' : post.type, type: post.type === 'link' ? 'share' : post.type },
            ],
          },
  });
  const videoJson = (video: FakeFacebookVideo): Record<string, unknown> => ({
    id: video.id,
    title: video.title || undefined,
    description: video.description || undefined,
    created_time: video.created_time,
    permalink_url: `/${video.page_id}/videos/${video.id}/`,
  });

  const server = await startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
  return server;
}

type Answer = (status: number, body: unknown) => void;

const cursor = (id: string) => Buffer.from(`page:${id}`).toString('base64url');

const graphTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, '+0000');

/** The profile the OAuth fake answers for `token` (the person's id and name), or undefined when it does not know it. */
async function upstreamProfile(upstream: string, version: string, token: string): Promise<{ id: string; name: string } | undefined> {
  const response = await fetch(`${upstream}${version}/me?fields=id,name`, { headers: { authorization: `Bearer ${token}` } }).catch(
    () => undefined,
  );
  if (!response?.ok) return undefined;
  const profile = (await response.json()) as { id?: unknown; name?: unknown };
  return typeof profile.id === 'string' || typeof profile.id === 'number'
    ? { id: String(profile.id), name: typeof profile.name === 'string' ? profile.name : '' }
    : undefined;
}

/** A Graph API error body as the Pages API types it: OAuthException for a token refused, GraphMethodException otherwise. */
const graphError = (res: ServerResponse, status: number, code: number, message: string, subcode?: number) =>
  graphErrorBody(res, status, code, message, subcode, code === 190 ? 'OAuthException' : 'GraphMethodException');

const unsupported = (res: ServerResponse, node: string, method: string) =>
  graphError(
    res,
    400,
    100,
    `Unsupported ${method} request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, ` +
      'or does not support this operation.',
    33,
  );

/** The image type its first bytes say (JPEG, PNG, GIF); "" when none of them. */
function sniff(head: Buffer): string {
  if (head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'image/jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  return '';
}
