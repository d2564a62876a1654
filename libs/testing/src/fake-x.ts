import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  answerUnlessLost,
  bearerToken,
  CONTROL_PREFIX,
  drain,
  forward,
  type FakeServer,
  readMultipart,
  readRaw,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** An account of the fake X API, reached with `access_token` as a Bearer. */
export interface FakeXAccountRequest {
  access_token: string;
  username: string;
  name?: string;
  /** The user id; another token of an account made before names its id (a server knows an account by every token it issued). */
  id?: string;
  followers_count?: number;
  following_count?: number;
  /** Protected posts: following the account sends a follow request (`pending_follow`). */
  protected?: boolean;
}

export interface FakeXTweet {
  id: string;
  author_id: string;
  created_at: string;
  /** The text as sent (what a test checks); the API answers it the way X shows it (links through t.co, `&<>` escaped). */
  text: string;
  in_reply_to_tweet_id: string | null;
  conversation_id: string;
  media_ids: string[];
}

/** Counters a test sets on a post (GET /2/tweets answers them in `public_metrics`). */
export interface FakeXTweetMetrics {
  impression_count?: number;
  like_count?: number;
  reply_count?: number;
  retweet_count?: number;
  quote_count?: number;
}

/** An upload session of POST /2/media/upload/initialize and what it received. */
export interface FakeXMedia {
  id: string;
  account_id: string;
  media_type: string;
  media_category: string;
  total_bytes: number;
  /** Bytes received per segment index. */
  segments: Record<string, number>;
  finalized: boolean;
  /** pending → in_progress → succeeded (or failed); images are `succeeded` once finalized. */
  state: 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed';
  /** Status polls left before the state moves on. */
  polls_left: number;
  alt_text: string;
}

export interface FakeXFollow {
  source_user_id: string;
  target_user_id: string;
  pending_follow: boolean;
}

/** How videos and GIFs are processed after FINALIZE (POST /__control/processing changes it). */
export interface FakeXProcessing {
  /** STATUS polls answered `in_progress` before `succeeded`. */
  polls: number;
  /** What `processing_info.check_after_secs` says. */
  check_after_secs: number;
  /** The next upload processed ends `failed`. */
  fail_next?: boolean;
}

/** The categories of POST /2/media/upload/initialize and their size limits (X's media best practices). */
const CATEGORY_LIMITS: Record<string, number> = {
  tweet_image: 5 * 1024 * 1024,
  tweet_gif: 15 * 1024 * 1024,
  tweet_video: 512 * 1024 * 1024,
};
const MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/bmp',
  'image/pjpeg',
  'image/tiff',
  'video/mp4',
  'video/quicktime',
  'video/webm',
  'video/mp2t',
];
/** APPEND takes segments of at most 5 MB each, indexed 0–999. */
const MAX_SEGMENT_BYTES = 5 * 1024 * 1024;
const MAX_SEGMENT_INDEX = 999;
/** The weighted limit is the adapter's job; past this many characters no account may post. */
const GENEROUS_TEXT_LIMIT = 25_000;
const ALT_TEXT_MAX = 1_000;
const RATE_LIMIT = 200;
const RATE_WINDOW_SECONDS = 900;
const DEFAULT_PROCESSING: FakeXProcessing = { polls: 2, check_after_secs: 1 };

/** X's problem details (RFC 7807) as its API answers them. */
const problem = (status: number, title: string, detail: string, type = 'about:blank') => ({ title, detail, type, status });
const invalid = (detail: string) => ({
  errors: [{ message: detail }],
  title: 'Invalid Request',
  detail: 'One or more parameters to your request was invalid.',
  type: 'https://api.twitter.com/2/problems/invalid-request',
});
const UNAUTHORIZED = problem(401, 'Unauthorized', 'Unauthorized');
const DUPLICATE = problem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `origin` is what PROVIDER_API_ORIGINS points x at; `controlUrl` takes the control API below. */
export type FakeX = FakeServer;

/**
 * A fake X API v2 on a real HTTP server, for the adapter's specs and the e2e stack. It follows X's published
 * shapes: POST /2/tweets (text, media.media_ids, reply.in_reply_to_tweet_id; 201 `{data: {id, text}}`; the same text
 * twice is 403 "duplicate content"), the chunked upload (POST /2/media/upload/initialize, /2/media/upload/:id/append
 * as multipart with `segment_index` and `media`, /2/media/upload/:id/finalize, GET /2/media/upload?command=STATUS with
 * `processing_info` pending → in_progress → succeeded for videos and GIFs), POST /2/media/metadata (alt text), GET
 * /2/users/:id/tweets (start_time, max_results, pagination_token, tweet.fields), GET /2/users/me, GET /2/tweets?ids=,
 * POST /2/users/:id/following. Errors are problem details; every answer carries `x-rate-limit-*`. Unknown Bearer → 401.
 *
 * Control API (`/__control`): POST /accounts (FakeXAccountRequest), GET /tweets (oldest first), POST
 * /tweets/:id/metrics, GET /media, GET /follows, POST /processing (FakeXProcessing), POST/DELETE /failures
 * (ScriptedFailure: `delay_ms` on an APPEND or FINALIZE holds an upload), DELETE /state.
 *
 * With `upstream` (the fake OAuth network's origin), what this server does not know — the token endpoint and
 * requests whose Bearer is not one of its accounts — is passed on as is, so a stack connects an X account through
 * the OAuth fake and then publishes to it here (register the same access token with POST /accounts).
 */
export async function startFakeX(options: { upstream?: string } = {}): Promise<FakeX> {
  const accounts = new Map<string, Required<Pick<FakeXAccountRequest, 'id'>> & FakeXAccountRequest>();
  let tweets: FakeXTweet[] = [];
  let metrics = new Map<string, FakeXTweetMetrics>();
  let media = new Map<string, FakeXMedia>();
  let follows: FakeXFollow[] = [];
  let processing = { ...DEFAULT_PROCESSING };
  const failures = new ScriptedFailures();
  const remaining = new Map<string, { left: number; reset: number }>();
  let nextId = 1_860_000_000_000_000_000n;
  const newId = () => String((nextId += 1n));

  const user = (id: string) => [...accounts.values()].find((account) => account.id === id);
  /** How X shows a post's text: links through t.co, a link to the media appended, `&<>` escaped. */
  const shownText = (tweet: FakeXTweet) => {
    const linked = tweet.text.replace(/https?:\/\/\S+/g, () => `https://t.co/${randomBytes(5).toString('hex')}`);
    const mediaLink = tweet.media_ids.length ? ` https://t.co/${randomBytes(5).toString('hex')}` : '';
    return escapeText(`${linked}${mediaLink}`);
  };
  const tweetJson = (tweet: FakeXTweet, fields: string[]) => {
    const json: Record<string, unknown> = { id: tweet.id, text: shownText(tweet), edit_history_tweet_ids: [tweet.id] };
    if (fields.includes('created_at')) json.created_at = tweet.created_at;
    if (fields.includes('author_id')) json.author_id = tweet.author_id;
    if (fields.includes('conversation_id')) json.conversation_id = tweet.conversation_id;
    if (fields.includes('referenced_tweets') && tweet.in_reply_to_tweet_id)
      json.referenced_tweets = [{ type: 'replied_to', id: tweet.in_reply_to_tweet_id }];
    if (fields.includes('attachments') && tweet.media_ids.length) json.attachments = { media_keys: tweet.media_ids.map((id) => `3_${id}`) };
    if (fields.includes('public_metrics')) {
      const set = metrics.get(tweet.id) ?? {};
      json.public_metrics = {
        retweet_count: set.retweet_count ?? 1,
        reply_count: set.reply_count ?? tweets.filter((candidate) => candidate.in_reply_to_tweet_id === tweet.id).length,
        like_count: set.like_count ?? 4,
        quote_count: set.quote_count ?? 0,
        bookmark_count: 0,
        impression_count: set.impression_count ?? 40,
      };
    }
    return json;
  };
  const uploadJson = (item: FakeXMedia) => ({
    data: {
      id: item.id,
      media_key: `${item.media_type.startsWith('video/') ? 7 : item.media_category === 'tweet_gif' ? 16 : 3}_${item.id}`,
      size: item.total_bytes,
      expires_after_secs: 86_400,
      ...(item.finalized && item.state !== 'succeeded'
        ? {
            processing_info: {
              state: item.state,
              ...(item.state === 'failed'
                ? { error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' } }
                : { check_after_secs: processing.check_after_secs, progress_percent: item.state === 'pending' ? 0 : 50 }),
            },
          }
        : item.finalized
          ? { processing_info: { state: 'succeeded', progress_percent: 100 } }
          : {}),
    },
  });

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/accounts' && req.method === 'POST') {
      const request = body as FakeXAccountRequest;
      if (!request.access_token || !request.username) return sendJson(res, 400, { error: 'access_token and username are required' });
      const account = { ...request, id: request.id ?? newId() };
      accounts.set(request.access_token, account);
      return sendJson(res, 201, { id: account.id, username: account.username, name: account.name ?? account.username });
    }
    if (path === '/tweets' && req.method === 'GET') return sendJson(res, 200, tweets);
    const metricsOf = /^\/tweets\/([^/]+)\/metrics$/.exec(path);
    if (metricsOf && req.method === 'POST') {
      if (!tweets.some((tweet) => tweet.id === metricsOf[1])) return sendJson(res, 404, { error: 'unknown tweet' });
      metrics.set(metricsOf[1], { ...metrics.get(metricsOf[1]), ...(body as FakeXTweetMetrics) });
      return sendJson(res, 200, metrics.get(metricsOf[1]));
    }
    if (path === '/media' && req.method === 'GET') return sendJson(res, 200, [...media.values()]);
    if (path === '/follows' && req.method === 'GET') return sendJson(res, 200, follows);
    if (path === '/processing' && req.method === 'POST') {
      processing = { ...processing, ...(body as Partial<FakeXProcessing>) };
      return sendJson(res, 200, processing);
    }
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      tweets = [];
      metrics = new Map();
      media = new Map();
      follows = [];
      processing = { ...DEFAULT_PROCESSING };
      failures.clear();
      remaining.clear();
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  /** x-rate-limit-* on every answer: a window of RATE_LIMIT requests per token (never enforced: scripted 429s are). */
  function rateLimitHeaders(res: ServerResponse, bearer: string): void {
    const now = Math.floor(Date.now() / 1000);
    let window = remaining.get(bearer);
    if (!window || window.reset <= now) window = { left: RATE_LIMIT, reset: now + RATE_WINDOW_SECONDS };
    window.left = Math.max(0, window.left - 1);
    remaining.set(bearer, window);
    res.setHeader('x-rate-limit-limit', String(RATE_LIMIT));
    res.setHeader('x-rate-limit-remaining', String(window.left));
    res.setHeader('x-rate-limit-reset', String(window.reset));
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const bearer = bearerToken(req);
    const account = accounts.get(bearer);
    const append = /^\/2\/media\/upload\/(\d+)\/append$/.exec(path);
    // Uploads stream in (a segment is read as it arrives, never buffered first): read by their route, not here.
    if (method === 'POST' && append && account) {
      rateLimitHeaders(res, bearer);
      return appendSegment(req, res, account.id, append[1], path);
    }
    const raw = await readRaw(req);
    if (options.upstream && (path === '/2/oauth2/token' || !account)) return forward(req, res, url, raw, options.upstream);
    rateLimitHeaders(res, bearer);
    const finalize = /^\/2\/media\/upload\/(\d+)\/finalize$/.exec(path);
    // `/2/media/upload/finalize` scripts the next FINALIZE whatever its media id (a test does not know it beforehand).
    const failure = failures.take(method, path) ?? (finalize ? failures.take(method, '/2/media/upload/finalize') : undefined);
    if (await failures.before(failure, req, res)) return;
    const answer = (status: number, body: unknown) => answerUnlessLost(failure, req, res, status, body);
    if (!account) return sendJson(res, 401, UNAUTHORIZED);
    const json = (): Record<string, unknown> | undefined => {
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
      try {
        const parsed = JSON.parse(raw.toString('utf8')) as unknown;
        return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    };
    const fields = (url.searchParams.get('tweet.fields') ?? '').split(',').filter(Boolean);

    if (method === 'POST' && path === '/2/tweets') {
      const body = json();
      if (!body) return sendJson(res, 400, invalid('The request body must be a JSON object.'));
      const text = typeof body.text === 'string' ? body.text : '';
      const mediaIds = (body.media as { media_ids?: unknown } | undefined)?.media_ids;
      const replyTo = (body.reply as { in_reply_to_tweet_id?: unknown } | undefined)?.in_reply_to_tweet_id;
      if (mediaIds !== undefined && (!Array.isArray(mediaIds) || mediaIds.some((id) => typeof id !== 'string' || !/^\d{1,19}$/.test(id))))
        return sendJson(res, 400, invalid('$.media.media_ids must be an array of numeric strings.'));
      const ids = (mediaIds ?? []) as string[];
      if (!text && ids.length === 0) return sendJson(res, 400, invalid('$.text or $.media is required.'));
      if ([...text].length > GENEROUS_TEXT_LIMIT) return sendJson(res, 400, invalid('$.text is too long.'));
      if (ids.length > 4) return sendJson(res, 400, invalid('$.media.media_ids may hold at most 4 ids.'));
      for (const id of ids) {
        const item = media.get(id);
        if (!item || item.account_id !== account.id || item.state !== 'succeeded')
          return sendJson(res, 400, invalid(`Your media IDs are invalid: ${id}.`));
      }
      const kinds = ids.map((id) => media.get(id)!.media_category);
      if (kinds.length > 1 && kinds.some((kind) => kind !== 'tweet_image'))
        return sendJson(res, 400, invalid('A video or GIF is the only media of a post.'));
      if (replyTo !== undefined && (typeof replyTo !== 'string' || !tweets.some((tweet) => tweet.id === replyTo)))
        return sendJson(res, 400, invalid('$.reply.in_reply_to_tweet_id names no post.'));
      if (text && tweets.some((tweet) => tweet.author_id === account.id && tweet.text === text)) return sendJson(res, 403, DUPLICATE);
      const id = newId();
      const parent = tweets.find((tweet) => tweet.id === replyTo);
      const tweet: FakeXTweet = {
        id,
        author_id: account.id,
        created_at: new Date().toISOString(),
        text,
        in_reply_to_tweet_id: parent?.id ?? null,
        conversation_id: parent?.conversation_id ?? id,
        media_ids: ids,
      };
      tweets.push(tweet);
      return answer(201, { data: { id, text: shownText(tweet), edit_history_tweet_ids: [id] } });
    }
    if (method === 'POST' && path === '/2/media/upload/initialize') {
      const body = json();
      if (!body) return sendJson(res, 400, invalid('The request body must be a JSON object.'));
      const mediaType = String(body.media_type ?? '');
      const category = String(body.media_category ?? '');
      const total = body.total_bytes;
      if (!MEDIA_TYPES.includes(mediaType)) return sendJson(res, 400, invalid('$.media_type is not a supported type.'));
      if (!(category in CATEGORY_LIMITS)) return sendJson(res, 400, invalid('$.media_category is not a supported category.'));
      if (typeof total !== 'number' || !Number.isInteger(total) || total <= 0)
        return sendJson(res, 400, invalid('$.total_bytes is required.'));
      if (total > CATEGORY_LIMITS[category]) return sendJson(res, 400, invalid('File size exceeds the limit of its category.'));
      const item: FakeXMedia = {
        id: newId(),
        account_id: account.id,
        media_type: mediaType,
        media_category: category,
        total_bytes: total,
        segments: {},
        finalized: false,
        state: 'uploading',
        polls_left: 0,
        alt_text: '',
      };
      media.set(item.id, item);
      return answer(200, uploadJson(item));
    }
    if (method === 'POST' && finalize) {
      const item = media.get(finalize[1]);
      if (!item || item.account_id !== account.id) return sendJson(res, 400, invalid('Unknown media id.'));
      if (item.finalized) return answer(200, uploadJson(item));
      const indexes = Object.keys(item.segments).map(Number);
      const received = Object.values(item.segments).reduce((sum, size) => sum + size, 0);
      if (indexes.length === 0 || indexes.some((index) => !indexes.includes(index - 1) && index !== 0) || !indexes.includes(0))
        return sendJson(res, 400, invalid('Segments are missing.'));
      if (received !== item.total_bytes) return sendJson(res, 400, invalid('File size does not match total_bytes.'));
      item.finalized = true;
      const processed = item.media_category !== 'tweet_image';
      item.state = processed ? 'pending' : 'succeeded';
      item.polls_left = processed ? processing.polls : 0;
      return answer(200, uploadJson(item));
    }
    if (method === 'GET' && path === '/2/media/upload') {
      if (url.searchParams.get('command') !== 'STATUS') return sendJson(res, 400, invalid('command must be STATUS.'));
      const item = media.get(url.searchParams.get('media_id') ?? '');
      if (!item || item.account_id !== account.id) return sendJson(res, 400, invalid('Unknown media id.'));
      if (item.state === 'pending' || item.state === 'in_progress') {
        if (item.polls_left > 0) {
          item.polls_left -= 1;
          item.state = 'in_progress';
        } else if (processing.fail_next) {
          processing.fail_next = false;
          item.state = 'failed';
        } else {
          item.state = 'succeeded';
        }
      }
      return answer(200, uploadJson(item));
    }
    if (method === 'POST' && path === '/2/media/metadata') {
      const body = json();
      const id = typeof body?.id === 'string' ? body.id : '';
      const alt = (body?.metadata as { alt_text?: { text?: unknown } } | undefined)?.alt_text?.text;
      const item = media.get(id);
      if (!item || item.account_id !== account.id) return sendJson(res, 400, invalid('$.id names no media.'));
      if (typeof alt !== 'string' || [...alt].length > ALT_TEXT_MAX)
        return sendJson(res, 400, invalid(`$.metadata.alt_text.text must be at most ${ALT_TEXT_MAX} characters.`));
      item.alt_text = alt;
      return answer(200, { data: { id, associated_metadata: { alt_text: { text: alt } } } });
    }
    if (method === 'GET' && path === '/2/users/me') {
      const userFields = (url.searchParams.get('user.fields') ?? '').split(',');
      return answer(200, { data: userJson(account, userFields) });
    }
    const timeline = /^\/2\/users\/(\d+)\/tweets$/.exec(path);
    if (method === 'GET' && timeline) {
      const max = Number(url.searchParams.get('max_results') ?? 10);
      if (!Number.isInteger(max) || max < 5 || max > 100) return sendJson(res, 400, invalid('max_results must be between 5 and 100.'));
      const startParam = url.searchParams.get('start_time');
      if (startParam !== null && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(startParam))
        return sendJson(res, 400, invalid('start_time must be YYYY-MM-DDTHH:mm:ssZ.'));
      const start = startParam ? Date.parse(startParam) : 0;
      const own = tweets.filter((tweet) => tweet.author_id === timeline[1] && Date.parse(tweet.created_at) >= start).reverse();
      const offset = Number(url.searchParams.get('pagination_token') ?? 0) || 0;
      const page = own.slice(offset, offset + max);
      const meta: Record<string, unknown> = { result_count: page.length };
      if (page.length) Object.assign(meta, { newest_id: page[0].id, oldest_id: page.at(-1)!.id });
      if (offset + max < own.length) meta.next_token = String(offset + max);
      return answer(200, page.length ? { data: page.map((tweet) => tweetJson(tweet, fields)), meta } : { meta });
    }
    if (method === 'GET' && path === '/2/tweets') {
      const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
      if (ids.length < 1 || ids.length > 100) return sendJson(res, 400, invalid('ids must name between 1 and 100 posts.'));
      const found = ids.map((id) => tweets.find((tweet) => tweet.id === id)).filter((tweet) => tweet !== undefined);
      const missing = ids.filter((id) => !tweets.some((tweet) => tweet.id === id));
      return answer(200, {
        ...(found.length ? { data: found.map((tweet) => tweetJson(tweet, fields)) } : {}),
        ...(missing.length
          ? {
              errors: missing.map((id) => ({
                value: id,
                detail: `Could not find tweet with ids: [${id}].`,
                title: 'Not Found Error',
                resource_type: 'tweet',
                parameter: 'ids',
                resource_id: id,
                type: 'https://api.twitter.com/2/problems/resource-not-found',
              })),
            }
          : {}),
      });
    }
    const following = /^\/2\/users\/(\d+)\/following$/.exec(path);
    if (method === 'POST' && following) {
      if (following[1] !== account.id)
        return sendJson(res, 403, problem(403, 'Forbidden', 'You are not allowed to follow on behalf of another user.'));
      const target = user(String(json()?.target_user_id ?? ''));
      if (!target) return sendJson(res, 400, invalid('$.target_user_id names no user.'));
      const pending = target.protected ?? false;
      if (!follows.some((known) => known.source_user_id === account.id && known.target_user_id === target.id))
        follows.push({ source_user_id: account.id, target_user_id: target.id, pending_follow: pending });
      return answer(200, { data: { following: !pending, pending_follow: pending } });
    }
    return sendJson(res, 404, problem(404, 'Not Found Error', `No route for ${method} ${path}.`));
  }

  /** APPEND: the multipart body read as it streams (a segment of at most 5 MB), `segment_index` 0–999. */
  async function appendSegment(req: IncomingMessage, res: ServerResponse, accountId: string, id: string, path: string): Promise<void> {
    // `/2/media/upload/append` scripts the next APPEND whatever its media id.
    const failure = failures.take('POST', path) ?? failures.take('POST', '/2/media/upload/append');
    if (failure?.status || failure?.drop) {
      // A scripted answer comes after the body, as a server that read it would.
      await drain(req);
      if (await failures.before(failure, req, res)) return;
    }
    let received: Awaited<ReturnType<typeof readMultipart>>;
    try {
      received = await readMultipart(req, () => 0);
    } catch {
      return sendJson(res, 400, invalid('The request body must be multipart/form-data.'));
    }
    // A held segment: read, then answered late (the client waits for its answer meanwhile).
    if (failure?.delay_ms) await new Promise((resolve) => setTimeout(resolve, failure.delay_ms).unref());
    const item = media.get(id);
    if (!item || item.account_id !== accountId || item.finalized) return sendJson(res, 400, invalid('Unknown media id.'));
    const index = Number(received.fields.segment_index);
    const file = received.files.find((candidate) => candidate.field === 'media');
    if (received.fields.segment_index === undefined || !Number.isInteger(index) || index < 0 || index > MAX_SEGMENT_INDEX)
      return sendJson(res, 400, invalid('segment_index must be between 0 and 999.'));
    if (!file) return sendJson(res, 400, invalid('media is required.'));
    if (file.size > MAX_SEGMENT_BYTES) return sendJson(res, 400, invalid('A segment holds at most 5 MB.'));
    item.segments[String(index)] = file.size;
    return answerUnlessLost(failure, req, res, 200, { data: { expires_at: Math.floor(Date.now() / 1000) + 86_400 } });
  }

  const userJson = (account: FakeXAccountRequest & { id: string }, userFields: string[]) => ({
    id: account.id,
    name: account.name ?? account.username,
    username: account.username,
    ...(userFields.includes('profile_image_url') ? { profile_image_url: `https://pbs.twimg.com/profile_images/${account.id}/a.jpg` } : {}),
    ...(userFields.includes('public_metrics')
      ? {
          public_metrics: {
            followers_count: account.followers_count ?? 12,
            following_count: account.following_count ?? 3,
            tweet_count: tweets.filter((tweet) => tweet.author_id === account.id).length,
            listed_count: 0,
            like_count: 0,
          },
        }
      : {}),
  });

  return startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
}
