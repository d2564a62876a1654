import { afterEach, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { call, eventually, RFC3339_MS, schemaUrlFor } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { fakeNetworkEnvironment } from '@social/testing';
import {
  cancel,
  deliveries,
  inMs,
  publicationWhen,
  publishNow,
  renditionEvents,
  retry,
  schedule,
  settled,
  startPublishingReplica,
} from '../support/delivery.js';
import { blueskyRecords, clearBlueskyFailures, createBlueskyAccount, failNextAtBluesky } from '../support/fake-bluesky.js';
import {
  clearMastodonFailures,
  failNextAtMastodon,
  mastodonAccount,
  mastodonStatuses,
  mastodonAppForSuite,
} from '../support/fake-mastodon.js';
import { approveAtNetwork, clearNetworkFailures, failNext, networkRequests } from '../support/fake-network.js';
import { connectThroughOAuth } from '../support/oauth-account.js';
import { createPublication } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, Tenant } from '../support/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const STATUSES = '/api/v1/statuses';
const CREATE_RECORD = '/xrpc/com.atproto.repo.createRecord';

/** Origin of a fake's public API (its control URL minus `/__control`). */
const originOf = (controlUrl: string | undefined) => new URL(controlUrl ?? '').origin;

/** The delivery state of a rendition that went live at its first attempt, every member. */
const liveDelivery = (rendition: any, targetKey: string, extra: Record<string, unknown> = {}) => ({
  state: 'live',
  recovery_action: 'none',
  target_key: targetKey,
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
  ...extra,
});

/**
 * The delivery engine against the real network adapters, end to end: the
 * gateway over HTTP, the publishing scheduler, and the fake Mastodon server /
 * fake Bluesky PDS global setup starts (PROVIDER_API_ORIGINS points publishing at them).
 */
describe('publishing: delivery to mastodon and bluesky (engine + adapters against the fakes)', () => {
  const db = testDatabase();
  const { server, instanceUrl, clientId, clientSecret } = mastodonAppForSuite('deliver');

  afterEach(async () => {
    await clearMastodonFailures();
    await clearBlueskyFailures();
    await clearNetworkFailures();
  });

  /** Lines of the stack's log naming this rendition that say its delivery failed unexpectedly (it was left to its lease). */
  const unexpectedFailures = (renditionId: string) =>
    readFileSync(process.env.E2E_LOG_FILE!, 'utf8')
      .split('\n')
      .filter((line) => line.includes(renditionId) && line.includes('delivery failed unexpectedly'));

  const sealedGrant = async (accountId: string): Promise<string> =>
    (await db.query(`SELECT credentials FROM publishing.social_accounts WHERE id = $1`, [accountId])).rows[0].credentials;

  /** Publishes now to one account and waits until nothing is left to deliver. */
  async function publishTo(tenant: Tenant, publication: any, accountId: string, timeoutMs = 20_000) {
    const started = await publishNow(tenant.owner.token, publication.id, {
      expected_revision: publication.revision,
      account_ids: [accountId],
    });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: 'publishing', revision: publication.revision + 1 });
    const done = await publicationWhen(tenant.owner.token, publication.id, settled, timeoutMs);
    return { publication: done, rendition: done.renditions[0] };
  }

  /** A draft whose posts are these segments (a thread). */
  async function threadPublication(tenant: Tenant, bodies: string[]) {
    const created = await createPublication(tenant.owner.token, tenant.workspaceId, {
      content_profile: 'thread',
      title: '',
      source_text: '',
    });
    const patched = await call('PATCH', `/publications/${created.id}`, {
      token: tenant.owner.token,
      body: { expected_revision: created.revision, segments: bodies.map((body) => ({ body })) },
    });
    expect(patched.status).toBe(200);
    return patched.body;
  }

  describe('mastodon', () => {
    const mastodonOrigin = () => originOf(process.env.E2E_FAKE_MASTODON_URL);

    /**
     * A mastodon account connected through the OAuth flow: the server knows its
     * access token (so verify_credentials and posting are answered by the fake
     * Mastodon server), the code is traded at the OAuth fake.
     */
    async function connectMastodon(tenant: Tenant, tokenResponse?: (tokens: { access_token: string; refresh_token: string }) => unknown) {
      const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
      const username = `ada_${randomBytes(4).toString('hex')}`;
      const remote = await mastodonAccount({ access_token: tokens.access_token, username, display_name: 'Ada' });
      const { account } = await connectThroughOAuth(
        tenant,
        'mastodon',
        {
          client_secret: clientSecret,
          ...tokens,
          profile: { id: remote.id, username },
          ...(tokenResponse ? { token_response: tokenResponse(tokens) } : {}),
        },
        { instance_url: instanceUrl },
      );
      expect(account).toMatchObject({ platform: 'mastodon', username: `${username}@${server}`, status: 'active' });
      return { account, remote, tokens, username };
    }

    const statusesOf = async (remoteId: string) => (await mastodonStatuses()).filter((status) => status.account_id === remoteId);
    const statusUrl = (username: string, id: string) => `${mastodonOrigin()}/@${username}/${id}`;

    it(
      'publish-now goes live once: rendition and Delivery carry the status the server made, ' +
        'one status with the text, the published event',
      async () => {
        const tenant = await createTenant();
        const { account, remote, username } = await connectMastodon(tenant);
        const text = `Shipping the delivery engine ${randomUUID()}`;
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: 'Release notes', source_text: text });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);

        const statuses = await statusesOf(remote.id);
        expect(statuses).toEqual([
          {
            id: expect.any(String),
            created_at: expect.any(String),
            text: `Release notes\n\n${text}`,
            content: expect.any(String),
            in_reply_to_id: null,
            media_ids: [],
            idempotency_key: `${rendition.id}#0`,
            account_id: remote.id,
            visibility: 'public',
          },
        ]);
        const [status] = statuses;
        expect(publication.status).toBe('published');
        expect(rendition).toMatchObject({
          platform: 'mastodon',
          status: 'published',
          external_id: status.id,
          external_url: statusUrl(username, status.id),
          error_code: '',
          error_retryable: false,
        });
        expect(rendition.delivery).toEqual(liveDelivery(rendition, `mastodon:${username}@${server}`));
        expect(rendition.segments).toEqual([expect.objectContaining({ position: 0, status: 'published', external_id: status.id })]);

        const attempts = await deliveries(tenant.owner.token, publication.id);
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
        await eventually(async () => {
          expect(await renditionEvents([rendition.id])).toEqual([
            {
              subject: 'durable.publishing.rendition.published',
              payload: {
                workspace_id: tenant.workspaceId,
                publication_id: publication.id,
                rendition_id: rendition.id,
                social_account_id: account.id,
                platform: 'mastodon',
                attempt: 1,
                external_id: status.id,
                external_url: rendition.external_url,
                occurred_at: expect.stringMatching(RFC3339_MS),
              },
            },
          ]);
        }, 10_000);
      },
    );

    it('a thread goes out as replies, each part in_reply_to the one before, in order', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const tag = randomUUID().slice(0, 8);
      const bodies = [`First, the problem ${tag}.`, `Second, the fix ${tag}.`, `Third, what is next ${tag}.`];
      const draft = await threadPublication(tenant, bodies);
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');

      const statuses = await statusesOf(remote.id);
      expect(statuses.map((status) => status.text)).toEqual(bodies);
      expect(statuses.map((status) => status.idempotency_key)).toEqual([0, 1, 2].map((index) => `${rendition.id}#${index}`));
      expect(statuses.map((status) => status.in_reply_to_id)).toEqual([null, statuses[0].id, statuses[1].id]);
      expect(rendition).toMatchObject({ status: 'published', external_id: statuses[0].id });
      expect(rendition.delivery).toMatchObject({ state: 'live', current_attempt_number: 1, external_id: statuses[0].id });
      expect(rendition.segments.map((segment: any) => [segment.position, segment.status, segment.external_id])).toEqual(
        statuses.map((status, index) => [index, 'published', status.id]),
      );
    });

    it('a 429 with Retry-After is retried after it, then live: both attempts listed, one status', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      await failNextAtMastodon({
        path: STATUSES,
        method: 'POST',
        status: 429,
        headers: { 'retry-after': '1' },
        body: { error: 'Too many requests' },
      });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Busy server ${randomUUID()}` });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      expect(rendition).toMatchObject({
        status: 'published',
        error_code: '',
        delivery: expect.objectContaining({ state: 'live', current_attempt_number: 2 }),
      });
      const attempts = (await deliveries(tenant.owner.token, publication.id)).body.attempts;
      expect(attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'retry', error_code: 'provider_rate_limited', http_status: 429 }),
        expect.objectContaining({ attempt: 2, outcome: 'live', error_code: '', error_message: '', http_status: 0 }),
      ]);
      expect(Date.parse(attempts[1].started_at) - Date.parse(attempts[0].finished_at)).toBeGreaterThanOrEqual(1_000);
      const statuses = await statusesOf(remote.id);
      expect(statuses).toHaveLength(1);
      expect(rendition.external_id).toBe(statuses[0].id);
    });

    it('a 422 fails the rendition for good: rejected, validation, no status, the failed event', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      await failNextAtMastodon({
        path: STATUSES,
        method: 'POST',
        status: 422,
        body: { error: 'Validation failed: Text character limit of 500 exceeded' },
      });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Refused ${randomUUID()}` });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('failed');
      expect(rendition).toMatchObject({
        status: 'failed',
        external_id: '',
        error_code: 'provider_rejected',
        error_kind: 'validation',
        error_action: 'edit_content',
        error_message: expect.any(String),
        error_http_status: 422,
        error_retryable: false,
        error_retry_at: '',
        delivery: expect.objectContaining({
          state: 'rejected',
          recovery_action: 'none',
          terminal_reason: 'rejected',
          error_code: 'provider_rejected',
          error_kind: 'validation',
          error_http_status: 422,
          external_id: '',
        }),
      });
      // The network's body is never passed on.
      expect(rendition.error_message).not.toContain('Validation failed');
      expect((await deliveries(tenant.owner.token, publication.id)).body.attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'rejected', error_code: 'provider_rejected', http_status: 422 }),
      ]);
      expect(await statusesOf(remote.id)).toEqual([]);
      await eventually(async () => {
        expect(await renditionEvents([rendition.id])).toEqual([
          {
            subject: 'durable.publishing.rendition.failed',
            payload: {
              workspace_id: tenant.workspaceId,
              publication_id: publication.id,
              rendition_id: rendition.id,
              social_account_id: account.id,
              platform: 'mastodon',
              attempt: 1,
              error_code: 'provider_rejected',
              error_kind: 'validation',
              error_message: rendition.error_message,
              error_action: 'edit_content',
              terminal_reason: 'rejected',
              occurred_at: expect.stringMatching(RFC3339_MS),
            },
          },
        ]);
      }, 10_000);
    });

    it(
      'an answer lost after the status was made is ambiguous, ' + 'reconciled live from the timeline: one status, never sent again',
      async () => {
        const tenant = await createTenant();
        const { account, remote, username } = await connectMastodon(tenant);
        await failNextAtMastodon({ path: STATUSES, method: 'POST', drop_after_handling: true });
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Lost answer ${randomUUID()}` });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        const statuses = await statusesOf(remote.id);
        expect(statuses).toHaveLength(1);
        expect(publication.status).toBe('published');
        expect(rendition).toMatchObject({
          status: 'published',
          external_id: statuses[0].id,
          external_url: statusUrl(username, statuses[0].id),
        });
        expect(rendition.delivery).toEqual(
          liveDelivery(rendition, `mastodon:${username}@${server}`, { last_reconciled_at: expect.stringMatching(RFC3339_MS) }),
        );
        expect((await deliveries(tenant.owner.token, publication.id)).body.attempts).toEqual([
          expect.objectContaining({ attempt: 1, outcome: 'ambiguous', error_code: 'provider_connection_lost' }),
        ]);
      },
    );

    it('a thread whose first answer was cut off halfway is reconciled and resumed: every part once, chained', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const tag = randomUUID().slice(0, 8);
      const bodies = [`One ${tag}.`, `Two ${tag}.`];
      await failNextAtMastodon({ path: STATUSES, method: 'POST', cut_answer: true });
      const draft = await threadPublication(tenant, bodies);
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      const statuses = await statusesOf(remote.id);
      expect(statuses.map((status) => [status.text, status.in_reply_to_id])).toEqual([
        [bodies[0], null],
        [bodies[1], statuses[0].id],
      ]);
      expect(rendition.segments.map((segment: any) => segment.external_id)).toEqual(statuses.map((status) => status.id));
      const attempts = (await deliveries(tenant.owner.token, publication.id)).body.attempts;
      expect(attempts[0]).toEqual(expect.objectContaining({ attempt: 1, outcome: 'ambiguous' }));
      expect(attempts.at(-1)).toEqual(expect.objectContaining({ outcome: 'live' }));
    });

    it('retry after a 422 sends it again: live at attempt 2, one status', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      await failNextAtMastodon({ path: STATUSES, method: 'POST', status: 422, body: { error: 'Validation failed' } });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Edited and retried ${randomUUID()}` });
      const { publication } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('failed');
      const retried = await retry(tenant.owner.token, publication.id, { expected_revision: publication.revision });
      expect(retried.status).toBe(200);
      const done = await publicationWhen(tenant.owner.token, publication.id, settled);
      expect(done.status).toBe('published');
      const statuses = await statusesOf(remote.id);
      expect(statuses).toHaveLength(1);
      expect(done.renditions[0]).toMatchObject({
        status: 'published',
        error_code: '',
        external_id: statuses[0].id,
        delivery: expect.objectContaining({ state: 'live', current_attempt_number: 2 }),
      });
      expect(
        (await deliveries(tenant.owner.token, publication.id)).body.attempts.map((a: any) => [a.attempt, a.outcome, a.http_status]),
      ).toEqual([
        [1, 'rejected', 422],
        [2, 'live', 0],
      ]);
    });

    it(
      'a 5xx at the second part of a thread is retried and the thread ' +
        'resumed (the Idempotency-Key answers part one again): each part once',
      async () => {
        const tenant = await createTenant();
        const { account, remote } = await connectMastodon(tenant);
        const tag = randomUUID().slice(0, 8);
        const bodies = [`Opening ${tag}.`, `Closing ${tag}.`];
        const draft = await threadPublication(tenant, bodies);
        // Failures are taken in order: part one's request passes (a 1 ms pause changes nothing), part two's answers 503.
        await failNextAtMastodon({ path: STATUSES, method: 'POST', delay_ms: 1 });
        await failNextAtMastodon({ path: STATUSES, method: 'POST', status: 503 });
        const started = await publishNow(tenant.owner.token, draft.id, { expected_revision: draft.revision, account_ids: [account.id] });
        expect(started.status).toBe(200);
        const done = await publicationWhen(tenant.owner.token, draft.id, settled);
        expect(done.status).toBe('published');
        const statuses = await statusesOf(remote.id);
        expect(statuses.map((status) => [status.text, status.in_reply_to_id])).toEqual([
          [bodies[0], null],
          [bodies[1], statuses[0].id],
        ]);
        expect(done.renditions[0].segments.map((segment: any) => segment.external_id)).toEqual(statuses.map((status) => status.id));
        expect(
          (await deliveries(tenant.owner.token, draft.id)).body.attempts.map((a: any) => [
            a.attempt,
            a.outcome,
            a.error_code,
            a.http_status,
          ]),
        ).toEqual([
          [1, 'retry', 'provider_error', 503],
          [2, 'live', '', 0],
        ]);
      },
    );

    it(
      'a call slower than PROVIDER_TIMEOUT_MS (the status made after we gave up) ' +
        'is reconciled and sent again under the same key: one status',
      async () => {
        const tenant = await createTenant();
        const { account, remote } = await connectMastodon(tenant);
        await failNextAtMastodon({ path: STATUSES, method: 'POST', delay_ms: 2_500 });
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Slow server ${randomUUID()}` });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        expect(publication.status).toBe('published');
        const attempts = (await deliveries(tenant.owner.token, publication.id)).body.attempts;
        expect(attempts[0]).toEqual(expect.objectContaining({ attempt: 1, outcome: 'ambiguous', error_code: 'provider_timeout' }));
        expect(attempts.at(-1)).toEqual(expect.objectContaining({ outcome: 'live' }));
        // The delayed request lands after the resend: wait until it has, then count.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const statuses = await statusesOf(remote.id);
        expect(statuses).toHaveLength(1);
        expect(rendition.external_id).toBe(statuses[0].id);
      },
    );

    it(
      'a lost answer for a text Mastodon renders as HTML (entities, ' +
        'a long link, paragraphs) is still recognised when reconciling: one status',
      async () => {
        const tenant = await createTenant();
        const { account, remote } = await connectMastodon(tenant);
        const text =
          `Tom & Jerry's <b>"best"</b> bits: ` +
          `https://example.com/a/very/long/path/that/mastodon/shortens?q=1&r=2\n\nSecond paragraph ${randomUUID()}\nwith a line break`;
        await failNextAtMastodon({ path: STATUSES, method: 'POST', drop_after_handling: true });
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: 'Notes & news', source_text: text });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        const statuses = await statusesOf(remote.id);
        expect(statuses.map((status) => status.text)).toEqual([`Notes & news\n\n${text}`]);
        expect(publication.status).toBe('published');
        expect(rendition).toMatchObject({
          external_id: statuses[0].id,
          delivery: expect.objectContaining({ state: 'live', current_attempt_number: 1 }),
        });
      },
    );

    it(
      'two publications at once to an account whose grant is near expiry: ' +
        'renewed once (the second waits on the row lock and takes the new grant)',
      async () => {
        const tenant = await createTenant();
        const { account, remote, tokens, username } = await connectMastodon(tenant, (issued) => ({
          ...issued,
          token_type: 'bearer',
          expires_in: 60,
        }));
        await mastodonAccount({ access_token: `${tokens.access_token}~1`, username, id: remote.id });
        const drafts = [
          await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Racing one ${randomUUID()}` }),
          await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Racing two ${randomUUID()}` }),
        ];
        const results = await Promise.all(drafts.map((draft) => publishTo(tenant, draft, account.id)));
        expect(results.map((result) => result.publication.status)).toEqual(['published', 'published']);
        expect(
          (await networkRequests()).filter(
            (request) => request.form.grant_type === 'refresh_token' && request.form.refresh_token?.startsWith(tokens.refresh_token),
          ),
        ).toHaveLength(1);
        expect(await statusesOf(remote.id)).toHaveLength(2);
        expect((await call('GET', `/social-accounts/${account.id}`, { token: tenant.owner.token })).body.status).toBe('active');
      },
    );

    it('a 401 (the token was revoked at the server) fails the rendition for reconnecting: rejected, auth, nothing posted', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      await failNextAtMastodon({ path: STATUSES, method: 'POST', status: 401, body: { error: 'The access token was revoked' } });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Revoked ${randomUUID()}` });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('failed');
      expect(rendition).toMatchObject({
        status: 'failed',
        error_code: 'provider_auth_rejected',
        error_kind: 'auth',
        error_action: 'reconnect_account',
        error_http_status: 401,
        delivery: expect.objectContaining({ state: 'rejected', terminal_reason: 'rejected', error_kind: 'auth', error_http_status: 401 }),
      });
      expect(rendition.error_message).not.toContain('revoked');
      expect(await statusesOf(remote.id)).toEqual([]);
    });

    it(
      'a lost answer whose first reconciliation cannot read the timeline (503) ' + 'is reconciled again later, then live: one status',
      async () => {
        const tenant = await createTenant();
        const { account, remote } = await connectMastodon(tenant);
        await failNextAtMastodon({ path: STATUSES, method: 'POST', drop_after_handling: true });
        await failNextAtMastodon({ path: `/api/v1/accounts/${remote.id}/statuses`, method: 'GET', status: 503 });
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, {
          source_text: `Blip while reconciling ${randomUUID()}`,
        });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        const statuses = await statusesOf(remote.id);
        expect(statuses).toHaveLength(1);
        expect(publication.status).toBe('published');
        expect(rendition).toMatchObject({ status: 'published', external_id: statuses[0].id });
        expect(rendition.delivery).toMatchObject({
          state: 'live',
          current_attempt_number: 1,
          last_reconciled_at: expect.stringMatching(RFC3339_MS),
        });
      },
    );

    it(
      'a reconciliation that never reaches the server ends in manual resolution (the ' +
        'needs-attention event); retry resends under the same key: still one status',
      async () => {
        const tenant = await createTenant();
        const { account, remote } = await connectMastodon(tenant);
        await failNextAtMastodon({ path: STATUSES, method: 'POST', drop_after_handling: true });
        await failNextAtMastodon({ path: `/api/v1/accounts/${remote.id}/statuses`, method: 'GET', status: 503, times: 5 });
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Nobody can tell ${randomUUID()}` });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        expect(publication.status).toBe('failed');
        expect(rendition).toMatchObject({
          status: 'failed',
          error_code: 'delivery_outcome_unknown',
          error_action: 'check_network',
          delivery: expect.objectContaining({
            state: 'manual_resolution',
            recovery_action: 'manual_resolution',
            terminal_reason: 'outcome_unknown',
            current_attempt_number: 1,
          }),
        });
        await eventually(async () => {
          expect(await renditionEvents([rendition.id])).toEqual([
            expect.objectContaining({
              subject: 'durable.publishing.rendition.needs-attention',
              payload: expect.objectContaining({
                rendition_id: rendition.id,
                platform: 'mastodon',
                error_code: 'delivery_outcome_unknown',
                error_action: 'check_network',
              }),
            }),
          ]);
        }, 10_000);
        // A person retries: the server answers the status it made for the same Idempotency-Key.
        expect((await retry(tenant.owner.token, publication.id, { expected_revision: publication.revision })).status).toBe(200);
        const done = await publicationWhen(tenant.owner.token, publication.id, settled);
        expect(done.status).toBe('published');
        const statuses = await statusesOf(remote.id);
        expect(statuses).toHaveLength(1);
        expect(done.renditions[0]).toMatchObject({
          external_id: statuses[0].id,
          delivery: expect.objectContaining({ state: 'live', current_attempt_number: 2 }),
        });
      },
    );

    it(
      'with a second publishing replica running, six deliveries at once for ' +
        'an account whose grant is near expiry: renewed once, every post once',
      async () => {
        const replica = await startPublishingReplica(
          fakeNetworkEnvironment(originOf(process.env.E2E_FAKE_NETWORK_URL), {
            bluesky: originOf(process.env.E2E_FAKE_BLUESKY_URL),
            mastodon: originOf(process.env.E2E_FAKE_MASTODON_URL),
          }),
        );
        try {
          const tenant = await createTenant();
          const { account, remote, tokens, username } = await connectMastodon(tenant, (issued) => ({
            ...issued,
            token_type: 'bearer',
            expires_in: 60,
          }));
          await mastodonAccount({ access_token: `${tokens.access_token}~1`, username, id: remote.id });
          const drafts = [];
          for (let i = 0; i < 6; i += 1)
            drafts.push(
              await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Replica race ${i} ${randomUUID()}` }),
            );
          const results = await Promise.all(drafts.map((draft) => publishTo(tenant, draft, account.id)));
          expect(results.map((result) => result.publication.status)).toEqual(drafts.map(() => 'published'));
          expect(
            (await networkRequests()).filter(
              (request) => request.form.grant_type === 'refresh_token' && request.form.refresh_token?.startsWith(tokens.refresh_token),
            ),
          ).toHaveLength(1);
          const statuses = await statusesOf(remote.id);
          expect(statuses).toHaveLength(6);
          expect(new Set(statuses.map((status) => status.idempotency_key))).toEqual(
            new Set(results.map((result) => `${result.rendition.id}#0`)),
          );
          expect((await call('GET', `/social-accounts/${account.id}`, { token: tenant.owner.token })).body.status).toBe('active');
        } finally {
          await replica.stop();
        }
      },
      60_000,
    );

    it("a 429 with Mastodon's X-RateLimit-Reset (no Retry-After) waits until the reset, then live", async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const resetAt = Date.now() + 1_500;
      await failNextAtMastodon({
        path: STATUSES,
        method: 'POST',
        status: 429,
        headers: { 'x-ratelimit-reset': new Date(resetAt).toISOString() },
        body: { error: 'Too many requests' },
      });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Reset later ${randomUUID()}` });
      const { publication } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      const attempts = (await deliveries(tenant.owner.token, publication.id)).body.attempts;
      expect(attempts.map((a: any) => [a.attempt, a.outcome, a.error_code, a.http_status])).toEqual([
        [1, 'retry', 'provider_rate_limited', 429],
        [2, 'live', '', 0],
      ]);
      // The second attempt waited for the reset (an absolute time: on a busy machine the 429 may come late,
      // leaving less of it to wait); the backoff alone (200 ms base) would have come well before it.
      expect(Date.parse(attempts[1].started_at)).toBeGreaterThanOrEqual(resetAt - 50);
      expect(await statusesOf(remote.id)).toHaveLength(1);
    });

    it(
      'a thread whose second part is rejected fails; ' + 'retry keeps the part already posted (same Idempotency-Key) and adds the rest',
      async () => {
        const tenant = await createTenant();
        const { account, remote } = await connectMastodon(tenant);
        const tag = randomUUID().slice(0, 8);
        const bodies = [`Kept ${tag}.`, `Refused then accepted ${tag}.`];
        await failNextAtMastodon({ path: STATUSES, method: 'POST', delay_ms: 1 });
        await failNextAtMastodon({ path: STATUSES, method: 'POST', status: 422, body: { error: 'Validation failed' } });
        const draft = await threadPublication(tenant, bodies);
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        expect(publication.status).toBe('failed');
        expect(rendition).toMatchObject({ status: 'failed', error_code: 'provider_rejected', error_kind: 'validation' });
        expect((await statusesOf(remote.id)).map((status) => status.text)).toEqual([bodies[0]]);
        expect((await retry(tenant.owner.token, publication.id, { expected_revision: publication.revision })).status).toBe(200);
        const done = await publicationWhen(tenant.owner.token, publication.id, settled);
        expect(done.status).toBe('published');
        const statuses = await statusesOf(remote.id);
        expect(statuses.map((status) => [status.text, status.in_reply_to_id])).toEqual([
          [bodies[0], null],
          [bodies[1], statuses[0].id],
        ]);
        expect(done.renditions[0].segments.map((segment: any) => segment.external_id)).toEqual(statuses.map((status) => status.id));
      },
    );

    it("a text just under 500 characters with a title: what is sent stays within the server's limit and goes out", async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const words = `${randomUUID().slice(0, 8)} ${'word '.repeat(200)}`.slice(0, 495).trim();
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: 'Release notes', source_text: words });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(rendition).toMatchObject({ status: 'published', error_code: '' });
      expect(publication.status).toBe('published');
      const statuses = await statusesOf(remote.id);
      for (const status of statuses) expect([...status.text].length).toBeLessThanOrEqual(500);
      // Split in two: the title heads the first part, the text continues in a reply.
      expect(statuses).toHaveLength(2);
      expect(statuses[0].text.startsWith('Release notes\n\n')).toBe(true);
      expect(statuses[1].in_reply_to_id).toBe(statuses[0].id);
      expect(`${statuses[0].text.slice('Release notes\n\n'.length)} ${statuses[1].text}`).toBe(words);
    });

    it(
      'a lost request for a text the account posted minutes ago is ' + 'not taken for that older status: it goes out, two statuses',
      async () => {
        const tenant = await createTenant();
        const { account, remote } = await connectMastodon(tenant);
        const text = `Same words twice ${randomUUID()}`;
        const first = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: text });
        const earlier = await publishTo(tenant, first, account.id);
        expect(earlier.publication.status).toBe('published');
        // The connection drops before the server handles the request: nothing is created, the outcome is unknown to us.
        await failNextAtMastodon({ path: STATUSES, method: 'POST', drop: true });
        const second = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: text });
        const { publication, rendition } = await publishTo(tenant, second, account.id);
        expect(publication.status).toBe('published');
        const statuses = await statusesOf(remote.id);
        expect(statuses.map((status) => status.idempotency_key)).toEqual([`${earlier.rendition.id}#0`, `${rendition.id}#0`]);
        expect(rendition.external_id).toBe(statuses[1].id);
        expect(rendition.external_id).not.toBe(earlier.rendition.external_id);
      },
    );

    it('a scheduled publication cancelled before its time, and one whose account is disconnected, never reach the server', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Called off ${randomUUID()}` });
      const scheduled = await schedule(tenant.owner.token, draft.id, {
        expected_revision: draft.revision,
        scheduled_at: inMs(1_500),
        account_ids: [account.id],
      });
      expect(scheduled.status).toBe(200);
      const cancelled = await cancel(tenant.owner.token, draft.id, { expected_revision: scheduled.body.revision });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'draft', renditions: [] });
      const other = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Account gone ${randomUUID()}` });
      expect(
        (
          await schedule(tenant.owner.token, other.id, {
            expected_revision: other.revision,
            scheduled_at: inMs(1_500),
            account_ids: [account.id],
          })
        ).status,
      ).toBe(200);
      expect((await call('DELETE', `/social-accounts/${account.id}`, { token: tenant.owner.token })).status).toBe(204);
      // Past both due times (and a scheduler round or two).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await statusesOf(remote.id)).toEqual([]);
      expect((await call('GET', `/publications/${other.id}`, { token: tenant.owner.token })).body).toMatchObject({
        status: 'draft',
        renditions: [],
      });
    });

    it('a grant near expiry is renewed through the refresh token before the post goes out (rotated tokens sealed)', async () => {
      const tenant = await createTenant();
      // The server answered a token that expires in a minute (within the 5-minute renewal window).
      const { account, remote, tokens, username } = await connectMastodon(tenant, (issued) => ({
        ...issued,
        token_type: 'bearer',
        expires_in: 60,
      }));
      // The OAuth fake rotates a refreshed grant's tokens to `<old>~<n>`: the server knows the new one as the same account.
      await mastodonAccount({ access_token: `${tokens.access_token}~1`, username, id: remote.id });
      const sealedBefore = await sealedGrant(account.id);
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Fresh token ${randomUUID()}` });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      expect(rendition.delivery).toMatchObject({ state: 'live', current_attempt_number: 1 });

      const refreshes = (await networkRequests()).filter(
        (request) => request.form.grant_type === 'refresh_token' && request.form.refresh_token === tokens.refresh_token,
      );
      expect(refreshes).toEqual([
        expect.objectContaining({
          method: 'POST',
          path: '/oauth/token',
          form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, client_secret: clientSecret },
        }),
      ]);
      const statuses = await statusesOf(remote.id);
      expect(statuses).toHaveLength(1);
      expect(rendition.external_id).toBe(statuses[0].id);
      expect(await sealedGrant(account.id)).not.toBe(sealedBefore);
      // Renewed once: the next post uses the sealed new grant without asking again.
      const next = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Again ${randomUUID()}` });
      expect((await publishTo(tenant, next, account.id)).publication.status).toBe('published');
      expect(
        (await networkRequests()).filter(
          (request) => request.form.grant_type === 'refresh_token' && request.form.refresh_token?.startsWith(tokens.refresh_token),
        ),
      ).toHaveLength(1);
      expect(await statusesOf(remote.id)).toHaveLength(2);
    });
    it(
      'a renewal the network refuses fails the rendition for reconnecting (no attempt, ' +
        'nothing posted); the account needs reconnecting',
      async () => {
        const tenant = await createTenant();
        const { account, remote } = await connectMastodon(tenant, (issued) => ({ ...issued, token_type: 'bearer', expires_in: 60 }));
        await failNext({
          path: '/oauth/token',
          status: 400,
          body: { error: 'invalid_grant', error_description: 'The refresh token is no longer valid' },
        });
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Refused renewal ${randomUUID()}` });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        expect(publication.status).toBe('failed');
        expect(rendition).toMatchObject({
          status: 'failed',
          error_code: 'account_reconnect_required',
          error_kind: 'auth',
          error_action: 'reconnect_account',
          error_retryable: false,
          delivery: expect.objectContaining({
            state: 'rejected',
            terminal_reason: 'rejected',
            error_kind: 'auth',
            error_code: 'account_reconnect_required',
            current_attempt_number: 0,
          }),
        });
        expect((await deliveries(tenant.owner.token, publication.id)).body.attempts).toEqual([]);
        expect(await statusesOf(remote.id)).toEqual([]);
        expect((await call('GET', `/social-accounts/${account.id}`, { token: tenant.owner.token })).body.status).toBe('reconnect_required');
        expect(unexpectedFailures(rendition.id)).toEqual([]);
        await eventually(async () => {
          expect(await renditionEvents([rendition.id])).toEqual([
            expect.objectContaining({
              subject: 'durable.publishing.rendition.failed',
              payload: expect.objectContaining({
                rendition_id: rendition.id,
                error_code: 'account_reconnect_required',
                error_kind: 'auth',
                error_action: 'reconnect_account',
                terminal_reason: 'rejected',
              }),
            }),
          ]);
        }, 10_000);
      },
    );

    it('after a refused renewal, connecting the account again (200, same identity) and retrying delivers it', async () => {
      const tenant = await createTenant();
      const { account, remote, username } = await connectMastodon(tenant, (issued) => ({
        ...issued,
        token_type: 'bearer',
        expires_in: 60,
      }));
      await failNext({ path: '/oauth/token', status: 400, body: { error: 'invalid_grant' } });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Reconnected ${randomUUID()}` });
      const { publication } = await publishTo(tenant, draft, account.id);
      expect(publication.renditions[0]).toMatchObject({ status: 'failed', error_code: 'account_reconnect_required' });
      // The user connects the same account again: new tokens for the same server account.
      const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
      await mastodonAccount({ access_token: tokens.access_token, username, id: remote.id });
      const started = await call('POST', '/social-accounts/connect', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, provider: 'mastodon', instance_url: instanceUrl },
      });
      const code = await approveAtNetwork(started.body.authorization_url, {
        client_secret: clientSecret,
        ...tokens,
        profile: { id: remote.id, username },
      });
      const again = await call('GET', `/social-accounts/callback/mastodon?${new URLSearchParams({ code, state: started.body.state })}`, {
        token: tenant.owner.token,
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: account.id, status: 'active' });
      expect((await retry(tenant.owner.token, publication.id, { expected_revision: publication.revision })).status).toBe(200);
      const done = await publicationWhen(tenant.owner.token, publication.id, settled);
      expect(done.status).toBe('published');
      const statuses = await statusesOf(remote.id);
      expect(statuses).toHaveLength(1);
      expect(done.renditions[0]).toMatchObject({ status: 'published', external_id: statuses[0].id, error_code: '' });
    });

    it('a renewal that cannot reach the network makes the rendition wait (no attempt counted), then it goes out once', async () => {
      const tenant = await createTenant();
      const { account, remote, tokens, username } = await connectMastodon(tenant, (issued) => ({
        ...issued,
        token_type: 'bearer',
        expires_in: 60,
      }));
      await mastodonAccount({ access_token: `${tokens.access_token}~1`, username, id: remote.id });
      await failNext({ path: '/oauth/token', status: 503 });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Renewal later ${randomUUID()}` });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      expect(rendition.delivery).toMatchObject({ state: 'live', current_attempt_number: 1 });
      expect((await deliveries(tenant.owner.token, publication.id)).body.attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'live' }),
      ]);
      expect(await statusesOf(remote.id)).toHaveLength(1);
      expect((await call('GET', `/social-accounts/${account.id}`, { token: tenant.owner.token })).body.status).toBe('active');
      // It waited as planned, not by losing its lease after an unexpected error.
      expect(unexpectedFailures(rendition.id)).toEqual([]);
    });
  });

  describe('bluesky', () => {
    const uniqueHandle = () => `e2e-${randomBytes(5).toString('hex')}.bsky.social`;
    const appPassword = () => Array.from({ length: 4 }, () => randomBytes(2).toString('hex')).join('-');

    async function connectBluesky(tenant: Tenant) {
      const handle = uniqueHandle();
      const password = appPassword();
      const did = await createBlueskyAccount({ handle, password, display_name: 'Ada' });
      const connected = await call('POST', '/social-accounts/connect', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, provider: 'bluesky', username: handle, app_password: password },
      });
      expect(connected.status).toBe(201);
      return { account: connected.body, did, handle };
    }

    const recordsOf = async (did: string) =>
      (await blueskyRecords()).filter((record) => record.did === did && record.collection === 'app.bsky.feed.post');
    const webUrl = (uri: string) => {
      const [, did, , rkey] = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri)!;
      return `https://bsky.app/profile/${did}/post/${rkey}`;
    };
    async function blueskyControl(path: string, body?: unknown): Promise<any> {
      const response = await fetch(`${process.env.E2E_FAKE_BLUESKY_URL}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status).toBeLessThan(300);
      return response.json();
    }

    it('publish-now writes one record whose link and hashtag are facets; the rendition names its at:// URI', async () => {
      const tenant = await createTenant();
      const { account, did, handle } = await connectBluesky(tenant);
      const link = `https://example.com/notes/${randomUUID().slice(0, 8)}`;
      const sourceText = `Ship notes at ${link} #buildinpublic`;
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: 'Notes', source_text: sourceText });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);

      const records = await recordsOf(did);
      expect(records).toHaveLength(1);
      const [record] = records;
      const text = `Notes\n\n${sourceText}`;
      const at = (part: string) => {
        const start = Buffer.byteLength(text.slice(0, text.indexOf(part)));
        return { byteStart: start, byteEnd: start + Buffer.byteLength(part) };
      };
      expect(record).toEqual({
        uri: `at://${did}/app.bsky.feed.post/${record.rkey}`,
        cid: expect.any(String),
        did,
        collection: 'app.bsky.feed.post',
        rkey: expect.stringMatching(/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/),
        value: {
          $type: 'app.bsky.feed.post',
          text,
          createdAt: expect.stringMatching(RFC3339_MS),
          facets: [
            { index: at(link), features: [{ $type: 'app.bsky.richtext.facet#link', uri: link }] },
            { index: at('#buildinpublic'), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'buildinpublic' }] },
          ],
        },
        created_at: expect.any(String),
      });
      expect(publication.status).toBe('published');
      expect(rendition).toMatchObject({
        platform: 'bluesky',
        status: 'published',
        external_id: record.uri,
        external_url: webUrl(record.uri),
        error_code: '',
      });
      expect(rendition.delivery).toEqual(liveDelivery(rendition, `bluesky:${handle}`));
      expect(rendition.segments).toEqual([expect.objectContaining({ status: 'published', external_id: record.uri })]);
      await eventually(async () => {
        expect(await renditionEvents([rendition.id])).toEqual([
          expect.objectContaining({
            subject: 'durable.publishing.rendition.published',
            payload: expect.objectContaining({
              rendition_id: rendition.id,
              platform: 'bluesky',
              external_id: record.uri,
              external_url: webUrl(record.uri),
            }),
          }),
        ]);
      }, 10_000);
    });

    it('a thread is records chained by reply root and parent, in order', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      const tag = randomUUID().slice(0, 8);
      const bodies = [`Why ${tag}.`, `How ${tag}.`, `What now ${tag}.`];
      const draft = await threadPublication(tenant, bodies);
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      const records = await recordsOf(did);
      expect(records.map((record) => record.value.text)).toEqual(bodies);
      const ref = (index: number) => ({ uri: records[index].uri, cid: records[index].cid });
      expect(records.map((record) => record.value.reply)).toEqual([
        undefined,
        { root: ref(0), parent: ref(0) },
        { root: ref(0), parent: ref(1) },
      ]);
      expect(rendition).toMatchObject({ status: 'published', external_id: records[0].uri, external_url: webUrl(records[0].uri) });
      expect(rendition.segments.map((segment: any) => [segment.position, segment.status, segment.external_id])).toEqual(
        records.map((record, index) => [index, 'published', record.uri]),
      );
    });

    it.each([
      ['dropped', { drop_after_handling: true }],
      ['cut off halfway', { cut_answer: true }],
    ])('a thread whose first answer was %s is reconciled and continued: one record per part', async (_name, failure) => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      const tag = randomUUID().slice(0, 8);
      const bodies = [`Alpha ${tag}.`, `Beta ${tag}.`];
      await failNextAtBluesky({ path: CREATE_RECORD, ...failure });
      const draft = await threadPublication(tenant, bodies);
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      const records = await recordsOf(did);
      expect(records.map((record) => record.value.text)).toEqual(bodies);
      expect(records[1].value.reply).toEqual({
        root: { uri: records[0].uri, cid: records[0].cid },
        parent: { uri: records[0].uri, cid: records[0].cid },
      });
      expect(rendition.segments.map((segment: any) => segment.external_id)).toEqual(records.map((record) => record.uri));
      expect(rendition.delivery).toMatchObject({
        state: 'live',
        external_id: records[0].uri,
        last_reconciled_at: expect.stringMatching(RFC3339_MS),
      });
      const attempts = (await deliveries(tenant.owner.token, publication.id)).body.attempts;
      expect(attempts).toEqual([
        expect.objectContaining({
          attempt: 1,
          outcome: 'ambiguous',
          error_code: expect.stringMatching(/^provider_(connection_lost|answer_unreadable)$/),
        }),
        expect.objectContaining({ attempt: 2, outcome: 'live' }),
      ]);
    });

    it('a 5xx at the second part is retried and the thread continued from the part that exists: one record per part', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      const tag = randomUUID().slice(0, 8);
      const bodies = [`Start ${tag}.`, `Finish ${tag}.`];
      const draft = await threadPublication(tenant, bodies);
      await failNextAtBluesky({ path: CREATE_RECORD, delay_ms: 1 });
      await failNextAtBluesky({ path: CREATE_RECORD, status: 502, body: { error: 'InternalServerError', message: 'Upstream failure' } });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      const records = await recordsOf(did);
      expect(records.map((record) => record.value.text)).toEqual(bodies);
      expect(records[1].value.reply).toEqual({
        root: { uri: records[0].uri, cid: records[0].cid },
        parent: { uri: records[0].uri, cid: records[0].cid },
      });
      expect(rendition.segments.map((segment: any) => segment.external_id)).toEqual(records.map((record) => record.uri));
      expect(
        (await deliveries(tenant.owner.token, publication.id)).body.attempts.map((a: any) => [
          a.attempt,
          a.outcome,
          a.error_code,
          a.http_status,
        ]),
      ).toEqual([
        [1, 'retry', 'provider_error', 502],
        [2, 'live', '', 0],
      ]);
    });

    it('a 429 with RateLimit-Reset is retried after it, then live: one record', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      await failNextAtBluesky({
        path: CREATE_RECORD,
        status: 429,
        headers: { 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) },
        body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
      });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Rate limited ${randomUUID()}` });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      const attempts = (await deliveries(tenant.owner.token, publication.id)).body.attempts;
      expect(attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'retry', error_code: 'provider_rate_limited', http_status: 429 }),
        expect.objectContaining({ attempt: 2, outcome: 'live' }),
      ]);
      const records = await recordsOf(did);
      expect(records).toHaveLength(1);
      expect(rendition.external_id).toBe(records[0].uri);
    });

    it('a call slower than PROVIDER_TIMEOUT_MS is reconciled and sent again under the same record key: one record', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      await failNextAtBluesky({ path: CREATE_RECORD, delay_ms: 2_500 });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Slow PDS ${randomUUID()}` });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      expect((await deliveries(tenant.owner.token, publication.id)).body.attempts[0]).toEqual(
        expect.objectContaining({ attempt: 1, outcome: 'ambiguous', error_code: 'provider_timeout' }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const records = await recordsOf(did);
      expect(records).toHaveLength(1);
      expect(rendition.external_id).toBe(records[0].uri);
    });

    it('a dead refresh token too: a new session from the sealed app password, and the post goes out', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      await blueskyControl('/revoke-refresh', {});
      await blueskyControl('/expire-access', {});
      const sessionsBefore = await blueskyControl('/sessions');
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `New session ${randomUUID()}` });
      const { publication } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      expect((await blueskyControl('/sessions')).created).toBe(sessionsBefore.created + 1);
      expect(await recordsOf(did)).toHaveLength(1);
    });

    it('a lost answer at the second part of a thread: reconciled live from both records, nothing sent again', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      const tag = randomUUID().slice(0, 8);
      const bodies = [`Head ${tag}.`, `Tail ${tag}.`];
      await failNextAtBluesky({ path: CREATE_RECORD, delay_ms: 1 });
      await failNextAtBluesky({ path: CREATE_RECORD, drop_after_handling: true });
      const draft = await threadPublication(tenant, bodies);
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(publication.status).toBe('published');
      const records = await recordsOf(did);
      expect(records.map((record) => record.value.text)).toEqual(bodies);
      expect(rendition.segments.map((segment: any) => segment.external_id)).toEqual(records.map((record) => record.uri));
      expect(rendition.delivery).toMatchObject({
        state: 'live',
        current_attempt_number: 1,
        last_reconciled_at: expect.stringMatching(RFC3339_MS),
      });
      expect((await deliveries(tenant.owner.token, publication.id)).body.attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'ambiguous', error_code: 'provider_connection_lost' }),
      ]);
    });

    it('two publications at once after the access token expired: the session is refreshed once, both posts go out', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      await blueskyControl('/expire-access', {});
      const sessionsBefore = await blueskyControl('/sessions');
      const drafts = [
        await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Race A ${randomUUID()}` }),
        await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Race B ${randomUUID()}` }),
      ];
      const results = await Promise.all(drafts.map((draft) => publishTo(tenant, draft, account.id)));
      expect(results.map((result) => result.publication.status)).toEqual(['published', 'published']);
      expect(await blueskyControl('/sessions')).toEqual({ created: sessionsBefore.created, refreshed: sessionsBefore.refreshed + 1 });
      expect(await recordsOf(did)).toHaveLength(2);
    });

    it(
      'a dead session and a revoked app password: the rendition fails for reconnecting, ' +
        'the account needs reconnecting, nothing posted',
      async () => {
        const tenant = await createTenant();
        const { account, did, handle } = await connectBluesky(tenant);
        // The user revoked the app password (the PDS knows the account by another one now) and every token died.
        await createBlueskyAccount({ handle, did, password: appPassword() });
        await blueskyControl('/revoke-refresh', {});
        await blueskyControl('/expire-access', {});
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Nobody home ${randomUUID()}` });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        expect(publication.status).toBe('failed');
        expect(rendition).toMatchObject({
          status: 'failed',
          error_kind: 'auth',
          error_action: 'reconnect_account',
          error_retryable: false,
          delivery: expect.objectContaining({ state: 'rejected', terminal_reason: 'rejected', error_kind: 'auth' }),
        });
        // Refused while publishing (the PDS said ExpiredToken, renewal was refused):
        // the renewal's own DeliveryError (docs/decisions.md, "Grant renewal").
        expect(rendition.error_code).toBe('provider_auth_rejected');
        expect(await recordsOf(did)).toEqual([]);
        expect((await call('GET', `/social-accounts/${account.id}`, { token: tenant.owner.token })).body.status).toBe('reconnect_required');
        expect(unexpectedFailures(rendition.id)).toEqual([]);
      },
    );

    it('a lost answer whose first reconciliation the PDS fails (502) is reconciled again later, then live: one record', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      const GET_RECORD = '/xrpc/com.atproto.repo.getRecord';
      await failNextAtBluesky({ path: CREATE_RECORD, drop_after_handling: true });
      // getRecord: the look-up before creating passes, the reconciliation's first one fails.
      await failNextAtBluesky({ path: GET_RECORD, delay_ms: 1 });
      await failNextAtBluesky({ path: GET_RECORD, status: 502, body: { error: 'InternalServerError', message: 'Upstream failure' } });
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `PDS blip ${randomUUID()}` });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      const records = await recordsOf(did);
      expect(records).toHaveLength(1);
      expect(publication.status).toBe('published');
      expect(rendition).toMatchObject({ status: 'published', external_id: records[0].uri });
      expect(rendition.delivery).toMatchObject({
        state: 'live',
        current_attempt_number: 1,
        last_reconciled_at: expect.stringMatching(RFC3339_MS),
      });
    });

    it(
      'a thread whose second part is rejected fails; ' + 'retry keeps the record already made (found under its key) and adds the rest',
      async () => {
        const tenant = await createTenant();
        const { account, did } = await connectBluesky(tenant);
        const tag = randomUUID().slice(0, 8);
        const bodies = [`Stays ${tag}.`, `Comes later ${tag}.`];
        await failNextAtBluesky({ path: CREATE_RECORD, delay_ms: 1 });
        await failNextAtBluesky({
          path: CREATE_RECORD,
          status: 400,
          body: { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record' },
        });
        const draft = await threadPublication(tenant, bodies);
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        expect(publication.status).toBe('failed');
        expect(rendition).toMatchObject({
          status: 'failed',
          error_code: 'provider_rejected',
          error_kind: 'validation',
          error_http_status: 400,
        });
        const first = await recordsOf(did);
        expect(first.map((record) => record.value.text)).toEqual([bodies[0]]);
        expect((await retry(tenant.owner.token, publication.id, { expected_revision: publication.revision })).status).toBe(200);
        const done = await publicationWhen(tenant.owner.token, publication.id, settled);
        expect(done.status).toBe('published');
        const records = await recordsOf(did);
        expect(records.map((record) => record.value.text)).toEqual(bodies);
        expect(records[0].uri).toBe(first[0].uri);
        expect(records[1].value.reply).toEqual({
          root: { uri: records[0].uri, cid: records[0].cid },
          parent: { uri: records[0].uri, cid: records[0].cid },
        });
      },
    );

    it('an access token about to expire is renewed before the post (no ExpiredToken on the way)', async () => {
      const tenant = await createTenant();
      // New sessions get access tokens living 60 s: inside the 5-minute renewal window from the start.
      await blueskyControl('/tokens', { access_ttl_seconds: 60 });
      let connected: Awaited<ReturnType<typeof connectBluesky>>;
      try {
        connected = await connectBluesky(tenant);
      } finally {
        await blueskyControl('/tokens', { access_ttl_seconds: 7200 });
      }
      const sealedBefore = await sealedGrant(connected.account.id);
      const sessionsBefore = await blueskyControl('/sessions');
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Renewed first ${randomUUID()}` });
      const { publication } = await publishTo(tenant, draft, connected.account.id);
      expect(publication.status).toBe('published');
      expect(await blueskyControl('/sessions')).toEqual({ created: sessionsBefore.created, refreshed: sessionsBefore.refreshed + 1 });
      expect(await sealedGrant(connected.account.id)).not.toBe(sealedBefore);
      expect(await recordsOf(connected.did)).toHaveLength(1);
    });

    it('a text just under 300 graphemes with a title: what is sent stays within the PDS limit and goes out', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      const words = `${randomUUID().slice(0, 8)} ${'word '.repeat(100)}`.slice(0, 295).trim();
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: 'Release notes', source_text: words });
      const { publication, rendition } = await publishTo(tenant, draft, account.id);
      expect(rendition).toMatchObject({ status: 'published', error_code: '' });
      expect(publication.status).toBe('published');
      const records = await recordsOf(did);
      for (const record of records) expect([...new Intl.Segmenter().segment(String(record.value.text))].length).toBeLessThanOrEqual(300);
      expect(records).toHaveLength(2);
      expect(`${String(records[0].value.text).replace(/^Release notes\n\n/, '')} ${String(records[1].value.text)}`).toBe(words);
      expect(String(records[0].value.text).startsWith('Release notes\n\n')).toBe(true);
    });

    it(
      'an access token the PDS calls expired is renewed with the ' + 'refresh session and the post goes out; the new session is sealed',
      async () => {
        const tenant = await createTenant();
        const { account, did } = await connectBluesky(tenant);
        const sealedBefore = await sealedGrant(account.id);
        await blueskyControl('/expire-access', {});
        const sessionsBefore = await blueskyControl('/sessions');
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `After renewal ${randomUUID()}` });
        const { publication, rendition } = await publishTo(tenant, draft, account.id);
        expect(publication.status).toBe('published');
        expect(rendition.delivery).toMatchObject({ state: 'live', current_attempt_number: 1 });
        const sessionsAfter = await blueskyControl('/sessions');
        expect(sessionsAfter).toEqual({ created: sessionsBefore.created, refreshed: sessionsBefore.refreshed + 1 });
        const records = await recordsOf(did);
        expect(records).toHaveLength(1);
        expect(rendition.external_id).toBe(records[0].uri);
        expect(await sealedGrant(account.id)).not.toBe(sealedBefore);
        expect((await call('GET', `/social-accounts/${account.id}`, { token: tenant.owner.token })).body.status).toBe('active');
      },
    );
  });

  it(
    'one publication to a mastodon and a bluesky account: ' +
      'each network gets its own rendering (bluesky threads past 300, a link card), both live',
    async () => {
      const tenant = await createTenant();
      // (helpers of the describes above are per network; the connect flows are repeated here in short)
      const maTokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
      const maUser = `both_${randomBytes(4).toString('hex')}`;
      const remote = await mastodonAccount({ access_token: maTokens.access_token, username: maUser });
      const started = await call('POST', '/social-accounts/connect', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, provider: 'mastodon', instance_url: instanceUrl },
      });
      const code = await approveAtNetwork(started.body.authorization_url, {
        client_secret: clientSecret,
        ...maTokens,
        profile: { id: remote.id, username: maUser },
      });
      const mastodon = (
        await call('GET', `/social-accounts/callback/mastodon?${new URLSearchParams({ code, state: started.body.state })}`, {
          token: tenant.owner.token,
        })
      ).body;
      const handle = `e2e-${randomBytes(5).toString('hex')}.bsky.social`;
      const password = 'abcd-efgh-ijkl-mnop';
      const did = await createBlueskyAccount({ handle, password });
      const bluesky = (
        await call('POST', '/social-accounts/connect', {
          token: tenant.owner.token,
          body: { workspace_id: tenant.workspaceId, provider: 'bluesky', username: handle, app_password: password },
        })
      ).body;

      const tag = randomUUID().slice(0, 8);
      const paragraphs = [`${'First paragraph words. '.repeat(8).trim()} ${tag}`, `${'Second paragraph words. '.repeat(8).trim()} ${tag}`];
      const link = `https://example.com/story/${tag}`;
      const created = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: paragraphs.join('\n\n') });
      const patched = await call('PATCH', `/publications/${created.id}`, {
        token: tenant.owner.token,
        body: { expected_revision: created.revision, source_url: link },
      });
      expect(patched.status).toBe(200);
      const draft = patched.body;
      const go = await publishNow(tenant.owner.token, draft.id, {
        expected_revision: draft.revision,
        account_ids: [mastodon.id, bluesky.id],
      });
      expect(go.status).toBe(200);
      const done = await publicationWhen(tenant.owner.token, draft.id, settled);
      expect(done.status).toBe('published');
      const byPlatform = Object.fromEntries(done.renditions.map((r: any) => [r.platform, r]));

      const statuses = (await mastodonStatuses()).filter((status) => status.account_id === remote.id);
      expect(statuses.map((status) => status.text)).toEqual([`${paragraphs.join('\n\n')}\n\n${link}`]);
      expect(byPlatform.mastodon).toMatchObject({ status: 'published', external_id: statuses[0].id });

      const records = (await blueskyRecords()).filter((record) => record.did === did);
      expect(records.map((record) => record.value.text)).toEqual(paragraphs);
      expect(records[0].value.embed).toEqual({ $type: 'app.bsky.embed.external', external: { uri: link, title: '', description: '' } });
      expect(records[1].value.reply).toEqual({
        root: { uri: records[0].uri, cid: records[0].cid },
        parent: { uri: records[0].uri, cid: records[0].cid },
      });
      expect(byPlatform.bluesky).toMatchObject({ status: 'published', external_id: records[0].uri });
      expect(byPlatform.bluesky.segments.map((segment: any) => segment.external_id)).toEqual(records.map((record) => record.uri));
    },
  );

  it('a scheduled publication goes out to bluesky at its time', async () => {
    const tenant = await createTenant();
    const handle = `e2e-${randomBytes(5).toString('hex')}.bsky.social`;
    const did = await createBlueskyAccount({ handle, password: 'wxyz-wxyz-wxyz-wxyz' });
    const account = (
      await call('POST', '/social-accounts/connect', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, provider: 'bluesky', username: handle, app_password: 'wxyz-wxyz-wxyz-wxyz' },
      })
    ).body;
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Later ${randomUUID()}` });
    const at = inMs(1_500);
    const scheduled = await schedule(tenant.owner.token, draft.id, {
      expected_revision: draft.revision,
      scheduled_at: at,
      account_ids: [account.id],
    });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.status).toBe('scheduled');
    const done = await publicationWhen(tenant.owner.token, draft.id, settled);
    expect(done.status).toBe('published');
    expect(Date.parse(done.actual_run_at)).toBeGreaterThanOrEqual(Date.parse(at));
    const records = (await blueskyRecords()).filter((record) => record.did === did);
    expect(records).toHaveLength(1);
    expect(Date.parse(records[0].created_at)).toBeGreaterThanOrEqual(Date.parse(at));
  });
});
