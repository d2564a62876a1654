import { BlockList, isIP } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Names that only resolve inside a machine or a private network. */
const PRIVATE_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

/** The IPv4 address of an IPv4-mapped IPv6 one (`::ffff:7f00:1`, as URL writes `::ffff:127.0.0.1`). */
function ipv4Mapped(host: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!hex) return undefined;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Why networks could not fetch from `baseUrl` (the configured PUBLIC_BASE_URL), or "" when they
 * could: unset, a loopback or private address (IPv4, IPv6 and IPv4-mapped), `localhost` and names
 * that only resolve privately (`*.local`, `*.internal`, a single-label name such as `gateway`).
 * Decided from the configuration alone: no DNS lookup.
 */
export function whyNotPublic(baseUrl: string): string {
  if (!baseUrl) return 'PUBLIC_BASE_URL is not set, so no address a network can fetch from is known';
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return `PUBLIC_BASE_URL (${baseUrl}) is not a URL`;
  }
  const address = ipv4Mapped(host) ?? host;
  const family = isIP(address);
  if (family !== 0) {
    if (NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')) {
      const loopback = address.startsWith('127.') || address === '::1';
      return `PUBLIC_BASE_URL (${baseUrl}) is a ${loopback ? 'loopback' : 'private'} address: networks cannot fetch media from it`;
    }
    return '';
  }
  if (host === 'localhost') return `PUBLIC_BASE_URL (${baseUrl}) is a loopback address: networks cannot fetch media from it`;
  if (!host.includes('.') || PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return `PUBLIC_BASE_URL (${baseUrl}) names a host only a private network resolves: networks cannot fetch media from it`;
  }
  return '';
}
