import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  answerUnlessLost,
  cidOf,
  cidOfDigest,
  bearerToken,
  CONTROL_PREFIX,
  drain,
  FakeServer,
  readRaw,
  readStreamed,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** An account of the fake PDS: signs in with `handle` (or its DID) and `password` (an app password). */
export interface FakeBlueskyAccountRequest {
  handle: string;
  password: string;
  did?: string;
  display_name?: string;
  followers_count?: number;
  follows_count?: number;
}

/** Counters a test sets on a post (app.bsky.feed.getPosts answers them); unset ones keep the fake's defaults. */
export interface FakeBlueskyPostCounts {
  likeCount?: number;
  repostCount?: number;
  replyCount?: number;
  quoteCount?: number;
}

export interface FakeBlueskyRecord {
  uri: string;
  cid: string;
  did: string;
  collection: string;
  rkey: string;
  value: Record<string, unknown>;
  created_at: string;
}

/** A blob the PDS received through com.atproto.repo.uploadBlob. */
export interface FakeBlueskyBlob {
  cid: string;
  did: string;
  mimeType: string;
  size: number;
  /** SHA-256 of the bytes received, hex. */
  sha256: string;
}

export interface FakeBluesky extends FakeServer {
  /** Media files the adapter downloads: `${origin}/files/<name>`, created with POST /__control/files. */
  filesUrl: string;
}

interface Account extends FakeBlueskyAccountRequest {
  did: string;
}

interface Token {
  did: string;
  kind: 'access' | 'refresh';
  expiresAt: number;
  revoked: boolean;
}

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
/** The PDS's own upload limit (a self-hosted PDS's PDS_BLOB_UPLOAD_LIMIT, sized for videos); POST /__control/blob-limit changes it. */
const DEFAULT_BLOB_LIMIT = 100_000_000;
/**
 * The lexicons' limits: app.bsky.embed.images (image/*, ≤ 1,000,000 bytes each),
 * app.bsky.embed.video (video/mp4, ≤ 100,000,000 bytes, alt ≤ 1,000 graphemes).
 */
const IMAGE_BLOB_MAX = 1_000_000;
const VIDEO_BLOB_MAX = 100_000_000;
const VIDEO_ALT_MAX_GRAPHEMES = 1_000;
const MAX_GRAPHEMES = 300;
const graphemes = (text: string) => [...new Intl.Segmenter().segment(text)].length;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A fake Bluesky PDS (and entryway, and AppView) on a real HTTP server,
 * answering the XRPC endpoints the adapter calls with the AT Protocol's shapes:
 * com.atproto.server.createSession / refreshSession (JWT-shaped tokens with
 * `exp`; refresh tokens rotate: a used one is revoked), com.atproto.repo.createRecord
 * (explicit rkeys must be TIDs; an existing rkey is refused; replies must name
 * existing records; text ≤ 300 graphemes) / getRecord (400 RecordNotFound) /
 * uploadBlob, app.bsky.actor.getProfile / getSuggestions, app.bsky.feed.getPosts.
 * An expired access token answers 400 ExpiredToken; an unknown one 401.
 * Follows are `app.bsky.graph.follow` records (createRecord; the subject must be a DID).
 * Control API (`/__control`): POST /accounts, POST /files `{name, content_type,
 * size}`, GET /records (every record created, oldest first), POST /post-counts
 * `{uri, likeCount?, repostCount?, replyCount?, quoteCount?}` (what getPosts answers), GET /sessions
 * (counts of createSession and refreshSession calls), POST /tokens
 * `{access_ttl_seconds}` (lifetime of new access tokens), POST /expire-access
 * (every access token expires now), POST /revoke-refresh (every refresh token
 * dies), POST/DELETE /failures (ScriptedFailure, paths `/xrpc/<nsid>`), GET /blobs (every blob
 * uploaded, FakeBlueskyBlob), POST /blob-limit `{bytes}` (the PDS's upload limit),
 * DELETE /state.
 */
export async function startFakeBluesky(): Promise<FakeBluesky> {
  const accounts = new Map<string, Account>();
  const tokens = new Map<string, Token>();
  let records: FakeBlueskyRecord[] = [];
  let counts = new Map<string, FakeBlueskyPostCounts>();
  const blobs = new Map<string, FakeBlueskyBlob>();
  let blobLimit = DEFAULT_BLOB_LIMIT;
  const files = new Map<string, { contentType: string; data: Buffer }>();
  const failures = new ScriptedFailures();
  const sessions = { created: 0, refreshed: 0 };
  let accessTtlSeconds = 7200;
  let origin = '';

  const issue = (did: string, kind: Token['kind'], ttlSeconds: number) => {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + ttlSeconds;
    const jwt = `${b64url({ typ: kind === 'access' ? 'at+jwt' : 'refresh+jwt', alg: 'ES256K' })}.${b64url({
      scope: kind === 'access' ? 'com.atproto.appPass' : 'com.atproto.refresh',
      sub: did,
      iat: now,
      exp,
      jti: randomBytes(8).toString('hex'),
    })}.${randomBytes(32).toString('base64url')}`;
    tokens.set(jwt, { did, kind, expiresAt: exp * 1000, revoked: false });
    return jwt;
  };
  const session = (account: Account) => ({
    did: account.did,
    handle: account.handle,
    accessJwt: issue(account.did, 'access', accessTtlSeconds),
    refreshJwt: issue(account.did, 'refresh', 90 * 86400),
    active: true,
  });
  const byDid = (did: string) => [...accounts.values()].find((account) => account.did === did);
  const profile = (account: Account) => ({
    did: account.did,
    handle: account.handle,
    displayName: account.display_name ?? account.handle,
    avatar: `https://cdn.bsky.app/img/avatar/plain/${account.did}/bafkreiavatar@jpeg`,
    description: 'A fake account',
    followersCount: account.followers_count ?? 12,
    followsCount: account.follows_count ?? 4,
    postsCount: records.filter((record) => record.did === account.did && record.collection === 'app.bsky.feed.post').length,
  });
  const find = (uri: string) => records.find((record) => record.uri === uri);

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/accounts' && req.method === 'POST') {
      const request = body as FakeBlueskyAccountRequest;
      if (!request.handle || !request.password) return sendJson(res, 400, { error: 'handle and password are required' });
      const did =
        request.did ??
        `did:plc:${randomBytes(15)
          .toString('base64url')
          .toLowerCase()
          .replace(/[^a-z2-7]/g, 'a')
          .slice(0, 24)}`;
      accounts.set(did, { ...request, did });
      return sendJson(res, 201, { did, handle: request.handle });
    }
    if (path === '/files' && req.method === 'POST') {
      const { name, content_type, size } = body as { name: string; content_type: string; size: number };
      files.set(name, { contentType: content_type, data: randomBytes(size) });
      return sendJson(res, 201, { url: `${origin}/files/${name}` });
    }
    if (path === '/records' && req.method === 'GET') return sendJson(res, 200, records);
    if (path === '/blobs' && req.method === 'GET') return sendJson(res, 200, [...blobs.values()]);
    if (path === '/blob-limit' && req.method === 'POST') {
      blobLimit = Number((body as { bytes?: number }).bytes ?? DEFAULT_BLOB_LIMIT);
      return sendJson(res, 200, { bytes: blobLimit });
    }
    if (path === '/post-counts' && req.method === 'POST') {
      const { uri, ...set } = body as FakeBlueskyPostCounts & { uri: string };
      if (!find(uri)) return sendJson(res, 404, { error: 'unknown record' });
      counts.set(uri, { ...counts.get(uri), ...set });
      return sendJson(res, 200, counts.get(uri));
    }
    if (path === '/sessions' && req.method === 'GET') return sendJson(res, 200, sessions);
    if (path === '/tokens' && req.method === 'POST') {
      accessTtlSeconds = Number((body as { access_ttl_seconds?: number }).access_ttl_seconds ?? 7200);
      return sendJson(res, 200, { access_ttl_seconds: accessTtlSeconds });
    }
    if (path === '/expire-access' && req.method === 'POST') {
      for (const token of tokens.values()) if (token.kind === 'access') token.expiresAt = Date.now() - 1000;
      return sendJson(res, 200, { expired: true });
    }
    if (path === '/revoke-refresh' && req.method === 'POST') {
      for (const token of tokens.values()) if (token.kind === 'refresh') token.revoked = true;
      return sendJson(res, 200, { revoked: true });
    }
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      records = [];
      counts = new Map();
      failures.clear();
      accessTtlSeconds = 7200;
      blobLimit = DEFAULT_BLOB_LIMIT;
      blobs.clear();
      sessions.created = 0;
      sessions.refreshed = 0;
      return sendJson(res, 200, { deleted: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  /** The DID a Bearer access token acts for, or the refusal already sent. */
  function authorize(req: IncomingMessage, res: ServerResponse, kind: Token['kind']): string | undefined {
    const bearer = bearerToken(req);
    const token = tokens.get(bearer);
    if (!token || token.kind !== kind) {
      sendJson(res, 401, { error: 'AuthenticationRequired', message: 'Authentication Required' });
      return undefined;
    }
    if (token.revoked || token.expiresAt <= Date.now()) {
      sendJson(res, 400, { error: 'ExpiredToken', message: token.revoked ? 'Token has been revoked' : 'Token has expired' });
      return undefined;
    }
    return token.did;
  }

  async function xrpc(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path.startsWith('/files/')) {
      const file = files.get(decodeURIComponent(path.slice('/files/'.length)));
      if (!file) return sendJson(res, 404, { error: 'NotFound' });
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) });
      return void res.end(file.data);
    }
    // Blobs stream in (a video is never held whole): read by their route, not here.
    if (method === 'POST' && path === '/xrpc/com.atproto.repo.uploadBlob') return uploadBlob(req, res);
    const raw = await readRaw(req);
    const failure = failures.take(method, path);
    if (await failures.before(failure, req, res)) return;
    const answer = (status: number, body: unknown) => answerUnlessLost(failure, req, res, status, body);
    const input = () => JSON.parse(raw.toString('utf8') || '{}') as Record<string, any>;
    const nsid = path.startsWith('/xrpc/') ? path.slice('/xrpc/'.length) : '';
    const query = url.searchParams;

    switch (nsid) {
      case 'com.atproto.server.createSession': {
        const { identifier, password } = input();
        const account = [...accounts.values()].find((candidate) => candidate.handle === identifier || candidate.did === identifier);
        if (!account || account.password !== password)
          return sendJson(res, 401, { error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
        sessions.created += 1;
        return answer(200, session(account));
      }
      case 'com.atproto.server.refreshSession': {
        const did = authorize(req, res, 'refresh');
        if (!did) return;
        // Refresh tokens rotate: the one used is spent.
        tokens.get(bearerToken(req))!.revoked = true;
        sessions.refreshed += 1;
        return answer(200, session(byDid(did)!));
      }
      case 'com.atproto.repo.getRecord': {
        const uri = `at://${query.get('repo')}/${query.get('collection')}/${query.get('rkey')}`;
        const record = find(uri);
        if (!record) return sendJson(res, 400, { error: 'RecordNotFound', message: `Could not locate record: ${uri}` });
        return answer(200, { uri: record.uri, cid: record.cid, value: record.value });
      }
    }
    const did = authorize(req, res, 'access');
    if (!did) return;
    const account = byDid(did)!;
    switch (nsid) {
      case 'com.atproto.repo.createRecord': {
        const { repo, collection, rkey, record } = input();
        if (repo !== did && repo !== account.handle)
          return sendJson(res, 401, { error: 'AuthRequiredError', message: 'Input/repo must be the authenticated account' });
        if (rkey !== undefined && !TID.test(rkey)) return sendJson(res, 400, { error: 'InvalidRequest', message: 'Invalid rkey' });
        const key =
          rkey ??
          `3l${randomBytes(8)
            .toString('hex')
            .replace(/[^a-z2-7]/g, 'a')
            .slice(0, 11)}`;
        const uri = `at://${did}/${collection}/${key}`;
        if (find(uri)) return sendJson(res, 400, { error: 'InvalidRequest', message: `Record already exists: ${uri}` });
        if (collection === 'app.bsky.graph.follow' && (typeof record?.subject !== 'string' || !record.subject.startsWith('did:'))) {
          return sendJson(res, 400, {
            error: 'InvalidRequest',
            message: 'Invalid app.bsky.graph.follow record: Record/subject must be a did',
          });
        }
        if (collection === 'app.bsky.feed.post') {
          if (typeof record?.text !== 'string' || graphemes(record.text) > MAX_GRAPHEMES) {
            return sendJson(res, 400, {
              error: 'InvalidRequest',
              message: `Invalid app.bsky.feed.post record: Record/text must not be longer than ${MAX_GRAPHEMES} graphemes`,
            });
          }
          if (record.reply && (!find(record.reply.root?.uri) || !find(record.reply.parent?.uri))) {
            return sendJson(res, 400, {
              error: 'InvalidRequest',
              message: 'Invalid app.bsky.feed.post record: reply refers to an unknown record',
            });
          }
          const refused = embedProblem(record.embed, did);
          if (refused) return sendJson(res, 400, { error: 'InvalidRequest', message: `Invalid app.bsky.feed.post record: ${refused}` });
        }
        const cid = cidOf(JSON.stringify(record));
        records.push({ uri, cid, did, collection, rkey: key, value: record, created_at: new Date().toISOString() });
        return answer(200, { uri, cid, commit: { cid: cidOf(`${uri}${cid}`), rev: key }, validationStatus: 'valid' });
      }
      case 'app.bsky.actor.getProfile': {
        const actor = query.get('actor') ?? '';
        const target = byDid(actor) ?? [...accounts.values()].find((candidate) => candidate.handle === actor);
        if (!target) return sendJson(res, 400, { error: 'InvalidRequest', message: 'Profile not found' });
        // The viewer's relationship, as the AppView answers it: the follow record's URI when the caller follows the target.
        const following = records.find(
          (record) => record.did === did && record.collection === 'app.bsky.graph.follow' && record.value.subject === target.did,
        );
        return answer(200, {
          ...profile(target),
          viewer: { muted: false, blockedBy: false, ...(following ? { following: following.uri } : {}) },
        });
      }
      case 'app.bsky.feed.getPosts': {
        const posts = query
          .getAll('uris')
          .map(find)
          .filter((record): record is FakeBlueskyRecord => record !== undefined)
          .map((record) => ({
            uri: record.uri,
            cid: record.cid,
            author: { did: record.did, handle: byDid(record.did)?.handle ?? 'handle.invalid' },
            record: record.value,
            replyCount:
              counts.get(record.uri)?.replyCount ??
              records.filter((other) => (other.value.reply as any)?.parent?.uri === record.uri).length,
            repostCount: counts.get(record.uri)?.repostCount ?? 3,
            likeCount: counts.get(record.uri)?.likeCount ?? 7,
            quoteCount: counts.get(record.uri)?.quoteCount ?? 0,
            indexedAt: record.created_at,
          }));
        return answer(200, { posts });
      }
      case 'app.bsky.actor.getSuggestions': {
        const limit = Number(query.get('limit') ?? 50);
        // The newest accounts first (a suite sharing the fake with others finds the ones it just made within the page).
        const actors = [...accounts.values()]
          .reverse()
          .filter((candidate) => candidate.did !== did)
          .slice(0, limit)
          .map((other) => ({
            did: other.did,
            handle: other.handle,
            displayName: other.display_name ?? '',
            description: 'Suggested by the fake',
            avatar: profile(other).avatar,
          }));
        return answer(200, { actors });
      }
    }
    return sendJson(res, 404, { error: 'MethodNotImplemented', message: 'Method Not Implemented' });
  }

  /**
   * What the lexicons refuse in a post's embed (images: ≤ 4, image blobs ≤
   * 1,000,000 bytes; video: an MP4 blob, alt ≤ 1,000 graphemes); "" when fine.
   */
  function embedProblem(embed: any, did: string): string {
    if (!embed) return '';
    const blobOf = (ref: any) => {
      const blob = blobs.get(ref?.ref?.$link);
      return blob && blob.did === did ? blob : undefined;
    };
    if (embed.$type === 'app.bsky.embed.images') {
      const images = Array.isArray(embed.images) ? embed.images : [];
      if (images.length === 0 || images.length > 4) return 'Record/embed/images must have 1 to 4 elements';
      for (const [index, image] of images.entries()) {
        const blob = blobOf(image?.image);
        if (!blob) return `Record/embed/images/${index}/image is an unknown blob`;
        if (typeof image.alt !== 'string') return `Record/embed/images/${index}/alt must be a string`;
        if (!blob.mimeType.startsWith('image/')) return `Record/embed/images/${index}/image has the wrong mime type: ${blob.mimeType}`;
        if (blob.size > IMAGE_BLOB_MAX)
          return `Record/embed/images/${index}/image file too large. ${blob.size} bytes is more than ${IMAGE_BLOB_MAX}`;
      }
    }
    if (embed.$type === 'app.bsky.embed.video') {
      const blob = blobOf(embed.video);
      if (!blob) return 'Record/embed/video is an unknown blob';
      if (blob.mimeType !== 'video/mp4') return `Record/embed/video has the wrong mime type: ${blob.mimeType}`;
      if (blob.size > VIDEO_BLOB_MAX) return `Record/embed/video file too large. ${blob.size} bytes is more than ${VIDEO_BLOB_MAX}`;
      if (embed.alt !== undefined && (typeof embed.alt !== 'string' || graphemes(embed.alt) > VIDEO_ALT_MAX_GRAPHEMES)) {
        return `Record/embed/alt must not be longer than ${VIDEO_ALT_MAX_GRAPHEMES} graphemes`;
      }
    }
    return '';
  }

  /**
   * com.atproto.repo.uploadBlob as a PDS answers it: the body hashed and counted as it streams (never held
   * whole); over the PDS's limit → 400 BlobTooLarge; without a media type (image/*, video/*) → 400 InvalidRequest.
   */
  async function uploadBlob(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const failure = failures.take('POST', '/xrpc/com.atproto.repo.uploadBlob');
    const did = authorize(req, res, 'access');
    if (!did) return void (await drain(req));
    if (failure) {
      // A scripted answer comes after the body, as a server that read it would.
      await drain(req);
      if (await failures.before(failure, req, res)) return;
    }
    const mimeType = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    if (!/^(image|video)\/[\w.+-]+$/.test(mimeType)) {
      await drain(req);
      return sendJson(res, 400, { error: 'InvalidRequest', message: `Unsupported blob type: ${mimeType || 'none'}` });
    }
    const received = await readStreamed(req, 0);
    if (received.size > blobLimit) {
      return sendJson(res, 400, {
        error: 'BlobTooLarge',
        message: `This file is too large. It is ${received.size} bytes but the maximum size is ${blobLimit} bytes.`,
      });
    }
    const cid = cidOfDigest(Buffer.from(received.sha256, 'hex'));
    blobs.set(cid, { cid, did, mimeType, size: received.size, sha256: received.sha256 });
    return answerUnlessLost(failure, req, res, 200, { blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: received.size } });
  }

  const server = await startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : xrpc(req, res, url),
  );
  origin = server.origin;
  return { ...server, filesUrl: `${origin}/files` };
}
