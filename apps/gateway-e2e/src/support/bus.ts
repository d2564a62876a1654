import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { CALLER_TOKEN_HEADER, type Principal } from '@social/contracts';
import { CallerTokenSigner, Problem, RpcClient } from '@social/platform';
import { randomUUID } from 'node:crypto';

let signer: CallerTokenSigner | undefined;

/** A caller token as a platform process (`caller`) signs it, with the suites' key pair. */
export async function callerToken(principal: Principal | null, caller = 'e2e'): Promise<string> {
  signer ??= CallerTokenSigner.fromPem(process.env.E2E_JWT_PRIVATE_KEY!, caller);
  return signer.tokenFor(principal);
}

/**
 * One raw request in Nest's wire format, straight to a service over the
 * suites' NATS. `token`: the caller token to send (`callerToken(...)` for a
 * trusted caller, anything else to attack with); none when omitted.
 */
export async function busRequest(
  nc: NatsConnection,
  pattern: string,
  data: unknown,
  token?: string,
): Promise<{ response?: any; err?: any }> {
  const h = natsHeaders();
  if (token !== undefined) h.set(CALLER_TOKEN_HEADER, token);
  const message = await nc.request(pattern, JSON.stringify({ pattern, data, id: randomUUID() }), { timeout: 5_000, headers: h });
  return message.json();
}

/** A request as a trusted platform process sends it: signed for the principal the envelope names (or none). */
export async function trustedBusRequest(nc: NatsConnection, pattern: string, data: unknown): Promise<{ response?: any; err?: any }> {
  const principal =
    typeof data === 'object' && data !== null && 'principal' in data ? ((data as { principal: Principal | null }).principal ?? null) : null;
  return busRequest(nc, pattern, data, await callerToken(principal));
}

/**
 * Service-to-service subjects asked straight over the suites' NATS,
 * signed as service `caller` signs them (none is reachable over HTTP).
 */
export interface ServiceRpc {
  /** The answer; a problem answer rejects with the Problem. */
  ask<T = any>(pattern: string, payload: unknown): Promise<T>;
  /** The Problem a request is answered with (fails the test when it succeeds). */
  problem(pattern: string, payload: unknown): Promise<Problem>;
  close(): Promise<void>;
}

export async function serviceRpc(caller: string): Promise<ServiceRpc> {
  const nc: NatsConnection = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  const client = new RpcClient(nc, 10_000, undefined, CallerTokenSigner.fromPem(process.env.E2E_JWT_PRIVATE_KEY!, caller));
  const ask = <T>(pattern: string, payload: unknown) =>
    client.send<T>(pattern, payload as object, { requestId: `e2e-${caller}-${Date.now()}` });
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
    close: () => nc.drain(),
  };
}
