/**
 * `import '@social/platform/tracing'`: the FIRST import of every app's main.ts. ESM evaluates imports in order,
 * and this one starts the SDK synchronously (when OTEL_EXPORTER_OTLP_ENDPOINT is set), so it runs before
 * fastify, http or pg are loaded. Imports only `tracing.ts`, never the platform index.
 */
import { startTracing } from './tracing.js';

startTracing();
