import { describe, expect, it } from '@jest/globals';
import { embeddedIpv4, isPrivateHostName, isPublicAddress } from './public-address.js';

const judged = (addresses: string[]) => addresses.map((address) => ({ address, public: isPublicAddress(address) }));
const all = (addresses: string[], value: boolean) => addresses.map((address) => ({ address, public: value }));

describe('isPublicAddress: the one definition of a public address', () => {
  it('tells public IPv4 and IPv6 addresses from loopback, private, link-local, CGNAT, unique-local, multicast and reserved ones', () => {
    const open = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2001:4860:4860::8888', '2606:4700::1111', '[2606:4700::1111]'];
    expect(judged(open)).toEqual(all(open, true));
    const closed = [
      ...['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'],
      ...['192.0.0.8', '198.18.0.1', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1'],
      ...['::1', '::', 'fd00::1', 'fc00::1', 'fe80::1', 'fec0::1', 'ff02::1', '[::1]', 'not-an-ip', '', 'localhost'],
    ];
    expect(judged(closed)).toEqual(all(closed, false));
  });

  it('judges IPv4 inside IPv6 (mapped, compatible, NAT64 /96 and /48, 6to4, Teredo) by the IPv4 address it leads to', () => {
    const open = [
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '::8.8.8.8',
      '64:ff9b::808:808',
      '64:ff9b::8.8.8.8',
      '64:ff9b:1::8.8.8.8',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    ];
    expect(judged(open)).toEqual(all(open, true));
    const closed = [
      ...['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '::10.0.0.1', '::127.0.0.1'],
      ...['64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::10.0.0.1', '64:ff9b:1:abcd::c0a8:101'],
      ...['2002:a00:1::1', '2002:7f00:1::', '2002:c0a8:101::1', '2002:a9fe:a9fe::1'],
      // Teredo: the client address is stored inverted (0x80ff:fefe is 127.0.1.1).
      '2001:0:4136:e378:8000:63bf:80ff:fefe',
    ];
    expect(judged(closed)).toEqual(all(closed, false));
  });

  it('reads the embedded IPv4 address of each form, and none from plain IPv6', () => {
    expect(embeddedIpv4('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(embeddedIpv4('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIpv4('2002:c0a8:101::1')).toBe('192.168.1.1');
    expect(embeddedIpv4('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toBe('192.0.2.45');
    expect(embeddedIpv4('2606:4700::1111')).toBeUndefined();
    expect(embeddedIpv4('::1')).toBeUndefined();
    expect(embeddedIpv4('8.8.8.8')).toBeUndefined();
  });
});

describe('isPrivateHostName', () => {
  it('knows the names only this machine or a private network resolves', () => {
    for (const name of [
      'localhost',
      'gateway',
      'media.local',
      'api.internal',
      'app.localhost',
      'nas.lan',
      'printer.home.arpa',
      'LOCALHOST.',
    ])
      expect({ name, private: isPrivateHostName(name) }).toEqual({ name, private: true });
    for (const name of ['social.example.com', 'bsky.social', '8.8.8.8', '[::1]'])
      expect({ name, private: isPrivateHostName(name) }).toEqual({ name, private: false });
  });
});
