import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PrivateNats, startPrivateNats, waitFor } from '@social/testing';
import { sendOversized } from '../support/api.js';
import { GatewayReplica, startGatewayReplica } from '../support/gateway-replica.js';

/**
 * A gateway connected to a NATS server with nats-server's default 1 MiB max_payload (not the 8 MiB the
 * platform configures): document routes take only what fits a message, with a warning naming
 * max_payload, and answer a clear 413 beyond; other JSON routes keep their 1 MiB. No service runs
 * there, so a body the gateway takes is then refused by authentication (401), never by size.
 */
const MiB = 1024 * 1024;
/** 1 MiB less the 64 KiB the gateway keeps for the RPC envelope (apps/gateway/src/http/body-limits.ts). */
const LOWERED = MiB - 64 * 1024;

let nats: PrivateNats;
let gateway: GatewayReplica;

beforeAll(async () => {
  nats = await startPrivateNats(undefined, { maxPayload: '1MB' });
  gateway = await startGatewayReplica({ natsUrl: nats.url, waitFor: '/health', captureLogs: true }).catch(async (error) => {
    await nats.stop();
    throw error;
  });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await nats?.stop();
});

/** A body of `bytes` (JSON padded with whitespace), sent without a token: whole, or (`over`) only its head and start. */
async function post(path: string, bytes: number, over = false): Promise<{ status: number; body: any }> {
  const json = JSON.stringify({ workspace_id: '00000000-0000-7000-8000-000000000000', name: 'x', document: { padding: '' } });
  const body = json + ' '.repeat(bytes - json.length);
  if (over) {
    const { status, problem } = await sendOversized(gateway.baseUrl, 'POST', path, undefined, body);
    return { status, body: problem };
  }
  const response = await fetch(`${gateway.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, body: await response.json() };
}

describe('a gateway on a NATS server with a 1 MiB max_payload', () => {
  it('warns, naming max_payload and the lowered document limit', async () => {
    const warnings = () =>
      gateway
        .logs()
        .split('\n')
        .filter((line) => line.includes('max_payload'))
        .map((line) => JSON.parse(line));
    // Log lines are written in batches, at most 100 ms after they are logged (libs/platform's logger).
    await waitFor('the max_payload warning', async () => warnings().length > 0, 5_000, 50);
    expect(warnings()).toEqual([expect.objectContaining({ max_payload: MiB, document_body_limit_bytes: LOWERED, configured: 5 * MiB })]);
  });

  it('takes document bodies up to what fits a message and answers 413 beyond', async () => {
    for (const path of ['/video-projects', '/image-editor/designs', '/image-editor/templates']) {
      expect(await post(path, LOWERED)).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
      expect(await post(path, LOWERED + 1, true)).toMatchObject({ status: 413, body: { status: 413, code: 'body_too_large' } });
      expect(await post(path, 2 * MiB, true)).toMatchObject({ status: 413, body: { code: 'body_too_large' } });
    }
  });

  it('keeps 1 MiB on every other JSON route', async () => {
    expect(await post('/publications', MiB)).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    expect(await post('/publications', MiB + 1, true)).toMatchObject({ status: 413, body: { code: 'body_too_large' } });
  });
});
