import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { PUBLICATION_PUBLISHED_SUBJECT, RENDITION_PUBLISHED_SUBJECT, WEBHOOK_DEACTIVATED_SUBJECT } from '@social/contracts';
import { openServiceDatabase, type RpcClient, SecretBox } from '@social/platform';
import { createTemporaryDatabase, type TemporaryDatabase } from '@social/testing';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { WebhooksConfig } from '../config.js';
import { EventIntake } from '../events/event-intake.js';
import { webhooksMigrations } from '../migrations/index.js';
import { newWebhookSecret, WebhookSecrets } from '../subscriptions/webhook-secrets.js';
import { DeliveryDispatcher } from './dispatcher.js';

/**
 * Intake and dispatch against real PostgreSQL and a real HTTP receiver, with the owning services played by a fake
 * RpcClient: one delivery per (event, webhook) whatever the redeliveries, signed bodies, retries, order per
 * publication, replicas that never send one delivery twice, and deactivation.
 */
describe('webhook intake and dispatch', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;
  let server: Server;
  let origin: string;
  const logger = pino({ level: 'silent' });
  const secrets = new WebhookSecrets(SecretBox.fromBase64Key(randomBytes(32).toString('base64')));
  const dispatchers: DeliveryDispatcher[] = [];
  const received: Array<{ path: string; headers: IncomingHttpHeaders; body: string; at: number }> = [];
  /** Per path: statuses to answer in turn (200 after), or a delay before answering. */
  const scripts = new Map<string, number[]>();
  const delays = new Map<string, number>();
  const workspaceId = uuidv7();
  const publicationId = uuidv7();
  const rpc = { send: async (_pattern: string, body: { id: string }) => ({ resource: { id: body.id, status: 'published' } }) };

  const config = (overrides: Partial<WebhooksConfig> = {}) =>
    ({
      WEBHOOK_ALLOWED_ORIGINS: [origin],
      WEBHOOK_RETRY_SCHEDULE_MS: [100, 100, 100, 100, 100, 100, 100],
      WEBHOOK_TIMEOUT_MS: 2_000,
      WEBHOOK_DEACTIVATE_AFTER_MS: 60_000,
      WEBHOOK_CONCURRENCY: 8,
      WEBHOOK_POLL_MS: 50,
      WEBHOOK_LEASE_MS: 5_000,
      ...overrides,
    }) as WebhooksConfig;

  const startDispatcher = (overrides: Partial<WebhooksConfig> = {}) => {
    const dispatcher = new DeliveryDispatcher(dataSource, secrets, config(overrides), logger);
    dispatcher.onApplicationBootstrap();
    dispatchers.push(dispatcher);
    return dispatcher;
  };

  async function webhook(path: string, events = ['*']): Promise<{ id: string; secret: string }> {
    const id = uuidv7();
    const secret = newWebhookSecret();
    await dataSource.query(
      `INSERT INTO webhooks (id, workspace_id, url, events, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now())`,
      [id, workspaceId, `${origin}${path}`, events, secrets.seal(id, secret)],
    );
    return { id, secret };
  }

  const intake = new (class {
    private handler?: EventIntake;
    get(): EventIntake {
      this.handler ??= new EventIntake(dataSource, rpc as unknown as RpcClient, logger);
      return this.handler;
    }
  })();
  let seq = 0;
  const event = (subject: string, extra: Record<string, unknown> = {}, eventId = uuidv7()) =>
    intake.get().handle(
      subject,
      {
        workspace_id: workspaceId,
        publication_id: publicationId,
        rendition_id: uuidv7(),
        occurred_at: new Date().toISOString(),
        ...extra,
      },
      { eventId, seq: ++seq },
    );

  const requestsTo = (path: string) => received.filter((request) => request.path === path);
  async function until(check: () => boolean | Promise<boolean>, timeoutMs = 8_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  const deliveries = (webhookId: string) =>
    dataSource.query<Array<{ status: string; attempts: number; last_status_code: number; event_type: string }>>(
      `SELECT status, attempts, last_status_code, event_type FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY sequence`,
      [webhookId],
    );

  beforeAll(async () => {
    db = await createTemporaryDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'webhooks_spec');
    dataSource = await openServiceDatabase({ url: db.url, schema: 'webhooks', entities: [], migrations: webhooksMigrations, poolSize: 8 });
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const status = scripts.get(path)?.shift() ?? 200;
        setTimeout(() => res.writeHead(status).end(), delays.get(path) ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.beforeApplicationShutdown()));
    await dataSource.query(`TRUNCATE webhook_deliveries, webhook_events, webhooks, outbox_events`);
    received.splice(0);
    scripts.clear();
    delays.clear();
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await dataSource?.destroy();
    await db?.drop();
  });

  it('makes one delivery per subscribed webhook, the same body and id for each, and nothing more on a redelivered event', async () => {
    const all = await webhook('/a');
    const some = await webhook('/b', ['publication.published']);
    await webhook('/c', ['media.ready']);
    const eventId = uuidv7();
    await event(RENDITION_PUBLISHED_SUBJECT, {}, eventId);
    await event(RENDITION_PUBLISHED_SUBJECT, {}, eventId);
    await event(PUBLICATION_PUBLISHED_SUBJECT);
    expect((await deliveries(all.id)).map((d) => d.event_type)).toEqual(['rendition.published', 'publication.published']);
    expect((await deliveries(some.id)).map((d) => d.event_type)).toEqual(['publication.published']);
    const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM webhook_deliveries`);
    expect(count).toBe(3);

    startDispatcher();
    await until(() => requestsTo('/a').length === 2 && requestsTo('/b').length === 1);
    const outcome = (path: string) => requestsTo(path).find((r) => JSON.parse(r.body).type === 'publication.published')!;
    expect(outcome('/a').headers['webhook-id']).toBe(outcome('/b').headers['webhook-id']);
    expect(outcome('/a').body).toBe(outcome('/b').body);
    expect(new Webhook(all.secret).verify(outcome('/a').body, outcome('/a').headers as Record<string, string>)).toMatchObject({
      type: 'publication.published',
      workspace_id: workspaceId,
      data: { id: publicationId },
    });
    expect(() => new Webhook(all.secret).verify(outcome('/b').body, outcome('/b').headers as Record<string, string>)).toThrow();
    expect(requestsTo('/c')).toHaveLength(0);
  });

  it('sends one publication in order, the second event only after the first was tried, and retries failures', async () => {
    const hook = await webhook('/ordered');
    scripts.set('/ordered', [500]);
    delays.set('/ordered', 150);
    await event(RENDITION_PUBLISHED_SUBJECT);
    await event(PUBLICATION_PUBLISHED_SUBJECT);
    startDispatcher();
    await until(async () => (await deliveries(hook.id)).every((d) => d.status === 'succeeded'));
    const types = requestsTo('/ordered').map((request) => JSON.parse(request.body).type);
    // The first attempt of the rendition's event fails (500); the publication's follows it, not before.
    expect(types[0]).toBe('rendition.published');
    expect(types.slice(1).sort()).toEqual(['publication.published', 'rendition.published']);
    // Sent once the first attempt had its answer (150 ms later), not beside it.
    const outcome = requestsTo('/ordered').find((request) => JSON.parse(request.body).type === 'publication.published')!;
    expect(outcome.at - requestsTo('/ordered')[0].at).toBeGreaterThanOrEqual(140);
    expect(await deliveries(hook.id)).toEqual([
      { status: 'succeeded', attempts: 2, last_status_code: 200, event_type: 'rendition.published' },
      { status: 'succeeded', attempts: 1, last_status_code: 200, event_type: 'publication.published' },
    ]);
  });

  it('never sends one delivery twice with two dispatchers at once', async () => {
    const hook = await webhook('/replicas');
    for (let index = 0; index < 40; index++) await event(RENDITION_PUBLISHED_SUBJECT, { publication_id: uuidv7() });
    startDispatcher();
    startDispatcher();
    await until(async () => (await deliveries(hook.id)).every((d) => d.status === 'succeeded'));
    const ids = requestsTo('/replicas').map((request) => String(request.headers['webhook-id']));
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });

  it('gives a failing delivery up after its attempts, and deactivates the webhook once failures last long enough', async () => {
    const hook = await webhook('/down');
    scripts.set('/down', Array<number>(20).fill(500));
    await event(RENDITION_PUBLISHED_SUBJECT);
    startDispatcher({ WEBHOOK_DEACTIVATE_AFTER_MS: 250 });
    await until(async () => (await dataSource.query(`SELECT active FROM webhooks WHERE id = $1`, [hook.id]))[0].active === false);
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'failed', last_status_code: 500 });
    expect(delivery.attempts).toBeLessThan(8);
    const outbox = await dataSource.query(`SELECT subject, payload FROM outbox_events`);
    expect(outbox).toEqual([
      { subject: WEBHOOK_DEACTIVATED_SUBJECT, payload: expect.objectContaining({ webhook_id: hook.id, workspace_id: workspaceId }) },
    ]);
  });

  it('fails a delivery for good after 8 attempts', async () => {
    const hook = await webhook('/gone');
    scripts.set('/gone', Array<number>(20).fill(503));
    await event(RENDITION_PUBLISHED_SUBJECT);
    startDispatcher();
    await until(async () => (await deliveries(hook.id))[0].status === 'failed');
    expect(await deliveries(hook.id)).toEqual([
      { status: 'failed', attempts: 8, last_status_code: 503, event_type: 'rendition.published' },
    ]);
    expect(requestsTo('/gone')).toHaveLength(8);
  });
});
