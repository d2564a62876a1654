import { createServer, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as the apps exported it (OTLP/JSON), with its resource's service.name. */
export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

export interface OtlpCollector {
  /** Give to OTEL_EXPORTER_OTLP_ENDPOINT (the apps post to `<endpoint>/v1/traces`). */
  endpoint: string;
  spans: CollectedSpan[];
  /** Requests refused because they were not OTLP/JSON trace exports (should stay empty). */
  refused: string[];
  stop(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: Array<Omit<CollectedSpan, 'service' | 'attributes'> & { attributes?: OtlpAttribute[] }> }>;
  }>;
}

const valueOf = (value: OtlpValue): unknown => value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
const attributesOf = (attributes: OtlpAttribute[] = []) => Object.fromEntries(attributes.map((a) => [a.key, valueOf(a.value)]));

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

/**
 * An in-process OTLP/HTTP trace receiver: POST /v1/traces in JSON (what
 * @opentelemetry/exporter-trace-otlp-http sends), kept as flat spans.
 */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const refused: string[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const type = request.headers['content-type'] ?? '';
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !type.startsWith('application/json')) {
        refused.push(`${request.method} ${request.url} (${type})`);
        response.writeHead(415).end();
        return;
      }
      const exported = JSON.parse(body.toString('utf8')) as OtlpExport;
      for (const resourceSpans of exported.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              status: span.status,
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    })().catch(() => response.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    refused,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
