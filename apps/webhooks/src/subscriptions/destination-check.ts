import { Inject, Injectable } from '@nestjs/common';
import { isPrivateHostName, isPublicAddress, problems, type Resolve, SERVICE_CONFIG, systemResolve } from '@social/platform';
import { isIP } from 'node:net';
import type { WebhooksConfig } from '../config.js';

/** A name that takes longer to resolve is judged at send time instead (each connection is checked again). */
const RESOLVE_TIMEOUT_MS = 2_000;

/**
 * Judges a webhook URL when it is saved (the sender judges each connection again, DNS may change):
 * https on a public address, or an origin WEBHOOK_ALLOWED_ORIGINS lists (then http and private addresses too).
 * Refusals are 422 at `body.url`.
 */
@Injectable()
export class DestinationCheck {
  private readonly allowed: Set<string>;
  resolve: Resolve = systemResolve;

  constructor(@Inject(SERVICE_CONFIG) config: WebhooksConfig) {
    this.allowed = new Set(config.WEBHOOK_ALLOWED_ORIGINS);
  }

  isAllowedOrigin(url: URL): boolean {
    return this.allowed.has(url.origin);
  }

  async check(raw: string): Promise<string> {
    const refuse = (why: string) => problems.invalid('body.url', why, raw);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse('must be an absolute https URL');
    }
    if (url.username || url.password) throw refuse('must not carry credentials');
    if (this.isAllowedOrigin(url)) return url.href;
    if (url.protocol !== 'https:') throw refuse('must use https');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      if (!isPublicAddress(host)) throw refuse('must not point at a loopback, private or link-local address');
      return url.href;
    }
    if (isPrivateHostName(host)) throw refuse('must not point at a loopback, private or link-local address');
    const answers = await this.lookup(host);
    if (answers.some((answer) => !isPublicAddress(answer.address))) {
      throw refuse('must not resolve to a loopback, private or link-local address');
    }
    return url.href;
  }

  /** The name's addresses; none when it does not resolve (yet) or takes too long (the sender checks again). */
  private async lookup(host: string): Promise<Array<{ address: string }>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Array<{ address: string }>>((resolve) => {
      timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS);
    });
    try {
      return await Promise.race([this.resolve(host).catch(() => []), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
