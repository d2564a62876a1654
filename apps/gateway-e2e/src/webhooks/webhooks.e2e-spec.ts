import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { call, eventually, expectProblem, locations, RFC3339_MS, schemaUrlFor } from '../support/api.js';
import { publicationWhen, publishNow, settled } from '../support/delivery.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { pngBytes, uploadMedia } from '../support/media.js';
import { waitForNotification } from '../support/notifications.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace, type Tenant } from '../support/tenancy.js';
import { type ReceivedRequest, type ReceiverStep, WebhookReceiver } from '../support/webhook-receiver.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('webhooks (contract §10): subscriptions, signed deliveries, retries, redelivery, rotation', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.stop();
  });

  async function subscribe(tenant: Tenant, steps: ReceiverStep[] = [], events: string[] = ['*']) {
    const url = receiver.endpoint(steps);
    const response = await call('POST', '/webhooks', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, url, events, description: 'Our CRM' },
    });
    expect(response.status).toBe(201);
    return { url, secret: response.body.secret as string, webhook: response.body.item };
  }

  /** The receiver's requests to `url`, once there are `count`; each verified with the standardwebhooks package. */
  async function received(url: string, count: number, secrets: string[], timeoutMs = 15_000): Promise<ReceivedRequest[]> {
    let requests: ReceivedRequest[] = [];
    await eventually(async () => {
      requests = receiver.requestsTo(url);
      expect(requests.length).toBeGreaterThanOrEqual(count);
    }, timeoutMs);
    for (const request of requests) {
      const headers = request.headers as Record<string, string>;
      expect(headers['content-type']).toBe('application/json');
      for (const secret of secrets) expect(new StandardWebhook(secret).verify(request.body, headers)).toEqual(JSON.parse(request.body));
    }
    return requests;
  }

  const deliveriesOf = async (tenant: Tenant, webhookId: string) => {
    const response = await call('GET', `/webhooks/${webhookId}/deliveries`, { token: tenant.owner.token });
    expect(response.status).toBe(200);
    return response.body.deliveries as any[];
  };

  const sendTest = async (tenant: Tenant, webhookId: string) => {
    const response = await call('POST', `/webhooks/${webhookId}/test`, { token: tenant.owner.token });
    expect(response.status).toBe(202);
    await expectMatchesOwnSchema(response.body, 'WebhookDeliveryQueued');
    return response.body.delivery;
  };

  it('creates, shows, lists, changes and deletes a webhook: every field, $schema, Location, the secret once', async () => {
    const tenant = await createTenant();
    const url = receiver.endpoint();
    const created = await call('POST', '/webhooks', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, url, events: ['publication.published', 'media.ready'] },
    });
    expect(created.status).toBe(201);
    await expectMatchesOwnSchema(created.body, 'WebhookCreated');
    const item = created.body.item;
    expect(created.body).toEqual({ $schema: schemaUrlFor('WebhookCreated'), secret: expect.stringMatching(SECRET), item });
    expect(created.headers.get('location')).toBe(`/webhooks/${item.id}`);
    expect(item).toEqual({
      id: expect.stringMatching(UUID),
      workspace_id: tenant.workspaceId,
      url,
      events: ['publication.published', 'media.ready'],
      description: '',
      active: true,
      created_at: expect.stringMatching(RFC3339_MS),
      updated_at: expect.stringMatching(RFC3339_MS),
    });

    const shown = await call('GET', `/api/v1/webhooks/${item.id}`, { token: tenant.owner.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ $schema: schemaUrlFor('Webhook'), ...item });
    expect(JSON.stringify(shown.body)).not.toContain('whsec_');

    const list = await call('GET', `/webhooks?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token });
    expect(list.status).toBe(200);
    await expectMatchesOwnSchema(list.body, 'WebhookList');
    expect(list.body).toEqual({ $schema: schemaUrlFor('WebhookList'), webhooks: [item] });

    const patched = await call('PATCH', `/webhooks/${item.id}`, {
      token: tenant.owner.token,
      body: { events: ['*'], description: 'All of it', active: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ...item, events: ['*'], description: 'All of it', active: false, updated_at: expect.any(String) });
    expectProblem(await call('POST', `/webhooks/${item.id}/test`, { token: tenant.owner.token }), 409, 'webhook_inactive');

    const log = await call('GET', `/webhooks/${item.id}/deliveries`, { token: tenant.owner.token });
    expect(log.status).toBe(200);
    expect(log.body).toEqual({ $schema: schemaUrlFor('WebhookDeliveryList'), deliveries: [], next_cursor: '' });

    const removed = await call('DELETE', `/webhooks/${item.id}`, { token: tenant.owner.token });
    expect(removed.status).toBe(204);
    expectProblem(await call('GET', `/webhooks/${item.id}`, { token: tenant.owner.token }), 404, 'not_found');
  });

  it('refuses bad input with 422 problems: http, private and loopback addresses, unknown events, long descriptions', async () => {
    const tenant = await createTenant();
    const create = (body: Record<string, unknown>) =>
      call('POST', '/webhooks', { token: tenant.owner.token, body: { workspace_id: tenant.workspaceId, events: ['*'], ...body } });
    for (const url of [
      'http://hooks.example.com/in',
      'https://127.0.0.1/in',
      'https://10.1.2.3/in',
      'https://192.168.0.10:8443/in',
      'https://169.254.169.254/latest',
      'https://[::1]/in',
      'https://localhost/in',
      'https://intranet.internal/in',
      'not a url',
    ]) {
      const refused = expectProblem(await create({ url }), 422, 'validation_failed');
      expect({ url, at: locations(refused) }).toEqual({ url, at: ['body.url'] });
    }
    // A public address literal needs no DNS: accepted.
    const publicOne = await create({ url: 'https://93.184.215.14/in' });
    expect(publicOne.status).toBe(201);
    await call('DELETE', `/webhooks/${publicOne.body.item.id}`, { token: tenant.owner.token });

    const url = receiver.endpoint();
    expect(locations(expectProblem(await create({ url, events: ['post.created'] }), 422))).toEqual(['body.events']);
    expect(locations(expectProblem(await create({ url, events: [] }), 422))).toEqual(['body.events']);
    expect(locations(expectProblem(await create({ url, description: 'x'.repeat(201) }), 422))).toEqual(['body.description']);
    expect(locations(expectProblem(await create({ url, secret: 'mine' }), 422))).toEqual(['body.secret']);
    expect(locations(expectProblem(await create({ url, events: 'everything' }), 422))).toContain('body.events');
    expectProblem(
      await call('POST', '/webhooks', { token: tenant.owner.token, rawBody: '{"url":', headers: { 'content-type': 'application/json' } }),
      400,
    );

    const { webhook } = await subscribe(tenant);
    const patch = (body: unknown) => call('PATCH', `/webhooks/${webhook.id}`, { token: tenant.owner.token, body });
    expect(locations(expectProblem(await patch({ url: 'https://10.0.0.1/x' }), 422))).toEqual(['body.url']);
    expect(locations(expectProblem(await patch({ active: 'yes' }), 422))).toEqual(['body.active']);
    expect(locations(expectProblem(await patch({ events: ['nope'] }), 422))).toEqual(['body.events']);
    expectProblem(await call('GET', `/webhooks/${webhook.id}/deliveries?limit=0`, { token: tenant.owner.token }), 422);
    expectProblem(await call('GET', `/webhooks/${webhook.id}/deliveries?cursor=forged.cursor`, { token: tenant.owner.token }), 422);
    expectProblem(await call('GET', `/webhooks/not-a-uuid`, { token: tenant.owner.token }), 404);
    expectProblem(await call('POST', `/webhooks/${webhook.id}/deliveries/${randomUUID()}/redeliver`, { token: tenant.owner.token }), 404);
    expectProblem(await call('GET', `/webhooks?workspace_id=nope`, { token: tenant.owner.token }), 422);
  });

  it('is for workspace admins only: an editor gets 403 on every operation, an admin member may manage them', async () => {
    const tenant = await createTenant();
    const { webhook } = await subscribe(tenant);
    const editor = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
    const attempts: Array<[string, string, unknown?]> = [
      ['POST', '/webhooks', { workspace_id: tenant.workspaceId, url: receiver.endpoint(), events: ['*'] }],
      ['GET', `/webhooks?workspace_id=${tenant.workspaceId}`],
      ['GET', `/webhooks/${webhook.id}`],
      ['PATCH', `/webhooks/${webhook.id}`, { description: 'mine now' }],
      ['DELETE', `/webhooks/${webhook.id}`],
      ['POST', `/webhooks/${webhook.id}/rotate-secret`],
      ['POST', `/webhooks/${webhook.id}/test`],
      ['GET', `/webhooks/${webhook.id}/deliveries`],
    ];
    for (const [method, path, body] of attempts)
      expectProblem(await call(method, path, { token: editor.token, body }), 403, 'insufficient_role');
    const admin = await joinWorkspace(tenant.owner, tenant.workspaceId, 'admin');
    expect((await call('GET', `/webhooks/${webhook.id}`, { token: admin.token })).status).toBe(200);
  });

  it('delivers rendition.published then publication.published, signed, with the resource as the API shows it', async () => {
    const tenant = await createTenant();
    const { url, secret, webhook } = await subscribe(tenant, [], ['rendition.published', 'publication.published']);
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: 'Webhooks are live' });
    expect((await publishNow(tenant.owner.token, draft.id, { expected_revision: 1, account_ids: [account.id] })).status).toBe(200);
    const done = await publicationWhen(tenant.owner.token, draft.id, settled);
    expect(done.status).toBe('published');

    const requests = await received(url, 2, [secret]);
    expect(requests).toHaveLength(2);
    const bodies = requests.map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.type)).toEqual(['rendition.published', 'publication.published']);
    for (const body of bodies) {
      expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type', 'workspace_id']);
      expect(body.workspace_id).toBe(tenant.workspaceId);
      expect(body.timestamp).toMatch(RFC3339_MS);
    }
    expect(bodies[0].data).toMatchObject({ id: done.renditions[0].id, publication_id: draft.id, status: 'published' });
    expect(bodies[1].data).toMatchObject({ id: draft.id, workspace_id: tenant.workspaceId, status: 'published' });
    expect(bodies[1].data.renditions).toHaveLength(1);

    const ids = requests.map((request) => request.headers['webhook-id']);
    expect(new Set(ids).size).toBe(2);
    // The log records an attempt once the receiver has answered: wait for both.
    let log: any[] = [];
    await eventually(async () => {
      log = await deliveriesOf(tenant, webhook.id);
      expect(log.map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded']);
    });
    for (const delivery of log) {
      expect(delivery).toEqual({
        id: expect.stringMatching(UUID),
        event_type: expect.stringMatching(/^(rendition|publication)\.published$/),
        event_id: expect.any(String),
        status: 'succeeded',
        attempts: 1,
        last_status_code: 200,
        last_error: '',
        created_at: expect.stringMatching(RFC3339_MS),
        next_attempt_at: null,
      });
      expect(ids).toContain(delivery.event_id);
    }
  });

  it('delivers rendition.failed then publication.failed when the network refuses the post', async () => {
    const tenant = await createTenant();
    const { url, secret } = await subscribe(tenant, [], ['publication.failed', 'rendition.failed', 'publication.published']);
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: '[sandbox:reject] no thanks' });
    await publishNow(tenant.owner.token, draft.id, { expected_revision: 1, account_ids: [account.id] });
    expect((await publicationWhen(tenant.owner.token, draft.id, settled)).status).toBe('failed');
    const requests = await received(url, 2, [secret]);
    expect(requests.map((request) => JSON.parse(request.body).type)).toEqual(['rendition.failed', 'publication.failed']);
  });

  it('sends media.ready once an uploaded image is ready, with the MediaItem as the API shows it', async () => {
    const tenant = await createTenant();
    const { url, secret } = await subscribe(tenant, [], ['media.ready']);
    const item = await uploadMedia(tenant.owner.token, tenant.workspaceId, pngBytes(64, 48));
    const [request] = await received(url, 1, [secret]);
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({ type: 'media.ready', workspace_id: tenant.workspaceId, data: { id: item.id, filename: 'picture.png' } });
    const shown = await call('GET', `/media/${item.id}`, { token: tenant.owner.token });
    expect(Object.keys(body.data).sort()).toEqual(
      Object.keys(shown.body)
        .filter((key) => key !== '$schema')
        .sort(),
    );
  });

  it('retries a receiver answering 500, honours a longer Retry-After, and logs each attempt', async () => {
    const tenant = await createTenant();
    const { url, secret, webhook } = await subscribe(tenant, [500, { status: 503, retryAfter: 1 }, 200]);
    const queued = await sendTest(tenant, webhook.id);
    expect(queued).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0, last_status_code: 0, last_error: '' });
    const requests = await received(url, 3, [secret]);
    expect(new Set(requests.map((request) => request.headers['webhook-id']))).toEqual(new Set([queued.event_id]));
    expect(JSON.parse(requests[0].body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: webhook.id } });
    // The first retry after the schedule's first step, the second after the receiver's Retry-After (1 s), longer than the step.
    expect(requests[2].at - requests[1].at).toBeGreaterThanOrEqual(950);
    await eventually(async () => {
      const [delivery] = await deliveriesOf(tenant, webhook.id);
      expect(delivery).toMatchObject({ id: queued.id, status: 'succeeded', attempts: 3, last_status_code: 200, last_error: '' });
    });
  });

  it('gives up on a hanging receiver after the timeout, and on a redirect (3xx is a failure, not followed)', async () => {
    const tenant = await createTenant();
    const hanging = await subscribe(tenant, ['hang']);
    const redirecting = await subscribe(tenant, Array<ReceiverStep>(5).fill('redirect'));
    await sendTest(tenant, hanging.webhook.id);
    await sendTest(tenant, redirecting.webhook.id);
    await eventually(async () => {
      const [delivery] = await deliveriesOf(tenant, hanging.webhook.id);
      expect(delivery).toMatchObject({ status: 'pending', last_status_code: 0, last_error: expect.stringMatching(/timed out/) });
      expect(delivery.attempts).toBeGreaterThanOrEqual(1);
      expect(delivery.next_attempt_at).toMatch(RFC3339_MS);
    }, 10_000);
    await eventually(async () => {
      const [delivery] = await deliveriesOf(tenant, redirecting.webhook.id);
      expect(delivery).toMatchObject({
        status: 'pending',
        last_status_code: 302,
        last_error: expect.stringMatching(/redirect/),
      });
      expect(delivery.attempts).toBeGreaterThanOrEqual(1);
    });
    expect(receiver.requestsTo(`${receiver.origin}/hooks/redirected`)).toHaveLength(0);
    // Both stop here: their deliveries should not keep the receiver busy.
    await call('DELETE', `/webhooks/${hanging.webhook.id}`, { token: tenant.owner.token });
    await call('DELETE', `/webhooks/${redirecting.webhook.id}`, { token: tenant.owner.token });
  });

  it('redelivers with the same webhook-id, counted in attempts', async () => {
    const tenant = await createTenant();
    const { url, secret, webhook } = await subscribe(tenant);
    const queued = await sendTest(tenant, webhook.id);
    const [first] = await received(url, 1, [secret]);
    await eventually(async () => expect((await deliveriesOf(tenant, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 }));
    const again = await call('POST', `/webhooks/${webhook.id}/deliveries/${queued.id}/redeliver`, { token: tenant.owner.token });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ $schema: schemaUrlFor('WebhookDeliveryQueued'), delivery: expect.objectContaining({ id: queued.id }) });
    const [, second] = await received(url, 2, [secret]);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    await eventually(async () => expect((await deliveriesOf(tenant, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2 }));
  });

  it('rotates the secret: during the overlap both secrets sign (two signatures) and each verifies', async () => {
    const tenant = await createTenant();
    const { url, secret: oldSecret, webhook } = await subscribe(tenant);
    const rotated = await call('POST', `/webhooks/${webhook.id}/rotate-secret`, { token: tenant.owner.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      $schema: schemaUrlFor('WebhookCreated'),
      secret: expect.stringMatching(SECRET),
      item: expect.objectContaining({ id: webhook.id }),
    });
    const newSecret = rotated.body.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    await sendTest(tenant, webhook.id);
    const [request] = await received(url, 1, [newSecret, oldSecret]);
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
  });

  it('deactivates a webhook whose deliveries keep failing and tells the workspace admins', async () => {
    const tenant = await createTenant();
    const { webhook } = await subscribe(tenant, Array<ReceiverStep>(20).fill(500));
    const queued = await sendTest(tenant, webhook.id);
    await eventually(async () => {
      const shown = await call('GET', `/webhooks/${webhook.id}`, { token: tenant.owner.token });
      expect(shown.body.active).toBe(false);
    }, 15_000);
    const [delivery] = await deliveriesOf(tenant, webhook.id);
    expect(delivery).toMatchObject({ id: queued.id, status: 'failed', next_attempt_at: null, last_status_code: 500 });
    const notice = await waitForNotification(tenant.owner.token, (item) => item.topic === 'webhook_deactivated');
    expect(notice).toMatchObject({ workspace_id: tenant.workspaceId, link: `/webhooks/${webhook.id}` });
    const redeliver = await call('POST', `/webhooks/${webhook.id}/deliveries/${queued.id}/redeliver`, { token: tenant.owner.token });
    expectProblem(redeliver, 409, 'webhook_inactive');
    const revived = await call('PATCH', `/webhooks/${webhook.id}`, { token: tenant.owner.token, body: { active: true } });
    expect(revived.body.active).toBe(true);
    await call('DELETE', `/webhooks/${webhook.id}`, { token: tenant.owner.token });
  });

  it('pages the delivery log with an opaque cursor bound to the webhook', async () => {
    const tenant = await createTenant();
    const { url, secret, webhook } = await subscribe(tenant);
    for (let i = 0; i < 3; i++) await sendTest(tenant, webhook.id);
    await received(url, 3, [secret]);
    const first = await call('GET', `/webhooks/${webhook.id}/deliveries?limit=2`, { token: tenant.owner.token });
    expect(first.body.deliveries).toHaveLength(2);
    expect(first.body.next_cursor).not.toBe('');
    const next = await call('GET', `/webhooks/${webhook.id}/deliveries?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, {
      token: tenant.owner.token,
    });
    expect(next.body).toMatchObject({ next_cursor: '' });
    expect(next.body.deliveries).toHaveLength(1);
    const other = await subscribe(tenant);
    const foreign = `/webhooks/${other.webhook.id}/deliveries?cursor=${encodeURIComponent(first.body.next_cursor)}`;
    expectProblem(await call('GET', foreign, { token: tenant.owner.token }), 422);
  });

  it("keeps another tenant out of a workspace's webhooks (404, 403 where it names the workspace), the owner's view unchanged", async () => {
    const owner = await createTenant();
    const intruder = await createTenant();
    const { url, secret, webhook } = await subscribe(owner);
    const delivery = await sendTest(owner, webhook.id);
    await received(url, 1, [secret]);
    await eventually(async () => expect((await deliveriesOf(owner, webhook.id))[0]).toMatchObject({ status: 'succeeded' }));
    await expectTenantIsolation({
      url: `/webhooks/${webhook.id}`,
      ownerToken: owner.owner.token,
      intruderToken: intruder.owner.token,
      attempts: [
        { method: 'PATCH', body: { description: 'taken over' } },
        { method: 'DELETE' },
        { method: 'POST', path: `/webhooks/${webhook.id}/rotate-secret` },
        { method: 'POST', path: `/webhooks/${webhook.id}/test` },
        { method: 'GET', path: `/webhooks/${webhook.id}/deliveries` },
        { method: 'POST', path: `/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver` },
        { method: 'GET', path: `/webhooks?workspace_id=${owner.workspaceId}`, status: 403 },
        {
          method: 'POST',
          path: '/webhooks',
          body: { workspace_id: owner.workspaceId, url: receiver.endpoint(), events: ['*'] },
          status: 403,
        },
      ],
      ownerView: [`/webhooks/${webhook.id}`, `/webhooks/${webhook.id}/deliveries`, `/webhooks?workspace_id=${owner.workspaceId}`],
    });
    expect(receiver.requestsTo(url)).toHaveLength(1);
  });
});
