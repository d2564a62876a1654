import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  FakeContainers,
  FakeMediaFiles,
  fetchMediaUrl,
  graphError,
  graphNode,
  httpUrl,
  lifetimeInsights,
  listingPage,
  only,
  publishingLimit,
  readGraphCall,
  text,
  timeParameter,
  tradeToken,
  unsupportedObject as unsupported,
  unversioned,
  upstreamProfile,
  withoutSecrets,
} from './fake-graph-kit.js';
import {
  answerUnlessLost,
  CONTROL_PREFIX,
  FakeServer,
  forward,
  readRaw,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** An account of the fake Threads, reached with `access_token` (a parameter, or a Bearer). */
export interface FakeThreadsAccountRequest {
  access_token: string;
  username: string;
  name?: string;
  followers_count?: number;
  /** Another token of an account made before (the id it answered): a renewed token names the same account. */
  id?: string;
}

/** A published post (or reply) as the fake holds it. */
export interface FakeThreadsPost {
  id: string;
  account_id: string;
  /** The text as sent. */
  text: string;
  /** TEXT_POST, IMAGE, VIDEO or CAROUSEL_ALBUM, as Threads names a published post's type. */
  media_type: string;
  /** How many images and videos it carries. */
  media_count: number;
  /** The post it answers; null for a top-level post. */
  reply_to_id: string | null;
  /** The top-level post of its conversation (itself for a top-level post). */
  root_post: string;
  timestamp: string;
  container_id: string;
}

/** A media container (POST /{user-id}/threads) as the fake holds it. */
export interface FakeThreadsContainer {
  id: string;
  account_id: string;
  media_type: string;
  text: string;
  image_url: string;
  video_url: string;
  alt_text: string;
  is_carousel_item: boolean;
  children: string[];
  reply_to_id: string;
  /** IN_PROGRESS, FINISHED, ERROR, EXPIRED or PUBLISHED (Threads' container statuses). */
  status: string;
  error_message: string;
  /** GET /{container-id} answers IN_PROGRESS this many more times before settling. */
  polls_left: number;
  /** The fetched media's type and size (what Threads downloaded from the URL); "" / 0 before or without one. */
  fetched_type: string;
  fetched_size: number;
  created_at: string;
}

/** Counters a test sets on a post (GET /{media-id}/insights answers them). */
export interface FakeThreadsInsights {
  views?: number;
  likes?: number;
  replies?: number;
  reposts?: number;
  quotes?: number;
  shares?: number;
}

/** The publishing limits (GET /{user-id}/threads_publishing_limit; enforced by threads_publish). */
export interface FakeThreadsQuota {
  quota_total: number;
  reply_quota_total: number;
  quota_duration: number;
}

/** One request as received (for specs checking shapes): never the token itself, only where it came. */
export interface FakeThreadsRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  /** `query`, `form`, `bearer` or "" */
  token_in: string;
  content_type: string;
}

export interface FakeThreads extends FakeServer {
  /** Media files served by the fake itself: `${filesUrl}/<name>`, created with POST /__control/files. */
  filesUrl: string;
}

/** What Threads documents: 500 characters, carousels of 2 to 20 items, alt text up to 1,000 characters. */
const MAX_TEXT = 500;
const MAX_ALT_TEXT = 1_000;
const CAROUSEL = { min: 2, max: 20 };
const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
const MAX_VIDEO_BYTES = 1024 * 1024 * 1024;
const DEFAULT_QUOTA: FakeThreadsQuota = { quota_total: 250, reply_quota_total: 1_000, quota_duration: 86_400 };

/**
 * A fake of Meta's Threads API (graph.threads.net) on a real HTTP server, following its published documents:
 * media containers (POST /{user-id}/threads: TEXT, IMAGE `image_url`, VIDEO `video_url`, CAROUSEL `children` of
 * `is_carousel_item` containers, `reply_to_id`, `alt_text`), whose media the fake FETCHES from the URL like Threads
 * (a failed fetch or a type/size Threads does not take fails the container: status ERROR with an `error_message`);
 * GET /{container-id}?fields=status,error_message answering IN_PROGRESS for `polls` polls then FINISHED;
 * POST /{user-id}/threads_publish `creation_id` (the publishing limit enforced there); GET /{user-id}/threads and
 * /{user-id}/replies (`since`, `until`, `limit`, newest first), GET /{id}?fields=… (profile, container, post),
 * /{user-id}/threads_publishing_limit, /{user-id}/threads_insights, /{media-id}/insights; GET /access_token
 * (th_exchange_token) and /refresh_access_token (th_refresh_token). Errors are Graph error bodies
 * `{error: {message, type, code, error_subcode?, fbtrace_id}}`: an unknown token 401 code 190, a bad parameter
 * 400 code 100, the publishing limit 429 code 4.
 *
 * `https://media.invalid/…` URLs are fixtures, "fetched" without a request (a 1 KiB image/png, or video/mp4 when the
 * URL ends in .mp4 or the container is a VIDEO), so the conformance spec's media need no server.
 *
 * Control API (`/__control`): POST /accounts, POST /files `{name, content_type, size}`, GET /posts (oldest first),
 * GET /containers, POST /posts/:id/insights, POST /processing `{polls}`, POST /quota (FakeThreadsQuota),
 * POST /containers/:id/expire, GET/DELETE /requests, POST/DELETE /failures (ScriptedFailure; paths as sent,
 * e.g. `/v1.0/<user-id>/threads_publish`), DELETE /state.
 *
 * With `upstream` (the fake OAuth network's origin), what this server does not know — `/oauth/*` and tokens that
 * are not its accounts' — is passed to it as is.
 */
export async function startFakeThreads(options: { upstream?: string } = {}): Promise<FakeThreads> {
  const accounts = new Map<string, Account>();
  let posts: FakeThreadsPost[] = [];
  const containers = new FakeContainers<FakeThreadsContainer>({
    state: (container) => container.status,
    finish: (container) => {
      if (!container.error_message) container.status = 'FINISHED';
    },
    failCarousel: (container, children) => {
      container.status = 'ERROR';
      container.error_message = children.find((child) => child.error_message)?.error_message ?? 'UNKNOWN';
    },
  });
  let insights = new Map<string, FakeThreadsInsights>();
  let requests: FakeThreadsRequest[] = [];
  let processingPolls = 1;
  let quota = { ...DEFAULT_QUOTA };
  const files = new FakeMediaFiles();
  const failures = new ScriptedFailures();
  let origin = '';
  let sequence = 17_841_000_000_000_000n;
  const newId = () => String((sequence += BigInt(1 + Math.floor(Math.random() * 1000))));

  const permalink = (post: FakeThreadsPost) => {
    const owner = [...accounts.values()].find((account) => account.id === post.account_id);
    return `https://www.threads.net/@${owner?.username ?? 'unknown'}/post/${post.id}`;
  };
  const postJson = (post: FakeThreadsPost): Record<string, unknown> => ({
    id: post.id,
    media_product_type: 'THREADS',
    media_type: post.media_type,
    text: post.text,
    permalink: permalink(post),
    timestamp: post.timestamp.replace(/\.\d{3}Z$/, '+0000'),
    shortcode: post.id.slice(-11),
    is_quote_post: false,
    is_reply: post.reply_to_id !== null,
    ...(post.reply_to_id ? { replied_to: { id: post.reply_to_id }, root_post: { id: post.root_post } } : {}),
    ...(post.media_count > 1 ? { children: { data: Array.from({ length: post.media_count }, (_, i) => ({ id: `${post.id}${i}` })) } } : {}),
    username: [...accounts.values()].find((account) => account.id === post.account_id)?.username ?? '',
  });

  /** Threads downloads the media itself ("we will cURL your image using the URL provided"); a failure fails the container. */
  const fetchMedia = async (container: FakeThreadsContainer) => {
    const isVideo = container.media_type === 'VIDEO';
    const url = isVideo ? container.video_url : container.image_url;
    const fail = (message: string) => {
      container.status = 'ERROR';
      container.error_message = message;
    };
    try {
      const fetched = await fetchMediaUrl(url, isVideo || url.endsWith('.mp4') ? 'video/mp4' : 'image/png');
      if (!fetched) return fail(isVideo ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN');
      const { contentType } = fetched;
      const size = fetched.bytes.length;
      container.fetched_type = contentType;
      container.fetched_size = size;
      const types = isVideo ? VIDEO_TYPES : IMAGE_TYPES;
      if (!types.includes(contentType)) return fail(isVideo ? 'FAILED_PROCESSING_VIDEO' : 'UNKNOWN');
      if (size > (isVideo ? MAX_VIDEO_BYTES : MAX_IMAGE_BYTES)) return fail(isVideo ? 'INVALID_BIT_RATE' : 'UNKNOWN');
    } catch {
      fail(isVideo ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN');
    }
  };

  const within = (account: Account, replies: boolean) => {
    const since = Date.now() - quota.quota_duration * 1000;
    return posts.filter(
      (post) => post.account_id === account.id && (post.reply_to_id !== null) === replies && Date.parse(post.timestamp) > since,
    ).length;
  };

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/accounts' && req.method === 'POST') {
      const request = body as FakeThreadsAccountRequest;
      if (!request.access_token || !request.username) return sendJson(res, 400, { error: 'access_token and username are required' });
      if (request.id && ![...accounts.values()].some((known) => known.id === request.id))
        return sendJson(res, 400, { error: 'unknown account id' });
      const account: Account = { ...request, id: request.id ?? newId() };
      accounts.set(request.access_token, account);
      return sendJson(res, 201, profileJson(account));
    }
    if (path === '/files' && req.method === 'POST') return sendJson(res, 201, files.add(origin, body));
    if (path === '/posts' && req.method === 'GET') return sendJson(res, 200, posts);
    if (path === '/containers' && req.method === 'GET') return sendJson(res, 200, [...containers.all.values()]);
    if (path === '/requests' && req.method === 'GET') return sendJson(res, 200, requests);
    if (path === '/requests' && req.method === 'DELETE') {
      requests = [];
      return sendJson(res, 200, { deleted: true });
    }
    const insightsOf = /^\/posts\/([^/]+)\/insights$/.exec(path);
    if (insightsOf && req.method === 'POST') {
      if (!posts.some((post) => post.id === insightsOf[1])) return sendJson(res, 404, { error: 'unknown post' });
      insights.set(insightsOf[1], { ...insights.get(insightsOf[1]), ...(body as FakeThreadsInsights) });
      return sendJson(res, 200, insights.get(insightsOf[1]));
    }
    const expire = /^\/containers\/([^/]+)\/expire$/.exec(path);
    if (expire && req.method === 'POST') {
      const container = containers.all.get(expire[1]);
      if (!container) return sendJson(res, 404, { error: 'unknown container' });
      container.status = 'EXPIRED';
      return sendJson(res, 200, container);
    }
    if (path === '/processing' && req.method === 'POST') {
      processingPolls = Number((body as { polls?: number }).polls ?? 0);
      return sendJson(res, 200, { polls: processingPolls });
    }
    if (path === '/quota' && req.method === 'POST') {
      quota = { ...quota, ...(body as Partial<FakeThreadsQuota>) };
      return sendJson(res, 200, quota);
    }
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      posts = [];
      containers.clear();
      insights = new Map();
      requests = [];
      failures.clear();
      processingPolls = 1;
      quota = { ...DEFAULT_QUOTA };
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    if (files.serve(req, res, url)) return;
    const { raw, contentType, form, query, token, tokenIn } = await readGraphCall(req, url);
    requests.push({
      method,
      path: url.pathname,
      query: withoutSecrets(query),
      form: withoutSecrets(form),
      token_in: tokenIn,
      content_type: contentType,
    });
    // A short-lived token the OAuth fake issued is traded here: the fake asks it who the token belongs to, as Threads knows.
    if (options.upstream && url.pathname === '/access_token' && token && !accounts.has(token)) {
      const profile = await threadsProfile(options.upstream, token);
      if (profile) accounts.set(token, { access_token: token, username: text(profile.username), id: text(profile.id), profile });
    }
    if (options.upstream && (url.pathname.startsWith('/oauth/') || !accounts.has(token)))
      return forward(req, res, url, raw, options.upstream);
    const failure = failures.take(method, url.pathname);
    if (await failures.before(failure, req, res)) return;
    const answer = (status: number, body: unknown) => answerUnlessLost(failure, req, res, status, body);
    const params = { ...query, ...form };

    if (tradeToken({ method, pathname: url.pathname, params }, accounts, 'th', res, answer)) return;
    const versioned = unversioned(url.pathname);
    if (versioned === undefined) return graphError(res, 400, 2500, 'Unknown path components.');
    const account = accounts.get(token);
    if (!token) return graphError(res, 400, 2500, 'An active access token must be used to query information about the current user.');
    if (!account) return graphError(res, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
    const { node, edge, extra } = graphNode(versioned);
    if (extra !== undefined) return graphError(res, 400, 2500, 'Unknown path components.');
    const isSelf = node === 'me' || node === account.id;

    if (edge === undefined && method === 'GET') {
      if (isSelf) return answer(200, only(profileJson(account), params.fields ?? null));
      const container = containers.all.get(node);
      if (container && container.account_id === account.id) {
        containers.poll(container);
        return answer(
          200,
          only({ id: container.id, status: container.status, error_message: container.error_message || undefined }, params.fields ?? null),
        );
      }
      const post = posts.find((candidate) => candidate.id === node && candidate.account_id === account.id);
      if (post) return answer(200, only(postJson(post), params.fields ?? null));
      return unsupported(res, node);
    }
    if (edge === 'threads' && method === 'POST') {
      if (!isSelf) return graphError(res, 403, 10, 'Application does not have permission for this action');
      return createContainer(account, params, answer, res);
    }
    if (edge === 'threads_publish' && method === 'POST') {
      if (!isSelf) return graphError(res, 403, 10, 'Application does not have permission for this action');
      return publish(account, params, answer, res);
    }
    if ((edge === 'threads' || edge === 'replies') && method === 'GET') {
      if (!isSelf) return graphError(res, 403, 10, 'Application does not have permission for this action');
      const since = params.since ? timeParameter(params.since) : -Infinity;
      const until = params.until ? timeParameter(params.until) : Infinity;
      if (Number.isNaN(since) || Number.isNaN(until))
        return graphError(res, 400, 100, 'Param since or until must be a Unix timestamp or a date.');
      const mine = posts
        .filter((post) => post.account_id === account.id && (post.reply_to_id !== null) === (edge === 'replies'))
        .filter((post) => Date.parse(post.timestamp) >= since && Date.parse(post.timestamp) <= until)
        .reverse();
      return answer(
        200,
        listingPage(mine, params.limit, `${origin}${url.pathname}`, (post) => only(postJson(post), params.fields)),
      );
    }
    if (edge === 'threads_publishing_limit' && method === 'GET') {
      if (!isSelf) return graphError(res, 403, 10, 'Application does not have permission for this action');
      const all: Record<string, unknown> = {
        quota_usage: within(account, false),
        config: { quota_total: quota.quota_total, quota_duration: quota.quota_duration },
        reply_quota_usage: within(account, true),
        reply_config: { quota_total: quota.reply_quota_total, quota_duration: quota.quota_duration },
      };
      return answer(200, publishingLimit(all, params.fields));
    }
    if (edge === 'threads_insights' && method === 'GET') {
      if (!isSelf) return graphError(res, 403, 10, 'Application does not have permission for this action');
      const metrics = (params.metric ?? '').split(',').filter(Boolean);
      const known = ['views', 'likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count', 'follower_demographics'];
      if (metrics.length === 0 || metrics.some((metric) => !known.includes(metric)))
        return graphError(res, 400, 100, 'Param metric must be one of the documented user insights metrics.');
      return answer(200, {
        data: metrics.map((metric) =>
          metric === 'followers_count'
            ? {
                name: metric,
                period: 'day',
                title: 'followers_count',
                description: '',
                total_value: { value: account.followers_count ?? 12 },
                id: `${account.id}/insights/${metric}/day`,
              }
            : {
                name: metric,
                period: 'day',
                title: metric,
                description: '',
                values: [{ value: 0, end_time: new Date().toISOString() }],
                id: `${account.id}/insights/${metric}/day`,
              },
        ),
      });
    }
    if (edge === 'insights' && method === 'GET') {
      const post = posts.find((candidate) => candidate.id === node && candidate.account_id === account.id);
      if (!post) return unsupported(res, node);
      const metrics = (params.metric ?? '').split(',').filter(Boolean);
      const known = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];
      if (metrics.length === 0 || metrics.some((metric) => !known.includes(metric)))
        return graphError(res, 400, 100, 'Param metric must be one of views, likes, replies, reposts, quotes, shares.');
      return answer(200, lifetimeInsights(post.id, metrics, { ...insights.get(post.id) }));
    }
    return unsupported(res, node);
  }

  function createContainer(account: Account, params: Record<string, string>, answer: Answer, res: ServerResponse): void {
    const mediaType = params.media_type ?? '';
    const isCarouselItem = params.is_carousel_item === 'true';
    const text = params.text ?? '';
    if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(mediaType))
      return graphError(res, 400, 100, 'Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}.');
    if (mediaType === 'TEXT' && !text) return graphError(res, 400, 100, 'Param text is required for media_type TEXT.');
    if ([...text].length > MAX_TEXT) return graphError(res, 400, 100, `Param text must be at most ${MAX_TEXT} characters long.`);
    if ((params.alt_text ?? '').length > MAX_ALT_TEXT)
      return graphError(res, 400, 100, `Param alt_text must be at most ${MAX_ALT_TEXT} characters long.`);
    if (mediaType === 'IMAGE' && !httpUrl(params.image_url))
      return graphError(res, 400, 100, 'Param image_url is required for media_type IMAGE.');
    if (mediaType === 'VIDEO' && !httpUrl(params.video_url))
      return graphError(res, 400, 100, 'Param video_url is required for media_type VIDEO.');
    if (isCarouselItem && (mediaType === 'TEXT' || mediaType === 'CAROUSEL'))
      return graphError(res, 400, 100, 'Only IMAGE and VIDEO containers can be carousel items.');
    if (isCarouselItem && params.reply_to_id) return graphError(res, 400, 100, 'A carousel item cannot be a reply.');
    const items = mediaType === 'CAROUSEL' ? containers.carouselChildren(res, account.id, params.children ?? '', CAROUSEL) : [];
    if (!items) return;
    const children = items.map((child) => child.id);
    if (params.reply_to_id && !posts.some((post) => post.id === params.reply_to_id))
      return graphError(res, 400, 100, 'Param reply_to_id must name an existing post.', 33);
    const container: FakeThreadsContainer = {
      id: newId(),
      account_id: account.id,
      media_type: mediaType,
      text,
      image_url: params.image_url ?? '',
      video_url: params.video_url ?? '',
      alt_text: params.alt_text ?? '',
      is_carousel_item: isCarouselItem,
      children,
      reply_to_id: params.reply_to_id ?? '',
      status: 'IN_PROGRESS',
      error_message: '',
      polls_left: mediaType === 'TEXT' ? 0 : processingPolls,
      fetched_type: '',
      fetched_size: 0,
      created_at: new Date().toISOString(),
    };
    containers.add(container, mediaType === 'IMAGE' || mediaType === 'VIDEO' ? () => fetchMedia(container) : undefined);
    return answer(200, { id: container.id });
  }

  function publish(account: Account, params: Record<string, string>, answer: Answer, res: ServerResponse): void {
    const container = containers.publishable(res, account.id, params.creation_id);
    if (!container) return;
    if (container.status !== 'FINISHED') return graphError(res, 400, 100, `The media container cannot be published (${container.status}).`);
    const reply = container.reply_to_id !== '';
    const usage = within(account, reply);
    if (usage >= (reply ? quota.reply_quota_total : quota.quota_total))
      return graphError(res, 429, 4, 'Application request limit reached', undefined, 'OAuthException');
    const parent = posts.find((post) => post.id === container.reply_to_id);
    const children = container.children.map((id) => containers.all.get(id)!);
    const post: FakeThreadsPost = {
      id: newId(),
      account_id: account.id,
      text: container.text,
      media_type:
        container.media_type === 'TEXT' ? 'TEXT_POST' : container.media_type === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : container.media_type,
      media_count: container.media_type === 'CAROUSEL' ? children.length : container.media_type === 'TEXT' ? 0 : 1,
      reply_to_id: parent?.id ?? null,
      root_post: '',
      timestamp: new Date().toISOString(),
      container_id: container.id,
    };
    post.root_post = parent ? parent.root_post : post.id;
    posts.push(post);
    container.status = 'PUBLISHED';
    return answer(200, { id: post.id });
  }

  const server = await startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
  origin = server.origin;
  return { ...server, filesUrl: `${origin}/files` };
}

interface Account extends FakeThreadsAccountRequest {
  id: string;
  /** The profile the OAuth fake answered for an account it connected (answered as is by GET /me). */
  profile?: Record<string, unknown>;
}

/** The profile the OAuth fake answers for `token` (its GET /v1.0/me), or undefined when it does not know the token. */
async function threadsProfile(upstream: string, token: string): Promise<Record<string, unknown> | undefined> {
  const profile = await upstreamProfile(upstream, '/v1.0/me?fields=id,username,name,threads_profile_picture_url', token);
  return profile && text(profile.id) && text(profile.username) ? profile : undefined;
}

type Answer = (status: number, body: unknown) => void;

const profileJson = (account: Account): Record<string, unknown> =>
  account.profile ?? {
    id: account.id,
    username: account.username,
    name: account.name ?? account.username,
    threads_profile_picture_url: `https://scontent.cdninstagram.com/v/${account.id}.jpg`,
    threads_biography: '',
  };
