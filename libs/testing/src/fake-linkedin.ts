import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  bearerToken,
  CONTROL_PREFIX,
  drain,
  forward,
  FakeServer,
  readRaw,
  readStreamed,
  ScriptedFailure,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** A member of the fake LinkedIn, reached with `access_token` as a Bearer. */
export interface FakeLinkedInMemberRequest {
  access_token: string;
  /** The person id: userinfo's `sub`, the author URN's last part. */
  person_id: string;
  name?: string;
  /**
   * The scopes its token was granted; absent: every scope the fake checks (organization pages need
   * r_organization_admin to be read, w_organization_social to be posted as, r_organization_social to list their posts).
   */
  scopes?: string[];
}

/** An organization page of the fake LinkedIn. */
export interface FakeLinkedInOrganizationRequest {
  /** The organization id: `urn:li:organization:<id>`. */
  id: string;
  localized_name: string;
  vanity_name: string;
  /** Its follower count (networkSizes' firstDegreeSize). */
  followers?: number;
  /** Person ids holding an APPROVED ADMINISTRATOR role. */
  administrators: string[];
}

/** Lifetime statistics of one post, as organizationalEntityShareStatistics answers them for its page. */
export interface FakeLinkedInStatisticsRequest {
  post_id: string;
  impressionCount?: number;
  likeCount?: number;
  commentCount?: number;
  shareCount?: number;
}

/** A post as the fake holds it. */
export interface FakeLinkedInPost {
  /** urn:li:share:<n> */
  id: string;
  author: string;
  /** The commentary as sent (little text format). */
  commentary: string;
  /** What LinkedIn shows of it: escapes undone, the text cut at an unescaped reserved character. */
  text: string;
  /** Image and video URNs it carries. */
  media: string[];
  alt_texts: string[];
  visibility: string;
  lifecycle_state: string;
  created_at: number;
}

/** An image or video initialized through the Images or Videos API. */
export interface FakeLinkedInMedia {
  urn: string;
  kind: 'image' | 'video';
  owner: string;
  /** Videos: the size initialized. */
  file_size: number;
  /** Bytes received, over every part. */
  received: number;
  /** Videos: the ETag answered for each part, in order ('' until uploaded). */
  etags: string[];
  upload_token: string;
  /** WAITING_UPLOAD, PROCESSING, AVAILABLE or PROCESSING_FAILED. */
  status: string;
  /** GET answers PROCESSING this many more times before AVAILABLE. */
  polls_left: number;
  /** When set, processing ends in PROCESSING_FAILED. */
  fails: boolean;
}

export type FakeLinkedIn = FakeServer;

/** LinkedIn's Videos API parts: 4 MiB each, the last one shorter. */
export const FAKE_LINKEDIN_VIDEO_PART_BYTES = 4 * 1024 * 1024;
/** The oldest `LinkedIn-Version` the fake serves (LinkedIn serves each monthly version for about a year). */
const OLDEST_ACTIVE_VERSION = '202511';
const MAX_COMMENTARY = 3_000;
const MAX_VIDEO_BYTES = 5 * 1024 * 1024 * 1024;
const RESERVED = new Set(['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~']);

/** LinkedIn's error body: `{status, serviceErrorCode?, code?, message}`. */
const error = (status: number, message: string, extra: Record<string, unknown> = {}) => ({ status, ...extra, message });
/** LinkedIn's refusal of a call the token's member or scopes may not make. */
const accessDenied = (what: string) =>
  error(403, `Not enough permissions to access: ${what}`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
const ORGANIZATION = 'urn:li:organization:';

/**
 * What LinkedIn shows of little text: `\x` is x; an unescaped `#word` is a hashtag (shown as is); any other
 * unescaped reserved character starts an element that is not one, and LinkedIn silently drops the text from there.
 */
export function shownLittleText(little: string): string {
  let shown = '';
  const characters = [...little];
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index];
    if (character === '\\' && index + 1 < characters.length) {
      shown += characters[++index];
    } else if (character === '#' && /^[\p{L}\p{N}_]/u.test(characters[index + 1] ?? '')) {
      shown += character;
    } else if (RESERVED.has(character)) {
      break;
    } else {
      shown += character;
    }
  }
  return shown;
}

/**
 * A fake LinkedIn on a real HTTP server, following LinkedIn's published documents (the adapter's README.md):
 *
 * - every `/rest/*` call must carry `LinkedIn-Version` (missing → 400 VERSION_MISSING; a version not served →
 *   426 NONEXISTENT_VERSION) and `X-Restli-Protocol-Version: 2.0.0` (else 400);
 * - GET /v2/userinfo (OpenID Connect) for its members;
 * - POST /rest/posts → 201, empty body, the post's URN in `x-restli-id`; the author must be the member
 *   (403), commentary at most 3,000 characters (422), the same commentary twice → 422 DUPLICATE_POST;
 *   `content.media` one AVAILABLE image or video of the author, `content.multiImage` 2–20 images;
 * - GET /rest/posts?author=<urn>&q=author&count&sortBy (newest change first), `{elements, paging}`;
 * - POST /rest/images?action=initializeUpload → an upload URL on this server, PUT the bytes (201), GET
 *   /rest/images/<urn>; POST /rest/videos?action=initializeUpload → 4 MiB parts' URLs, PUT each (200 + ETag),
 *   POST /rest/videos?action=finalizeUpload with the ETags in order, GET /rest/videos/<urn> (PROCESSING for
 *   POST /processing `{polls}` polls, then AVAILABLE, or PROCESSING_FAILED after POST /processing `{fail: true}`);
 * - an unknown Bearer → 401 `{status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN'}`; a token
 *   revoked through the control API → 401 REVOKED_ACCESS_TOKEN;
 * - organization pages (Community Management API): GET /rest/organizationAcls?q=roleAssignee (the member's
 *   APPROVED ADMINISTRATOR roles, `role`/`state`/`start`/`count` honoured), GET /rest/organizations/<id>, GET
 *   /rest/networkSizes/<urn>?edgeType=COMPANY_FOLLOWED_BY_MEMBER, GET /rest/organizationalEntityShareStatistics
 *   ?q=organizationalEntity with `shares=List(…)` or `ugcPosts=List(…)` (URL-encoded URNs, never both); a page is
 *   read, posted as (posts and media owned by its URN) and its posts listed only by its administrators, with the
 *   scopes each needs (403 ACCESS_DENIED otherwise).
 *
 * Control API (`/__control`): POST /accounts (FakeLinkedInMemberRequest), POST /organizations
 * (FakeLinkedInOrganizationRequest), POST /statistics (FakeLinkedInStatisticsRequest), POST /revoke `{access_token}`,
 * GET /posts (oldest first), GET /media, POST /processing `{polls?, fail?}`, POST/DELETE /failures
 * (ScriptedFailure, paths such as `/rest/posts`), DELETE /state.
 *
 * With `upstream` (the fake OAuth network's origin), `/oauth/*` and requests whose Bearer is none of its members
 * are passed on to it as they are, so a stack connects a member through the OAuth fake, then publishes here
 * (register the same access token with POST /accounts).
 */
export async function startFakeLinkedIn(options: { upstream?: string } = {}): Promise<FakeLinkedIn> {
  const members = new Map<string, FakeLinkedInMemberRequest>();
  const organizations = new Map<string, FakeLinkedInOrganizationRequest>();
  let statistics = new Map<string, FakeLinkedInStatisticsRequest>();
  const revoked = new Set<string>();
  let posts: FakeLinkedInPost[] = [];
  let media = new Map<string, FakeLinkedInMedia>();
  const failures = new ScriptedFailures();
  let processing = { polls: 0, fail: false };
  let nextId = 7_100_000_000_000_000_000n;
  const newId = () => String((nextId += 1n));
  let origin = '';

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/accounts' && req.method === 'POST') {
      const member = body as FakeLinkedInMemberRequest;
      if (!member.access_token || !member.person_id) return sendJson(res, 400, { error: 'access_token and person_id are required' });
      members.set(member.access_token, member);
      revoked.delete(member.access_token);
      return sendJson(res, 201, { sub: member.person_id, author: `urn:li:person:${member.person_id}` });
    }
    if (path === '/organizations' && req.method === 'POST') {
      const organization = body as FakeLinkedInOrganizationRequest;
      if (!/^\d+$/.test(String(organization.id)) || !Array.isArray(organization.administrators))
        return sendJson(res, 400, { error: 'a numeric id and administrators are required' });
      organizations.set(String(organization.id), organization);
      return sendJson(res, 201, { urn: `${ORGANIZATION}${organization.id}` });
    }
    if (path === '/statistics' && req.method === 'POST') {
      const counts = body as FakeLinkedInStatisticsRequest;
      if (!counts.post_id) return sendJson(res, 400, { error: 'post_id is required' });
      statistics.set(counts.post_id, counts);
      return sendJson(res, 201, counts);
    }
    if (path === '/revoke' && req.method === 'POST') {
      revoked.add(String((body as { access_token?: string }).access_token));
      return sendJson(res, 200, { revoked: true });
    }
    if (path === '/posts' && req.method === 'GET') return sendJson(res, 200, posts);
    if (path === '/media' && req.method === 'GET') return sendJson(res, 200, [...media.values()]);
    if (path === '/processing' && req.method === 'POST') {
      processing = { polls: 0, fail: false, ...(body as Partial<typeof processing>) };
      return sendJson(res, 200, processing);
    }
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      posts = [];
      media = new Map();
      organizations.clear();
      statistics = new Map();
      failures.clear();
      revoked.clear();
      processing = { polls: 0, fail: false };
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  /** The versioned API's required headers, answered as LinkedIn does; true when refused. */
  function refusesHeaders(req: IncomingMessage, res: ServerResponse): boolean {
    const version = String(req.headers['linkedin-version'] ?? '');
    if (!version) {
      sendJson(
        res,
        400,
        error(400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.', {
          code: 'VERSION_MISSING',
        }),
      );
      return true;
    }
    const month = /^(\d{6})(\.\d{2})?$/.exec(version)?.[1];
    const current = new Date().toISOString().slice(0, 7).replace('-', '');
    if (!month || month < OLDEST_ACTIVE_VERSION || month > current) {
      sendJson(res, 426, error(426, `Requested version ${version} is not active`, { code: 'NONEXISTENT_VERSION' }));
      return true;
    }
    if (req.headers['x-restli-protocol-version'] !== '2.0.0') {
      sendJson(res, 400, error(400, 'The X-Restli-Protocol-Version header must be 2.0.0 for this resource.'));
      return true;
    }
    return false;
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const bearer = bearerToken(req);
    const member = members.get(bearer);
    // Uploads stream in (a large video is never held whole): read by their route, not here.
    if (method === 'PUT' && path.startsWith('/dms-uploads/')) return upload(req, res, path);
    const raw = await readRaw(req);
    if (options.upstream && (path.startsWith('/oauth/') || !member)) return forward(req, res, url, raw, options.upstream);
    if (!member) return sendJson(res, 401, error(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' }));
    if (revoked.has(bearer)) {
      return sendJson(
        res,
        401,
        error(401, 'The token used in the request has been revoked by the user', { serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN' }),
      );
    }
    const me = `urn:li:person:${member.person_id}`;
    const granted = (scope: string) => !member.scopes || member.scopes.includes(scope);
    /** Whether the member may act as `author` (itself, or a page it administers) with `scope` for pages. */
    const actsAs = (author: string, scope: string) =>
      author === me ||
      (author.startsWith(ORGANIZATION) &&
        granted(scope) &&
        (organizations.get(author.slice(ORGANIZATION.length))?.administrators.includes(member.person_id) ?? false));
    if (method === 'GET' && path === '/v2/userinfo') {
      const [given, ...family] = (member.name ?? 'Ada Lovelace').split(' ');
      return sendJson(res, 200, {
        sub: member.person_id,
        name: member.name ?? 'Ada Lovelace',
        given_name: given,
        family_name: family.join(' '),
        picture: `${origin}/avatars/${member.person_id}.jpg`,
        locale: { country: 'US', language: 'en' },
      });
    }
    if (!path.startsWith('/rest/')) return sendJson(res, 404, error(404, 'Not Found'));
    if (refusesHeaders(req, res)) return;
    const failure = failures.take(method, path);
    if (await failures.before(failure, req, res)) return;
    const json = () => JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    const action = url.searchParams.get('action');

    if (method === 'POST' && path === '/rest/posts')
      return createPost(req, res, json(), (author) => actsAs(author, 'w_organization_social'), failure);
    if (method === 'GET' && path === '/rest/posts') {
      if (url.searchParams.get('q') !== 'author' || !url.searchParams.get('author'))
        return sendJson(res, 400, error(400, 'Invalid query parameters passed to request'));
      const author = url.searchParams.get('author')!;
      if (!actsAs(author, 'r_organization_social')) return sendJson(res, 403, accessDenied('partnerApiPostsExternal.FINDER-author'));
      const count = Math.min(Number(url.searchParams.get('count') ?? 10), 100);
      const own = posts
        .filter((post) => post.author === author)
        .reverse()
        .slice(0, count);
      return sendJson(res, 200, { paging: { start: 0, count, links: [] }, elements: own.map(postJson) });
    }
    const owns = (owner: string) => actsAs(owner, 'w_organization_social');
    if (method === 'POST' && (path === '/rest/images' || path === '/rest/videos') && action === 'initializeUpload') {
      return initializeUpload(res, path === '/rest/images' ? 'image' : 'video', json(), owns);
    }
    if (method === 'POST' && path === '/rest/videos' && action === 'finalizeUpload') return finalizeUpload(res, json(), owns);
    const one = /^\/rest\/(images|videos)\/([^/]+)$/.exec(path);
    if (method === 'GET' && one) {
      const item = media.get(decodeURIComponent(one[2]));
      if (!item || !owns(item.owner)) return sendJson(res, 404, error(404, 'Not Found'));
      if (item.status === 'PROCESSING') {
        if (item.polls_left > 0) item.polls_left -= 1;
        else item.status = item.fails ? 'PROCESSING_FAILED' : 'AVAILABLE';
      }
      return sendJson(res, 200, mediaJson(item));
    }
    if (method === 'GET') return readOrganizations(res, url, member, granted('r_organization_admin'));
    return sendJson(res, 404, error(404, 'Not Found'));
  }

  /** The Community Management API's reads of organization pages, by `member` (`adminScope`: its token holds r_organization_admin). */
  function readOrganizations(res: ServerResponse, url: URL, member: FakeLinkedInMemberRequest, adminScope: boolean): void {
    const path = url.pathname;
    const query = url.searchParams;
    const me = `urn:li:person:${member.person_id}`;
    const administers = (organization: FakeLinkedInOrganizationRequest) =>
      adminScope && organization.administrators.includes(member.person_id);
    if (path === '/rest/organizationAcls') {
      if (query.get('q') !== 'roleAssignee') return sendJson(res, 400, error(400, 'Invalid query parameters passed to request'));
      if (!adminScope) return sendJson(res, 403, accessDenied('organizationAcls.FINDER-roleAssignee'));
      const start = Number(query.get('start') ?? 0);
      const count = Math.min(Number(query.get('count') ?? 10), 100);
      const roles = [...organizations.values()]
        .filter(administers)
        .map((organization) => ({
          roleAssignee: me,
          role: 'ADMINISTRATOR',
          state: 'APPROVED',
          organization: `${ORGANIZATION}${organization.id}`,
        }))
        .filter((role) => (query.get('role') ?? role.role) === role.role && (query.get('state') ?? role.state) === role.state);
      return sendJson(res, 200, { paging: { start, count, links: [], total: roles.length }, elements: roles.slice(start, start + count) });
    }
    const lookup = /^\/rest\/organizations\/(\d+)$/.exec(path);
    if (lookup) {
      const organization = organizations.get(lookup[1]);
      if (!adminScope) return sendJson(res, 403, accessDenied('organizations.GET'));
      if (!organization) return sendJson(res, 404, error(404, 'Not Found'));
      return sendJson(res, 200, {
        id: Number(organization.id),
        localizedName: organization.localized_name,
        name: { localized: { en_US: organization.localized_name }, preferredLocale: { country: 'US', language: 'en' } },
        vanityName: organization.vanity_name,
        primaryOrganizationType: 'NONE',
        locations: [],
      });
    }
    const size = /^\/rest\/networkSizes\/([^/]+)$/.exec(path);
    if (size) {
      const urn = decodeURIComponent(size[1]);
      if (query.get('edgeType') !== 'COMPANY_FOLLOWED_BY_MEMBER')
        return sendJson(res, 400, error(400, 'edgeType must be COMPANY_FOLLOWED_BY_MEMBER for an organization'));
      const organization = urn.startsWith(ORGANIZATION) ? organizations.get(urn.slice(ORGANIZATION.length)) : undefined;
      if (!adminScope) return sendJson(res, 403, accessDenied('networkSizes.GET'));
      if (!organization) return sendJson(res, 404, error(404, 'Not Found'));
      return sendJson(res, 200, { firstDegreeSize: organization.followers ?? 0 });
    }
    if (path === '/rest/organizationalEntityShareStatistics') return shareStatistics(res, url, administers);
    return sendJson(res, 404, error(404, 'Not Found'));
  }

  /** Lifetime statistics of a page's posts named by `shares=List(…)` or `ugcPosts=List(…)`: one list, URNs encoded. */
  function shareStatistics(res: ServerResponse, url: URL, administers: (organization: FakeLinkedInOrganizationRequest) => boolean): void {
    const query = url.searchParams;
    const entity = query.get('organizationalEntity') ?? '';
    const organization = entity.startsWith(ORGANIZATION) ? organizations.get(entity.slice(ORGANIZATION.length)) : undefined;
    if (query.get('q') !== 'organizationalEntity' || !organization)
      return sendJson(res, 400, error(400, 'Invalid query parameters passed to request'));
    if (!administers(organization))
      return sendJson(res, 403, accessDenied('organizationalEntityShareStatistics.FINDER-organizationalEntity'));
    const kinds = (['shares', 'ugcPosts'] as const).filter((name) => query.has(name));
    if (kinds.length !== 1) return sendJson(res, 400, error(400, 'Name either shares or ugcPosts'));
    const [kind] = kinds;
    // Rest.li 2.0: the URNs inside List(...) are URL-encoded, so the raw query never holds a bare `urn:`.
    const list = /^List\((.*)\)$/.exec(query.get(kind)!);
    if (!list || /List\(urn:|,urn:/.test(url.search)) return sendJson(res, 400, error(400, `Invalid ${kind} list`));
    const ids = list[1].split(',').filter(Boolean);
    const prefix = kind === 'shares' ? 'urn:li:share:' : 'urn:li:ugcPost:';
    const own = (id: string) => id.startsWith(prefix) && posts.some((post) => post.id === id && post.author === entity);
    const foreign = ids.findIndex((id) => !own(id));
    if (foreign >= 0) {
      return sendJson(
        res,
        403,
        error(403, `Unpermitted fields present in PARAMETER: Data Processing Exception while processing fields [/${kind}[${foreign}]]`, {
          serviceErrorCode: 100,
          code: 'ACCESS_DENIED',
        }),
      );
    }
    const elements = ids.map((id) => {
      const counts = statistics.get(id);
      const totals = {
        impressionCount: counts?.impressionCount ?? 0,
        likeCount: counts?.likeCount ?? 0,
        commentCount: counts?.commentCount ?? 0,
        shareCount: counts?.shareCount ?? 0,
      };
      return {
        organizationalEntity: entity,
        [kind === 'shares' ? 'share' : 'ugcPost']: id,
        totalShareStatistics: {
          ...totals,
          uniqueImpressionsCount: totals.impressionCount,
          clickCount: 0,
          engagement: totals.impressionCount ? (totals.likeCount + totals.commentCount + totals.shareCount) / totals.impressionCount : 0,
        },
      };
    });
    return sendJson(res, 200, { paging: { start: 0, count: elements.length, links: [] }, elements });
  }

  function createPost(
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
    mayAuthor: (author: string) => boolean,
    failure?: ScriptedFailure,
  ) {
    const commentary = typeof body.commentary === 'string' ? body.commentary : '';
    const distribution = body.distribution as { feedDistribution?: unknown } | undefined;
    if (typeof body.author !== 'string' || typeof body.visibility !== 'string' || !distribution?.feedDistribution || !body.lifecycleState)
      return sendJson(res, 422, error(422, 'author, visibility, distribution and lifecycleState are required'));
    if (!mayAuthor(body.author)) return sendJson(res, 403, accessDenied('partnerApiPostsExternal.CREATE'));
    const author = body.author;
    if (![...'PUBLIC CONNECTIONS LOGGED_IN'.split(' ')].includes(body.visibility))
      return sendJson(res, 422, error(422, `Invalid visibility ${body.visibility}`));
    if (commentary.length > MAX_COMMENTARY) return sendJson(res, 422, error(422, `commentary is longer than ${MAX_COMMENTARY} characters`));
    const content = (body.content ?? {}) as { media?: { id?: string; altText?: string }; multiImage?: { images?: unknown } };
    const attached: Array<{ id?: string; altText?: string }> = content.media
      ? [content.media]
      : Array.isArray(content.multiImage?.images)
        ? (content.multiImage!.images as Array<{ id?: string; altText?: string }>)
        : [];
    if (content.multiImage && (attached.length < 2 || attached.length > 20))
      return sendJson(res, 422, error(422, 'A multiImage post carries 2 to 20 images'));
    for (const item of attached) {
      const known = item.id ? media.get(item.id) : undefined;
      if (!known || known.owner !== author) return sendJson(res, 400, error(400, `Unknown media ${String(item.id)}`));
      if (content.multiImage && known.kind !== 'image') return sendJson(res, 422, error(422, 'A multiImage post carries images only'));
      if (known.status !== 'AVAILABLE') return sendJson(res, 422, error(422, `Media ${known.urn} is not AVAILABLE`));
    }
    if (!commentary && attached.length === 0) return sendJson(res, 422, error(422, 'A post needs commentary or content'));
    const duplicate = posts.find((post) => post.author === author && post.commentary === commentary && commentary !== '');
    if (duplicate) {
      return sendJson(res, 422, {
        errorDetailType: 'com.linkedin.common.error.BadRequest',
        message: `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${duplicate.id}`,
        errorDetails: { inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }] },
        status: 422,
      });
    }
    const post: FakeLinkedInPost = {
      id: `urn:li:share:${newId()}`,
      author,
      commentary,
      text: shownLittleText(commentary),
      media: attached.map((item) => item.id!),
      alt_texts: attached.map((item) => item.altText ?? ''),
      visibility: body.visibility,
      lifecycle_state: String(body.lifecycleState),
      created_at: Date.now(),
    };
    posts.push(post);
    if (failure?.drop_after_handling) return void req.socket.destroy();
    res.writeHead(201, { 'x-restli-id': post.id });
    res.end();
  }

  const postJson = (post: FakeLinkedInPost) => ({
    id: post.id,
    author: post.author,
    commentary: post.commentary,
    visibility: post.visibility,
    lifecycleState: post.lifecycle_state,
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    isReshareDisabledByAuthor: false,
    createdAt: post.created_at,
    lastModifiedAt: post.created_at,
    publishedAt: post.created_at,
    ...(post.media.length === 1
      ? { content: { media: { id: post.media[0], altText: post.alt_texts[0] } } }
      : post.media.length > 1
        ? { content: { multiImage: { images: post.media.map((id, index) => ({ id, altText: post.alt_texts[index] })) } } }
        : {}),
  });

  const mediaJson = (item: FakeLinkedInMedia) => ({
    id: item.urn,
    owner: item.owner,
    status: item.status,
    ...(item.status === 'AVAILABLE' ? { downloadUrl: `${origin}/media/${encodeURIComponent(item.urn)}` } : {}),
  });

  function initializeUpload(
    res: ServerResponse,
    kind: 'image' | 'video',
    body: Record<string, unknown>,
    owns: (owner: string) => boolean,
  ): void {
    const request = (body.initializeUploadRequest ?? {}) as {
      owner?: string;
      fileSizeBytes?: unknown;
      uploadCaptions?: unknown;
      uploadThumbnail?: unknown;
    };
    if (!request.owner) return sendJson(res, 422, error(422, 'initializeUploadRequest.owner is required'));
    if (!owns(request.owner)) return sendJson(res, 403, error(403, `Accessing this ${kind} resource is forbidden`));
    const owner = request.owner;
    const id = newId();
    const expiresAt = Date.now() + 24 * 3_600_000;
    if (kind === 'image') {
      const urn = `urn:li:image:C${id}`;
      media.set(urn, blank(urn, 'image', owner, 0, 1));
      return sendJson(res, 200, {
        value: { uploadUrlExpiresAt: expiresAt, uploadUrl: `${origin}/dms-uploads/image/${id}`, image: urn },
      });
    }
    const size = request.fileSizeBytes;
    if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0 || size > MAX_VIDEO_BYTES)
      return sendJson(res, 422, error(422, 'initializeUploadRequest.fileSizeBytes must be a size between 1 byte and 5 GB'));
    if (typeof request.uploadCaptions !== 'boolean' || typeof request.uploadThumbnail !== 'boolean')
      return sendJson(res, 422, error(422, 'initializeUploadRequest.uploadCaptions and uploadThumbnail are required'));
    const urn = `urn:li:video:C${id}`;
    const parts = Math.ceil(size / FAKE_LINKEDIN_VIDEO_PART_BYTES);
    const item = blank(urn, 'video', owner, size, parts);
    // LinkedIn answers an empty token for a single-part upload.
    item.upload_token = parts > 1 ? randomBytes(12).toString('hex') : '';
    media.set(urn, item);
    const uploadInstructions = Array.from({ length: parts }, (_unused, part) => ({
      uploadUrl: `${origin}/dms-uploads/video/${id}/part/${part}`,
      firstByte: part * FAKE_LINKEDIN_VIDEO_PART_BYTES,
      lastByte: Math.min(size, (part + 1) * FAKE_LINKEDIN_VIDEO_PART_BYTES) - 1,
    }));
    return sendJson(res, 200, {
      value: { uploadUrlsExpireAt: expiresAt, video: urn, uploadInstructions, uploadToken: item.upload_token },
    });
  }

  const blank = (urn: string, kind: 'image' | 'video', owner: string, size: number, parts: number): FakeLinkedInMedia => ({
    urn,
    kind,
    owner,
    file_size: size,
    received: 0,
    etags: new Array<string>(parts).fill(''),
    upload_token: '',
    status: 'WAITING_UPLOAD',
    polls_left: 0,
    fails: false,
  });

  /** PUT to an upload URL: an image's bytes (201), or one video part, which must be its range's size exactly (200 + ETag). */
  async function upload(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const failure = failures.take('PUT', path.startsWith('/dms-uploads/image/') ? '/dms-uploads/image' : '/dms-uploads/video');
    if (failure) {
      await drain(req);
      if (await failures.before(failure, req, res)) return;
    }
    const image = /^\/dms-uploads\/image\/(\d+)$/.exec(path);
    const part = /^\/dms-uploads\/video\/(\d+)\/part\/(\d+)$/.exec(path);
    const item = image ? media.get(`urn:li:image:C${image[1]}`) : part ? media.get(`urn:li:video:C${part[1]}`) : undefined;
    if (!item) {
      await drain(req);
      return sendJson(res, 404, error(404, 'Not Found'));
    }
    if (image) {
      const bearer = bearerToken(req);
      if (!members.has(bearer)) {
        await drain(req);
        return sendJson(res, 401, error(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' }));
      }
      const received = await readStreamed(req, 0);
      if (received.size === 0) return sendJson(res, 400, error(400, 'The upload is empty'));
      item.received = received.size;
      item.status = 'PROCESSING';
      item.polls_left = processing.polls;
      item.fails = processing.fail;
      res.writeHead(201);
      return void res.end();
    }
    const index = Number(part![2]);
    const firstByte = index * FAKE_LINKEDIN_VIDEO_PART_BYTES;
    const expected = Math.min(item.file_size, firstByte + FAKE_LINKEDIN_VIDEO_PART_BYTES) - firstByte;
    const received = await readStreamed(req, 0);
    if (index >= item.etags.length || received.size !== expected)
      return sendJson(res, 400, error(400, `Part ${index} must be ${expected} bytes; received ${received.size}`));
    item.received += received.size;
    item.etags[index] = `/ambry-video/signedId/${received.sha256.slice(0, 24)}`;
    res.writeHead(200, { etag: item.etags[index] });
    return void res.end();
  }

  function finalizeUpload(res: ServerResponse, body: Record<string, unknown>, owns: (owner: string) => boolean): void {
    const request = (body.finalizeUploadRequest ?? {}) as { video?: string; uploadToken?: unknown; uploadedPartIds?: unknown };
    const item = request.video ? media.get(request.video) : undefined;
    if (!item || item.kind !== 'video' || !owns(item.owner)) return sendJson(res, 404, error(404, 'Not Found'));
    if (request.uploadToken !== item.upload_token) return sendJson(res, 400, error(400, 'Invalid uploadToken'));
    const ids = request.uploadedPartIds;
    if (!Array.isArray(ids) || ids.length !== item.etags.length || ids.some((id, index) => id !== item.etags[index] || !id))
      return sendJson(res, 400, error(400, 'uploadedPartIds must name every part uploaded, in order'));
    item.status = 'PROCESSING';
    item.polls_left = processing.polls;
    item.fails = processing.fail;
    res.writeHead(200);
    res.end();
  }

  const server = await startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
  origin = server.origin;
  return server;
}
