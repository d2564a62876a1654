import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MediaPatterns } from '@social/contracts';
import { PublicMediaTokens } from '@social/platform';
import { randomUUID } from 'node:crypto';
import { baseUrl, call, locations, schemaUrlFor } from '../support/api.js';
import { mediaRpc, type MediaRpc } from '../support/media-rpc.js';
import { openSession, pngBytes, uploadMedia } from '../support/media.js';
import { createTenant } from '../support/tenancy.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A problem+json answer of the public route: its status and code, with the usual members. */
async function expectRouteProblem(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({
    $schema: schemaUrlFor('ErrorModel'),
    type: 'about:blank',
    status,
    code,
    request_id: response.headers.get('x-request-id'),
  });
  expect(JSON.stringify(body)).not.toMatch(/stack|media\.public-urls/);
}

describe('media: public copies ({base_url}/media/public/{token}) and media.public-urls.issue', () => {
  let rpc: MediaRpc;
  beforeAll(async () => {
    rpc = await mediaRpc();
  });
  afterAll(async () => {
    await rpc?.close();
  });

  const issue = (workspaceId: string, mediaId: string) =>
    rpc.ask<{ url: string; expires_at: string }>(MediaPatterns.issuePublicUrl, { workspace_id: workspaceId, media_id: mediaId });

  it('serves the bytes without a bearer token, with safe headers, ranges (206) and HEAD, under /api/v1 too', async () => {
    const { owner, workspaceId } = await createTenant();
    const bytes = pngBytes(8, 9, 4000);
    const item = await uploadMedia(owner.token, workspaceId, bytes, 'my picture.png');
    const before = Date.now();
    const issued = await issue(workspaceId, item.id);
    expect(issued.url).toMatch(new RegExp(`^${baseUrl()}/media/public/[A-Za-z0-9_-]{43}\\.[A-Za-z0-9_-]{43}$`));
    const expiresAt = Date.parse(issued.expires_at);
    expect(expiresAt).toBeGreaterThan(before + DAY_MS - 2000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + DAY_MS);
    // Every URL is new (unguessable from another).
    expect((await issue(workspaceId, item.id)).url).not.toBe(issued.url);

    const whole = await fetch(issued.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('content-security-policy')).toBe('sandbox');
    expect(whole.headers.get('cache-control')).toBe('private, no-store');
    expect(whole.headers.get('content-disposition')).toBe(`inline; filename*=UTF-8''my%20picture.png`);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await fetch(issued.url, { headers: { range: 'bytes=10-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-99/${bytes.length}`);
    expect(part.headers.get('content-length')).toBe('90');
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 100))).toBe(true);
    const tail = await fetch(issued.url, { headers: { range: 'bytes=-7' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 7))).toBe(true);
    const beyond = await fetch(issued.url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    await expectRouteProblem(beyond, 416, 'range_not_satisfiable');

    const head = await fetch(issued.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.headers.get('content-type')).toBe('image/png');
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const versioned = await fetch(issued.url.replace('/media/public/', '/api/v1/media/public/'));
    expect(versioned.status).toBe(200);
    expect(Buffer.from(await versioned.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("refuses tampered (403), expired (410), malformed and deleted items' (404) URLs as problem+json", async () => {
    const { owner, workspaceId } = await createTenant();
    const item = await uploadMedia(owner.token, workspaceId, pngBytes(4, 4));
    const { url } = await issue(workspaceId, item.id);
    const token = url.slice(url.lastIndexOf('/') + 1);
    const [payload, mac] = token.split('.');
    const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    await expectRouteProblem(await fetch(`${baseUrl()}/media/public/${flip(payload, 5)}.${mac}`), 403, 'public_url_invalid');
    await expectRouteProblem(await fetch(`${baseUrl()}/media/public/${payload}.${flip(mac, 5)}`), 403, 'public_url_invalid');
    await expectRouteProblem(await fetch(`${baseUrl()}/media/public/nothing-here`), 404, 'not_found');
    await expectRouteProblem(await fetch(`${baseUrl()}/media/public/${payload}`), 404, 'not_found');

    // Signed with the stack's key (as the media service signs) but past its expiry.
    const tokens = new PublicMediaTokens(process.env.E2E_SECRETS_KEY!);
    await expectRouteProblem(
      await fetch(`${baseUrl()}/media/public/${tokens.sign(item.id, new Date(Date.now() - 1000))}`),
      410,
      'public_url_expired',
    );
    // A valid token for an id that names nothing.
    await expectRouteProblem(
      await fetch(`${baseUrl()}/media/public/${tokens.sign(randomUUID(), new Date(Date.now() + 60_000))}`),
      404,
      'not_found',
    );

    expect((await fetch(url)).status).toBe(200);
    expect((await call('DELETE', `/media/${item.id}`, { token: owner.token })).status).toBe(204);
    await expectRouteProblem(await fetch(url), 404, 'not_found');
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(404);
  });

  it('issues URLs only for ready items of the named workspace; bad requests are 422', async () => {
    const owner = await createTenant();
    const stranger = await createTenant();
    const item = await uploadMedia(owner.owner.token, owner.workspaceId, pngBytes(2, 2));
    const pending = await openSession(owner.owner.token, { workspace_id: owner.workspaceId, filename: 'p.png', size: 10 });
    const problem = (payload: unknown) => rpc.problem(MediaPatterns.issuePublicUrl, payload);
    expect(await problem({ workspace_id: stranger.workspaceId, media_id: item.id })).toMatchObject({ status: 404, code: 'not_found' });
    expect(await problem({ workspace_id: owner.workspaceId, media_id: randomUUID() })).toMatchObject({ status: 404 });
    expect(await problem({ workspace_id: owner.workspaceId, media_id: pending.body.media_id })).toMatchObject({
      status: 409,
      code: 'media_not_ready',
    });
    const invalid = await problem({ workspace_id: 'x', media_id: item.id, more: 1 });
    expect(invalid.status).toBe(422);
    expect(locations(invalid.options).sort()).toEqual(['body.more', 'body.workspace_id']);
  });
});
