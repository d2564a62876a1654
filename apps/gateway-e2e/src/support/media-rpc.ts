import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MediaPatterns } from '@social/contracts';
import { Problem, RpcClient } from '@social/platform';

/**
 * Media's service-to-service subjects (media.library.resolve, media.public-urls.issue), asked
 * straight over the suite's NATS as publishing asks them: none is reachable over HTTP.
 */
export interface MediaRpc {
  ask<T = any>(pattern: string, payload: unknown): Promise<T>;
  /** The Problem a request is answered with (fails the test when it succeeds). */
  problem(pattern: string, payload: unknown): Promise<Problem>;
  resolve(workspaceId: string, mediaIds: string[]): Promise<any[]>;
  close(): Promise<void>;
}

export async function mediaRpc(): Promise<MediaRpc> {
  const nc: NatsConnection = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  const client = new RpcClient(nc, 10_000);
  const ask = <T>(pattern: string, payload: unknown) => client.send<T>(pattern, payload as object, { requestId: `e2e-media-${Date.now()}` });
  return {
    ask,
    async problem(pattern, payload) {
      const outcome = await ask(pattern, payload).then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
      if (!('error' in outcome)) throw new Error(`expected a problem, got ${JSON.stringify(outcome.answer)}`);
      if (!(outcome.error instanceof Problem)) throw outcome.error;
      return outcome.error;
    },
    async resolve(workspaceId, mediaIds) {
      const answer = await ask<{ items: any[] }>(MediaPatterns.resolveMedia, { workspace_id: workspaceId, media_ids: mediaIds });
      return answer.items;
    },
    close: () => nc.drain(),
  };
}

/** Where the `moov` box sits among the top-level boxes of an MP4 ('first' before `mdat`, 'last' after it). */
export function moovPosition(bytes: Buffer): 'first' | 'last' {
  const order: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = bytes.readUInt32BE(at);
    order.push(bytes.toString('latin1', at + 4, at + 8));
    if (size < 8) break;
    at += size;
  }
  return order.indexOf('moov') < order.indexOf('mdat') ? 'first' : 'last';
}
