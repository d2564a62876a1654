import { errors, headers as natsHeaders, NatsConnection } from '@nats-io/transport-node';
import { CALLER_TOKEN_HEADER, REQUEST_ID_HEADER, RpcRequest } from '@social/contracts';
import { type CallerTokenSigner, principalOfPayload } from '../access/caller-token.js';
import { requestContext } from '../logging/logger.js';
import type { RpcClientMetrics, RpcClientOutcome } from '../metrics/rpc-metrics.js';
import { Problem, problems } from '../problems/problem.js';
import { inRpcClientSpan } from '../tracing/rpc-tracing.js';
import { responseBytes } from './reply-envelope.js';
import { ReplyInbox } from './reply-inbox.js';

export interface RpcSendOptions {
  requestId?: string;
  timeoutMs?: number;
}

interface NestReply {
  response?: unknown;
  err?: unknown;
}

/**
 * Request/reply over NATS in the wire format of Nest's NATS transport
 * (`{pattern, data, id}` → `{response | err, id}`), every reply on one inbox
 * subscription (ReplyInbox): no per-request subscription as Nest's client makes.
 * Service problems come back as `Problem`s; a missing service is 503 and a slow
 * one 504, so a caller never hangs.
 */
export class RpcClient {
  private readonly replies: ReplyInbox;

  constructor(
    nc: NatsConnection,
    private readonly defaultTimeoutMs: number,
    /** Latency by pattern and outcome (`rpcClientMetrics`); none in tests and tools. */
    private readonly metrics?: RpcClientMetrics,
    /** Signs the caller token every request carries (services refuse requests without one). */
    private readonly signer?: CallerTokenSigner,
  ) {
    this.replies = new ReplyInbox(nc);
  }

  /** `requestId` defaults to the one of the request being served (services asking each other). */
  send<T>(pattern: string, data: RpcRequest | object, options: RpcSendOptions = {}): Promise<T> {
    return this.exchange(pattern, data, options, (reply) => this.answerOf<T>(reply));
  }

  /**
   * Like `send`, for an answer the caller only passes on: the answer's JSON bytes as the service wrote them, not
   * parsed (a page of publications is ~50 KB: parsing and serializing it again was a tenth of the gateway's CPU).
   */
  sendForBytes(pattern: string, data: RpcRequest | object, options: RpcSendOptions = {}): Promise<Uint8Array> {
    return this.exchange(pattern, data, options, (reply) => responseBytes(reply) ?? Buffer.from(JSON.stringify(this.answerOf(reply))));
  }

  private exchange<T>(pattern: string, data: RpcRequest | object, options: RpcSendOptions, read: (reply: Uint8Array) => T): Promise<T> {
    const h = natsHeaders();
    // A CLIENT span around the request; its traceparent rides in the headers.
    return inRpcClientSpan(pattern, h, () => this.request<T>(pattern, data, h, options, read));
  }

  private async request<T>(
    pattern: string,
    data: RpcRequest | object,
    h: ReturnType<typeof natsHeaders>,
    options: RpcSendOptions,
    read: (reply: Uint8Array) => T,
  ): Promise<T> {
    const requestId = options.requestId ?? requestContext.getStore()?.requestId ?? 'internal';
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    h.set(REQUEST_ID_HEADER, requestId);
    const started = performance.now();
    if (this.signer) h.set(CALLER_TOKEN_HEADER, await this.signer.tokenFor(principalOfPayload(data)));
    const done = (outcome: RpcClientOutcome) => this.metrics?.observe(pattern, outcome, (performance.now() - started) / 1000);
    let reply: Uint8Array;
    try {
      const msg = await this.replies.request(pattern, JSON.stringify({ pattern, data, id: requestId }), {
        timeout: timeoutMs,
        headers: h,
      });
      reply = msg.data;
    } catch (error) {
      const problem = this.transportProblem(error);
      done(problem.status === 504 ? 'timeout' : problem.status === 503 ? 'unavailable' : 'problem');
      throw problem;
    }
    try {
      const answer = read(reply);
      done('ok');
      return answer;
    } catch (error) {
      done('problem');
      throw error;
    }
  }

  /** The reply's `response`, or the service's problem thrown. */
  private answerOf<T>(reply: Uint8Array): T {
    const { response, err } = JSON.parse(Buffer.from(reply.buffer, reply.byteOffset, reply.length).toString()) as NestReply;
    if (err !== undefined && err !== null) throw Problem.isPayload(err) ? Problem.fromPayload(err) : problems.internal();
    return response as T;
  }

  private transportProblem(error: unknown): Problem {
    // The request is larger than the server's max_payload (a body whose JSON grew when re-encoded, a
    // server configured below the platform's 8 MiB): the same answer as a body over the HTTP limit.
    if (error instanceof errors.InvalidArgumentError && error.message.includes('max_payload')) {
      return new Problem(413, 'body_too_large', 'The request body is larger than allowed.');
    }
    const isNoResponders = error instanceof errors.NoRespondersError || (error instanceof errors.RequestError && error.isNoResponders());
    if (isNoResponders) {
      return problems.unavailable('service_unavailable', 'A service needed for this request is not available; try again shortly.');
    }
    if (error instanceof errors.TimeoutError || (error instanceof errors.RequestError && error.cause instanceof errors.TimeoutError)) {
      return problems.timeout('A service needed for this request did not answer in time; try again shortly.');
    }
    return problems.unavailable('messaging_unavailable', 'The message broker is not reachable; try again shortly.');
  }
}
