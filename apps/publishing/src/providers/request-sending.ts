import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';

/**
 * Whether a request reached the network: Node's fetch (undici) publishes
 * `undici:request:create` when it creates a request (in the caller's async
 * context) and `undici:client:sendHeaders` when it writes its headers to a
 * socket. A call that failed before its headers left (refused connection,
 * DNS, TLS, a connect or handshake that outlived the time limit) created
 * nothing at the network, so delivery may simply try again; after, the
 * outcome is unknown.
 */
interface Tracked {
  requests: object[];
}

const calls = new AsyncLocalStorage<Tracked>();
const sentRequests = new WeakSet<object>();
// Held in module constants: a channel referenced only through its subscriber may be collected, silencing it.
const requestCreated = diagnostics.channel('undici:request:create');
const headersSent = diagnostics.channel('undici:client:sendHeaders');
requestCreated.subscribe((message) => {
  const request = (message as { request?: object }).request;
  if (request) calls.getStore()?.requests.push(request);
});
headersSent.subscribe((message) => {
  const request = (message as { request?: object }).request;
  if (request) sentRequests.add(request);
});

export interface SendingTracker {
  run<T>(call: () => Promise<T>): Promise<T>;
  /**
   * true once a request of the call wrote its headers, false when none
   * did, undefined when no request was seen (a fetch that is not Node's).
   */
  sent(): boolean | undefined;
}

export function trackSending(): SendingTracker {
  const tracked: Tracked = { requests: [] };
  return {
    run: (call) => calls.run(tracked, call),
    sent: () => (tracked.requests.length === 0 ? undefined : tracked.requests.some((request) => sentRequests.has(request))),
  };
}
