import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { baseUrl, call, expectProblem, randomIp } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';

/** The answer as bytes on the wire: replays must repeat the first answer exactly. */
interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function createWithKey(token: string, body: unknown, key?: string): Promise<RawAnswer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    'x-forwarded-for': randomIp(),
  };
  if (key !== undefined) headers['idempotency-key'] = key;
  const response = await fetch(`${baseUrl()}/publications`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

const asResponse = (answer: RawAnswer) => ({ status: answer.status, headers: answer.headers, body: answer.body });
const draft = (workspaceId: string, title = 'Hello') => ({
  workspace_id: workspaceId,
  content_profile: 'short_text',
  title,
  source_text: 'text',
});

async function countIn(workspaceId: string, token: string): Promise<number> {
  const page = await call('GET', `/publications?workspace_id=${workspaceId}&limit=100`, { token });
  expect(page.status).toBe(200);
  return page.body.publications.length;
}

describe('publishing: E15 Idempotency-Key', () => {
  const db = testDatabase();
  const keyRow = (key: string) => db.query(`SELECT * FROM publishing.idempotency_keys WHERE key = $1`, [key]);

  it(
    'the same key and body answer the first response again, ' + 'byte for byte, with Idempotent-Replayed: true; nothing new is created',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const key = randomUUID();
      const first = await createWithKey(owner.token, draft(workspaceId), key);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await createWithKey(owner.token, draft(workspaceId), key);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      // The same body with its members in another order and a $schema member is the same request.
      const reordered = { source_text: 'text', title: 'Hello', $schema: 'x', content_profile: 'short_text', workspace_id: workspaceId };
      expect((await createWithKey(owner.token, reordered, key)).text).toBe(first.text);
      expect(await countIn(workspaceId, owner.token)).toBe(1);
      // Changes made since do not alter the replay: it is the first answer.
      expect(
        (await call('PATCH', `/publications/${first.body.id}`, { token: owner.token, body: { expected_revision: 1, title: 'Changed' } }))
          .status,
      ).toBe(200);
      expect((await createWithKey(owner.token, draft(workspaceId), key)).text).toBe(first.text);

      // Without a key every request creates.
      await createWithKey(owner.token, draft(workspaceId));
      await createWithKey(owner.token, draft(workspaceId));
      expect(await countIn(workspaceId, owner.token)).toBe(3);
    },
  );

  it('the same key with another body is 422 idempotency_key_reused at header.idempotency-key', async () => {
    const { owner, workspaceId } = await createTenant();
    const key = randomUUID();
    expect((await createWithKey(owner.token, draft(workspaceId), key)).status).toBe(201);
    const reused = expectProblem(
      asResponse(await createWithKey(owner.token, draft(workspaceId, 'Other'), key)),
      422,
      'idempotency_key_reused',
    );
    expect(reused.errors).toEqual([{ location: 'header.idempotency-key', message: expect.any(String) }]);
    expectProblem(
      asResponse(await createWithKey(owner.token, { ...draft(workspaceId), content_profile: 'story' }, key)),
      422,
      'idempotency_key_reused',
    );
    expect(await countIn(workspaceId, owner.token)).toBe(1);
  });

  it('a key must be 1 to 200 characters (422 at header.idempotency-key); refused bodies and roles claim nothing', async () => {
    const { owner, workspaceId } = await createTenant();
    for (const key of ['', 'k'.repeat(201), 'k'.repeat(5_000)]) {
      const problem = expectProblem(asResponse(await createWithKey(owner.token, draft(workspaceId), key)), 422, 'validation_failed');
      expect(problem.errors.map((e: { location: string }) => e.location)).toEqual(['header.idempotency-key']);
    }
    expect((await createWithKey(owner.token, draft(workspaceId), 'k'.repeat(200))).status).toBe(201);
    // Header values are Latin-1 on the wire.
    expect((await createWithKey(owner.token, draft(workspaceId), 'clé ünï/cödé:1')).status).toBe(201);

    // Refused before the key is looked at: the key stays free.
    const key = randomUUID();
    expectProblem(
      asResponse(await createWithKey(owner.token, { ...draft(workspaceId), content_profile: 'nope' }, key)),
      422,
      'validation_failed',
    );
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(asResponse(await createWithKey(viewer.token, draft(workspaceId), key)), 403, 'insufficient_role');
    expect((await keyRow(key)).rows).toEqual([]);
    expect((await createWithKey(owner.token, draft(workspaceId, 'Now valid'), key)).status).toBe(201);
  });

  it(
    'ten identical requests at once create exactly one publication: ' +
      'each answer is that 201 (once fresh, else replayed) or 409 idempotency_in_flight',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 10 }, () => createWithKey(owner.token, draft(workspaceId, 'Racing'), key)));
      expect(await countIn(workspaceId, owner.token)).toBe(1);
      const created = answers.filter((a) => a.status === 201);
      const fresh = created.filter((a) => a.headers.get('idempotent-replayed') === null);
      expect(fresh).toHaveLength(1);
      for (const replay of created) expect(replay.text).toBe(fresh[0].text);
      for (const waiting of answers.filter((a) => a.status !== 201)) {
        expectProblem(asResponse(waiting), 409, 'idempotency_in_flight');
        expect(waiting.headers.get('retry-after')).toBe('1');
      }
      // Afterwards every repeat is the replay.
      const later = await createWithKey(owner.token, draft(workspaceId, 'Racing'), key);
      expect([later.status, later.headers.get('idempotent-replayed'), later.text]).toEqual([201, 'true', fresh[0].text]);
    },
  );

  it('a key belongs to its caller, workspace and operation: another user or workspace with the same key creates its own', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    const secondWorkspace = await createWorkspace(owner, organizationId, 'Second');
    const stranger = await createTenant();
    const key = 'shared-key';
    const mine = await createWithKey(owner.token, draft(workspaceId), key);
    const theirs = await createWithKey(editor.token, draft(workspaceId), key);
    const elsewhere = await createWithKey(owner.token, draft(secondWorkspace), key);
    const stranger1 = await createWithKey(stranger.owner.token, draft(stranger.workspaceId), key);
    for (const answer of [mine, theirs, elsewhere, stranger1]) {
      expect([answer.status, answer.headers.get('idempotent-replayed')]).toEqual([201, null]);
    }
    expect(new Set([mine, theirs, elsewhere, stranger1].map((a) => a.body.id)).size).toBe(4);
    expect(theirs.body.created_by).toBe(editor.id);
    expect(await countIn(workspaceId, owner.token)).toBe(2);
    expect(await countIn(secondWorkspace, owner.token)).toBe(1);
    // Each replays its own.
    expect((await createWithKey(editor.token, draft(workspaceId), key)).text).toBe(theirs.text);
  });

  it('a key is kept 24 h: after that the same key creates again, whatever the body', async () => {
    const { owner, workspaceId } = await createTenant();
    const key = randomUUID();
    const first = await createWithKey(owner.token, draft(workspaceId), key);
    const [stored] = (await keyRow(key)).rows;
    expect(stored).toMatchObject({ state: 'completed', response_status: 201, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const kept = (new Date(stored.expires_at).getTime() - new Date(stored.created_at).getTime()) / 3_600_000;
    expect(kept).toBe(24);
    // The service's answer; the gateway adds $schema to it, first as on a replay.
    const { $schema: _schema, ...answer } = first.body;
    expect(JSON.parse(stored.response_body)).toEqual(answer);

    await db.query(
      `UPDATE publishing.idempotency_keys SET created_at = created_at - interval '25 hours', expires_at = expires_at - interval '25 hours'
       WHERE key = $1`,
      [key],
    );
    const again = await createWithKey(owner.token, draft(workspaceId), key);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(again.body.id).not.toBe(first.body.id);
    await db.query(`UPDATE publishing.idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
    expect((await createWithKey(owner.token, draft(workspaceId, 'Another body'), key)).status).toBe(201);
    expect(await countIn(workspaceId, owner.token)).toBe(3);
  });

  it(
    'a request still running holds its key (409 with Retry-After); ' + 'one abandoned by a crash is taken over once its lease ends',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const key = randomUUID();
      // A first request that claimed the key and is still working (or crashed), as phase 1 leaves it.
      const fingerprintRow = await createWithKey(owner.token, draft(workspaceId), 'probe-for-fingerprint');
      expect(fingerprintRow.status).toBe(201);
      const [{ fingerprint }] = (await keyRow('probe-for-fingerprint')).rows;
      await db.query(
        `INSERT INTO publishing.idempotency_keys (user_id, workspace_id, operation, key, fingerprint, state, claim_token, locked_until,
           expires_at)
         VALUES ($1, $2, 'publishing.publications.create', $3, $4, 'in_flight', $5, now() + interval '30 seconds',
           now() + interval '24 hours')`,
        [owner.id, workspaceId, key, fingerprint, randomUUID()],
      );
      const waiting = await createWithKey(owner.token, draft(workspaceId), key);
      expectProblem(asResponse(waiting), 409, 'idempotency_in_flight');
      expect(waiting.headers.get('retry-after')).toBe('1');
      // Another body is refused even while the first runs.
      expectProblem(asResponse(await createWithKey(owner.token, draft(workspaceId, 'Other'), key)), 422, 'idempotency_key_reused');
      expect(await countIn(workspaceId, owner.token)).toBe(1);

      await db.query(`UPDATE publishing.idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = $1`, [key]);
      const takenOver = await createWithKey(owner.token, draft(workspaceId), key);
      expect([takenOver.status, takenOver.headers.get('idempotent-replayed')]).toEqual([201, null]);
      expect((await createWithKey(owner.token, draft(workspaceId), key)).text).toBe(takenOver.text);
      expect(await countIn(workspaceId, owner.token)).toBe(2);
    },
  );

  it('expired keys are pruned a few at a time as new keys are claimed', async () => {
    const { owner, workspaceId } = await createTenant();
    const stale = Array.from({ length: 15 }, () => randomUUID());
    for (const key of stale) await createWithKey(owner.token, draft(workspaceId), key);
    await db.query(`UPDATE publishing.idempotency_keys SET expires_at = now() - interval '1 hour' WHERE key = ANY($1)`, [stale]);
    const remaining = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM publishing.idempotency_keys WHERE expires_at <= now()`)).rows[0].n;
    const before = await remaining();
    expect(before).toBeGreaterThanOrEqual(15);
    await createWithKey(owner.token, draft(workspaceId), randomUUID());
    // Bounded: one claim removes at most ten, so a backlog never makes a request slow.
    expect(await remaining()).toBe(Math.max(0, before - 10));
    await createWithKey(owner.token, draft(workspaceId), randomUUID());
    expect(await remaining()).toBe(Math.max(0, before - 20));
  });
});
