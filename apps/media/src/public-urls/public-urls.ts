import { Inject, Injectable } from '@nestjs/common';
import { PUBLIC_MEDIA_URL_TTL_MS, type PublicMediaUrl } from '@social/contracts';
import { InstanceSettings, problems, PublicMediaTokens, SERVICE_CONFIG } from '@social/platform';
import type { MediaConfig } from '../config.js';
import { whyNotPublic } from './public-address.js';

/** How long the self-check waits for its own public URL to answer. */
const SELF_CHECK_TIMEOUT_MS = 5_000;

export interface PublicUrlCheck {
  status: number;
  error: string;
}

/**
 * Public copies: `{base_url}/media/public/{token}` URLs (signed, 24 h), whether networks can fetch
 * them (PUBLIC_BASE_URL public), and the self-check that fetches one the way a network would.
 */
@Injectable()
export class PublicUrls {
  private readonly tokens: PublicMediaTokens;
  /** The configured public address ("" when unset), read once at start-up like the gateway does. */
  readonly baseUrl: string;
  /** Why networks cannot fetch from baseUrl; "" when they can. */
  readonly notPublicReason: string;

  constructor(settings: InstanceSettings, @Inject(SERVICE_CONFIG) config: MediaConfig) {
    this.tokens = new PublicMediaTokens(config.SECRETS_KEY);
    this.baseUrl = settings.string('public_base_url').replace(/\/+$/, '');
    this.notPublicReason = whyNotPublic(this.baseUrl);
  }

  /** Networks can fetch our public URLs (the self-check is worth running). */
  get isPublic(): boolean {
    return this.notPublicReason === '';
  }

  /** A fresh URL of the item's bytes; 503 when no public address is configured at all. */
  issue(mediaId: string, now = Date.now()): PublicMediaUrl {
    if (!this.baseUrl)
      throw problems.unavailable(
        'public_url_unavailable',
        'No public address (PUBLIC_BASE_URL) is configured, so no public URL can be issued.',
        60,
      );
    const expiresAt = new Date(now + PUBLIC_MEDIA_URL_TTL_MS);
    return {
      url: `${this.baseUrl}/media/public/${this.tokens.sign(mediaId, expiresAt)}`,
      expires_at: new Date(Math.floor(expiresAt.getTime() / 1000) * 1000).toISOString(),
    };
  }

  /** HEAD of a fresh public URL of the item, as a network would fetch it: its status, and why it is not 200. */
  async selfCheck(mediaId: string): Promise<PublicUrlCheck> {
    const { url } = this.issue(mediaId);
    try {
      const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(SELF_CHECK_TIMEOUT_MS) });
      return { status: response.status, error: response.status === 200 ? '' : `the public URL answered HTTP ${response.status}` };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${SELF_CHECK_TIMEOUT_MS / 1000} s`
          : (cause?.code ?? cause?.message ?? (error as Error).message);
      return { status: 0, error: `the public URL could not be fetched: ${reason}` };
    }
  }
}
