import { context } from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';

/** What a started SDK gives back: a flush-and-stop for shutdown. */
export interface RunningTracing {
  serviceName: string;
  shutdown(): Promise<void>;
}

/** How long shutdown waits for the last spans to reach the collector: a dead collector never holds a stop. */
const FLUSH_TIMEOUT_MS = 3_000;

/** Health, readiness and metrics probes come every few seconds: spans for them would bury real traffic. */
const PROBE_PATH = /^\/(health|ready|metrics)?\/?(\?|$)/;

/**
 * The app's name for `service.name`: OTEL_SERVICE_NAME if set, else the folder the entry script runs from
 * (every app starts as `node apps/<app>/dist/main.js`: stack, Dockerfile, dev runner).
 */
export function tracingServiceName(env: NodeJS.ProcessEnv = process.env, entry = process.argv[1] ?? ''): string {
  const configured = env.OTEL_SERVICE_NAME?.trim();
  if (configured) return configured;
  return /apps[\\/]([^\\/]+)[\\/]dist[\\/]main\.js$/.exec(entry)?.[1] ?? 'social-platform';
}

let running: RunningTracing | undefined;
/** @opentelemetry/core as the instrumentations load it, once tracing runs. */
let otelCore: typeof import('@opentelemetry/core') | undefined;

/**
 * Starts OpenTelemetry (traces only: OTLP/HTTP to `${OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`, the http and pg
 * instrumentations, W3C trace context) when OTEL_EXPORTER_OTLP_ENDPOINT is set. Otherwise it loads nothing:
 * no SDK, no module patching, and `@opentelemetry/api` calls stay no-ops.
 *
 * Must run before fastify, http or pg are loaded (the instrumentations patch them as they are required):
 * see `start.ts`, the first import of every app's main.ts. Synchronous on purpose: ESM does not hold the
 * next import of main.ts while an imported module awaits, so the SDK is loaded with `require` (the packages
 * ship CommonJS too; @opentelemetry/api keeps its state in one global, shared by both module formats).
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): RunningTracing | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint || running) return running;
  const require = createRequire(import.meta.url);
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  otelCore = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { W3CTraceContextPropagator } = otelCore;
  const serviceName = tracingServiceName(env);
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    textMapPropagator: new W3CTraceContextPropagator(),
    // Traces only: metrics are prom-client's (METRICS_PORT), and logs go to stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => PROBE_PATH.test(request.url ?? '/'),
        // Background calls outside any request (provider polls, S3 sweeps) would each be a trace of one span.
        requireParentforOutgoingSpans: true,
      }),
      // Workers poll the database every few hundred ms; only SQL inside a traced request or message is kept.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  running = { serviceName, shutdown: () => flush(sdk) };
  flushOnSignals(running);
  return running;
}

/**
 * Names the current HTTP server span after its route (`GET /media/:id`, attribute http.route) instead of the
 * bare method: called by the gateway once fastify has matched the route. A no-op without tracing.
 */
export function recordHttpRoute(route: string | undefined): void {
  if (!otelCore || !route) return;
  const metadata = otelCore.getRPCMetadata(context.active());
  if (metadata?.type === otelCore.RPCType.HTTP) metadata.route = route;
}

async function flush(sdk: { shutdown(): Promise<void> }): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
  });
  await Promise.race([sdk.shutdown().catch(() => undefined), timeout]);
  clearTimeout(timer);
}

/**
 * Flushes the last spans when the process stops. Nest (enableShutdownHooks) closes the app on SIGTERM and
 * then re-raises the signal once its own listener is gone: this listener acts only when it is the last one
 * left (that re-raised signal, or a signal before Nest listens), flushes, then lets the signal end the process.
 */
function flushOnSignals(tracing: RunningTracing): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const onSignal = () => {
      if (stopping || process.listenerCount(signal) > 1) return;
      stopping = true;
      void tracing.shutdown().finally(() => {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      });
    };
    process.on(signal, onSignal);
  }
  process.once('beforeExit', () => void tracing.shutdown());
}
