import { expect } from '@jest/globals';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
const SAMPLE_LINE = new RegExp(`^(${METRIC_NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (\\S+)(?: -?\\d+)?$`);
const COMMENT_LINE = new RegExp(`^# (?:HELP ${METRIC_NAME} .*|TYPE ${METRIC_NAME} (?:counter|gauge|histogram|summary|untyped))$`);

/** The Prometheus text format (0.0.4), strictly: a line that is neither a comment, a sample nor empty throws. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || COMMENT_LINE.test(line)) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not Prometheus text format: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? '').matchAll(new RegExp(LABEL, 'g'))) {
      labels[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: match[1], labels, value: sampleValue(match[match.length - 1], line) });
  }
  return samples;
}

/** A float as Prometheus reads it (Go's ParseFloat: NaN and ±Inf in any case; prom-client writes `Nan`). */
function sampleValue(text: string, line: string): number {
  if (/^nan$/i.test(text)) return NaN;
  const infinite = /^([+-]?)inf(inity)?$/i.exec(text);
  if (infinite) return infinite[1] === '-' ? -Infinity : Infinity;
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`not a sample value: ${JSON.stringify(line)}`);
  return value;
}

/** Each app's metrics port, as global setup started the stack. */
export function metricsPort(app: string): number {
  const ports = JSON.parse(process.env.E2E_METRICS_PORTS ?? '{}') as Record<string, number>;
  const port = ports[app];
  if (!port) throw new Error(`no metrics port for ${app} (E2E_METRICS_PORTS)`);
  return port;
}

/** One scrape of an app's /metrics: 200, the Prometheus content type, parsed. */
export async function scrape(app: string): Promise<Sample[]> {
  const response = await fetch(`http://127.0.0.1:${metricsPort(app)}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await response.text());
}

/** The samples named `name` whose labels include `labels`. */
export const series = (samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));

/** The sum of those samples; 0 when there are none (a counter not yet incremented). */
export const total = (samples: Sample[], name: string, labels: Record<string, string> = {}): number =>
  series(samples, name, labels).reduce((sum, sample) => sum + sample.value, 0);
