import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { baseUrl, call, eventually, expectProblem, locations, RFC3339_MS, schemaUrlFor, TestUser } from '../support/api.js';
import { adminCall, registerAdmin } from '../support/admin.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { openSession, pngBytes, uploadMedia } from '../support/media.js';
import { createPublication } from '../support/publishing.js';
import { objectExists } from '../support/object-store.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';

const content = (id: string, token: string, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl()}/media/${id}/content`, { headers: { authorization: `Bearer ${token}`, ...headers } });

const createTag = (token: string, workspaceId: string, name: string) =>
  call('POST', '/media/tags', { token, body: { workspace_id: workspaceId, name } });

describe('media: the library, content, and E18 tags', () => {
  const db = testDatabase();

  it('GET /media/{id}/content streams the bytes with the type, Content-Length and ranges', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    const bytes = pngBytes(5, 6, 5000);
    const item = await uploadMedia(owner.token, workspaceId, bytes);
    const whole = await content(item.id, viewer.token);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await content(item.id, owner.token, { range: 'bytes=10-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-99/${bytes.length}`);
    expect(part.headers.get('content-length')).toBe('90');
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 100))).toBe(true);
    const tail = await content(item.id, owner.token, { range: 'bytes=-16' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 16))).toBe(true);
    const open = await content(item.id, owner.token, { range: `bytes=${bytes.length - 3}-` });
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 3))).toBe(true);
    const beyond = await content(item.id, owner.token, { range: `bytes=${bytes.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect(((await beyond.json()) as { code: string }).code).toBe('range_not_satisfiable');

    // Without a token: 401. A pending item: 409.
    expect((await fetch(`${baseUrl()}/media/${item.id}/content`)).status).toBe(401);
    const pending = await openSession(owner.token, { workspace_id: workspaceId, filename: 'p.png', size: 10 });
    const notReady = await content(pending.body.media_id, owner.token);
    expect(notReady.status).toBe(409);
    expect(((await notReady.json()) as { code: string }).code).toBe('media_not_ready');
  });

  it('lists ready items newest first a page at a time, with cursors bound to their filters', async () => {
    const { owner, workspaceId } = await createTenant();
    const items: any[] = [];
    for (let i = 0; i < 3; i += 1) items.push(await uploadMedia(owner.token, workspaceId, pngBytes(i + 1, 1)));
    const first = await call('GET', `/media?workspace_id=${workspaceId}&limit=2`, { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body.$schema).toBe(schemaUrlFor('MediaList'));
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual([items[2].id, items[1].id]);
    const { $schema: _schema, ...newest } = items[2];
    expect(first.body.items[0]).toEqual(newest);
    await expectMatchesOwnSchema(first.body, 'MediaList');
    expect(first.body.next_cursor).not.toBe('');
    const second = await call('GET', `/media?workspace_id=${workspaceId}&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, {
      token: owner.token,
    });
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual([items[0].id]);
    expect(second.body.next_cursor).toBe('');
    expect((await call('GET', `/media?workspace_id=${workspaceId}&cursor=`, { token: owner.token })).body.items).toHaveLength(3);

    const bad = async (query: string) => locations(expectProblem(await call('GET', `/media?${query}`, { token: owner.token }), 422));
    expect(await bad(`workspace_id=${workspaceId}&cursor=${encodeURIComponent(first.body.next_cursor)}x`)).toEqual(['query.cursor']);
    expect(await bad(`workspace_id=${workspaceId}&tag_id=${randomUUID()}&cursor=${encodeURIComponent(first.body.next_cursor)}`)).toEqual([
      'query.cursor',
    ]);
    expect(await bad(`workspace_id=${workspaceId}&limit=0`)).toEqual(['query.limit']);
    expect(await bad(`workspace_id=${workspaceId}&limit=101`)).toEqual(['query.limit']);
    expect(await bad(`workspace_id=${workspaceId}&tag_id=x`)).toEqual(['query.tag_id']);
    expect(await bad(`workspace_id=${workspaceId}&other=1`)).toEqual(['query.other']);
    expect(await bad('')).toEqual(['query.workspace_id']);
    const stranger = await createTenant();
    expectProblem(await call('GET', `/media?workspace_id=${workspaceId}`, { token: stranger.owner.token }), 403, 'workspace_forbidden');
  });

  it('DELETE /media/{id} removes the item and its object (204); viewers cannot', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    const item = await uploadMedia(owner.token, workspaceId, pngBytes(7, 7));
    const key = `workspaces/${workspaceId}/media/${item.id}`;
    expect(await objectExists(key)).toBe(true);
    expectProblem(await call('DELETE', `/media/${item.id}`, { token: viewer.token }), 403, 'insufficient_role');
    expect((await call('DELETE', `/media/${item.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(await call('GET', `/media/${item.id}`, { token: owner.token }), 404, 'not_found');
    expect((await content(item.id, owner.token)).status).toBe(404);
    expect(await objectExists(key)).toBe(false);
    expectProblem(await call('DELETE', `/media/${item.id}`, { token: owner.token }), 404);
  });

  it(
    'DELETE /media/{id} is 409 media_in_use while a publication not yet ' +
      'published uses it (publication or segment media), 204 once it no longer does',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const picture = await uploadMedia(owner.token, workspaceId, pngBytes(12, 8));
      const clip = await uploadMedia(owner.token, workspaceId, pngBytes(13, 8));
      const publication = await createPublication(owner.token, workspaceId);
      const patched = await call('PATCH', `/publications/${publication.id}`, {
        token: owner.token,
        body: {
          expected_revision: publication.revision,
          media: [{ media_id: picture.id, alt_text: 'a picture' }],
          segments: [{ body: 'part two', media: [{ media_id: clip.id }] }],
        },
      });
      expect(patched.status).toBe(200);
      for (const id of [picture.id, clip.id]) {
        const refused = expectProblem(await call('DELETE', `/media/${id}`, { token: owner.token }), 409, 'media_in_use');
        expect(refused.detail).toContain(id);
      }
      const cleared = await call('PATCH', `/publications/${publication.id}`, {
        token: owner.token,
        body: { expected_revision: patched.body.revision, media: [], segments: [] },
      });
      expect(cleared.status).toBe(200);
      expect((await call('DELETE', `/media/${picture.id}`, { token: owner.token })).status).toBe(204);
      expect((await call('DELETE', `/media/${clip.id}`, { token: owner.token })).status).toBe(204);
    },
  );

  it('E18 creates tags (201, item_count 0); names are unique ignoring case; list, rename and delete', async () => {
    const { owner, workspaceId } = await createTenant();
    const created = await createTag(owner.token, workspaceId, 'Summer');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      $schema: schemaUrlFor('MediaTag'),
      id: expect.any(String),
      workspace_id: workspaceId,
      name: 'Summer',
      item_count: 0,
      created_at: expect.stringMatching(RFC3339_MS),
    });
    expect(created.headers.get('location')).toBe(`/media/tags/${created.body.id}`);
    await expectMatchesOwnSchema(created.body, 'MediaTag');
    expectProblem(await createTag(owner.token, workspaceId, 'SUMMER'), 409, 'duplicate_name');
    const autumn = await createTag(owner.token, workspaceId, 'autumn');
    const bad = async (body: unknown) => locations(expectProblem(await call('POST', '/media/tags', { token: owner.token, body }), 422));
    expect(await bad({ workspace_id: workspaceId, name: '' })).toEqual(['body.name']);
    expect(await bad({ workspace_id: workspaceId, name: 'x'.repeat(65) })).toEqual(['body.name']);
    expect(await bad({ workspace_id: workspaceId })).toEqual(['body.name']);
    expect(await bad({ name: 'a' })).toEqual(['body.workspace_id']);
    expect(await bad({ workspace_id: workspaceId, name: 'a', color: 'red' })).toEqual(['body.color']);
    expect((await createTag(owner.token, workspaceId, 'x'.repeat(64))).status).toBe(201);

    const list = await call('GET', `/media/tags?workspace_id=${workspaceId}`, { token: owner.token });
    expect(list.body.$schema).toBe(schemaUrlFor('MediaTagList'));
    expect(list.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['autumn', 'Summer', 'x'.repeat(64)]);
    await expectMatchesOwnSchema(list.body, 'MediaTagList');

    const renamed = await call('PATCH', `/media/tags/${autumn.body.id}`, { token: owner.token, body: { name: 'Fall' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: autumn.body.id, name: 'Fall', $schema: schemaUrlFor('MediaTag') });
    expectProblem(
      await call('PATCH', `/media/tags/${autumn.body.id}`, { token: owner.token, body: { name: 'summer' } }),
      409,
      'duplicate_name',
    );
    expect(locations(expectProblem(await call('PATCH', `/media/tags/${autumn.body.id}`, { token: owner.token, body: {} }), 422))).toEqual([
      'body.name',
    ]);
    expect((await call('DELETE', `/media/tags/${autumn.body.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(await call('PATCH', `/media/tags/${autumn.body.id}`, { token: owner.token, body: { name: 'x' } }), 404);

    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(await createTag(viewer.token, workspaceId, 'mine'), 403, 'insufficient_role');
    expectProblem(
      await call('PATCH', `/media/tags/${created.body.id}`, { token: viewer.token, body: { name: 'x' } }),
      403,
      'insufficient_role',
    );
    expectProblem(await call('DELETE', `/media/tags/${created.body.id}`, { token: viewer.token }), 403, 'insufficient_role');
    expect((await call('GET', `/media/tags?workspace_id=${workspaceId}`, { token: viewer.token })).status).toBe(200);
    const stranger = await createTenant();
    expectProblem(await createTag(stranger.owner.token, workspaceId, 'x'), 403, 'workspace_forbidden');
    expectProblem(
      await call('GET', `/media/tags?workspace_id=${workspaceId}`, { token: stranger.owner.token }),
      403,
      'workspace_forbidden',
    );
  });

  it('PUT /media/{id}/tags replaces the tags; tag_id filters the library; item_count stays right under concurrent tagging', async () => {
    const { owner, workspaceId } = await createTenant();
    const tag = (await createTag(owner.token, workspaceId, 'hero')).body;
    const other = (await createTag(owner.token, workspaceId, 'alpha')).body;
    const items: any[] = [];
    for (let i = 0; i < 12; i += 1) items.push(await uploadMedia(owner.token, workspaceId, pngBytes(i + 1, 2)));

    const tagged = await call('PUT', `/media/${items[0].id}/tags`, { token: owner.token, body: { tag_ids: [tag.id, other.id, tag.id] } });
    expect(tagged.status).toBe(200);
    expect(tagged.body).toMatchObject({ $schema: schemaUrlFor('MediaItem'), id: items[0].id, tag_ids: [other.id, tag.id] });

    // Twelve writers at once, each setting and clearing tags on its own item and on a shared one.
    await Promise.all(
      items.flatMap((item, i) => [
        call('PUT', `/media/${item.id}/tags`, { token: owner.token, body: { tag_ids: i % 3 === 0 ? [] : [tag.id] } }),
        call('PUT', `/media/${items[0].id}/tags`, { token: owner.token, body: { tag_ids: [tag.id] } }),
      ]),
    );
    const expected = items.filter((_item, i) => i === 0 || i % 3 !== 0).length;
    const tags = await call('GET', `/media/tags?workspace_id=${workspaceId}`, { token: owner.token });
    expect(tags.body.tags).toEqual([
      expect.objectContaining({ id: other.id, item_count: 0 }),
      expect.objectContaining({ id: tag.id, item_count: expected }),
    ]);
    const filtered = await call('GET', `/media?workspace_id=${workspaceId}&tag_id=${tag.id}&limit=100`, { token: owner.token });
    expect(filtered.body.items).toHaveLength(expected);
    expect(filtered.body.items.every((item: { tag_ids: string[] }) => item.tag_ids.includes(tag.id))).toBe(true);

    // Unknown and foreign tags are 422 at their index; nothing changes.
    const foreign = await createTenant();
    const foreignTag = (await createTag(foreign.owner.token, foreign.workspaceId, 'theirs')).body;
    const refused = await call('PUT', `/media/${items[1].id}/tags`, {
      token: owner.token,
      body: { tag_ids: [tag.id, randomUUID(), foreignTag.id] },
    });
    expect(locations(expectProblem(refused, 422))).toEqual(['body.tag_ids[1]', 'body.tag_ids[2]']);
    expect(
      locations(expectProblem(await call('PUT', `/media/${items[1].id}/tags`, { token: owner.token, body: { tag_ids: ['x'] } }), 422)),
    ).toEqual(['body.tag_ids']);
    expect(locations(expectProblem(await call('PUT', `/media/${items[1].id}/tags`, { token: owner.token, body: {} }), 422))).toEqual([
      'body.tag_ids',
    ]);
    expect((await call('GET', `/media/${items[1].id}`, { token: owner.token })).body.tag_ids).toEqual([tag.id]);

    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(
      await call('PUT', `/media/${items[1].id}/tags`, { token: viewer.token, body: { tag_ids: [] } }),
      403,
      'insufficient_role',
    );

    // Deleting a tag takes it off every item.
    expect((await call('DELETE', `/media/tags/${tag.id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', `/media/${items[1].id}`, { token: owner.token })).body.tag_ids).toEqual([]);
  });

  it(
    "a workspace-bound API token works on its workspace's media only: " + 'another workspace of the same owner is 404 by id, 403 by name',
    async () => {
      const tenant = await createTenant();
      const other = await createWorkspace(tenant.owner, tenant.organizationId, 'Other');
      const created = await call('POST', '/api-tokens', {
        token: tenant.owner.token,
        body: { name: 'media-ci', workspace_id: tenant.workspaceId },
      });
      expect(created.status).toBe(201);
      const bound = created.body.token as string;
      // Its own workspace: upload, complete, read, tag.
      const mine = await uploadMedia(bound, tenant.workspaceId, pngBytes(4, 4));
      expect((await call('GET', `/media/${mine.id}`, { token: bound })).body).toMatchObject({
        id: mine.id,
        workspace_id: tenant.workspaceId,
      });
      // The other workspace's item, session and tag, made with the owner's own token.
      const theirs = await uploadMedia(tenant.owner.token, other, pngBytes(5, 5));
      const session = await openSession(tenant.owner.token, { workspace_id: other, filename: 'p.png', size: 10 });
      const tag = await call('POST', '/media/tags', { token: tenant.owner.token, body: { workspace_id: other, name: 'theirs' } });
      expect(tag.status).toBe(201);
      expectProblem(await call('GET', `/media/${theirs.id}`, { token: bound }), 404);
      expect((await content(theirs.id, bound)).status).toBe(404);
      expectProblem(await call('PUT', `/media/${theirs.id}/tags`, { token: bound, body: { tag_ids: [] } }), 404);
      expectProblem(await call('DELETE', `/media/${theirs.id}`, { token: bound }), 404);
      expectProblem(
        await call('POST', `/media/upload-session/${session.body.media_id}/complete`, { token: bound, body: { workspace_id: other } }),
        404,
      );
      expectProblem(await call('PATCH', `/media/tags/${tag.body.id}`, { token: bound, body: { name: 'x' } }), 404);
      expectProblem(await call('DELETE', `/media/tags/${tag.body.id}`, { token: bound }), 404);
      expectProblem(await call('GET', `/media?workspace_id=${other}`, { token: bound }), 403);
      expectProblem(await call('GET', `/media/tags?workspace_id=${other}`, { token: bound }), 403);
      expectProblem(await call('POST', '/media/tags', { token: bound, body: { workspace_id: other, name: 'x' } }), 403);
      expectProblem(await openSession(bound, { workspace_id: other, filename: 'a.png', size: 10 }), 403);
      // Nothing of the other workspace changed.
      expect((await call('GET', `/media/${theirs.id}`, { token: tenant.owner.token })).status).toBe(200);
      expect((await call('GET', `/media/tags?workspace_id=${other}`, { token: tenant.owner.token })).body.tags).toMatchObject([
        { name: 'theirs' },
      ]);
    },
  );

  it('another tenant gets 404 for every media and tag route, 403 where it names the workspace', async () => {
    const owner = await createTenant();
    const intruder = await createTenant();
    const item = await uploadMedia(owner.owner.token, owner.workspaceId, pngBytes(9, 9));
    const tag = (await createTag(owner.owner.token, owner.workspaceId, 'mine')).body;
    const intruderTag = (await createTag(intruder.owner.token, intruder.workspaceId, 'theirs')).body;
    await expectTenantIsolation({
      url: `/media/${item.id}`,
      ownerToken: owner.owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [`/media/${item.id}`, `/media?workspace_id=${owner.workspaceId}`, `/media/tags?workspace_id=${owner.workspaceId}`],
      attempts: [
        { method: 'GET', path: `/media/${item.id}/content` },
        { method: 'PUT', path: `/media/${item.id}/tags`, body: { tag_ids: [intruderTag.id] } },
        { method: 'PUT', path: `/media/${item.id}/tags`, body: { tag_ids: [] } },
        { method: 'POST', path: `/media/upload-session/${item.id}/complete`, body: { workspace_id: owner.workspaceId } },
        { method: 'DELETE' },
        { method: 'PATCH', path: `/media/tags/${tag.id}`, body: { name: 'stolen' } },
        { method: 'DELETE', path: `/media/tags/${tag.id}` },
        { method: 'GET', path: `/media?workspace_id=${owner.workspaceId}`, status: 403 },
        { method: 'GET', path: `/media/tags?workspace_id=${owner.workspaceId}`, status: 403 },
        { method: 'POST', path: '/media/tags', body: { workspace_id: owner.workspaceId, name: 'x' }, status: 403 },
        {
          method: 'POST',
          path: '/media/upload-session',
          body: { workspace_id: owner.workspaceId, filename: 'a.png', size: 1 },
          status: 403,
        },
      ],
    });
    // The intruder's own tag cannot land on the owner's item, and the owner's tag cannot go on the intruder's item.
    const theirs = await uploadMedia(intruder.owner.token, intruder.workspaceId, pngBytes(9, 8));
    expect(
      locations(
        expectProblem(await call('PUT', `/media/${theirs.id}/tags`, { token: intruder.owner.token, body: { tag_ids: [tag.id] } }), 422),
      ),
    ).toEqual(['body.tag_ids[0]']);
  });

  it("organization deletion purges the organization's media: rows and objects", async () => {
    const tenant = await createTenant();
    const item = await uploadMedia(tenant.owner.token, tenant.workspaceId, pngBytes(4, 4));
    await createTag(tenant.owner.token, tenant.workspaceId, 'doomed');
    const pending = await openSession(tenant.owner.token, { workspace_id: tenant.workspaceId, filename: 'p.png', size: 10 }, randomUUID());
    const key = `workspaces/${tenant.workspaceId}/media/${item.id}`;
    const bystander = await createTenant();
    const kept = await uploadMedia(bystander.owner.token, bystander.workspaceId, pngBytes(4, 4));
    const rows = async () =>
      (
        await db.query(
          `SELECT (SELECT count(*)::int FROM media.media_items WHERE workspace_id = $1) AS items,
                  (SELECT count(*)::int FROM media.media_tags WHERE workspace_id = $1) AS tags,
                  (SELECT count(*)::int FROM media.idempotency_keys WHERE workspace_id = $1) AS keys`,
          [tenant.workspaceId],
        )
      ).rows[0];
    expect(await rows()).toEqual({ items: 2, tags: 1, keys: 1 });
    expect(pending.status).toBe(201);
    expect((await call('DELETE', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token })).status).toBe(202);
    await eventually(async () => expect(await rows()).toEqual({ items: 0, tags: 0, keys: 0 }), 15_000);
    expect(await objectExists(key)).toBe(false);
    expect((await content(kept.id, bystander.owner.token)).status).toBe(200);
  });

  describe('usage for the admin directory (E9) and overview (E7)', () => {
    let admin: TestUser;
    beforeAll(async () => {
      admin = await registerAdmin();
    });

    it("E9 shows each user's ready media items and bytes; E7 counts them all", async () => {
      const before = (await adminCall('GET', '/admin/overview', { token: admin.token })).body;
      const { owner, workspaceId } = await createTenant();
      const a = pngBytes(1, 1, 100);
      const b = pngBytes(1, 1, 200);
      await uploadMedia(owner.token, workspaceId, a);
      await uploadMedia(owner.token, workspaceId, b);
      await openSession(owner.token, { workspace_id: workspaceId, filename: 'pending.png', size: 999 });
      const page = await adminCall('GET', `/admin/users?search=${encodeURIComponent(owner.email)}`, { token: admin.token });
      expect(page.body.usage_complete).toBe(true);
      expect(page.body.users[0]).toMatchObject({
        id: owner.id,
        media_item_count: 2,
        media_bytes: a.length + b.length,
        publication_count: 0,
      });
      const after = (await adminCall('GET', '/admin/overview', { token: admin.token })).body;
      expect(after.usage_complete).toBe(true);
      expect(after.total_media_items).toBeGreaterThanOrEqual(before.total_media_items + 2);
      expect(after.total_media_bytes).toBeGreaterThanOrEqual(before.total_media_bytes + a.length + b.length);
    });
  });
});
