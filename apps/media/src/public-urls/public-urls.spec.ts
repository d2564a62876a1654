import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InstanceSettings, PublicMediaTokens } from '@social/platform';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MediaConfig } from '../config.js';
import { PublicUrls } from './public-urls.js';

const SECRET = 'c'.repeat(44);
const urlsFor = (baseUrl: string) =>
  new PublicUrls(
    { string: (key: string) => (key === 'public_base_url' ? baseUrl : '') } as unknown as InstanceSettings,
    { SECRETS_KEY: SECRET } as MediaConfig,
  );

describe('PublicUrls', () => {
  let server: Server;
  let origin: string;
  const seen: string[] = [];
  beforeAll(async () => {
    const tokens = new PublicMediaTokens(SECRET);
    // Plays the gateway's public route: 200 for a valid token of the "good" item, 404 otherwise.
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const check = tokens.check((req.url ?? '').replace('/base/media/public/', ''));
      res.writeHead(check.result === 'valid' && check.mediaId === '01a21009-cc66-736c-9249-c615fee8096b' ? 200 : 404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('issues {base_url}/media/public/{token} URLs valid for 24 hours', () => {
    const urls = urlsFor('https://social.example.com/');
    expect(urls.isPublic).toBe(true);
    const now = Date.parse('2026-11-26T10:00:00.000Z');
    const issued = urls.issue('01a21009-cc66-736c-9249-c615fee8096b', now);
    expect(issued.url).toMatch(/^https:\/\/social\.example\.com\/media\/public\/[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(issued.expires_at).toBe('2026-11-27T10:00:00.000Z');
    const token = issued.url.slice(issued.url.lastIndexOf('/') + 1);
    expect(new PublicMediaTokens(SECRET).check(token, now)).toMatchObject({
      result: 'valid',
      mediaId: '01a21009-cc66-736c-9249-c615fee8096b',
    });
  });

  it('without a public address nothing can be fetched; without any, nothing can be issued (503)', () => {
    const loopback = urlsFor('http://127.0.0.1:8080');
    expect(loopback.isPublic).toBe(false);
    expect(loopback.notPublicReason).toMatch(/loopback/);
    expect(loopback.issue('01a21009-cc66-736c-9249-c615fee8096b').url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/media\/public\//);
    expect(() => urlsFor('').issue('01a21009-cc66-736c-9249-c615fee8096b')).toThrow(
      expect.objectContaining({ status: 503, code: 'public_url_unavailable' }),
    );
  });

  it('self-checks with a HEAD of a fresh URL: its status, and why it is not 200', async () => {
    const urls = urlsFor(`${origin}/base`);
    expect(await urls.selfCheck('01a21009-cc66-736c-9249-c615fee8096b')).toEqual({ status: 200, error: '' });
    expect(seen.at(-1)).toMatch(/^HEAD \/base\/media\/public\//);
    expect(await urls.selfCheck('01a21009-cc66-736c-9249-c615fee8096c')).toEqual({
      status: 404,
      error: 'the public URL answered HTTP 404',
    });
    const unreachable = await urlsFor('http://127.0.0.1:1').selfCheck('01a21009-cc66-736c-9249-c615fee8096b');
    expect(unreachable).toEqual({ status: 0, error: expect.stringMatching(/^the public URL could not be fetched: /) });
  });
});
