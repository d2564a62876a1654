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
  NOT_READY,
  only,
  publishingLimit,
  readGraphCall,
  text,
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
import { FakeFacebookLogin } from './fake-instagram-facebook-login.js';

/** An account of the fake Instagram (a professional account), reached with `access_token` (a parameter, or a Bearer). */
export interface FakeInstagramAccountRequest {
  access_token: string;
  username: string;
  name?: string;
  followers_count?: number;
  follows_count?: number;
  /** The Instagram user id of an account made before: a second token of the same account. */
  id?: string;
}

/** A published media object as the fake holds it. */
export interface FakeInstagramMedia {
  id: string;
  account_id: string;
  caption: string;
  /** IMAGE, VIDEO or CAROUSEL_ALBUM. */
  media_type: string;
  /** FEED or REELS. */
  media_product_type: string;
  /** How many images and videos it carries. */
  media_count: number;
  /** What Instagram fetched for each item: its type and size, whether it carried EXIF metadata, and an image's alt text. */
  items: Array<{ media_type: string; url: string; fetched_type: string; fetched_size: number; fetched_exif: boolean; alt_text: string }>;
  timestamp: string;
  container_id: string;
}

/** A media container (POST /{ig-user-id}/media) as the fake holds it. */
export interface FakeInstagramContainer {
  id: string;
  account_id: string;
  /** IMAGE (no media_type sent), REELS, VIDEO (carousel items only) or CAROUSEL. */
  media_type: string;
  caption: string;
  image_url: string;
  video_url: string;
  alt_text: string;
  is_carousel_item: boolean;
  children: string[];
  /** IN_PROGRESS, FINISHED, ERROR, EXPIRED or PUBLISHED (Instagram's `status_code`). */
  status_code: string;
  /** With ERROR, the reason and its subcode (Instagram's `status`). */
  status: string;
  polls_left: number;
  fetched_type: string;
  fetched_size: number;
  /** Whether the fetched bytes carry an EXIF block (an `Exif\0\0` APP1 segment or PNG eXIf chunk). */
  fetched_exif: boolean;
  created_at: string;
}

export interface FakeInstagramComment {
  id: string;
  media_id: string;
  message: string;
}

/** Counters a test sets on a media object (GET /{ig-media-id}/insights answers them). */
export type FakeInstagramInsights = Partial<Record<(typeof MEDIA_METRICS)[number], number>>;

/** One request as received (for specs checking shapes): never the token itself, only where it came. */
export interface FakeInstagramRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  /** `query`, `form`, `bearer` or "" */
  token_in: string;
  /** Whose token it was: `instagram:<ig-user-id>` (Instagram Login), `page:<page-id>` or `user:<id>` (Facebook Login), or "". */
  token_of: string;
}

const MAX_CAPTION = 2_200;
const MAX_ALT_TEXT = 1_000;
const CAROUSEL = { min: 2, max: 10 };
const IMAGE_TYPES = ['image/jpeg'];
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
const MAX_VIDEO_BYTES = 300 * 1024 * 1024;
/** The current media metrics (v22.0 retired impressions, plays and video_views). */
const MEDIA_METRICS = [
  'views',
  'reach',
  'likes',
  'comments',
  'shares',
  'saved',
  'total_interactions',
  'profile_visits',
  'follows',
] as const;
const PROFILE_FIELDS = 'user_id,username,name,profile_picture_url';

/**
 * A fake of the Instagram API with Instagram Login (graph.instagram.com) on a real HTTP server, following its
 * published documents: containers (POST /{ig-user-id}/media: an image `image_url` with `alt_text`, a reel
 * `media_type=REELS` `video_url`, carousel items `is_carousel_item=true` (images, or `media_type=VIDEO`), a CAROUSEL of
 * 2 to 10 `children`; `caption`), whose media the fake FETCHES from the URL like Instagram (a failed fetch, or a type
 * or size Instagram does not take — JPEG only for images — ends the container in ERROR with a subcode in `status`);
 * GET /{container-id}?fields=status_code,status answering IN_PROGRESS for `polls` polls then FINISHED;
 * POST /{ig-user-id}/media_publish `creation_id` (400 code 9007 / 2207027 when not ready, 400 code 9 / 2207042 past
 * the publishing limit); GET /{ig-user-id}/content_publishing_limit; GET /{ig-user-id}/media (newest first, `limit`);
 * GET /{id}?fields=… (profile with followers_count/follows_count/media_count, container, media with permalink);
 * POST /{ig-media-id}/comments `message`; GET /{ig-media-id}/insights `metric` (current names only);
 * GET /access_token (ig_exchange_token, with client_secret) and /refresh_access_token (ig_refresh_token). Errors are
 * Graph error bodies: an unknown token 401 code 190, a bad parameter 400 code 100.
 *
 * Instagram API with Facebook Login on the same paths (graph.facebook.com's, which PROVIDER_API_ORIGINS sends here too):
 * the fb_exchange_token trade and GET /me/accounts (fake-instagram-facebook-login.ts); a Page token acts for the
 * Instagram account linked to its Page only (another account's edges: 403 code 10; a Page without one: code 100).
 *
 * `https://media.invalid/…` URLs are fixtures "fetched" without a request (1 KiB of image/jpeg, or video/mp4 for a
 * video container), so the conformance spec's media need no server.
 *
 * Control API (`/__control`): POST /accounts, POST /files `{name, content_type, size}`, GET /posts (oldest first),
 * GET /containers, GET /comments, POST /posts/:id/insights, POST /processing `{polls}`, POST /facebook-users, POST /listing
 * `{size}` (Facebook Login), POST /container-errors
 * `{times, subcode?}` (the next `times` image or video containers end in ERROR), POST /quota `{quota_total}`,
 * GET/DELETE /requests, POST/DELETE /failures (ScriptedFailure; paths as sent, e.g. `/v27.0/<id>/media_publish`),
 * DELETE /state.
 *
 * With `upstream` (the fake OAuth network's origin), what this server does not know — `/oauth/*` and tokens that
 * are not its accounts' — is passed to it as is; a short-lived token it issued is traded at GET /access_token.
 */
export async function startFakeInstagram(options: { upstream?: string } = {}): Promise<FakeInstagram> {
  const accounts = new Map<string, Account>();
  let posts: FakeInstagramMedia[] = [];
  const containers = new FakeContainers<FakeInstagramContainer>({
    state: (container) => container.status_code,
    finish: (container) => {
      container.status_code = 'FINISHED';
    },
    failCarousel: (container) => fail(container, 2207032, 'a carousel item failed'),
  });
  let comments: FakeInstagramComment[] = [];
  let insights = new Map<string, FakeInstagramInsights>();
  let requests: FakeInstagramRequest[] = [];
  let processingPolls = 1;
  let containerErrors = { times: 0, subcode: 2207053 };
  let quotaTotal = 50;
  const files = new FakeMediaFiles();
  const failures = new ScriptedFailures();
  let origin = '';
  let sequence = 17_900_000_000_000_000n;
  const newId = () => String((sequence += BigInt(1 + Math.floor(Math.random() * 1000))));
  const facebookLogin = new FakeFacebookLogin(accounts, newId, options.upstream);
  const tokenOf = (token: string) => {
    const account = accounts.get(token);
    if (account && !account.page_id) return `instagram:${account.id}`;
    return facebookLogin.tokenOf(token);
  };

  const ownerOf = (accountId: string) => [...accounts.values()].find((account) => account.id === accountId);
  const permalink = (post: FakeInstagramMedia) =>
    `https://www.instagram.com/${post.media_product_type === 'REELS' ? 'reel' : 'p'}/${shortcode(post.id)}/`;
  const mediaJson = (post: FakeInstagramMedia): Record<string, unknown> => ({
    id: post.id,
    caption: post.caption || undefined,
    media_type: post.media_type,
    media_product_type: post.media_product_type,
    permalink: permalink(post),
    shortcode: shortcode(post.id),
    timestamp: post.timestamp.replace(/\.\d{3}Z$/, '+0000'),
    username: ownerOf(post.account_id)?.username ?? '',
    like_count: insights.get(post.id)?.likes ?? 0,
    comments_count: comments.filter((comment) => comment.media_id === post.id).length,
  });
  const profileJson = (account: Account): Record<string, unknown> => ({
    id: account.id,
    user_id: account.id,
    username: account.username,
    name: account.name ?? account.username,
    profile_picture_url: `https://scontent.cdninstagram.com/v/${account.id}.jpg`,
    account_type: 'BUSINESS',
    followers_count: account.followers_count ?? 42,
    follows_count: account.follows_count ?? 7,
    media_count: posts.filter((post) => post.account_id === account.id).length,
  });
  function fail(container: FakeInstagramContainer, subcode: number, reason: string): void {
    container.status_code = 'ERROR';
    container.status = `Error: ${reason} (${subcode})`;
  }

  /** Instagram cURLs the media itself; a fetch that fails, or a type or size it does not take, fails the container. */
  const fetchMedia = async (container: FakeInstagramContainer) => {
    const isVideo = container.media_type !== 'IMAGE';
    const url = isVideo ? container.video_url : container.image_url;
    try {
      const fetched = await fetchMediaUrl(url, isVideo ? 'video/mp4' : 'image/jpeg');
      if (!fetched) return fail(container, 2207052, 'the media could not be fetched from this URI');
      const { contentType, bytes } = fetched;
      const size = bytes.length;
      const exif = !isVideo && (bytes.includes(Buffer.from('Exif\0\0', 'latin1')) || bytes.includes(Buffer.from('eXIf', 'latin1')));
      container.fetched_type = contentType;
      container.fetched_size = size;
      container.fetched_exif = exif;
      if (!(isVideo ? VIDEO_TYPES : IMAGE_TYPES).includes(contentType)) return fail(container, 2207026, 'unsupported media format');
      if (size > (isVideo ? MAX_VIDEO_BYTES : MAX_IMAGE_BYTES)) return fail(container, 2207004, 'the media is too large');
      if (containerErrors.times > 0) {
        containerErrors.times -= 1;
        return fail(container, containerErrors.subcode, 'unknown upload error');
      }
    } catch {
      fail(container, 2207003, 'it takes too long to download the media');
    }
  };

  const usedQuota = (account: Account) =>
    posts.filter((post) => post.account_id === account.id && Date.parse(post.timestamp) > Date.now() - 86_400_000).length;

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/accounts' && req.method === 'POST') {
      const request = body as FakeInstagramAccountRequest;
      if (!request.access_token || !request.username) return sendJson(res, 400, { error: 'access_token and username are required' });
      const account: Account = { ...request, id: request.id ?? newId() };
      accounts.set(request.access_token, account);
      return sendJson(res, 201, profileJson(account));
    }
    if (path === '/files' && req.method === 'POST') return sendJson(res, 201, files.add(origin, body));
    if (path === '/posts' && req.method === 'GET') return sendJson(res, 200, posts);
    if (path === '/containers' && req.method === 'GET') return sendJson(res, 200, [...containers.all.values()]);
    if (path === '/comments' && req.method === 'GET') return sendJson(res, 200, comments);
    if (path === '/requests' && req.method === 'GET') return sendJson(res, 200, requests);
    if (path === '/requests' && req.method === 'DELETE') {
      requests = [];
      return sendJson(res, 200, { deleted: true });
    }
    const insightsOf = /^\/posts\/([^/]+)\/insights$/.exec(path);
    if (insightsOf && req.method === 'POST') {
      if (!posts.some((post) => post.id === insightsOf[1])) return sendJson(res, 404, { error: 'unknown post' });
      insights.set(insightsOf[1], { ...insights.get(insightsOf[1]), ...(body as FakeInstagramInsights) });
      return sendJson(res, 200, insights.get(insightsOf[1]));
    }
    if (path === '/processing' && req.method === 'POST') {
      processingPolls = Number((body as { polls?: number }).polls ?? 0);
      return sendJson(res, 200, { polls: processingPolls });
    }
    if (path === '/container-errors' && req.method === 'POST') {
      const { times, subcode } = body as { times?: number; subcode?: number };
      containerErrors = { times: Number(times ?? 1), subcode: Number(subcode ?? 2207053) };
      return sendJson(res, 200, containerErrors);
    }
    if (path === '/quota' && req.method === 'POST') {
      quotaTotal = Number((body as { quota_total?: number }).quota_total ?? 50);
      return sendJson(res, 200, { quota_total: quotaTotal });
    }
    if (failures.control(path, req.method, body, res)) return;
    if (facebookLogin.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      posts = [];
      containers.clear();
      comments = [];
      insights = new Map();
      requests = [];
      failures.clear();
      processingPolls = 1;
      containerErrors = { times: 0, subcode: 2207053 };
      quotaTotal = 50;
      facebookLogin.resetListing();
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    if (files.serve(req, res, url)) return;
    const { raw, form, query, token, tokenIn } = await readGraphCall(req, url);
    requests.push({
      method,
      path: url.pathname,
      query: withoutSecrets(query, ['access_token', 'client_secret']),
      form: withoutSecrets(form),
      token_in: tokenIn,
      token_of: tokenOf(token),
    });
    // A short-lived token the OAuth fake issued is traded here: the fake asks it whose token it is, as Instagram knows.
    if (options.upstream && url.pathname === '/access_token' && token && !accounts.has(token)) {
      const profile = await instagramProfile(options.upstream, token);
      if (profile) accounts.set(token, { access_token: token, username: text(profile.username), id: text(profile.user_id), profile });
    }
    const params = { ...query, ...form };
    const versioned = unversioned(url.pathname);
    // Facebook Login's token trade names the user token as `fb_exchange_token`, not as the access token.
    const exchange = versioned === '/oauth/access_token' && params.grant_type === 'fb_exchange_token';
    const known = accounts.has(token) || facebookLogin.knows(token);
    if (options.upstream && !exchange && (url.pathname.startsWith('/oauth/') || versioned === '/oauth/access_token' || !known))
      return forward(req, res, url, raw, options.upstream);
    const failure = failures.take(method, url.pathname);
    if (await failures.before(failure, req, res)) return;
    const answer = (status: number, body: unknown) => answerUnlessLost(failure, req, res, status, body);
    if (await facebookLogin.api({ method, pathname: url.pathname, versioned, params, token }, res, answer)) return;

    if (tradeToken({ method, pathname: url.pathname, params }, accounts, 'ig', res, answer)) return;
    if (versioned === undefined) return graphError(res, 400, 2500, 'Unknown path components.');
    if (!token) return graphError(res, 400, 2500, 'An active access token must be used to query information about the current user.');
    const account = accounts.get(token);
    const { node, edge, extra } = graphNode(versioned);
    // A Facebook user token, or a Page token of a Page without a linked account, reaches no Instagram account.
    if (!account && facebookLogin.knows(token)) return unsupported(res, node);
    if (!account) return graphError(res, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (extra !== undefined) return graphError(res, 400, 2500, 'Unknown path components.');
    // With a Page token, `me` is the Page, not the Instagram account: it is named by its id.
    const isSelf = (node === 'me' && !account.page_id) || node === account.id;
    const notOwn = () => graphError(res, 403, 10, 'Application does not have permission for this action');

    if (edge === undefined && method === 'GET') {
      if (isSelf) return answer(200, only({ ...profileJson(account), ...account.profile }, params.fields));
      const container = containers.all.get(node);
      if (container && container.account_id === account.id) {
        containers.poll(container);
        return answer(200, only({ id: container.id, status_code: container.status_code, status: container.status }, params.fields));
      }
      const post = posts.find((candidate) => candidate.id === node && candidate.account_id === account.id);
      if (post) return answer(200, only(mediaJson(post), params.fields));
      return unsupported(res, node);
    }
    if (edge === 'media' && method === 'POST') return isSelf ? createContainer(account, params, answer, res) : notOwn();
    if (edge === 'media_publish' && method === 'POST') return isSelf ? publish(account, params, answer, res) : notOwn();
    if (edge === 'media' && method === 'GET') {
      if (!isSelf) return notOwn();
      const mine = posts.filter((post) => post.account_id === account.id).reverse();
      return answer(
        200,
        listingPage(mine, params.limit, `${origin}${url.pathname}`, (post) => only(mediaJson(post), params.fields)),
      );
    }
    if (edge === 'content_publishing_limit' && method === 'GET') {
      if (!isSelf) return notOwn();
      const all: Record<string, unknown> = { quota_usage: usedQuota(account), config: { quota_total: quotaTotal, quota_duration: 86_400 } };
      return answer(200, publishingLimit(all, params.fields));
    }
    if (edge === 'comments' && method === 'POST') {
      const post = posts.find((candidate) => candidate.id === node);
      if (!post) return unsupported(res, node);
      const message = params.message ?? '';
      if (!message) return graphError(res, 400, 100, 'Param message is required.');
      if (message.length > MAX_CAPTION) return graphError(res, 400, 100, `Param message must be at most ${MAX_CAPTION} characters long.`);
      const comment = { id: newId(), media_id: post.id, message };
      comments.push(comment);
      return answer(200, { id: comment.id });
    }
    if (edge === 'insights' && method === 'GET') {
      const post = posts.find((candidate) => candidate.id === node && candidate.account_id === account.id);
      if (!post) return unsupported(res, node);
      const metrics = (params.metric ?? '').split(',').filter(Boolean);
      if (metrics.length === 0 || metrics.some((metric) => !(MEDIA_METRICS as readonly string[]).includes(metric)))
        return graphError(res, 400, 100, `Param metric must be one of ${MEDIA_METRICS.join(', ')}.`);
      return answer(200, lifetimeInsights(post.id, metrics, { ...insights.get(post.id) }));
    }
    return unsupported(res, node);
  }

  function createContainer(account: Account, params: Record<string, string>, answer: Answer, res: ServerResponse): void {
    const mediaType = params.media_type ?? 'IMAGE';
    const isCarouselItem = params.is_carousel_item === 'true';
    const caption = params.caption ?? '';
    if (!['IMAGE', 'REELS', 'VIDEO', 'CAROUSEL'].includes(mediaType))
      return graphError(res, 400, 100, 'Param media_type must be one of {REELS, VIDEO, CAROUSEL, STORIES}.');
    if (caption.length > MAX_CAPTION) return graphError(res, 400, 100, `Param caption must be at most ${MAX_CAPTION} characters long.`);
    if ((params.alt_text ?? '').length > MAX_ALT_TEXT)
      return graphError(res, 400, 100, `Param alt_text must be at most ${MAX_ALT_TEXT} characters long.`);
    if (params.alt_text && mediaType !== 'IMAGE') return graphError(res, 400, 100, 'Param alt_text is only supported for images.');
    if (mediaType === 'IMAGE' && !httpUrl(params.image_url)) return graphError(res, 400, 100, 'Param image_url is required.');
    if ((mediaType === 'REELS' || mediaType === 'VIDEO') && !httpUrl(params.video_url))
      return graphError(res, 400, 100, 'Param video_url is required for media_type REELS or VIDEO.');
    if (mediaType === 'VIDEO' && !isCarouselItem)
      return graphError(res, 400, 100, 'The VIDEO media type is only for carousel items; single videos are REELS.');
    if (isCarouselItem && (mediaType === 'CAROUSEL' || mediaType === 'REELS'))
      return graphError(res, 400, 100, 'Only images and VIDEO containers can be carousel items.');
    if (isCarouselItem && caption) return graphError(res, 400, 100, 'Carousel items take no caption; the carousel does.');
    const items = mediaType === 'CAROUSEL' ? containers.carouselChildren(res, account.id, params.children ?? '', CAROUSEL) : [];
    if (!items) return;
    // Instagram makes a carousel only of items already FINISHED.
    if (items.some((child) => child.status_code !== 'FINISHED')) return graphError(res, 400, 9007, NOT_READY, 2207027);
    const children = items.map((child) => child.id);
    const container: FakeInstagramContainer = {
      id: newId(),
      account_id: account.id,
      media_type: mediaType,
      caption,
      image_url: params.image_url ?? '',
      video_url: params.video_url ?? '',
      alt_text: params.alt_text ?? '',
      is_carousel_item: isCarouselItem,
      children,
      status_code: 'IN_PROGRESS',
      status: '',
      polls_left: processingPolls,
      fetched_type: '',
      fetched_size: 0,
      fetched_exif: false,
      created_at: new Date().toISOString(),
    };
    containers.add(container, mediaType !== 'CAROUSEL' ? () => fetchMedia(container) : undefined);
    return answer(200, { id: container.id });
  }

  function publish(account: Account, params: Record<string, string>, answer: Answer, res: ServerResponse): void {
    const container = containers.publishable(res, account.id, params.creation_id);
    if (!container) return;
    if (container.status_code === 'EXPIRED')
      return graphError(res, 400, -2, 'The media you are trying to access has expired. Please try to upload again.', 2207020);
    if (container.status_code !== 'FINISHED')
      return graphError(res, 400, 100, `The media container cannot be published (${container.status_code}).`);
    if (usedQuota(account) >= quotaTotal)
      return graphError(
        res,
        400,
        9,
        'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
        2207042,
      );
    const items = (container.media_type === 'CAROUSEL' ? container.children.map((id) => containers.all.get(id)!) : [container]).map(
      (item) => ({
        media_type: item.media_type === 'IMAGE' ? 'IMAGE' : 'VIDEO',
        url: item.image_url || item.video_url,
        fetched_type: item.fetched_type,
        fetched_size: item.fetched_size,
        fetched_exif: item.fetched_exif,
        alt_text: item.alt_text,
      }),
    );
    const post: FakeInstagramMedia = {
      id: newId(),
      account_id: account.id,
      caption: container.caption,
      media_type: container.media_type === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : container.media_type === 'REELS' ? 'VIDEO' : 'IMAGE',
      media_product_type: container.media_type === 'REELS' ? 'REELS' : 'FEED',
      media_count: items.length,
      items,
      timestamp: new Date().toISOString(),
      container_id: container.id,
    };
    posts.push(post);
    container.status_code = 'PUBLISHED';
    return answer(200, { id: post.id });
  }

  const server = await startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
  origin = server.origin;
  return { ...server, filesUrl: `${origin}/files` };
}

export interface FakeInstagram extends FakeServer {
  /** Media files served by the fake itself: `${filesUrl}/<name>`, created with POST /__control/files. */
  filesUrl: string;
}

interface Account extends FakeInstagramAccountRequest {
  id: string;
  /** Set for a Page token (Facebook Login): the Page whose linked account it acts for. */
  page_id?: string;
  /** The profile the OAuth fake answered for an account it connected (answered as is by GET /me). */
  profile?: Record<string, unknown>;
}

type Answer = (status: number, body: unknown) => void;

/** An 11-character shortcode of an id, as permalinks carry. */
const shortcode = (id: string) => BigInt(id).toString(36).padStart(11, 'C').slice(-11);

/** The profile the OAuth fake answers for `token` (its GET /v27.0/me), or undefined when it does not know the token. */
async function instagramProfile(upstream: string, token: string): Promise<Record<string, unknown> | undefined> {
  const profile = await upstreamProfile(upstream, `/v27.0/me?fields=${PROFILE_FIELDS}`, token);
  return profile && text(profile.user_id) && text(profile.username) ? profile : undefined;
}
