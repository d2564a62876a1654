import { describe, expect, it } from '@jest/globals';
import { call, expectProblem, locations, registerUser } from '../support/api.js';
import { mp4Bytes, openSession, pngBytes, putBytes, uploadMedia } from '../support/media.js';
import { createTenant } from '../support/tenancy.js';

/** Issue 23, storage (contract §6 "Safe storage"), over HTTP against the running platform. */
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
    const content = await fetch(`${process.env.E2E_BASE_URL}/media/${item.id}/content`, { headers: { authorization: `Bearer ${tenant.owner.token}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/png');
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.headers.get('content-security-policy')).toBe('sandbox');
    expect(content.headers.get('content-disposition')).toBe(`attachment; filename="holiday _photo_ _.png"; filename*=UTF-8''${encodeURIComponent('holiday "photo" é.png')}`);
    await content.arrayBuffer();
    const stranger = await registerUser();
    expectProblem(await call('GET', `/media/${item.id}/content`, { token: stranger.token }), 404);
    expectProblem(await call('GET', `/media/${item.id}/content`), 401);
  });

  it('refuses markup anywhere in the first 64 KiB at completion, even inside a valid image (422 at body.content)', async () => {
    const tenant = await createTenant();
    const polyglot = Buffer.concat([pngBytes(2, 2), Buffer.alloc(20_000, 0x20), Buffer.from('<html><body><script>alert(document.cookie)</script>')]);
    const refused = expectProblem(await completeUpload(tenant.owner.token, tenant.workspaceId, polyglot, { filename: 'innocent.png', mime_type: 'image/png' }), 422);
    expect(locations(refused)).toEqual(['body.content']);
    expect(refused.errors[0].message).toMatch(/markup/);
  });

  it('refuses bytes of another family than declared (type, else extension), and accepts the matching one', async () => {
    const tenant = await createTenant();
    const video = mp4Bytes(1_000);
    const byType = expectProblem(await completeUpload(tenant.owner.token, tenant.workspaceId, video, { filename: 'clip.bin', mime_type: 'image/png' }), 422);
    expect(locations(byType)).toEqual(['body.content']);
    expect(byType.errors[0].message).toMatch(/video .*not the image declared/);
    const byExtension = expectProblem(await completeUpload(tenant.owner.token, tenant.workspaceId, pngBytes(2, 2), { filename: 'clip.mp4' }), 422);
    expect(byExtension.errors[0].message).toMatch(/image .*not the video declared/);
    // Neither a type nor a known extension: any allowed family.
    expect((await completeUpload(tenant.owner.token, tenant.workspaceId, pngBytes(2, 2), { filename: 'no-extension' })).status).toBe(200);
    expect((await completeUpload(tenant.owner.token, tenant.workspaceId, video, { filename: 'clip.mp4', mime_type: 'video/mp4' })).status).toBe(200);
  });
});
