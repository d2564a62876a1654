import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, locations, RFC3339_MS, schemaUrlFor } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { cancel, inMs, publicationWhen, publishNow, retry, schedule, settled } from '../support/delivery.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { connectSandboxAccount, createPublication, insertSocialAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const STATUSES = ['draft', 'ready', 'scheduled', 'publishing', 'published', 'failed'];

describe('publishing: scheduling (docs/decisions.md "Delivery")', () => {
  const db = testDatabase();

  const setStatus = (id: string, status: string) => db.query(`UPDATE publishing.publications SET status = $2 WHERE id = $1`, [id, status]);
  const revisionOf = async (id: string) =>
    (await db.query(`SELECT revision FROM publishing.publications WHERE id = $1`, [id])).rows[0].revision as number;
  it(
    'schedule: draft → scheduled (200, revision + 1), ' + 'one rendition per account shaped for its network, delivered at the due time',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const first = await connectSandboxAccount(owner.token, workspaceId, `first_${Date.now()}`);
      const second = await connectSandboxAccount(owner.token, workspaceId, `second_${Date.now()}`);
      const publication = await createPublication(owner.token, workspaceId, {
        content_profile: 'thread',
        source_text: 'Part one.\n\nPart two.',
      });
      const at = inMs(1_500);
      const response = await schedule(owner.token, publication.id, {
        expected_revision: 1,
        scheduled_at: at,
        account_ids: [first.id, second.id],
      });
      expect(response.status).toBe(200);
      await expectMatchesOwnSchema(response.body, 'PublicationResponse');
      expect(response.body).toMatchObject({
        $schema: schemaUrlFor('PublicationResponse'),
        status: 'scheduled',
        revision: 2,
        scheduled_at: at,
        actual_run_at: '',
      });
      expect(response.body.renditions.map((r: any) => r.social_account_id)).toEqual([first.id, second.id]);
      const [rendition] = response.body.renditions;
      expect(rendition).toEqual({
        id: expect.stringMatching(UUID),
        publication_id: publication.id,
        social_account_id: first.id,
        platform: 'sandbox',
        target_key: `sandbox:${first.id}`,
        profile: 'thread',
        output_profile: '',
        status: 'scheduled',
        title: 'Hello',
        body: 'Part one.\n\nPart two.',
        description: '',
        format_locked: false,
        schedule_override: '',
        media: [],
        settings: {},
        external_id: '',
        external_url: '',
        error_action: '',
        error_code: '',
        error_kind: '',
        error_message: '',
        error_http_status: 0,
        error_retryable: false,
        error_retry_at: '',
        delivery: {
          state: 'queued',
          recovery_action: 'none',
          target_key: `sandbox:${first.username}`,
          current_attempt_id: '',
          current_attempt_number: 0,
          current_attempt_created_at: '',
          external_id: '',
          external_url: '',
          error_code: '',
          error_kind: '',
          error_http_status: 0,
          terminal_reason: '',
          last_reconciled_at: '',
          next_reconciliation_at: '',
        },
        segments: [
          expect.objectContaining({ position: 0, status: 'scheduled', body: 'Part one.', publication_segment_id: '' }),
          expect.objectContaining({ position: 1, status: 'scheduled', body: 'Part two.', publication_segment_id: '' }),
        ],
      });
      // Not before its time.
      expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body.status).toBe('scheduled');
      const done = await publicationWhen(owner.token, publication.id, settled);
      expect(done.status).toBe('published');
      expect(Date.parse(done.actual_run_at)).toBeGreaterThanOrEqual(Date.parse(at));
      expect(done.actual_run_at).toMatch(RFC3339_MS);
      for (const r of done.renditions) {
        expect(r).toMatchObject({ status: 'published', delivery: { state: 'live', current_attempt_number: 1 } });
        expect(r.segments.map((s: any) => s.status)).toEqual(['published', 'published']);
        expect(r.segments[0].external_id).not.toBe(r.segments[1].external_id);
      }
    },
  );

  it('every transition the table allows, from each status it names', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const later = () => inMs(3_600_000);
    for (const from of ['draft', 'ready', 'scheduled']) {
      const p = await createPublication(owner.token, workspaceId);
      await setStatus(p.id, from);
      const scheduled = await schedule(owner.token, p.id, { expected_revision: 1, scheduled_at: later(), account_ids: [account.id] });
      expect([from, scheduled.status, scheduled.body.status]).toEqual([from, 200, 'scheduled']);

      const q = await createPublication(owner.token, workspaceId);
      let revision = 1;
      if (from === 'scheduled') {
        // A scheduled publication goes out with its own renditions: naming targets then is 422 (docs/decisions.md).
        expect((await schedule(owner.token, q.id, { expected_revision: 1, scheduled_at: later(), account_ids: [account.id] })).status).toBe(
          200,
        );
        revision = 2;
        expect(
          locations(expectProblem(await publishNow(owner.token, q.id, { expected_revision: 2, account_ids: [account.id] }), 422)),
        ).toEqual(['body.account_ids']);
      } else {
        await setStatus(q.id, from);
      }
      const now = await publishNow(
        owner.token,
        q.id,
        from === 'scheduled' ? { expected_revision: revision } : { expected_revision: revision, account_ids: [account.id] },
      );
      expect([from, now.status, now.body.status]).toEqual([from, 200, 'publishing']);
      await publicationWhen(owner.token, q.id, settled);
    }
    // Reschedule keeps the targets when none are sent, with a new time.
    const p = await createPublication(owner.token, workspaceId);
    await schedule(owner.token, p.id, { expected_revision: 1, scheduled_at: later(), account_ids: [account.id] });
    const again = inMs(7_200_000);
    const rescheduled = await schedule(owner.token, p.id, { expected_revision: 2, scheduled_at: again });
    expect(rescheduled.body).toMatchObject({ status: 'scheduled', revision: 3, scheduled_at: again });
    expect(rescheduled.body.renditions.map((r: any) => r.social_account_id)).toEqual([account.id]);
    // Cancel: back to draft, renditions gone.
    const cancelled = await cancel(owner.token, p.id, { expected_revision: 3 });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'draft', revision: 4, scheduled_at: '', renditions: [] });
    // Publish-now of a draft with no targets of its own needs them.
    const bare = expectProblem(await publishNow(owner.token, p.id, { expected_revision: 4 }), 422, 'validation_failed');
    expect(locations(bare)).toEqual(['body.account_ids']);
  });

  it('every transition the table does not allow is 409 invalid_transition, and nothing changes', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    const refused: Array<[string, string[]]> = [
      ['schedule', ['publishing', 'published', 'failed']],
      ['publish-now', ['publishing', 'published', 'failed']],
      ['cancel', ['draft', 'ready', 'publishing', 'published', 'failed']],
      ['retry', ['draft', 'ready', 'scheduled', 'publishing', 'published']],
    ];
    for (const [operation, statuses] of refused) {
      for (const status of statuses) {
        await setStatus(publication.id, status);
        const body =
          operation === 'schedule'
            ? { expected_revision: 1, scheduled_at: inMs(60_000), account_ids: [account.id] }
            : operation === 'publish-now'
              ? { expected_revision: 1, account_ids: [account.id] }
              : { expected_revision: 1 };
        const response = await call('POST', `/publications/${publication.id}/${operation}`, { token: owner.token, body });
        try {
          const problem = expectProblem(response, 409, 'invalid_transition');
          expect(problem.detail).toContain(status);
        } catch (error) {
          throw new Error(`${operation} from ${status}: ${String(error)}`);
        }
      }
    }
    const stored = (await db.query(`SELECT revision FROM publishing.publications WHERE id = $1`, [publication.id])).rows[0];
    expect(stored.revision).toBe(1);
    expect(
      (await db.query(`SELECT count(*)::int AS n FROM publishing.renditions WHERE publication_id = $1`, [publication.id])).rows[0].n,
    ).toBe(0);
    expect(STATUSES).toHaveLength(6);
  });

  it('a stale expected_revision is 409 revision_conflict with current_revision on every call, and nothing changes', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    await schedule(owner.token, publication.id, { expected_revision: 1, scheduled_at: inMs(3_600_000), account_ids: [account.id] });
    const stale = { expected_revision: 1 };
    for (const [operation, body] of [
      ['schedule', { ...stale, scheduled_at: inMs(60_000) }],
      ['publish-now', stale],
      ['cancel', stale],
      ['retry', stale],
    ] as const) {
      const problem = expectProblem(
        await call('POST', `/publications/${publication.id}/${operation}`, { token: owner.token, body }),
        409,
        'revision_conflict',
      );
      expect(problem.current_revision).toBe(2);
    }
    const now = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body;
    expect(now).toMatchObject({ status: 'scheduled', revision: 2 });
  });

  it(
    'scheduled_at: more than 60 s past, more than 2 years ahead, ' +
      'malformed or missing is 422 at body.scheduled_at; a few seconds past is now',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const account = await connectSandboxAccount(owner.token, workspaceId);
      const publication = await createPublication(owner.token, workspaceId);
      for (const scheduledAt of [
        inMs(-120_000),
        inMs(3 * 366 * 24 * 3600 * 1000),
        'tomorrow',
        '2026-13-01T00:00:00Z',
        undefined,
        null,
        5,
      ]) {
        const body = {
          expected_revision: 1,
          account_ids: [account.id],
          ...(scheduledAt === undefined ? {} : { scheduled_at: scheduledAt }),
        };
        const problem = expectProblem(await schedule(owner.token, publication.id, body), 422, 'validation_failed');
        expect([scheduledAt, locations(problem)]).toEqual([scheduledAt, ['body.scheduled_at']]);
      }
      expect(await revisionOf(publication.id)).toBe(1);
      const justPast = await schedule(owner.token, publication.id, {
        expected_revision: 1,
        account_ids: [account.id],
        scheduled_at: inMs(-10_000),
      });
      expect(justPast.status).toBe(200);
      expect((await publicationWhen(owner.token, publication.id, settled)).status).toBe('published');
    },
  );

  it(
    'targets: none, both, empty, repeated, foreign, inactive, ' + 'a foreign or empty set are 422 at their location; nothing changes',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const other = await createTenant();
      const mine = await connectSandboxAccount(owner.token, workspaceId);
      const foreign = await connectSandboxAccount(other.owner.token, other.workspaceId);
      const inactive = await insertSocialAccount(db, workspaceId, owner.id, 'x', 'reconnect_required');
      const foreignSet = await call('POST', '/social-sets', {
        token: other.owner.token,
        body: { workspace_id: other.workspaceId, name: 'Theirs', accounts: [{ social_account_id: foreign.id }] },
      });
      expect(foreignSet.status).toBe(201);
      const emptySet = await call('POST', '/social-sets', {
        token: owner.token,
        body: { workspace_id: workspaceId, name: 'Empty', accounts: [] },
      });
      expect(emptySet.status).toBe(201);
      const publication = await createPublication(owner.token, workspaceId);
      const at = inMs(3_600_000);
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{}, ['body.account_ids']],
        [{ account_ids: [mine.id], social_set_id: emptySet.body.id }, ['body.account_ids']],
        [{ account_ids: [] }, ['body.account_ids']],
        [{ account_ids: [mine.id, mine.id] }, ['body.account_ids']],
        [{ account_ids: ['not-a-uuid'] }, ['body.account_ids']],
        [{ account_ids: [mine.id, foreign.id, randomUUID()] }, ['body.account_ids[1]', 'body.account_ids[2]']],
        [{ account_ids: [inactive] }, ['body.account_ids[0]']],
        [{ social_set_id: foreignSet.body.id }, ['body.social_set_id']],
        [{ social_set_id: emptySet.body.id }, ['body.social_set_id']],
        [{ social_set_id: 'nope' }, ['body.social_set_id']],
      ];
      for (const [targets, where] of cases) {
        for (const operation of ['schedule', 'publish-now']) {
          const body = { expected_revision: 1, ...(operation === 'schedule' ? { scheduled_at: at } : {}), ...targets };
          const problem = expectProblem(
            await call('POST', `/publications/${publication.id}/${operation}`, { token: owner.token, body }),
            422,
            'validation_failed',
          );
          expect([operation, targets, [...new Set(locations(problem))]]).toEqual([operation, targets, where]);
        }
      }
      expect(await revisionOf(publication.id)).toBe(1);
      // A set of the workspace: its accounts, in its order, and the publication remembers it.
      // Its members' per-network settings become the renditions' (and stay with them when rescheduled).
      const set = await call('POST', '/social-sets', {
        token: owner.token,
        body: { workspace_id: workspaceId, name: 'Mine', accounts: [{ social_account_id: mine.id }] },
      });
      await db.query(
        `UPDATE publishing.social_set_accounts SET default_settings = '{"reply_policy": "followers"}', default_output_profile = 'compact'
         WHERE social_set_id = $1`,
        [set.body.id],
      );
      const bySet = await schedule(owner.token, publication.id, { expected_revision: 1, scheduled_at: at, social_set_id: set.body.id });
      expect(bySet.status).toBe(200);
      expect(bySet.body.social_set_id).toBe(set.body.id);
      expect(bySet.body.renditions.map((r: any) => [r.social_account_id, r.settings, r.output_profile])).toEqual([
        [mine.id, { reply_policy: 'followers' }, 'compact'],
      ]);
      const again = await schedule(owner.token, publication.id, { expected_revision: 2, scheduled_at: inMs(7_200_000) });
      expect(again.body.renditions.map((r: any) => [r.social_account_id, r.settings, r.output_profile])).toEqual([
        [mine.id, { reply_policy: 'followers' }, 'compact'],
      ]);
    },
  );

  it(
    'rendering per network: a long text threads on x and is refused on linkedin ' +
      '(422 network_rules naming the account); PATCH re-renders a scheduled one',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const x = await insertSocialAccount(db, workspaceId, owner.id, 'x');
      const linkedin = await insertSocialAccount(db, workspaceId, owner.id, 'linkedin');
      const long = 'This sentence is exactly long enough. '.repeat(100);
      const publication = await createPublication(owner.token, workspaceId, { source_text: long });
      const refused = expectProblem(
        await schedule(owner.token, publication.id, { expected_revision: 1, scheduled_at: inMs(3_600_000), account_ids: [x, linkedin] }),
        422,
        'network_rules',
      );
      expect(refused.errors).toEqual([{ location: `renditions.${linkedin}.body`, message: expect.stringContaining('3000') }]);
      const threaded = await schedule(owner.token, publication.id, {
        expected_revision: 1,
        scheduled_at: inMs(3_600_000),
        account_ids: [x],
      });
      expect(threaded.status).toBe(200);
      const segments = threaded.body.renditions[0].segments;
      expect(segments.length).toBeGreaterThan(5);
      for (const segment of segments) expect([...segment.body].length).toBeLessThanOrEqual(280);
      // PATCH of the scheduled publication: its rendition follows the new text.
      const patched = await call('PATCH', `/publications/${publication.id}`, {
        token: owner.token,
        body: { expected_revision: 2, source_text: 'Short now.', source_url: 'https://example.com/a' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.renditions).toHaveLength(1);
      expect(patched.body.renditions[0]).toMatchObject({ social_account_id: x, body: 'Short now.\n\nhttps://example.com/a' });
      expect(patched.body.renditions[0].segments).toHaveLength(1);
    },
  );

  it('random_delay_minutes: each rendition is due at scheduled_at plus its own random 0…N minutes', async () => {
    const { owner, workspaceId } = await createTenant();
    const accounts = [];
    for (let i = 0; i < 4; i += 1) accounts.push((await connectSandboxAccount(owner.token, workspaceId)).id);
    const publication = await createPublication(owner.token, workspaceId);
    const patched = await call('PATCH', `/publications/${publication.id}`, {
      token: owner.token,
      body: { expected_revision: 1, random_delay_minutes: 30 },
    });
    expect(patched.body).toMatchObject({ random_delay_minutes: 30, random_delay_inherited: false });
    expectProblem(
      await call('PATCH', `/publications/${publication.id}`, {
        token: owner.token,
        body: { expected_revision: 2, random_delay_minutes: 1_441 },
      }),
      422,
    );
    const at = inMs(3_600_000);
    await schedule(owner.token, publication.id, { expected_revision: 2, scheduled_at: at, account_ids: accounts });
    const due: Date[] = (
      await db.query(`SELECT next_action_at FROM publishing.renditions WHERE publication_id = $1`, [publication.id])
    ).rows.map((row: { next_action_at: Date }) => row.next_action_at);
    expect(due).toHaveLength(4);
    for (const d of due) {
      expect(d.getTime()).toBeGreaterThanOrEqual(Date.parse(at));
      expect(d.getTime()).toBeLessThanOrEqual(Date.parse(at) + 30 * 60_000);
    }
    expect(new Set(due.map((d) => d.getTime())).size).toBeGreaterThan(1);
  });

  it('viewers may not schedule (403); a publishing publication cannot be deleted (409 publication_publishing)', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    expectProblem(
      await schedule(viewer.token, publication.id, { expected_revision: 1, scheduled_at: inMs(60_000), account_ids: [account.id] }),
      403,
      'insufficient_role',
    );
    expectProblem(
      await publishNow(viewer.token, publication.id, { expected_revision: 1, account_ids: [account.id] }),
      403,
      'insufficient_role',
    );
    expectProblem(await cancel(viewer.token, publication.id, { expected_revision: 1 }), 403, 'insufficient_role');
    expectProblem(await retry(viewer.token, publication.id, { expected_revision: 1 }), 403, 'insufficient_role');
    expect((await call('GET', `/publications/${publication.id}/deliveries`, { token: viewer.token })).status).toBe(200);
    await setStatus(publication.id, 'publishing');
    expectProblem(await call('DELETE', `/publications/${publication.id}`, { token: owner.token }), 409, 'publication_publishing');
    await setStatus(publication.id, 'failed');
    expect((await call('DELETE', `/publications/${publication.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(
      await schedule(owner.token, randomUUID(), { expected_revision: 1, scheduled_at: inMs(60_000), account_ids: [account.id] }),
      404,
      'not_found',
    );
    expectProblem(
      await call('POST', `/publications/${publication.id}/cancel`, { token: owner.token, body: { expected_revision: 1, extra: true } }),
      422,
    );
  });

  it('another tenant replaying every delivery operation gets 404 and changes nothing', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const theirs = await connectSandboxAccount(intruder.owner.token, intruder.workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    await schedule(owner.token, publication.id, { expected_revision: 1, scheduled_at: inMs(3_600_000), account_ids: [account.id] });
    const url = `/publications/${publication.id}`;
    await expectTenantIsolation({
      url,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [url, `${url}/deliveries`],
      attempts: [
        { method: 'POST', path: `${url}/schedule`, body: { expected_revision: 2, scheduled_at: inMs(60_000), account_ids: [theirs.id] } },
        { method: 'POST', path: `${url}/publish-now`, body: { expected_revision: 2, account_ids: [theirs.id] } },
        { method: 'POST', path: `${url}/cancel`, body: { expected_revision: 2 } },
        { method: 'POST', path: `${url}/retry`, body: { expected_revision: 2 } },
        { method: 'GET', path: `${url}/deliveries` },
        { method: 'DELETE' },
      ],
    });
  });
});
