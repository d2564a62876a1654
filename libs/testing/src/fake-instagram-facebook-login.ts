import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { graphError, only, text, upstreamProfile } from './fake-graph-kit.js';
import { sendJson } from './fake-network-kit.js';

/** The professional Instagram account linked to a Page (`id`: an account made before, through Instagram Login too). */
export interface FakeLinkedInstagramAccount {
  id?: string;
  username: string;
  name?: string;
  followers_count?: number;
  follows_count?: number;
}

/** A Page a Facebook user manages: its Page token, and the Instagram account linked to it, when it has one. */
export interface FakeInstagramPageRequest {
  id?: string;
  name: string;
  access_token: string;
  instagram?: FakeLinkedInstagramAccount;
}

/**
 * A Facebook user of Instagram API with Facebook Login (control POST /facebook-users). `id` links them to the OAuth
 * fake's profile (a short-lived token it issued is traded at GET /{version}/oauth/access_token for a long-lived one).
 */
export interface FakeInstagramFacebookUserRequest {
  id: string;
  name?: string;
  /** A short-lived user token this fake knows itself (without the OAuth fake). */
  access_token?: string;
  pages: FakeInstagramPageRequest[];
}

/** An Instagram account as fake-instagram keeps it per token; a Page token names its Page. */
export interface FakeInstagramTokenAccount extends FakeLinkedInstagramAccount {
  id: string;
  access_token: string;
  page_id?: string;
}

interface Page extends FakeInstagramPageRequest {
  id: string;
}

/** A long-lived user token lives about 60 days (Facebook Login "Long-lived access tokens"). */
const LONG_LIVED_SECONDS = 5_183_944;

/**
 * The Facebook Login side of Instagram API with Facebook Login, as fake-instagram serves it on graph.facebook.com's
 * paths: GET /{version}/oauth/access_token `grant_type=fb_exchange_token` (client_id, client_secret, fb_exchange_token:
 * a long-lived user token), GET /{version}/me/accounts (the user's Pages with `access_token` and
 * `instagram_business_account{id,username,name,profile_picture_url}`, the `fields` asked; `limit`, `after` cursors and
 * `paging.next`). A Page token acts for the Instagram account linked to its Page only (fake-instagram's `accounts`).
 * Control: POST /facebook-users (FakeInstagramFacebookUserRequest), POST /listing `{size}` (the most Pages one answer lists).
 */
export class FakeFacebookLogin {
  private readonly users = new Map<string, { id: string; name: string; pages: Page[] }>();
  /** user token → user id */
  private readonly userTokens = new Map<string, string>();
  /** Page tokens of Pages without an Instagram account: known to Graph, good for nothing here. */
  readonly unlinkedPageTokens = new Set<string>();
  private listing = 100;

  constructor(
    /** fake-instagram's accounts by token: a linked account is registered there under its Page's token. */
    private readonly accounts: Map<string, FakeInstagramTokenAccount>,
    private readonly newId: () => string,
    private readonly upstream?: string,
  ) {}

  /** Whether the token is a Facebook user token this fake issued. */
  knows(token: string): boolean {
    return this.userTokens.has(token) || this.unlinkedPageTokens.has(token);
  }

  /** Who a token is, for requests as recorded: `user:<id>`, `page:<id>` or "". */
  tokenOf(token: string): string {
    const userId = this.userTokens.get(token);
    if (userId) return `user:${userId}`;
    const pageId = this.accounts.get(token)?.page_id ?? this.pageOfToken(token)?.id;
    return pageId ? `page:${pageId}` : '';
  }

  /** Handles the control routes it owns; whether it did. */
  control(path: string, method: string | undefined, body: unknown, res: ServerResponse): boolean {
    if (path === '/facebook-users' && method === 'POST') {
      const request = body as FakeInstagramFacebookUserRequest;
      if (!request.id || !Array.isArray(request.pages) || request.pages.some((page) => !page.name || !page.access_token)) {
        sendJson(res, 400, { error: 'id and pages, each with name and access_token, are required' });
      } else sendJson(res, 201, this.register(request));
      return true;
    }
    if (path === '/listing' && method === 'POST') {
      this.listing = Math.max(1, Number((body as { size?: number }).size ?? 100));
      sendJson(res, 200, { size: this.listing });
      return true;
    }
    return false;
  }

  resetListing(): void {
    this.listing = 100;
  }

  /**
   * The Facebook Login calls (`path` below its version): the token trade and /me/accounts. Whether it answered; a
   * `versioned` undefined path is not one of them.
   */
  async api(
    call: { method: string; pathname: string; versioned: string | undefined; params: Record<string, string>; token: string },
    res: ServerResponse,
    answer: (status: number, body: unknown) => void,
  ): Promise<boolean> {
    const { method, versioned, params, token } = call;
    if (method === 'GET' && versioned === '/oauth/access_token' && params.grant_type === 'fb_exchange_token') {
      await this.exchange(call.pathname, params, res, answer);
      return true;
    }
    if (method === 'GET' && versioned === '/me/accounts' && this.userTokens.has(token)) {
      this.pagesOf(this.userTokens.get(token)!, call.pathname, params, res, answer);
      return true;
    }
    return false;
  }

  private register(request: FakeInstagramFacebookUserRequest) {
    const user = this.users.get(request.id) ?? { id: request.id, name: request.name ?? 'Fake Person', pages: [] };
    for (const pageRequest of request.pages) {
      const page: Page = { ...pageRequest, id: pageRequest.id ?? this.pageOfToken(pageRequest.access_token)?.id ?? this.newId() };
      user.pages = [...user.pages.filter((known) => known.id !== page.id), page];
      if (page.instagram) {
        const known = [...this.accounts.values()].find((account) => account.id === page.instagram!.id);
        const instagramId = page.instagram.id ?? known?.id ?? this.newId();
        page.instagram = { ...page.instagram, id: instagramId };
        this.accounts.set(page.access_token, { ...page.instagram, id: instagramId, access_token: page.access_token, page_id: page.id });
      } else this.unlinkedPageTokens.add(page.access_token);
    }
    this.users.set(user.id, user);
    if (request.access_token) this.userTokens.set(request.access_token, user.id);
    return user;
  }

  private pageOfToken(token: string): Page | undefined {
    return [...this.users.values()].flatMap((user) => user.pages).find((page) => page.access_token === token);
  }

  /** fb_exchange_token: the app's id and secret, and a user token (one the OAuth fake issued is known by its profile's id). */
  private async exchange(
    pathname: string,
    params: Record<string, string>,
    res: ServerResponse,
    answer: (status: number, body: unknown) => void,
  ): Promise<void> {
    if (!params.client_id || !params.client_secret) return graphError(res, 400, 101, 'Missing client_id or client_secret parameter.');
    const shortLived = params.fb_exchange_token ?? '';
    let userId = this.userTokens.get(shortLived);
    if (!userId && this.upstream && shortLived) {
      const version = pathname.slice(0, -'/oauth/access_token'.length);
      const profile = await upstreamProfile(this.upstream, `${version}/me?fields=id,name`, shortLived);
      const id = text(profile?.id);
      if (id && this.users.has(id)) userId = id;
    }
    if (!userId) return graphError(res, 400, 190, 'Error validating access token: the session is invalid.', 463);
    const longLived = `EAAL${randomBytes(12).toString('hex')}`;
    this.userTokens.set(longLived, userId);
    return answer(200, { access_token: longLived, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS });
  }

  /** GET /me/accounts: one page of the user's Pages, the `fields` asked (`instagram_business_account{…}` expanded). */
  private pagesOf(
    userId: string,
    pathname: string,
    params: Record<string, string>,
    res: ServerResponse,
    answer: (status: number, body: unknown) => void,
  ): void {
    const pages = this.users.get(userId)?.pages ?? [];
    const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), this.listing);
    const from = params.after ? pages.findIndex((page) => cursor(page.id) === params.after) + 1 : 0;
    if (params.after && from === 0) return graphError(res, 400, 100, 'Invalid after cursor.');
    const slice = pages.slice(from, from + limit);
    const fields = splitFields(params.fields ?? 'id,name,access_token');
    const linkedFields = /instagram_business_account\{([^}]*)\}/.exec(params.fields ?? '')?.[1] ?? 'id';
    const pageJson = (page: Page) => {
      const linked = page.instagram
        ? only(
            {
              id: page.instagram.id,
              username: page.instagram.username,
              name: page.instagram.name ?? page.instagram.username,
              profile_picture_url: `https://scontent.cdninstagram.com/v/${page.instagram.id}.jpg`,
            },
            linkedFields,
          )
        : undefined;
      return only({ id: page.id, name: page.name, access_token: page.access_token, instagram_business_account: linked }, fields);
    };
    answer(200, {
      data: slice.map(pageJson),
      paging: {
        cursors: slice.length ? { before: cursor(slice[0].id), after: cursor(slice.at(-1)!.id) } : {},
        ...(from + limit < pages.length
          ? { next: `https://graph.facebook.com${pathname}?after=${cursor(slice.at(-1)!.id)}&limit=${limit}` }
          : {}),
      },
    });
  }
}

const cursor = (id: string) => Buffer.from(`page:${id}`).toString('base64url');

/** Top-level field names of a `fields` list, an expansion's braces kept whole (`a,b{c,d},e` → a, b{c,d}, e). */
const splitFields = (fields: string) => fields.split(/,(?![^{]*\})/).map((field) => field.trim());
