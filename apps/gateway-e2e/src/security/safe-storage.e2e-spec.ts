import { describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { call, expectProblem, locations, randomIp, registerUser } from '../support/api.js';
import { mp4Bytes, openSession, pngBytes, putBytes, uploadMedia } from '../support/media.js';
import { createTenant } from '../support/tenancy.js';

/** Issue 23, storage (docs/decisions.md "Safe storage"), over HTTP against the running platform. */
describe('security: safe storage', () => {
  async function completeUpload(token: string, workspaceId: string, bytes: Buffer, session: Record<string, unknown>) {
    const opened = await openSession(token, { workspace_id: workspaceId, size: bytes.length, ...session });
    expect(opened.status).toBe(201);
    expect((await putBytes(opened.body.upload.url, bytes, opened.body.upload.headers)).status).toBe(204);
    return call('POST', `/media/upload-session/${opened.body.media_id}/complete`, { token, body: { workspace_id: workspaceId } });
  }

  it('serves content as a sandboxed attachment, never sniffed, and only to members', async () => {
    const tenant = await createTenant();
    const item = await uploadMedia(tenant.owner.token, tenant.workspaceId, pngBytes(4, 3), 'holiday "photo" é.png');
    const content = await fetch(`${process.env.E2E_BASE_URL}/media/${item.id}/content`, {
      headers: { authorization: `Bearer ${tenant.owner.token}` },
    });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/png');
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.headers.get('content-security-policy')).toBe('sandbox');
    expect(content.headers.get('content-disposition')).toBe(
      `attachment; filename="holiday _photo_ _.png"; filename*=UTF-8''${encodeURIComponent('holiday "photo" é.png')}`,
    );
    await content.arrayBuffer();
    const stranger = await registerUser();
    expectProblem(await call('GET', `/media/${item.id}/content`, { token: stranger.token }), 404);
    expectProblem(await call('GET', `/media/${item.id}/content`), 401);
  });

  it('refuses markup anywhere in the first 64 KiB at completion, even inside a valid image (422 at body.content)', async () => {
    const tenant = await createTenant();
    const polyglot = Buffer.concat([
      pngBytes(2, 2),
      Buffer.alloc(20_000, 0x20),
      Buffer.from('<html><body><script>alert(document.cookie)</script>'),
    ]);
    const refused = expectProblem(
      await completeUpload(tenant.owner.token, tenant.workspaceId, polyglot, { filename: 'innocent.png', mime_type: 'image/png' }),
      422,
    );
    expect(locations(refused)).toEqual(['body.content']);
    expect(refused.errors[0].message).toMatch(/markup/);
  });

  it('refuses bytes of another family than declared (type, else extension), and accepts the matching one', async () => {
    const tenant = await createTenant();
    const video = mp4Bytes(1_000);
    const byType = expectProblem(
      await completeUpload(tenant.owner.token, tenant.workspaceId, video, { filename: 'clip.bin', mime_type: 'image/png' }),
      422,
    );
    expect(locations(byType)).toEqual(['body.content']);
    expect(byType.errors[0].message).toMatch(/video .*not the image declared/);
    const byExtension = expectProblem(
      await completeUpload(tenant.owner.token, tenant.workspaceId, pngBytes(2, 2), { filename: 'clip.mp4' }),
      422,
    );
    expect(byExtension.errors[0].message).toMatch(/image .*not the video declared/);
    // Neither a type nor a known extension: any allowed family.
    expect((await completeUpload(tenant.owner.token, tenant.workspaceId, pngBytes(2, 2), { filename: 'no-extension' })).status).toBe(200);
    expect(
      (await completeUpload(tenant.owner.token, tenant.workspaceId, video, { filename: 'clip.mp4', mime_type: 'video/mp4' })).status,
    ).toBe(200);
  });

  it("cuts off bytes sniffed as another type once they pass that type's limit, while they stream in (413 at body.content)", async () => {
    const tenant = await createTenant();
    // The non-video limit in force, from E17's own refusal.
    const over = expectProblem(
      await openSession(tenant.owner.token, { workspace_id: tenant.workspaceId, filename: 'big.png', size: 2 ** 40 }),
      413,
      'media_too_large',
    );
    const limit = Number(/at most (\d+) bytes/.exec(over.detail)?.[1]);
    expect(limit).toBeGreaterThan(0);
    // Declared a video (its limit is far larger), the bytes are a PNG a little larger than an image may be.
    const opened = await openSession(tenant.owner.token, {
      workspace_id: tenant.workspaceId,
      filename: 'clip.mp4',
      mime_type: 'video/mp4',
      size: limit + 4 * 1024 ** 2,
    });
    expect(opened.status).toBe(201);
    // The client sends past the image limit and then holds the body open: only a check made while the bytes
    // stream in can answer now (a check at the end of the body would wait forever).
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer while the body was still open')), 60_000);
      const url = new URL(opened.body.upload.url);
      const req = request(
        url,
        {
          method: 'PUT',
          headers: { ...opened.body.upload.headers, 'content-length': String(limit + 4 * 1024 ** 2), 'x-forwarded-for': randomIp() },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => {
            clearTimeout(timer);
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          });
        },
      );
      // Writes failing once the gateway has answered and closed are expected.
      req.on('error', () => undefined);
      const png = pngBytes(4, 4);
      const filler = Buffer.alloc(256 * 1024);
      req.write(png);
      let sent = png.length;
      const write = () => {
        while (sent <= limit + 1024 ** 2 && !req.destroyed) {
          sent += filler.length;
          if (!req.write(filler)) return void req.once('drain', write);
        }
        // Held open: never ended.
      };
      write();
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      code: 'media_too_large',
      errors: [{ location: 'body.content', message: `must be at most ${limit} bytes for image/png` }],
    });
    // Nothing was kept: the session has no bytes.
    const completed = await call('POST', `/media/upload-session/${opened.body.media_id}/complete`, {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId },
    });
    expectProblem(completed, 409, 'upload_incomplete');
  }, 90_000);

  it('holds a workspace to its byte quota: open sessions count their declared size (422 storage_quota_exceeded at body.size)', async () => {
    const tenant = await createTenant();
    const video = (n: number) => ({
      workspace_id: tenant.workspaceId,
      filename: `long-${n}.mp4`,
      mime_type: 'video/mp4',
      size: 4 * 1024 ** 3,
    });
    expect((await openSession(tenant.owner.token, video(1))).status).toBe(201);
    expect((await openSession(tenant.owner.token, video(2))).status).toBe(201);
    // 8 GiB open of the 10 GiB default: another 4 GiB does not fit, 1 GiB does.
    const over = expectProblem(await openSession(tenant.owner.token, video(3)), 422, 'storage_quota_exceeded');
    expect(locations(over)).toEqual(['body.size']);
    expect((await openSession(tenant.owner.token, { ...video(4), size: 1024 ** 3 })).status).toBe(201);
    // Another workspace has its own quota.
    const other = await createTenant();
    expect((await openSession(other.owner.token, { ...video(5), workspace_id: other.workspaceId })).status).toBe(201);
  });

  it('allows at most 100 open upload sessions per workspace (429 too_many_upload_sessions with Retry-After)', async () => {
    const tenant = await createTenant();
    const open = (n: number) => openSession(tenant.owner.token, { workspace_id: tenant.workspaceId, filename: `f${n}.png`, size: 10 });
    for (let batch = 0; batch < 10; batch++) {
      const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => open(batch * 10 + i).then((r) => r.status)));
      expect(statuses).toEqual(Array(10).fill(201));
    }
    const refused = await open(100);
    expectProblem(refused, 429, 'too_many_upload_sessions');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_000);
  }, 60_000);
});
