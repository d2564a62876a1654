import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { Problem, RpcClient } from '@social/platform';

/**
 * What the gateway's RPC client turns transport failures into, against the
 * suite's real nats-server: no service listening is 503, a silent one 504,
 * both with Retry-After, and never a hang.
 */
describe('RPC client over real NATS', () => {
  let nc: NatsConnection;
  let client: RpcClient;

  beforeAll(async () => {
    nc = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
    client = new RpcClient(nc, 300);
  });

  afterAll(async () => {
    await nc.drain();
  });

  async function failure(run: Promise<unknown>): Promise<Problem> {
    try {
      await run;
    } catch (error) {
      if (error instanceof Problem) return error;
      throw error;
    }
    throw new Error('expected a problem');
  }

  it('answers 503 at once when no service listens on the subject', async () => {
    const started = Date.now();
    const problem = await failure(client.send('nobody.listens.here', {}, { requestId: 't1', timeoutMs: 5_000 }));
    expect(problem.status).toBe(503);
    expect(problem.code).toBe('service_unavailable');
    expect(problem.options.retryAfter).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 504 when the service does not reply in time', async () => {
    const silent = nc.subscribe('silent.service.verb', { callback: () => undefined });
    const started = Date.now();
    const problem = await failure(client.send('silent.service.verb', {}, { requestId: 't2' }));
    silent.unsubscribe();
    expect(problem.status).toBe(504);
    expect(problem.code).toBe('upstream_timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('passes a service problem through and carries the request id header', async () => {
    const seen: string[] = [];
    const service = nc.subscribe('echo.service.verb', {
      callback: (_error, msg) => {
        seen.push(msg.headers?.get('x-request-id') ?? '');
        const { id } = msg.json<{ id: string }>();
        msg.respond(
          JSON.stringify({ id, err: { status: 409, code: 'revision_conflict', detail: 'stale', extensions: { current_revision: 3 } } }),
        );
      },
    });
    const problem = await failure(client.send('echo.service.verb', {}, { requestId: 'req-42' }));
    service.unsubscribe();
    expect(seen).toEqual(['req-42']);
    expect(problem.status).toBe(409);
    expect(problem.options.extensions).toEqual({ current_revision: 3 });
  });

  it('matches each reply to its request on the one inbox: concurrent requests, and a late reply dropped', async () => {
    let delayFirst = true;
    const service = nc.subscribe('numbers.service.double', {
      callback: (_error, msg) => {
        const { id, data } = msg.json<{ id: string; data: { n: number } }>();
        const answer = () => msg.respond(JSON.stringify({ id, isDisposed: true, response: { doubled: data.n * 2 } }));
        if (data.n === -1 && delayFirst) {
          delayFirst = false;
          setTimeout(answer, 500); // past the client's 300 ms
        } else setTimeout(answer, Math.random() * 20);
      },
    });
    const late = await failure(client.send('numbers.service.double', { n: -1 }, { requestId: 'late' }));
    expect(late.status).toBe(504);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) => client.send<{ doubled: number }>('numbers.service.double', { n }, { requestId: `n${n}` })),
    );
    // The late reply (to -1) arrived meanwhile and went to nobody.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await client.send('numbers.service.double', { n: 21 }, { requestId: 'after' })).toEqual({ doubled: 42 });
    service.unsubscribe();
    expect(answers.map((answer) => answer.doubled)).toEqual(Array.from({ length: 50 }, (_, n) => n * 2));
  });

  it('a closed connection is 503 at once, never a hang', async () => {
    const own = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
    const ownClient = new RpcClient(own, 5_000);
    const silent = own.subscribe('silent.until.closed', { callback: () => undefined });
    const waiting = failure(ownClient.send('silent.until.closed', {}, { requestId: 'c1' }));
    await own.flush();
    const started = Date.now();
    await own.close();
    expect((await waiting).status).toBe(503);
    expect((await failure(ownClient.send('silent.until.closed', {}, { requestId: 'c2' }))).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(silent.isClosed()).toBe(true);
  });
});
