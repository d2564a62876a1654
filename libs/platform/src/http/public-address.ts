import { BlockList, isIP } from 'node:net';

/**
 * The one definition of "a public address": what a server on the internet may
 * have. Everything else is this machine, a private or link-local network
 * (cloud metadata at 169.254.169.254), carrier-grade NAT, benchmarking and
 * protocol ranges, multicast, reserved space or the unspecified address.
 * Users name some servers we call (a Mastodon instance, a Bluesky PDS, media
 * URLs): without this judgement a user could make us call, with an account's
 * token, whatever answers inside our network.
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
  // Multicast (224/4) and reserved (240/4, the broadcast address included).
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Names that only resolve inside a machine or a private network. */
const PRIVATE_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

/**
 * Whether an IP address (v4 or v6, brackets allowed) is public. IPv6 forms
 * that a translator or tunnel turns into an IPv4 connection (IPv4-mapped,
 * IPv4-compatible, NAT64, 6to4, Teredo) are judged by the IPv4 address inside.
 * Anything that is not an IP address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  const family = isIP(text);
  if (family === 0) return false;
  if (family === 4) return !NOT_PUBLIC.check(text, 'ipv4');
  const embedded = embeddedIpv4(text);
  if (embedded !== undefined) return isPublicAddress(embedded);
  return !NOT_PUBLIC.check(text, 'ipv6');
}

/**
 * The IPv4 address an IPv6 one leads to, or undefined: IPv4-mapped
 * (::ffff:0:0/96) and the deprecated IPv4-compatible (::/96) forms, NAT64
 * (64:ff9b::/96 and the local-use 64:ff9b:1::/48: the last 32 bits), 6to4
 * (2002::/16: bits 16–47) and Teredo (2001::/32: the client's address,
 * inverted, in the last 32 bits).
 */
export function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (!groups) return undefined;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6], groups[7]);
  // ::/96 without ::ffff: the unspecified address and ::1 are not IPv4-compatible ones.
  if (zeros(0, 6) && (groups[6] !== 0 || groups[7] > 1)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && (zeros(2, 6) || groups[2] === 1)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  if (groups[0] === 0x2001 && groups[1] === 0) return v4(groups[6] ^ 0xffff, groups[7] ^ 0xffff);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (isIP(text) !== 6) return undefined;
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
 * Whether a host name (not an address) can only mean this machine or a
 * private network: `localhost`, a single-label name (`gateway`), and
 * `*.localhost`, `*.local`, `*.internal`, `*.lan`, `*.home.arpa`. Decided
 * from the name alone, without DNS.
 */
export function isPrivateHostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return false;
  return host === 'localhost' || !host.includes('.') || PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix));
}
