import { isIP } from 'node:net';
import { embeddedIpv4, isPrivateHostName, isPublicAddress } from '@social/platform';

/**
 * Why networks could not fetch from `baseUrl` (the configured PUBLIC_BASE_URL), or "" when they
 * could: unset, an address that is not public (libs/platform's one definition: loopback, private,
 * IPv4 inside IPv6 judged by itself), `localhost` and names that only resolve privately (`*.local`,
 * `*.internal`, a single-label name such as `gateway`). Decided from the configuration alone: no DNS lookup.
 */
export function whyNotPublic(baseUrl: string): string {
  if (!baseUrl) return 'PUBLIC_BASE_URL is not set, so no address a network can fetch from is known';
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return `PUBLIC_BASE_URL (${baseUrl}) is not a URL`;
  }
  if (isIP(host) !== 0) {
    if (isPublicAddress(host)) return '';
    const inner = embeddedIpv4(host) ?? host;
    const loopback = inner.startsWith('127.') || inner === '::1';
    return `PUBLIC_BASE_URL (${baseUrl}) is a ${loopback ? 'loopback' : 'private'} address: networks cannot fetch media from it`;
  }
  if (host === 'localhost') return `PUBLIC_BASE_URL (${baseUrl}) is a loopback address: networks cannot fetch media from it`;
  if (isPrivateHostName(host))
    return `PUBLIC_BASE_URL (${baseUrl}) names a host only a private network resolves: networks cannot fetch media from it`;
  return '';
}
