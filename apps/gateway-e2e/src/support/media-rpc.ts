import { MediaPatterns } from '@social/contracts';
import { serviceRpc, type ServiceRpc } from './bus.js';

/**
 * Media's service-to-service subjects (media.library.resolve, media.public-urls.issue), asked
 * straight over the suite's NATS as publishing asks them (signed as publishing): none is reachable over HTTP.
 */
export interface MediaRpc extends ServiceRpc {
  resolve(workspaceId: string, mediaIds: string[]): Promise<any[]>;
}

export async function mediaRpc(): Promise<MediaRpc> {
  const rpc = await serviceRpc('publishing');
  return {
    ...rpc,
    async resolve(workspaceId, mediaIds) {
      const answer = await rpc.ask<{ items: any[] }>(MediaPatterns.resolveMedia, { workspace_id: workspaceId, media_ids: mediaIds });
      return answer.items;
    },
  };
}

/** Where the `moov` box sits among the top-level boxes of an MP4 ('first' before `mdat`, 'last' after it). */
export function moovPosition(bytes: Buffer): 'first' | 'last' {
  const order: string[] = [];
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32BE(at);
    order.push(bytes.toString('latin1', at + 4, at + 8));
    if (size < 8) break;
    at += size;
  }
  return order.indexOf('moov') < order.indexOf('mdat') ? 'first' : 'last';
}
