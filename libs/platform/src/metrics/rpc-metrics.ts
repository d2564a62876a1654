import { databaseProblem } from '../problems/database-errors.js';
import { Problem } from '../problems/problem.js';
import type { Metrics } from './metrics.js';

/** How a handled message ended: answered, a problem for the caller (4xx), or a fault of ours (5xx, a bug). */
export type RpcServerOutcome = 'ok' | 'problem' | 'error';
/** How a call ended for the caller: answered, a problem reply, no answer in time, nobody there (or no broker). */
export type RpcClientOutcome = 'ok' | 'problem' | 'timeout' | 'unavailable';

/** What a handler threw, as the filter will render it (Problems as they are, database refusals by their status, the rest 500). */
export function rpcServerOutcome(exception: unknown): RpcServerOutcome {
  const status = exception instanceof Problem ? exception.status : (databaseProblem(exception)?.status ?? 500);
  return status >= 500 ? 'error' : 'problem';
}

/** Handled messages by pattern (the NATS subject: a fixed set per service) and outcome. */
export function rpcServerMetrics(metrics: Metrics) {
  const duration = metrics.histogram('rpc_server_duration_seconds', 'Time to handle one NATS request, by pattern and outcome.', [
    'pattern',
    'outcome',
  ]);
  const errors = metrics.counter('rpc_server_errors_total', 'Requests whose handler failed with a server error (5xx), by pattern.', [
    'pattern',
  ]);
  return {
    observe(pattern: string, outcome: RpcServerOutcome, seconds: number): void {
      duration.observe({ pattern, outcome }, seconds);
      if (outcome === 'error') errors.inc({ pattern });
    },
  };
}

/** Calls made through `RpcClient`, by pattern and outcome. */
export function rpcClientMetrics(metrics: Metrics) {
  const duration = metrics.histogram(
    'rpc_client_duration_seconds',
    'Time from request to reply of an outgoing NATS call, by pattern and outcome.',
    ['pattern', 'outcome'],
  );
  return {
    observe(pattern: string, outcome: RpcClientOutcome, seconds: number): void {
      duration.observe({ pattern, outcome }, seconds);
    },
  };
}

export type RpcClientMetrics = ReturnType<typeof rpcClientMetrics>;
