import type { Readable } from 'node:stream';
import { deliveryCall, rejected, requireGrant } from '../delivery-failure.js';
import { partText } from '../outgoing-text.js';
import { pick, text } from '../oauth/oauth-network.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { uploadTimeoutMs } from '../multipart-stream.js';
import { ProviderError } from '../provider-error.js';
import type { ProviderAnswer, ProviderHttp, ProviderRequest } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  ConnectedIdentity,
  ConnectOptions,
  OAuthClient,
  OutgoingMedia,
  OutgoingPost,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPost,
} from '../social-provider.js';
import { littleText, unescapeLittleText } from './little-text.js';
import type { LinkedInNetwork } from './linkedin.network.js';
import { count } from '../post-metrics-reads.js';

/**
 * The LinkedIn API version every versioned call names (`LinkedIn-Version: YYYYMM`). LinkedIn serves each monthly
 * version for at least a year, then answers 426 NONEXISTENT_VERSION: pinned in one place (README.md says why this one).
 */
export const LINKEDIN_VERSION = '202609';
const REST = 'https://api.linkedin.com/rest';
/** Headers of every call to the versioned REST API (Posts, Images, Videos): the version and Rest.li protocol 2.0.0. */
export const LINKEDIN_REST_HEADERS = { 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0' } as const;
/** A multi-image post takes 2 to 20 images (MultiImage API); one image or one video goes as `content.media`. */
const MAX_IMAGES = 20;
/** How long uploaded media may stay in processing before the delivery is retried later. */
const MEDIA_PROCESSING_LIMIT_MS = 60_000;
/** Posts of the author read when reconciling (the page asked of GET /rest/posts?q=author). */
const RECONCILE_PAGE = 20;
/** How far back of `since` a post may be dated (clock skew between us and LinkedIn). */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Organization roles read per page when connecting (organizationAcls' `count`), and how many pages at most. */
const ACL_PAGE = 100;
const MAX_ACL_PAGES = 10;
/** Posts named per organizationalEntityShareStatistics call. */
const STATISTICS_BATCH = 20;

const ORGANIZATION = 'urn:li:organization:';

/** Organization pages are connected with their URN as the external id; members with their person id (OpenID Connect `sub`). */
export const isOrganization = (account: Pick<ProviderAccount, 'externalId'>) => account.externalId.startsWith(ORGANIZATION);

/** The URN the account's posts and media are created under: the page's own URN, or the member's person URN. */
export const authorUrn = (account: Pick<ProviderAccount, 'externalId'>) =>
  isOrganization(account) ? account.externalId : `urn:li:person:${account.externalId}`;

/** Where a post is seen on LinkedIn. */
export const postUrl = (urn: string) => `https://www.linkedin.com/feed/update/${urn}/`;

/** One operation's view of the account's grant: renewed at most once when LinkedIn answers 401. */
interface Session {
  account: ProviderAccount;
  grant: ProviderGrant;
  renewed: boolean;
}

interface UploadInstruction {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

/**
 * Posts of LinkedIn members, and of the organization pages they administer (with `linkedin_organization_pages`
 * on), through the versioned REST Posts API: text (little text format, escaped), one image, 2–20 images
 * (multiImage) or one video, uploaded through the Images and Videos APIs first. No threads.
 *
 * Never twice: LinkedIn takes no idempotency key, so a create whose answer was lost is reconciled by reading the
 * author's latest posts (`findPost`). Pages' follower counts and post statistics come from the Community
 * Management API; a member's are given only to approved partners: members keep the inherited capability refusal.
 */
export class LinkedInProvider extends OAuthProvider {
  constructor(
    network: LinkedInNetwork,
    http: ProviderHttp,
    private readonly timeoutMs: number,
  ) {
    super(network, http);
  }

  /**
   * Who the grant acts for: the member (OpenID Connect userinfo) and, with the organization-pages extension, each
   * page the member administers (organizationAcls roleAssignee finder: APPROVED ADMINISTRATOR roles, in LinkedIn's
   * order), named by its Organization lookup. Throws a ProviderError.
   */
  async fetchIdentities(
    client: OAuthClient,
    grant: ProviderGrant,
    signal: AbortSignal,
    options: ConnectOptions,
  ): Promise<ConnectedIdentity[]> {
    const member = await this.fetchIdentity(client, grant, signal);
    if (!options.extension) return [member];
    const organizations = await this.administeredOrganizations(grant, signal);
    const pages = await Promise.all(organizations.map((urn) => this.organizationIdentity(grant, urn, signal)));
    return [member, ...pages];
  }

  /** Page followers (networkSizes, COMPANY_FOLLOWED_BY_MEMBER); LinkedIn counts neither pages followed nor posts: 0. */
  override async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    if (!isOrganization(account)) return super.fetchAccountMetrics(account);
    const answer = await this.rest(openSession(account), {
      method: 'GET',
      url: `${REST}/networkSizes/${encodeURIComponent(account.externalId)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`,
    });
    return { followers: count(pick(answer.body, 'firstDegreeSize')), following: 0, posts: 0 };
  }

  /**
   * A page's lifetime statistics of its posts (organizationalEntityShareStatistics, organic only): impressions as
   * views, likes, comments, and shares as reposts. Shares and ugcPosts are asked in calls of their own (one list
   * parameter each); a post LinkedIn does not answer for (older than its 12 months, not the page's) is left out.
   */
  override async fetchPostMetrics(account: ProviderAccount, externalIds: string[]): Promise<PostMetrics[]> {
    if (!isOrganization(account)) return super.fetchPostMetrics(account, externalIds);
    const session = openSession(account);
    const wanted = [...new Set(externalIds)];
    const metrics = new Map<string, PostMetrics>();
    for (const { prefix, parameter, field } of STATISTICS_KINDS) {
      const ids = wanted.filter((id) => id.startsWith(prefix));
      for (let start = 0; start < ids.length; start += STATISTICS_BATCH) {
        const batch = ids.slice(start, start + STATISTICS_BATCH);
        const list = `List(${batch.map((id) => encodeURIComponent(id)).join(',')})`;
        const answer = await this.rest(session, {
          method: 'GET',
          url:
            `${REST}/organizationalEntityShareStatistics?q=organizationalEntity` +
            `&organizationalEntity=${encodeURIComponent(account.externalId)}&${parameter}=${list}`,
        });
        const elements = pick(answer.body, 'elements');
        for (const element of Array.isArray(elements) ? elements : []) {
          const id = text(pick(element, field));
          if (!batch.includes(id)) continue;
          const totals = pick(element, 'totalShareStatistics');
          metrics.set(id, {
            externalId: id,
            views: count(pick(totals, 'impressionCount')),
            likes: count(pick(totals, 'likeCount')),
            comments: count(pick(totals, 'commentCount')),
            reposts: count(pick(totals, 'shareCount')),
          });
        }
      }
    }
    return wanted.flatMap((id) => metrics.get(id) ?? []);
  }

  override async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const session = openSession(account);
    if (post.parts.length !== 1) throw rejected('threads_unsupported', 'LinkedIn has no threads; the post must be one part.');
    const [part] = post.parts;
    checkMedia(part.media);
    const author = authorUrn(account);
    const ids: string[] = [];
    for (const media of part.media) ids.push(await this.upload(session, author, media));
    const body = {
      author,
      commentary: littleText(partText(part)),
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
      ...contentOf(part.media, ids),
    };
    const answer = await deliveryCall(this.platform, true, async () => {
      try {
        return await this.rest(session, { method: 'POST', url: `${REST}/posts`, json: body });
      } catch (error) {
        throw refusalOf(error);
      }
    });
    // 201 with an empty body: the post's URN is the x-restli-id header.
    const urn = answer.headers.get('x-restli-id')?.trim() ?? '';
    if (!urn.startsWith('urn:li:')) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'provider_answer_unreadable',
        message: 'linkedin answered the post without its id.',
        httpStatus: answer.status,
      });
    }
    const published = { externalId: urn, externalUrl: postUrl(urn) };
    return { ...published, parts: [published] };
  }

  /**
   * The post among the author's latest (GET /rest/posts?q=author, newest change first) created since `since`,
   * with the commentary sent and as many media, not owned by another rendition; null when none is and the
   * page reaches back before `since`; 'unknown' when the page does not, or the grant may not read the author's
   * posts (403: members need r_member_social, which LinkedIn grants to approved partners only). Throws when
   * LinkedIn cannot be asked now.
   */
  override async findPost(account: ProviderAccount, post: OutgoingPost, since: Date): Promise<PublishedPost | null | 'unknown'> {
    if (!account.grant || post.parts.length !== 1) return 'unknown';
    const session = openSession(account);
    const author = authorUrn(account);
    let answer: ProviderAnswer;
    try {
      answer = await this.rest(session, {
        method: 'GET',
        url: `${REST}/posts?author=${encodeURIComponent(author)}&q=author&count=${RECONCILE_PAGE}&sortBy=LAST_MODIFIED`,
      });
    } catch (error) {
      if (error instanceof ProviderError && error.call?.status === 403) return 'unknown';
      throw error;
    }
    const elements = pick(answer.body, 'elements');
    if (!Array.isArray(elements)) return 'unknown';
    const earliest = since.getTime() - CLOCK_SKEW_MS;
    const ownedElsewhere = new Set(post.ownedElsewhere ?? []);
    const [part] = post.parts;
    const wanted = normalize(partText(part));
    const match = elements.find(
      (element) =>
        timeOf(element, 'createdAt') >= earliest &&
        !ownedElsewhere.has(text(pick(element, 'id'))) &&
        normalize(unescapeLittleText(text(pick(element, 'commentary')))) === wanted &&
        mediaCount(element) === part.media.length,
    );
    if (match) {
      const urn = text(pick(match, 'id'));
      const published = { externalId: urn, externalUrl: postUrl(urn) };
      return { ...published, parts: [published] };
    }
    // Newest change first: a short page, or one whose last post was changed before the attempt, holds every post since.
    const reachesBack = elements.length < RECONCILE_PAGE || timeOf(elements.at(-1), 'lastModifiedAt') < earliest;
    return reachesBack ? null : 'unknown';
  }

  /** The organizations the member holds an approved ADMINISTRATOR role of, in LinkedIn's order, each once. */
  private async administeredOrganizations(grant: ProviderGrant, signal: AbortSignal): Promise<string[]> {
    const organizations: string[] = [];
    for (let page = 0; page < MAX_ACL_PAGES; page++) {
      const answer = await this.http.call(
        this.platform,
        {
          method: 'GET',
          url: `${REST}/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED&start=${page * ACL_PAGE}&count=${ACL_PAGE}`,
          headers: restHeaders(grant),
          errorCodeOf: restliErrorCode,
        },
        signal,
      );
      const elements = pick(answer.body, 'elements');
      if (!Array.isArray(elements)) throw new ProviderError('unavailable', 'linkedin answered the organization roles without their list.');
      for (const element of elements) {
        const urn = text(pick(element, 'organization'));
        const approvedAdministrator = text(pick(element, 'role')) === 'ADMINISTRATOR' && text(pick(element, 'state')) === 'APPROVED';
        if (approvedAdministrator && urn.startsWith(ORGANIZATION) && !organizations.includes(urn)) organizations.push(urn);
      }
      if (elements.length < ACL_PAGE) break;
    }
    return organizations;
  }

  /** A page as an account: its URN, its vanity name as the username (else its id), its localized name. */
  private async organizationIdentity(grant: ProviderGrant, urn: string, signal: AbortSignal): Promise<ConnectedIdentity> {
    const id = urn.slice(ORGANIZATION.length);
    const answer = await this.http.call(
      this.platform,
      { method: 'GET', url: `${REST}/organizations/${encodeURIComponent(id)}`, headers: restHeaders(grant), errorCodeOf: restliErrorCode },
      signal,
    );
    const vanityName = text(pick(answer.body, 'vanityName'));
    const localizedName = text(pick(answer.body, 'localizedName'));
    // The logo is a media URN, not an address we could show: no avatar.
    return this.keepable({ externalId: urn, username: vanityName || id, displayName: localizedName || vanityName || id, avatarUrl: '' });
  }

  /** The media's URN once LinkedIn has it ready to attach (images: AVAILABLE; videos: finalized, then AVAILABLE). */
  private async upload(session: Session, owner: string, media: OutgoingMedia): Promise<string> {
    return media.kind === 'video' ? this.uploadVideo(session, owner, media) : this.uploadImage(session, owner, media);
  }

  /** Images API: initializeUpload, the bytes PUT to the upload URL it answers, then its status until AVAILABLE. */
  private async uploadImage(session: Session, owner: string, media: OutgoingMedia): Promise<string> {
    const initialized = await deliveryCall(this.platform, false, () =>
      this.rest(session, {
        method: 'POST',
        url: `${REST}/images?action=initializeUpload`,
        json: { initializeUploadRequest: { owner } },
      }),
    );
    const value = pick(initialized.body, 'value');
    const image = text(pick(value, 'image'));
    const uploadUrl = text(pick(value, 'uploadUrl'));
    if (!image || !uploadUrl) throw unreadableUpload(initialized.status);
    await deliveryCall(this.platform, false, async () =>
      this.call(
        session,
        {
          method: 'PUT',
          url: uploadUrl,
          headers: { authorization: `Bearer ${session.grant.accessToken}` },
          stream: { body: await media.open(), contentType: media.mimeType || 'application/octet-stream' },
        },
        uploadTimeoutMs(this.timeoutMs, media.size),
      ),
    );
    await this.untilAvailable(session, `${REST}/images/${encodeURIComponent(image)}`);
    return image;
  }

  /**
   * Videos API: initializeUpload with the size, each byte range it asks for PUT to its URL (the bytes read once,
   * as they stream from storage, one part held at a time), finalizeUpload with every part's ETag in order, then
   * the video's status until AVAILABLE.
   */
  private async uploadVideo(session: Session, owner: string, media: OutgoingMedia): Promise<string> {
    const initialized = await deliveryCall(this.platform, false, () =>
      this.rest(session, {
        method: 'POST',
        url: `${REST}/videos?action=initializeUpload`,
        json: { initializeUploadRequest: { owner, fileSizeBytes: media.size, uploadCaptions: false, uploadThumbnail: false } },
      }),
    );
    const value = pick(initialized.body, 'value');
    const video = text(pick(value, 'video'));
    const instructions = readInstructions(pick(value, 'uploadInstructions'), media.size);
    if (!video || !instructions) throw unreadableUpload(initialized.status);
    const uploadToken = text(pick(value, 'uploadToken'));
    const uploadedPartIds: string[] = [];
    const stream = await deliveryCall(this.platform, false, () => media.open());
    try {
      let index = 0;
      for await (const bytes of byteRanges(stream, instructions)) {
        const instruction = instructions[index++];
        const answer = await deliveryCall(this.platform, false, () =>
          this.call(
            session,
            { method: 'PUT', url: instruction.uploadUrl, bytes: { data: bytes, contentType: 'application/octet-stream' } },
            uploadTimeoutMs(this.timeoutMs, bytes.byteLength),
          ),
        );
        const etag = answer.headers.get('etag');
        if (!etag) throw unreadableUpload(answer.status);
        uploadedPartIds.push(etag);
      }
      if (index !== instructions.length) {
        throw rejected('media_unavailable', 'The video in storage is shorter than its recorded size.');
      }
    } finally {
      stream.destroy();
    }
    await deliveryCall(this.platform, false, () =>
      this.rest(session, {
        method: 'POST',
        url: `${REST}/videos?action=finalizeUpload`,
        json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds } },
      }),
    );
    await this.untilAvailable(session, `${REST}/videos/${encodeURIComponent(video)}`);
    return video;
  }

  /**
   * Polls an image's or video's status: AVAILABLE → done; PROCESSING_FAILED → rejected; still processing past
   * the limit → retried later.
   */
  private async untilAvailable(session: Session, url: string): Promise<void> {
    const deadline = Date.now() + MEDIA_PROCESSING_LIMIT_MS;
    for (let wait = 200; ; wait = Math.min(wait * 2, 3_000)) {
      const answer = await deliveryCall(this.platform, false, () => this.rest(session, { method: 'GET', url }));
      const status = text(pick(answer.body, 'status'));
      if (status === 'AVAILABLE') return;
      if (status === 'PROCESSING_FAILED') {
        throw rejected('media_processing_failed', 'LinkedIn could not process the media; the post cannot be sent with it.');
      }
      if (Date.now() + wait > deadline) {
        throw new DeliveryError({
          outcome: 'retryable',
          code: 'media_processing_timeout',
          message: 'LinkedIn was still processing the media; trying again later.',
          httpStatus: answer.status,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** A call to the versioned REST API: its version and Rest.li protocol headers, the grant as a Bearer. */
  private rest(session: Session, request: Omit<ProviderRequest, 'headers'>): Promise<ProviderAnswer> {
    return this.call(session, { ...request, headers: restHeaders(session.grant), errorCodeOf: restliErrorCode });
  }

  /**
   * One call bounded by `timeoutMs`. A 401 (LinkedIn's EXPIRED_ACCESS_TOKEN or REVOKED_ACCESS_TOKEN) renews the
   * grant once through `account.renewGrant` and sends the call again with it; a renewal that cannot be made
   * throws its DeliveryError (rejected auth: reconnect). A streamed upload is not sent again (its bytes are
   * spent): the REST call before it has already renewed an expired token.
   */
  private async call(session: Session, request: ProviderRequest, timeoutMs = this.timeoutMs): Promise<ProviderAnswer> {
    try {
      return await this.send(request, timeoutMs);
    } catch (error) {
      const expired = error instanceof ProviderError && error.failure === 'refused' && error.call?.status === 401;
      if (!expired || session.renewed || !session.account.renewGrant || request.stream) throw error;
      const previous = session.grant.accessToken;
      session.renewed = true;
      session.grant = await session.account.renewGrant();
      const bearer = `Bearer ${session.grant.accessToken}`;
      const headers = Object.fromEntries(
        Object.entries(request.headers ?? {}).map(([name, value]) => [name, value === `Bearer ${previous}` ? bearer : value]),
      );
      return this.send({ ...request, headers }, timeoutMs);
    }
  }

  /**
   * LinkedIn's limits are daily, per application and per member, and reset at midnight UTC; a 429 need not say
   * when to come back. One without Retry-After waits for that reset.
   */
  private async send(request: ProviderRequest, timeoutMs: number): Promise<ProviderAnswer> {
    try {
      return await this.http.call(this.platform, request, AbortSignal.timeout(timeoutMs));
    } catch (error) {
      if (!(error instanceof ProviderError) || error.call?.status !== 429 || error.call.retryAfterMs !== undefined) throw error;
      const now = Date.now();
      const reset = untilMidnightUtc(now);
      throw new ProviderError(error.failure, error.message, error.networkCode, {
        ...error.call,
        retryAfterMs: reset,
        retryAt: now + reset,
      });
    }
  }
}

/** A Rest.li error body's code (`{status, serviceErrorCode, code, message}`), else its first input error's (`DUPLICATE_POST`). */
export const restliErrorCode = (body: unknown): unknown => pick(body, 'errorDetails', 'inputErrors', 0, 'code') ?? pick(body, 'code');

/** Headers of a versioned REST call made with `grant`. */
const restHeaders = (grant: ProviderGrant) => ({ authorization: `Bearer ${grant.accessToken}`, ...LINKEDIN_REST_HEADERS });

/** The post URNs organizationalEntityShareStatistics takes, each in a list parameter of its own, and where an element names it. */
const STATISTICS_KINDS = [
  { prefix: 'urn:li:share:', parameter: 'shares', field: 'share' },
  { prefix: 'urn:li:ugcPost:', parameter: 'ugcPosts', field: 'ugcPost' },
] as const;

/**
 * LinkedIn's refusals of a post that name their reason (its error body's `code`, as ProviderHttp reads it):
 * DUPLICATE_POST (422: the author posted the same content) → rejected `duplicate_content`; 426 (the pinned
 * version is no longer served) → rejected, naming it. Anything else is left to the common mapping.
 */
export function refusalOf(error: unknown): unknown {
  if (!(error instanceof ProviderError) || error.failure !== 'refused') return error;
  const status = error.call?.status ?? 0;
  if (error.networkCode === 'DUPLICATE_POST') {
    return rejected('duplicate_content', 'LinkedIn refused the post as a duplicate of one the account already published.', status);
  }
  if (status === 426) {
    return new DeliveryError({
      outcome: 'rejected',
      kind: 'capability',
      code: 'provider_version_inactive',
      message: `LinkedIn no longer serves API version ${LINKEDIN_VERSION}; this instance must be updated.`,
      httpStatus: status,
    });
  }
  return error;
}

function openSession(account: ProviderAccount): Session {
  return { account, grant: requireGrant(account), renewed: false };
}

/** One image or video as `content.media`; 2–20 images as `content.multiImage`; nothing for a text post. */
function contentOf(media: OutgoingMedia[], ids: string[]): { content?: unknown } {
  const item = (index: number) => ({ id: ids[index], ...(media[index].altText ? { altText: media[index].altText } : {}) });
  if (ids.length === 0) return {};
  if (ids.length === 1) return { content: { media: item(0) } };
  return { content: { multiImage: { images: ids.map((_id, index) => item(index)) } } };
}

function checkMedia(media: OutgoingMedia[]): void {
  const videos = media.filter((item) => item.kind === 'video').length;
  if (videos > 0 && media.length > 1) throw rejected('media_mix_unsupported', 'A LinkedIn post carries one video alone, or images.');
  if (media.length > MAX_IMAGES) throw rejected('too_many_media', `A LinkedIn post carries at most ${MAX_IMAGES} images.`);
}

/** The upload instructions when they cover the file exactly, in order (LinkedIn's parts are contiguous); else undefined. */
function readInstructions(value: unknown, size: number): UploadInstruction[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const instructions = value.map((item) => ({
    uploadUrl: text(pick(item, 'uploadUrl')),
    firstByte: Number(pick(item, 'firstByte')),
    lastByte: Number(pick(item, 'lastByte')),
  }));
  let next = 0;
  for (const instruction of instructions) {
    if (!instruction.uploadUrl || instruction.firstByte !== next || !(instruction.lastByte >= instruction.firstByte)) return undefined;
    next = instruction.lastByte + 1;
  }
  return next === size ? instructions : undefined;
}

/** Cuts a stream into the instructions' ranges as it is read: one range is held at a time, never the whole file. */
async function* byteRanges(stream: Readable, instructions: UploadInstruction[]): AsyncGenerator<Uint8Array> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  const want = () => instructions[index].lastByte - instructions[index].firstByte + 1;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    while (index < instructions.length && pendingBytes >= want()) {
      const all = Buffer.concat(pending);
      const size = want();
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      pendingBytes = all.length - size;
      index++;
    }
    if (index === instructions.length) return;
  }
}

/** Milliseconds from `now` to the next midnight UTC, when LinkedIn's daily limits reset. */
export function untilMidnightUtc(now: number): number {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight.getTime() - now;
}

const timeOf = (element: unknown, field: string) => {
  const value = pick(element, field);
  return typeof value === 'number' ? value : 0;
};

/** Media a post read back carries: one `content.media`, or each of `content.multiImage.images`. */
function mediaCount(element: unknown): number {
  const content = pick(element, 'content');
  if (pick(content, 'media')) return 1;
  const images = pick(pick(content, 'multiImage'), 'images');
  return Array.isArray(images) ? images.length : 0;
}

const normalize = (value: string) => value.replace(/\s+/g, ' ').trim();

const unreadableUpload = (status: number) =>
  new DeliveryError({
    outcome: 'retryable',
    code: 'provider_error',
    message: 'linkedin answered the upload without what it must name.',
    httpStatus: status,
  });
