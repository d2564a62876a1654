import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, eventually, expectProblem, RFC3339_MS, schemaUrlFor } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { deliveries, inMs, publicationWhen, publishNow, renditionEvents, retry, schedule, settled } from '../support/delivery.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant } from '../support/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('publishing: delivery to the sandbox network (docs/decisions.md "Delivery")', () => {
  const db = testDatabase();

  const postsFor = async (marker: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM publishing.sandbox_posts WHERE marker = $1`, [marker])).rows[0].n as number;
  const account = (token: string, id: string) => call('GET', `/social-accounts/${id}`, { token });

  /** A tenant, one sandbox account and a publication with this text published now; returns it once settled. */
  async function deliver(sourceText: string) {
    const tenant = await createTenant();
    const target = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const publication = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: sourceText });
    const started = await publishNow(tenant.owner.token, publication.id, { expected_revision: 1, account_ids: [target.id] });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: 'publishing', revision: 2 });
    const done = await publicationWhen(tenant.owner.token, publication.id, settled);
    return { ...tenant, target, publication: done, rendition: done.renditions[0] };
  }

  it('publish-now goes live once: Delivery and outcome fields, the attempts list, posts_published and the published event', async () => {
    const { owner, workspaceId, target, publication, rendition } = await deliver('Hello, network');
    expect(publication.status).toBe('published');
    expect(publication.actual_run_at).toMatch(RFC3339_MS);
    expect(rendition).toMatchObject({
      status: 'published',
      external_id: expect.stringMatching(/^post-[0-9a-f]{16}$/),
      external_url: expect.stringMatching(/^https:\/\/sandbox\.invalid\//),
      error_code: '',
      error_retryable: false,
    });
    expect(rendition.delivery).toEqual({
      state: 'live',
      recovery_action: 'none',
      target_key: `sandbox:${target.username}`,
      current_attempt_id: expect.stringMatching(UUID),
      current_attempt_number: 1,
      current_attempt_created_at: expect.stringMatching(RFC3339_MS),
      external_id: rendition.external_id,
      external_url: rendition.external_url,
      error_code: '',
      error_kind: '',
      error_http_status: 0,
      terminal_reason: '',
      last_reconciled_at: '',
      next_reconciliation_at: '',
    });
    expect(rendition.segments[0]).toMatchObject({ status: 'published', external_id: rendition.external_id });

    const attempts = await deliveries(owner.token, publication.id);
    expect(attempts.status).toBe(200);
    await expectMatchesOwnSchema(attempts.body, 'DeliveryAttemptList');
    expect(attempts.body).toEqual({
      $schema: schemaUrlFor('DeliveryAttemptList'),
      attempts: [
        {
          id: rendition.delivery.current_attempt_id,
          rendition_id: rendition.id,
          attempt: 1,
          started_at: rendition.delivery.current_attempt_created_at,
          finished_at: expect.stringMatching(RFC3339_MS),
          outcome: 'live',
          error_code: '',
          error_message: '',
          http_status: 0,
        },
      ],
    });
    expect(await postsFor(rendition.id)).toBe(1);
    expect((await account(owner.token, target.id)).body.posts_published).toBe(1);
    const listed = await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token });
    expect(listed.body.accounts[0].posts_published).toBe(1);

    await eventually(async () => {
      const events = await renditionEvents([rendition.id]);
      expect(events).toEqual([
        {
          subject: 'durable.publishing.rendition.published',
          payload: {
            workspace_id: workspaceId,
            publication_id: publication.id,
            rendition_id: rendition.id,
            social_account_id: target.id,
            platform: 'sandbox',
            attempt: 1,
            external_id: rendition.external_id,
            external_url: rendition.external_url,
            occurred_at: expect.stringMatching(RFC3339_MS),
          },
        },
      ]);
    }, 10_000);
  });

  it(
    '[sandbox:reject] fails the rendition for good: error fields, ' +
      'one rejected attempt, no post, the failed event; retry tries once more',
    async () => {
      const { owner, workspaceId, target, publication, rendition } = await deliver('Not this one [sandbox:reject]');
      expect(publication.status).toBe('failed');
      expect(rendition).toMatchObject({
        status: 'failed',
        error_code: 'sandbox_rejected',
        error_kind: 'validation',
        error_action: 'edit_content',
        error_message: expect.stringContaining('refused'),
        error_http_status: 422,
        error_retryable: false,
        error_retry_at: '',
        delivery: expect.objectContaining({
          state: 'rejected',
          terminal_reason: 'rejected',
          error_code: 'sandbox_rejected',
          error_kind: 'validation',
          error_http_status: 422,
        }),
      });
      const attempts = (await deliveries(owner.token, publication.id)).body.attempts;
      expect(attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'rejected', error_code: 'sandbox_rejected', http_status: 422 }),
      ]);
      expect(await postsFor(rendition.id)).toBe(0);
      expect((await account(owner.token, target.id)).body.posts_published).toBe(0);
      await eventually(async () => {
        expect(await renditionEvents([rendition.id])).toEqual([
          {
            subject: 'durable.publishing.rendition.failed',
            payload: {
              workspace_id: workspaceId,
              publication_id: publication.id,
              rendition_id: rendition.id,
              social_account_id: target.id,
              platform: 'sandbox',
              attempt: 1,
              error_code: 'sandbox_rejected',
              error_kind: 'validation',
              error_message: rendition.error_message,
              error_action: 'edit_content',
              terminal_reason: 'rejected',
              occurred_at: expect.stringMatching(RFC3339_MS),
            },
          },
        ]);
      }, 10_000);

      const retried = await retry(owner.token, publication.id, { expected_revision: publication.revision });
      expect(retried.status).toBe(200);
      expect(retried.body).toMatchObject({ status: 'publishing', revision: publication.revision + 1 });
      expect(retried.body.renditions[0]).toMatchObject({
        status: 'scheduled',
        error_code: '',
        delivery: expect.objectContaining({ state: 'queued' }),
      });
      const again = await publicationWhen(owner.token, publication.id, settled);
      expect(again.status).toBe('failed');
      expect(again.renditions[0].delivery.current_attempt_number).toBe(2);
      expect((await deliveries(owner.token, publication.id)).body.attempts.map((a: any) => [a.attempt, a.outcome])).toEqual([
        [1, 'rejected'],
        [2, 'rejected'],
      ]);
    },
  );

  it(
    '[sandbox:rate-limit-once] answers 429 with Retry-After 1 s once: ' + 'retried after at least a second, then live with one post',
    async () => {
      const { owner, publication, rendition } = await deliver('Busy [sandbox:rate-limit-once]');
      expect(publication.status).toBe('published');
      expect(rendition).toMatchObject({
        status: 'published',
        error_code: '',
        delivery: expect.objectContaining({ state: 'live', current_attempt_number: 2 }),
      });
      const attempts = (await deliveries(owner.token, publication.id)).body.attempts;
      expect(attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'retry', error_code: 'rate_limited', http_status: 429 }),
        expect.objectContaining({ attempt: 2, outcome: 'live', error_code: '', http_status: 0 }),
      ]);
      expect(Date.parse(attempts[1].started_at) - Date.parse(attempts[0].finished_at)).toBeGreaterThanOrEqual(1_000);
      expect(await postsFor(rendition.id)).toBe(1);
    },
  );

  it('five retryable failures fail the rendition: retries_exhausted, every attempt kept, the failed event once', async () => {
    const { owner, workspaceId, target, publication, rendition } = await deliver('Always busy [sandbox:rate-limit-always]');
    expect(publication.status).toBe('failed');
    expect(rendition).toMatchObject({
      status: 'failed',
      error_code: 'rate_limited',
      error_kind: 'transient',
      error_action: 'retry',
      error_http_status: 429,
      error_retryable: false,
      error_retry_at: '',
      delivery: expect.objectContaining({
        state: 'rejected',
        terminal_reason: 'retries_exhausted',
        error_code: 'rate_limited',
        error_kind: 'transient',
        error_http_status: 429,
        current_attempt_number: 5,
      }),
    });
    const attempts = (await deliveries(owner.token, publication.id)).body.attempts;
    expect(attempts).toEqual(
      [1, 2, 3, 4, 5].map((attempt) =>
        expect.objectContaining({
          attempt,
          outcome: 'retry',
          error_code: 'rate_limited',
          http_status: 429,
          finished_at: expect.stringMatching(RFC3339_MS),
        }),
      ),
    );
    expect(await postsFor(rendition.id)).toBe(0);
    await eventually(async () => {
      expect(await renditionEvents([rendition.id])).toEqual([
        {
          subject: 'durable.publishing.rendition.failed',
          payload: {
            workspace_id: workspaceId,
            publication_id: publication.id,
            rendition_id: rendition.id,
            social_account_id: target.id,
            platform: 'sandbox',
            attempt: 5,
            error_code: 'rate_limited',
            error_kind: 'transient',
            error_message: rendition.error_message,
            error_action: 'retry',
            terminal_reason: 'retries_exhausted',
            occurred_at: expect.stringMatching(RFC3339_MS),
          },
        },
      ]);
    }, 10_000);
  });

  it('[sandbox:ambiguous-once] stores the post but loses the answer: reconciled live, never sent again', async () => {
    const { owner, target, publication, rendition } = await deliver('Lost answer [sandbox:ambiguous-once]');
    expect(publication.status).toBe('published');
    expect(rendition.delivery).toMatchObject({
      state: 'live',
      recovery_action: 'none',
      current_attempt_number: 1,
      last_reconciled_at: expect.stringMatching(RFC3339_MS),
    });
    const attempts = (await deliveries(owner.token, publication.id)).body.attempts;
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: 'ambiguous', error_code: 'sandbox_no_answer' })]);
    expect(await postsFor(rendition.id)).toBe(1);
    expect((await account(owner.token, target.id)).body.posts_published).toBe(1);
  });

  it(
    '[sandbox:unknown-once] (a network that cannot tell): ' + 'manual_resolution, the needs-attention event; retry sends it, once',
    async () => {
      const { owner, workspaceId, target, publication, rendition } = await deliver('Who knows [sandbox:unknown-once]');
      expect(publication.status).toBe('failed');
      expect(rendition).toMatchObject({
        status: 'failed',
        error_code: 'delivery_outcome_unknown',
        error_action: 'check_network',
        delivery: expect.objectContaining({
          state: 'manual_resolution',
          recovery_action: 'manual_resolution',
          terminal_reason: 'outcome_unknown',
          last_reconciled_at: expect.stringMatching(RFC3339_MS),
        }),
      });
      // The Delivery's copies are the rendition's, never drifting apart.
      expect(rendition.error_kind).toBe('unknown');
      expect(rendition.delivery).toMatchObject({
        error_code: rendition.error_code,
        error_kind: rendition.error_kind,
        error_http_status: rendition.error_http_status,
        external_id: rendition.external_id,
        external_url: rendition.external_url,
      });
      expect((await deliveries(owner.token, publication.id)).body.attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'ambiguous', error_code: 'sandbox_no_answer' }),
      ]);
      await eventually(async () => {
        expect(await renditionEvents([rendition.id])).toEqual([
          {
            subject: 'durable.publishing.rendition.needs-attention',
            payload: {
              workspace_id: workspaceId,
              publication_id: publication.id,
              rendition_id: rendition.id,
              social_account_id: target.id,
              platform: 'sandbox',
              attempt: 1,
              error_code: 'delivery_outcome_unknown',
              error_message: rendition.error_message,
              error_action: 'check_network',
              occurred_at: expect.stringMatching(RFC3339_MS),
            },
          },
        ]);
      }, 10_000);
      // A person checked the network and found nothing: retry sends it.
      await retry(owner.token, publication.id, { expected_revision: publication.revision });
      const done = await publicationWhen(owner.token, publication.id, settled);
      expect(done.status).toBe('published');
      expect(await postsFor(rendition.id)).toBe(1);
    },
  );

  it('of racing calls on one revision exactly one wins; the others are 409 and nothing is doubled', async () => {
    const { owner, workspaceId } = await createTenant();
    const target = await connectSandboxAccount(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? publishNow(owner.token, publication.id, { expected_revision: 1, account_ids: [target.id] })
          : schedule(owner.token, publication.id, { expected_revision: 1, scheduled_at: inMs(3_600_000), account_ids: [target.id] }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(['revision_conflict', 'invalid_transition']).toContain(refused.body.code);
    const now = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body;
    expect(now.revision).toBe(2);
    expect(now.renditions).toHaveLength(1);
  });

  it('a failed rendition beside a live one: the publication is failed, retry sends only the failed one', async () => {
    const { owner, workspaceId } = await createTenant();
    const sandbox = await connectSandboxAccount(owner.token, workspaceId);
    // A facebook Page account holding no grant (text-only posts pass its rules): refused before anything is sent (auth).
    const facebook = randomUUID();
    await db.query(
      `INSERT INTO publishing.social_accounts (id, workspace_id, platform, external_id, username, status, connected_by, created_at,
         updated_at)
       VALUES ($1, $2, 'facebook', $3, 'facebook_user', 'active', $4, now(), now())`,
      [facebook, workspaceId, `ext-${facebook}`, owner.id],
    );
    const publication = await createPublication(owner.token, workspaceId);
    await publishNow(owner.token, publication.id, { expected_revision: 1, account_ids: [sandbox.id, facebook] });
    const done = await publicationWhen(owner.token, publication.id, settled);
    expect(done.status).toBe('failed');
    const [live, failed] = done.renditions;
    expect(live).toMatchObject({ platform: 'sandbox', status: 'published' });
    expect(failed).toMatchObject({
      platform: 'facebook',
      status: 'failed',
      error_code: 'provider_auth_rejected',
      error_kind: 'auth',
      error_action: 'reconnect_account',
    });
    expect((await retry(owner.token, publication.id, { expected_revision: done.revision })).status).toBe(200);
    const after = await publicationWhen(owner.token, publication.id, (current) => settled(current) && current.revision > done.revision);
    expect(after.renditions[0]).toEqual(live);
    // The refusal marked the account for reconnecting: the retried rendition fails on that, and nothing else is sent.
    expect(after.renditions[1]).toMatchObject({ status: 'failed', error_code: 'account_reconnect_required' });
    expect(await postsFor(live.id)).toBe(1);
  });

  it('disconnecting an account cancels its pending renditions: nothing is delivered, the publication follows', async () => {
    const { owner, workspaceId } = await createTenant();
    const a = await connectSandboxAccount(owner.token, workspaceId);
    const b = await connectSandboxAccount(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    const scheduled = await schedule(owner.token, publication.id, {
      expected_revision: 1,
      scheduled_at: inMs(2_000),
      account_ids: [a.id, b.id],
    });
    const [ra, rb] = scheduled.body.renditions;
    expect((await call('DELETE', `/social-accounts/${a.id}`, { token: owner.token })).status).toBe(204);
    const left = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body;
    expect(left.status).toBe('scheduled');
    expect(left.renditions.map((r: any) => r.id)).toEqual([rb.id]);
    const done = await publicationWhen(owner.token, publication.id, settled);
    expect(done.status).toBe('published');
    expect(await postsFor(ra.id)).toBe(0);
    expect(await postsFor(rb.id)).toBe(1);

    // The last account of a scheduled publication: it is a draft again.
    const c = await connectSandboxAccount(owner.token, workspaceId);
    const other = await createPublication(owner.token, workspaceId);
    await schedule(owner.token, other.id, { expected_revision: 1, scheduled_at: inMs(3_600_000), account_ids: [c.id] });
    await call('DELETE', `/social-accounts/${c.id}`, { token: owner.token });
    expect((await call('GET', `/publications/${other.id}`, { token: owner.token })).body).toMatchObject({
      status: 'draft',
      renditions: [],
      scheduled_at: '',
    });
  });

  it('an account cannot be disconnected while a post is being delivered to it: 409 account_delivering, nothing lost', async () => {
    const { owner, workspaceId } = await createTenant();
    const target = await connectSandboxAccount(owner.token, workspaceId);
    // [sandbox:slow] holds the call 2 s: the rendition is `submitted` meanwhile.
    const publication = await createPublication(owner.token, workspaceId, { source_text: 'Slow one [sandbox:slow]' });
    expect((await publishNow(owner.token, publication.id, { expected_revision: 1, account_ids: [target.id] })).status).toBe(200);
    const submitted = await publicationWhen(owner.token, publication.id, (p) => p.renditions[0]?.delivery.state === 'submitted', 5_000);
    const refused = await call('DELETE', `/social-accounts/${target.id}`, { token: owner.token });
    const problem = expectProblem(refused, 409, 'account_delivering');
    expect(problem.detail).toContain(submitted.renditions[0].id);
    expect((await account(owner.token, target.id)).status).toBe(200);
    const done = await publicationWhen(owner.token, publication.id, settled);
    expect(done.status).toBe('published');
    expect(done.renditions[0].id).toBe(submitted.renditions[0].id);
    expect(await postsFor(done.renditions[0].id)).toBe(1);
    // Once it has settled the account goes, and the published publication stays published.
    expect((await call('DELETE', `/social-accounts/${target.id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body.status).toBe('published');
  });
});
