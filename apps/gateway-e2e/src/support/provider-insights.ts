import { serviceRpc, type ServiceRpc } from './bus.js';
import { type StreamEvent, streamEvents } from './stream-events.js';

/**
 * Insights' side of the internal provider calls (issue 15): requests straight
 * to publishing over the suite's NATS, signed as the insights service signs them.
 */
export type PublishingRpc = ServiceRpc;
export const publishingRpc = (): Promise<PublishingRpc> => serviceRpc('insights');

export type AccountEvent = StreamEvent;

/** Every `durable.publishing.account.*` event in the stream naming one of these accounts. */
export const accountEvents = (accountIds: string[]): Promise<AccountEvent[]> =>
  streamEvents('durable.publishing.account.>', 'social_account_id', accountIds);
