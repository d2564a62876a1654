import { connect, NatsConnection } from '@nats-io/transport-node';
import { PrivateNats, startPrivateNats } from '@social/testing';
import { askEach, RpcClient } from '../index.js';

describe('askEach', () => {
  let nats: PrivateNats;
  let nc: NatsConnection;

  beforeAll(async () => {
    nats = await startPrivateNats();
    nc = await connect({ servers: nats.url });
    // "fast" answers in Nest's wire format; "silent" is subscribed but never answers; "absent" has no subscriber.
    nc.subscribe('fast.work.count', {
      callback: (_error, message) => {
        message.respond(JSON.stringify({ response: { pending: 3 }, id: 'x' }));
      },
    });
    nc.subscribe('silent.work.count', { callback: () => undefined });
    nc.subscribe('failing.work.count', {
      callback: (_error, message) => {
        message.respond(JSON.stringify({ err: { status: 500, code: 'internal_error', detail: 'x' }, id: 'x' }));
      },
    });
    await nc.flush();
  });

  afterAll(async () => {
    await nc?.close();
    await nats?.stop();
  });

  it('collects the answers in time and names every service that did not answer, within one deadline', async () => {
    const rpc = new RpcClient(nc, 5_000);
    const started = Date.now();
    const result = await askEach<{ pending: number }>(
      rpc,
      ['fast', 'silent', 'absent', 'failing'],
      (service) => `${service}.work.count`,
      { workspace_ids: [] },
      300,
    );
    const elapsed = Date.now() - started;
    expect([...result.answers]).toEqual([['fast', { pending: 3 }]]);
    expect(result.unanswered.sort()).toEqual(['absent', 'failing', 'silent']);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
  });
});
