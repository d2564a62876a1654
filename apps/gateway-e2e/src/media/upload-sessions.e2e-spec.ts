import { describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { call, eventually, expectProblem, locations, RFC3339_MS, schemaUrlFor } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { mp4Bytes, openSession, pngBytes, putBytes, sha256Of, uploadMedia } from '../support/media.js';
import { objectExists, objectsUnder, putObject } from '../support/object-store.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const MIB = 1024 * 1024;
const complete = (token: string, mediaId: string, workspaceId: string) =>
  call('POST', `/media/upload-session/${mediaId}/complete`, { token, body: { workspace_id: workspaceId } });

describe('media: E17 upload sessions, the signed upload URL and completion', () => {
  const db = testDatabase();

  it('opens a session (201), takes the bytes at the signed URL (204), completes into a ready item (200), repeatably', async () => {
    const { owner, workspaceId } = await createTenant();
    const bytes = pngBytes(640, 480);
    const opened = await openSession(owner.token, {
      workspace_id: workspaceId,
      filename: 'cat.png',
      size: bytes.length,
      mime_type: 'image/png',
    });
    expect(opened.status).toBe(201);
    const session = opened.body;
    expect(session).toEqual({
      $schema: schemaUrlFor('CreateMediaUploadSessionResponse'),
      media_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      deduped: false,
      complete_url: `${process.env.E2E_BASE_URL}/media/upload-session/${session.media_id}/complete`,
      project_asset_id: '',
      upload: {
        method: 'PUT',
        url: expect.stringMatching(new RegExp(`^${process.env.E2E_BASE_URL}/media/upload-session/${session.media_id}/content\\?token=`)),
        headers: { 'Content-Type': 'image/png' },
        object_key: `workspaces/${workspaceId}/media/${session.media_id}`,
        expires_at: expect.stringMatching(RFC3339_MS),
      },
    });
    expect(opened.headers.get('location')).toBe(`/media/${session.media_id}`);
    const expiresIn = Date.parse(session.upload.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(59 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);
    await expectMatchesOwnSchema(session, 'CreateMediaUploadSessionResponse');

    // Pending until completed; not in the library yet.
    expect((await call('GET', `/media/${session.media_id}`, { token: owner.token })).body).toMatchObject({
      status: 'pending',
      sha256: '',
      mime_type: '',
    });
    expect((await call('GET', `/media?workspace_id=${workspaceId}`, { token: owner.token })).body.items).toEqual([]);

    const put = await putBytes(session.upload.url, bytes, session.upload.headers);
    expect(put.status).toBe(204);
    const completed = await complete(owner.token, session.media_id, workspaceId);
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({
      $schema: schemaUrlFor('MediaItem'),
      id: session.media_id,
      workspace_id: workspaceId,
      filename: 'cat.png',
      mime_type: 'image/png',
      size: bytes.length,
      sha256: sha256Of(bytes),
      status: 'ready',
      width: 640,
      height: 480,
      duration_ms: 0,
      tag_ids: [],
      created_at: expect.stringMatching(RFC3339_MS),
    });
    await expectMatchesOwnSchema(completed.body, 'MediaItem');
    // Repeating it answers the same item; the URL no longer takes bytes.
    expect((await complete(owner.token, session.media_id, workspaceId)).body).toEqual(completed.body);
    expectProblem(await putBytes(session.upload.url, bytes), 409, 'upload_session_completed');
    expect(await objectExists(session.upload.object_key)).toBe(true);
    // The URL's token lets anyone write the session's bytes: the access log shows it redacted.
    const uploadToken = new URL(session.upload.url).searchParams.get('token')!;
    await eventually(async () =>
      expect(readFileSync(process.env.E2E_LOG_FILE!, 'utf8')).toContain(`/media/upload-session/${session.media_id}/content?token=redacted`),
    );
    expect(readFileSync(process.env.E2E_LOG_FILE!, 'utf8')).not.toContain(uploadToken);
  });

  it('the api/v1 prefix works for the upload URL and completion too', async () => {
    const { owner, workspaceId } = await createTenant();
    const bytes = pngBytes(3, 4);
    const opened = await call('POST', '/api/v1/media/upload-session', {
      token: owner.token,
      body: { workspace_id: workspaceId, filename: 'a.png', size: bytes.length },
    });
    expect(opened.status).toBe(201);
    const url = opened.body.upload.url.replace('/media/', '/api/v1/media/');
    expect((await putBytes(url, bytes)).status).toBe(204);
    expect(
      (
        await call('POST', `/api/v1/media/upload-session/${opened.body.media_id}/complete`, {
          token: owner.token,
          body: { workspace_id: workspaceId },
        })
      ).body,
    ).toMatchObject({ width: 3, height: 4 });
  });

  it(
    'deduplicates: a known sha256 and size is 200 deduped with every ' + 'upload member empty; a second copy completes into the first item',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const bytes = pngBytes(10, 20);
      const first = await uploadMedia(owner.token, workspaceId, bytes);
      const deduped = await openSession(owner.token, {
        workspace_id: workspaceId,
        filename: 'again.png',
        size: bytes.length,
        sha256: sha256Of(bytes).toUpperCase(),
      });
      expect(deduped.status).toBe(200);
      expect(deduped.headers.get('location')).toBeNull();
      expect(deduped.body).toEqual({
        $schema: schemaUrlFor('CreateMediaUploadSessionResponse'),
        media_id: first.id,
        deduped: true,
        complete_url: '',
        project_asset_id: '',
        upload: { method: '', url: '', headers: {}, object_key: '', expires_at: '' },
      });
      // Same hash, other size: a new session.
      expect(
        (await openSession(owner.token, { workspace_id: workspaceId, filename: 'x.png', size: bytes.length + 1, sha256: sha256Of(bytes) }))
          .status,
      ).toBe(201);
      // Another workspace does not share the library.
      const other = await createTenant();
      expect(
        (
          await openSession(other.owner.token, {
            workspace_id: other.workspaceId,
            filename: 'x.png',
            size: bytes.length,
            sha256: sha256Of(bytes),
          })
        ).status,
      ).toBe(201);

      // The same bytes uploaded without a sha256: completion answers the first item and drops this copy.
      const second = await openSession(owner.token, { workspace_id: workspaceId, filename: 'copy.png', size: bytes.length });
      expect((await putBytes(second.body.upload.url, bytes)).status).toBe(204);
      const completed = await complete(owner.token, second.body.media_id, workspaceId);
      expect(completed.status).toBe(200);
      expect(completed.body).toMatchObject({ id: first.id, filename: first.filename });
      expectProblem(await call('GET', `/media/${second.body.media_id}`, { token: owner.token }), 404);
      expect(await objectExists(second.body.upload.object_key)).toBe(false);
      // Repeating the completion answers the same item (docs/decisions.md); its URL takes no more bytes.
      const repeated = await complete(owner.token, second.body.media_id, workspaceId);
      expect({ status: repeated.status, body: repeated.body }).toEqual({ status: 200, body: completed.body });
      expectProblem(await putBytes(second.body.upload.url, bytes), 409, 'upload_session_completed');
      expect(await objectExists(second.body.upload.object_key)).toBe(false);
      const library = await call('GET', `/media?workspace_id=${workspaceId}`, { token: owner.token });
      expect(library.body.items.map((item: { id: string }) => item.id)).toEqual([first.id]);
      // Once the item it went to is deleted, the session is gone too.
      expect((await call('DELETE', `/media/${first.id}`, { token: owner.token })).status).toBe(204);
      expectProblem(await complete(owner.token, second.body.media_id, workspaceId), 404);
    },
  );

  it('racing completions of the same bytes keep one item: both answer it', async () => {
    const { owner, workspaceId } = await createTenant();
    const bytes = pngBytes(30, 30, 2000);
    const sessions = await Promise.all(
      [1, 2, 3].map((n) => openSession(owner.token, { workspace_id: workspaceId, filename: `race-${n}.png`, size: bytes.length })),
    );
    for (const session of sessions) expect((await putBytes(session.body.upload.url, bytes)).status).toBe(204);
    const answers = await Promise.all(sessions.map((session) => complete(owner.token, session.body.media_id, workspaceId)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const again = await Promise.all(sessions.map((session) => complete(owner.token, session.body.media_id, workspaceId)));
    expect(again.map((answer) => answer.body)).toEqual(answers.map((answer) => answer.body));
    const ids = new Set(answers.map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    const library = await call('GET', `/media?workspace_id=${workspaceId}`, { token: owner.token });
    expect(library.body.items.map((item: { id: string }) => item.id)).toEqual([...ids]);
    const kept = sessions.filter((session) => ids.has(session.body.media_id));
    expect(kept).toHaveLength(1);
    for (const session of sessions) expect(await objectExists(session.body.upload.object_key)).toBe(ids.has(session.body.media_id));
  });

  it('stores project_asset_id (a pending asset of a video project in the workspace) and answers it back', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await call('POST', '/video-projects', {
      token: owner.token,
      body: {
        workspace_id: workspaceId,
        name: 'Film',
        document: { schema_version: 1, width_px: 1280, height_px: 720, frame_rate: 25, duration_ms: 1_000, tracks: [] },
      },
    });
    const asset = await call('POST', `/video-projects/${project.body.id}/assets`, {
      token: owner.token,
      body: { workspace_id: workspaceId, original_filename: 'clip.mp4', mime_type: 'video/mp4', size: 10 },
    });
    expect(asset.status).toBe(201);
    const assetId: string = asset.body.id;
    const opened = await openSession(owner.token, {
      workspace_id: workspaceId,
      filename: 'clip.mp4',
      size: 10,
      project_asset_id: assetId.toUpperCase(),
    });
    expect(opened.body.project_asset_id).toBe(assetId);
    const row = await db.query(`SELECT project_asset_id FROM media.media_items WHERE id = $1`, [opened.body.media_id]);
    expect(row.rows[0].project_asset_id).toBe(assetId);
  });

  it('refuses bad bodies with 422 at each member, and sizes over the limits with 413 at body.size', async () => {
    const { owner, workspaceId } = await createTenant();
    const refused = async (body: unknown, status = 422, code?: string) => {
      const response = await call('POST', '/media/upload-session', { token: owner.token, body });
      return locations(expectProblem(response, status, code));
    };
    expect(await refused({})).toEqual(expect.arrayContaining(['body.workspace_id', 'body.filename', 'body.size']));
    const ok = { workspace_id: workspaceId, filename: 'a.png', size: 10 };
    expect(await refused({ ...ok, filename: '' })).toEqual(['body.filename']);
    expect(await refused({ ...ok, filename: 'x'.repeat(256) })).toEqual(['body.filename']);
    expect(await refused({ ...ok, size: 0 })).toEqual(['body.size']);
    expect(await refused({ ...ok, size: 1.5 })).toEqual(['body.size']);
    expect([...new Set(await refused({ ...ok, size: '10' }))]).toEqual(['body.size']);
    expect(await refused({ ...ok, sha256: 'abc' })).toEqual(['body.sha256']);
    expect(await refused({ ...ok, mime_type: 'png' })).toEqual(['body.mime_type']);
    expect(await refused({ ...ok, project_asset_id: 'nope' })).toEqual(['body.project_asset_id']);
    expect(await refused({ ...ok, extra: true })).toEqual(['body.extra']);
    expect(await refused({ ...ok, workspace_id: 'nope' })).toEqual(['body.workspace_id']);
    // 50 MiB for images and other files, 4 GiB for videos.
    expect(await refused({ ...ok, size: 50 * MIB + 1 }, 413, 'media_too_large')).toEqual(['body.size']);
    expect((await openSession(owner.token, { ...ok, size: 50 * MIB })).status).toBe(201);
    expect((await openSession(owner.token, { ...ok, filename: 'movie.mp4', size: 60 * MIB })).status).toBe(201);
    expect((await openSession(owner.token, { ...ok, mime_type: 'video/webm', size: 4 * 1024 * MIB })).status).toBe(201);
    expect(await refused({ ...ok, mime_type: 'video/mp4', size: 4 * 1024 * MIB + 1 }, 413, 'media_too_large')).toEqual(['body.size']);
    expect(await refused({ ...ok, filename: 'movie.mp4', mime_type: 'image/png', size: 60 * MIB }, 413, 'media_too_large')).toEqual([
      'body.size',
    ]);
    // Idempotency-Key over 200 characters.
    const longKey = await call('POST', '/media/upload-session', {
      token: owner.token,
      body: ok,
      headers: { 'idempotency-key': 'k'.repeat(201) },
    });
    expect(locations(expectProblem(longKey, 422))).toEqual(['header.idempotency-key']);
  });

  it('Idempotency-Key: the same key and body replay the first answer byte for byte; another body is 422', async () => {
    const { owner, workspaceId } = await createTenant();
    const key = randomUUID();
    const body = { workspace_id: workspaceId, filename: 'k.png', size: 100 };
    const first = await openSession(owner.token, body, key);
    const again = await openSession(owner.token, { size: 100, filename: 'k.png', workspace_id: workspaceId }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const count = await db.query(`SELECT count(*)::int AS n FROM media.media_items WHERE workspace_id = $1`, [workspaceId]);
    expect(count.rows[0].n).toBe(1);
    const reused = await openSession(owner.token, { ...body, size: 101 }, key);
    expect(locations(expectProblem(reused, 422, 'idempotency_key_reused'))).toEqual(['header.idempotency-key']);
  });

  it(
    'Idempotency-Key: ten identical requests at once open one session: ' +
      'each answer is that 201 (once fresh, else replayed) or 409 idempotency_in_flight',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const key = randomUUID();
      const body = { workspace_id: workspaceId, filename: 'race.png', size: 100 };
      const answers = await Promise.all(Array.from({ length: 10 }, () => openSession(owner.token, body, key)));
      const count = await db.query(`SELECT count(*)::int AS n FROM media.media_items WHERE workspace_id = $1`, [workspaceId]);
      expect(count.rows[0].n).toBe(1);
      const created = answers.filter((answer) => answer.status === 201);
      const fresh = created.filter((answer) => answer.headers.get('idempotent-replayed') === null);
      expect(fresh).toHaveLength(1);
      for (const replay of created) expect(replay.body).toEqual(fresh[0].body);
      for (const waiting of answers.filter((answer) => answer.status !== 201)) {
        expectProblem(waiting, 409, 'idempotency_in_flight');
        expect(waiting.headers.get('retry-after')).toBe('1');
      }
      const later = await openSession(owner.token, body, key);
      expect([later.status, later.headers.get('idempotent-replayed'), later.body]).toEqual([201, 'true', fresh[0].body]);
    },
  );

  it('Idempotency-Key: a request still running holds its key (409 idempotency_in_flight with Retry-After; another body 422)', async () => {
    const { owner, workspaceId } = await createTenant();
    const body = { workspace_id: workspaceId, filename: 'held.png', size: 100 };
    expect((await openSession(owner.token, body, 'probe-for-fingerprint')).status).toBe(201);
    const [{ fingerprint }] = (
      await db.query(`SELECT fingerprint FROM media.idempotency_keys WHERE key = 'probe-for-fingerprint' AND workspace_id = $1`, [
        workspaceId,
      ])
    ).rows;
    const key = randomUUID();
    await db.query(
      `INSERT INTO media.idempotency_keys (user_id, workspace_id, operation, key, fingerprint, state, claim_token, locked_until, expires_at)
       VALUES ($1, $2, 'media.upload-sessions.create', $3, $4, 'in_flight', $5, now() + interval '30 seconds',
         now() + interval '24 hours')`,
      [owner.id, workspaceId, key, fingerprint, randomUUID()],
    );
    const waiting = await openSession(owner.token, body, key);
    expectProblem(waiting, 409, 'idempotency_in_flight');
    expect(waiting.headers.get('retry-after')).toBe('1');
    expect(locations(expectProblem(await openSession(owner.token, { ...body, size: 101 }, key), 422, 'idempotency_key_reused'))).toEqual([
      'header.idempotency-key',
    ]);
    const count = await db.query(`SELECT count(*)::int AS n FROM media.media_items WHERE workspace_id = $1`, [workspaceId]);
    expect(count.rows[0].n).toBe(1);
  });

  it('the upload URL: 403 upload_token_invalid without or with an altered token, 410 once the session expired', async () => {
    const { owner, workspaceId } = await createTenant();
    const bytes = pngBytes(1, 1);
    const opened = await openSession(owner.token, { workspace_id: workspaceId, filename: 'a.png', size: bytes.length });
    const url = new URL(opened.body.upload.url);
    const token = url.searchParams.get('token')!;
    const withToken = (value: string | null) => {
      const copy = new URL(url);
      if (value === null) copy.searchParams.delete('token');
      else copy.searchParams.set('token', value);
      return copy.toString();
    };
    expectProblem(await putBytes(withToken(null), bytes), 403, 'upload_token_invalid');
    expectProblem(await putBytes(withToken(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`), bytes), 403, 'upload_token_invalid');
    const [expires, mac] = token.split('.');
    expectProblem(await putBytes(withToken(`${Number(expires) + 3600}.${mac}`), bytes), 403, 'upload_token_invalid');
    // Another session's token does not open this one.
    const other = await openSession(owner.token, { workspace_id: workspaceId, filename: 'b.png', size: bytes.length });
    expectProblem(await putBytes(withToken(new URL(other.body.upload.url).searchParams.get('token')), bytes), 403, 'upload_token_invalid');
    // A session that has expired is 410, at the URL and at completion.
    await db.query(`UPDATE media.media_items SET expires_at = now() - interval '1 second' WHERE id = $1`, [opened.body.media_id]);
    expectProblem(await putBytes(url.toString(), bytes), 410, 'upload_session_expired');
    expectProblem(await complete(owner.token, opened.body.media_id, workspaceId), 410, 'upload_session_expired');
  });

  it(
    'a body longer than the declared size is 413 and nothing is kept; ' + 'a shorter one is caught at completion (409 upload_incomplete)',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const bytes = pngBytes(8, 8, 1000);
      const opened = await openSession(owner.token, { workspace_id: workspaceId, filename: 'a.png', size: bytes.length });
      const key = opened.body.upload.object_key;
      // Declared by Content-Length.
      expectProblem(await putBytes(opened.body.upload.url, Buffer.concat([bytes, Buffer.from('x')])), 413, 'media_too_large');
      // Streamed without a length (chunked): cut off once it passes the size.
      const chunked = await fetch(opened.body.upload.url, {
        method: 'PUT',
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(bytes);
            controller.enqueue(randomBytes(300_000));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect(await objectExists(key)).toBe(false);
      expectProblem(await complete(owner.token, opened.body.media_id, workspaceId), 409, 'upload_incomplete');
      // Shorter: stored, but completion refuses it.
      expect((await putBytes(opened.body.upload.url, bytes.subarray(0, 100))).status).toBe(204);
      const short = expectProblem(await complete(owner.token, opened.body.media_id, workspaceId), 409, 'upload_incomplete');
      expect(short).toMatchObject({ received_bytes: 100, expected_bytes: bytes.length });
      // Sending the whole file again replaces it.
      expect((await putBytes(opened.body.upload.url, bytes)).status).toBe(204);
      expect((await complete(owner.token, opened.body.media_id, workspaceId)).status).toBe(200);
    },
  );

  it('a client that disconnects mid-upload leaves nothing that a completion would accept', async () => {
    const { owner, workspaceId } = await createTenant();
    const size = 2 * MIB;
    const opened = await openSession(owner.token, { workspace_id: workspaceId, filename: 'big.bin', size });
    const url = new URL(opened.body.upload.url);
    await new Promise<void>((resolve) => {
      const request = httpRequest(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
      });
      request.on('error', () => resolve());
      request.write(randomBytes(size / 2), () =>
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 200),
      );
    });
    await eventually(async () => expect(await objectExists(opened.body.upload.object_key)).toBe(false));
    expectProblem(await complete(owner.token, opened.body.media_id, workspaceId), 409, 'upload_incomplete');
  });

  it('an upload still streaming when the session completes can neither replace nor delete the ready bytes', async () => {
    const { owner, workspaceId } = await createTenant();
    const bytes = pngBytes(16, 16, 200_000);
    const opened = await openSession(owner.token, { workspace_id: workspaceId, filename: 'kept.png', size: bytes.length });
    expect((await putBytes(opened.body.upload.url, bytes)).status).toBe(204);
    // Two more PUTs of other bytes start (past the gateway's pending check) and stall halfway.
    const stalled = () => {
      const request = httpRequest(new URL(opened.body.upload.url), {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
      });
      const answer = new Promise<{ status: number; body: string } | 'gone'>((resolve) => {
        request.on('response', (response) => {
          const parts: Buffer[] = [];
          response.on('data', (part: Buffer) => parts.push(part));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
        });
        request.on('error', () => resolve('gone'));
      });
      const other = randomBytes(bytes.length);
      request.write(other.subarray(0, bytes.length / 2));
      return { request, other, answer };
    };
    const finishing = stalled();
    const abandoned = stalled();
    await new Promise((resolve) => setTimeout(resolve, 700));
    const completed = await complete(owner.token, opened.body.media_id, workspaceId);
    expect(completed.body).toMatchObject({ status: 'ready', sha256: sha256Of(bytes), width: 16, height: 16 });
    // One finishes after the completion: refused, its bytes dropped; the other goes away (its failure deletes only its own bytes).
    finishing.request.end(finishing.other.subarray(bytes.length / 2));
    const late = await finishing.answer;
    expect(late === 'gone' ? late : { status: late.status, code: JSON.parse(late.body).code }).toEqual({
      status: 409,
      code: 'upload_session_completed',
    });
    abandoned.request.destroy();
    await abandoned.answer;
    await eventually(async () => expect(await objectsUnder(opened.body.upload.object_key)).toHaveLength(1));
    const content = await fetch(`${process.env.E2E_BASE_URL}/media/${opened.body.media_id}/content`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-length')).toBe(String(bytes.length));
    expect(sha256Of(Buffer.from(await content.arrayBuffer()))).toBe(sha256Of(bytes));
  });

  it('sniffs the real type: SVG, HTML and executables are 422 at body.content; MP4 duration comes from the container', async () => {
    const { owner, workspaceId } = await createTenant();
    const refusedContent = async (bytes: Buffer, filename: string) => {
      const opened = await openSession(owner.token, { workspace_id: workspaceId, filename, size: bytes.length, mime_type: 'image/png' });
      expect((await putBytes(opened.body.upload.url, bytes)).status).toBe(204);
      return locations(expectProblem(await complete(owner.token, opened.body.media_id, workspaceId), 422, 'validation_failed'));
    };
    expect(
      await refusedContent(
        Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'a.png',
      ),
    ).toEqual(['body.content']);
    expect(await refusedContent(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'), 'b.png')).toEqual([
      'body.content',
    ]);
    expect(await refusedContent(Buffer.from('<!DOCTYPE html><html><body>hi</body></html>'), 'c.png')).toEqual(['body.content']);
    expect(await refusedContent(Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(120)]), 'd.png')).toEqual([
      'body.content',
    ]);
    expect(
      await refusedContent(
        Buffer.concat([
          Buffer.from('MZ'),
          Buffer.alloc(58),
          Buffer.from([0x80, 0, 0, 0]),
          Buffer.alloc(64),
          Buffer.from('PE\0\0'),
          randomBytes(200),
        ]),
        'e.png',
      ),
    ).toEqual(['body.content']);
    expect(await refusedContent(Buffer.from('#!/bin/sh\nrm -rf /\n'), 'f.png')).toEqual(['body.content']);

    const video = mp4Bytes(12_345);
    const item = await uploadMedia(owner.token, workspaceId, video, 'clip.mov');
    expect(item).toMatchObject({ mime_type: 'video/mp4', duration_ms: 12_345, width: 0, height: 0, size: video.length });
  });

  it('crafted headers claiming 0xFFFFFFFF pixels or a 2^64−1 duration complete with those values unknown (0), not a 500', async () => {
    const { owner, workspaceId } = await createTenant();
    const png = await uploadMedia(owner.token, workspaceId, pngBytes(0xffffffff, 0xffffffff, 10), 'huge.png');
    expect(png).toMatchObject({ status: 'ready', mime_type: 'image/png', width: 0, height: 0 });
    const video = mp4Bytes(1000);
    const mvhdAt = video.indexOf('mvhd', 0, 'latin1') - 4;
    // Version 1: 64-bit times; timescale 1000 and a duration of 2^64−1.
    const v1 = Buffer.alloc(8 + 112);
    v1.writeUInt32BE(v1.length, 0);
    v1.write('mvhd', 4, 'latin1');
    v1[8] = 1;
    v1.writeUInt32BE(1000, 28);
    v1.writeBigUInt64BE(2n ** 64n - 1n, 32);
    const moov = Buffer.alloc(8);
    moov.writeUInt32BE(8 + v1.length, 0);
    moov.write('moov', 4, 'latin1');
    const crafted = Buffer.concat([video.subarray(0, mvhdAt - 8), moov, v1]);
    const item = await uploadMedia(owner.token, workspaceId, crafted, 'forever.mp4');
    expect(item).toMatchObject({ status: 'ready', mime_type: 'video/mp4', duration_ms: 0 });
  });

  it('viewers cannot upload or complete; a workspace the caller is not in is 403', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(await openSession(viewer.token, { workspace_id: workspaceId, filename: 'a.png', size: 10 }), 403, 'insufficient_role');
    const opened = await openSession(owner.token, { workspace_id: workspaceId, filename: 'a.png', size: 10 });
    expectProblem(await complete(viewer.token, opened.body.media_id, workspaceId), 403, 'insufficient_role');
    const stranger = await createTenant();
    expectProblem(
      await openSession(stranger.owner.token, { workspace_id: workspaceId, filename: 'a.png', size: 10 }),
      403,
      'workspace_forbidden',
    );
    expectProblem(await openSession(owner.token, { workspace_id: randomUUID(), filename: 'a.png', size: 10 }), 403, 'workspace_forbidden');
    // Without a bearer token.
    expectProblem(await call('POST', '/media/upload-session', { body: { workspace_id: workspaceId, filename: 'a.png', size: 10 } }), 401);
    // Completion naming another workspace than the session's is 422.
    expect(locations(expectProblem(await complete(owner.token, opened.body.media_id, stranger.workspaceId), 422))).toEqual([
      'body.workspace_id',
    ]);
    expectProblem(await complete(owner.token, randomUUID(), workspaceId), 404);
    expectProblem(await complete(owner.token, 'not-a-uuid', workspaceId), 404);
  });

  it('another tenant cannot complete, read or upload to a session (404)', async () => {
    const owner = await createTenant();
    const intruder = await createTenant();
    const opened = await openSession(owner.owner.token, { workspace_id: owner.workspaceId, filename: 'a.png', size: 10 });
    await expectTenantIsolation({
      url: `/media/${opened.body.media_id}`,
      ownerToken: owner.owner.token,
      intruderToken: intruder.owner.token,
      attempts: [
        { method: 'POST', path: `/media/upload-session/${opened.body.media_id}/complete`, body: { workspace_id: intruder.workspaceId } },
        { method: 'POST', path: `/media/upload-session/${opened.body.media_id}/complete`, body: { workspace_id: owner.workspaceId } },
        {
          method: 'POST',
          path: '/media/upload-session',
          body: { workspace_id: owner.workspaceId, filename: 'a.png', size: 10 },
          status: 403,
        },
      ],
    });
  });

  it('expired sessions are swept: the partial object goes, completion stays 410 for a day, then the row goes', async () => {
    const { owner, workspaceId } = await createTenant();
    const bytes = pngBytes(2, 2);
    const opened = await openSession(owner.token, { workspace_id: workspaceId, filename: 'a.png', size: bytes.length * 2 });
    expect((await putBytes(opened.body.upload.url, bytes)).status).toBe(204);
    expect(await objectExists(opened.body.upload.object_key)).toBe(true);
    await db.query(`UPDATE media.media_items SET expires_at = now() - interval '1 second' WHERE id = $1`, [opened.body.media_id]);
    await eventually(async () => {
      const rows = await db.query(`SELECT status FROM media.media_items WHERE id = $1`, [opened.body.media_id]);
      expect(rows.rows).toEqual([{ status: 'expired' }]);
    }, 10_000);
    expect(await objectExists(opened.body.upload.object_key)).toBe(false);
    // Swept, it is still 410 (docs/decisions.md "410 after"), at completion and at the upload route; no longer an item.
    expectProblem(await complete(owner.token, opened.body.media_id, workspaceId), 410, 'upload_session_expired');
    expectProblem(await putBytes(opened.body.upload.url, bytes), 410, 'upload_session_expired');
    expectProblem(await call('GET', `/media/${opened.body.media_id}`, { token: owner.token }), 404);
    // A day later the row goes.
    await db.query(`UPDATE media.media_items SET expires_at = now() - interval '24 hours 1 second' WHERE id = $1`, [opened.body.media_id]);
    await eventually(async () => {
      const rows = await db.query(`SELECT 1 FROM media.media_items WHERE id = $1`, [opened.body.media_id]);
      expect(rows.rowCount).toBe(0);
    }, 10_000);
    expectProblem(await complete(owner.token, opened.body.media_id, workspaceId), 404);
  });

  it(
    'upload bytes no item keeps are swept (a lost commit, then the retry won); ' +
      'a pending session keeps all of its uploads until it settles',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const bytes = pngBytes(8, 8, 1000);
      const settled = await uploadMedia(owner.token, workspaceId, bytes);
      const itemKey = `workspaces/${workspaceId}/media/${settled.id}`;
      const kept = (await db.query(`SELECT object_key FROM media.media_items WHERE id = $1`, [settled.id])).rows[0].object_key;
      expect(await objectsUnder(itemKey)).toEqual([kept]);
      const pending = await openSession(owner.token, { workspace_id: workspaceId, filename: 'b.png', size: bytes.length });
      // Stored first, so the pass that sweeps the leftover below has seen it too.
      const uncommitted = `workspaces/${workspaceId}/media/${pending.body.media_id}/uploads/${randomUUID()}`;
      await putObject(uncommitted, bytes);
      const leftover = `${itemKey}/uploads/${randomUUID()}`;
      await putObject(leftover, bytes);
      await eventually(async () => expect(await objectsUnder(itemKey)).toEqual([kept]), 15_000);
      expect(await objectExists(uncommitted)).toBe(true);
      const content = await fetch(`${process.env.E2E_BASE_URL}/media/${settled.id}/content`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(sha256Of(Buffer.from(await content.arrayBuffer()))).toBe(sha256Of(bytes));
      // Expired (its row keeps no key): nothing of it is kept.
      await db.query(`UPDATE media.media_items SET expires_at = now() - interval '1 second' WHERE id = $1`, [pending.body.media_id]);
      await eventually(async () => expect(await objectExists(uncommitted)).toBe(false), 15_000);
    },
  );
});
