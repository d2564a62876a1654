import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ProviderError } from './provider-error.js';
import type { FetchFunction } from './provider-http.js';

/**
 * Addresses a network's server never has: this machine, private and
 * link-local ranges (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * unique-local IPv6, multicast and the unspecified address. A user names some
 * servers (a Bluesky PDS, and the PDS its DID document points at): without
 * this check an editor could make the service call, with an account's token,
 * whatever answers inside our network, and read what is there from the errors.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4, v6, or v4-mapped v6) is outside the ranges above. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // IPv6 forms that carry an IPv4 address a gateway translates to: judged by that address.
    const embedded = embeddedIpv4(address);
    if (embedded) return isPublicAddress(embedded);
  }
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The IPv4 address inside NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48: the last 32 bits) and
 * 6to4 (2002::/16: bits 16–47) addresses, which a translator turns into a connection to that address.
 */
export function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && (groups.slice(2, 6).every((g) => g === 0) || groups[2] === 1)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included), or undefined. */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parts = (part: string | undefined) => (part ? part.split(':').filter((group) => group !== '') : []);
  const left = parts(head);
  const right = parts(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((group) => parseInt(group, 16));
}

/**
 * `fetch` that refuses destinations whose host is, or resolves to, an address
 * that is not public, unless the destination is one an operator configured
 * (an origin of PROVIDER_API_ORIGINS: tests' fakes, egress proxies) or
 * `allowPrivate` is set (PROVIDER_ALLOW_PRIVATE_ADDRESSES, for networks
 * self-hosted inside the same private network). The refusal is a
 * ProviderError `refused` raised before anything is sent. The name is resolved
 * here and again by the connection, so a host that changes its answer in
 * between (DNS rebinding) is not covered; an egress proxy is the complete
 * answer where that matters.
 */
export function publicOnlyFetch(configuredOrigins: Iterable<string>, allowPrivate: boolean, inner: FetchFunction = fetch): FetchFunction {
  if (allowPrivate) return inner;
  const trusted = new Set(configuredOrigins);
  return (async (input: Parameters<FetchFunction>[0], init?: Parameters<FetchFunction>[1]) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (!trusted.has(url.origin)) await requirePublicHost(url.hostname);
    return inner(input, init);
  }) as FetchFunction;
}

async function requirePublicHost(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch {
      // Unknown names fail as the connection would: unreachable, nothing sent.
      throw new ProviderError('unavailable', `${host} could not be resolved.`, undefined, { status: 0, sent: false });
    }
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    throw new ProviderError('refused', 'The server is not on a public address.', 'destination_not_public', { status: 0, sent: false });
  }
}
