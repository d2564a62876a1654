/**
 * The image editor's figures (issue 13): `GET /image-editor/templates?workspace_id=`
 * (the built-in set plus 20 workspace templates) under load, req/s and latency;
 * and the export of a 1080×1080 page (gradient background, shapes, three text
 * layers) to a PNG media item, one at a time, p50 and p99. Each export renders
 * a design of its own (different text), so every one stores new bytes rather
 * than deduplicating.
 */
import autocannon from 'autocannon';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);
export const EXPORTS = Number(process.env.BENCH_EXPORTS ?? 40);
const WORKSPACE_TEMPLATES = 20;

export interface CreativeTemplatesFigures {
  templates: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface CreativeExportFigures {
  exports: number;
  width: number;
  height: number;
  p50Ms: number;
  p99Ms: number;
  meanBytes: number;
  failures: number;
}

async function api<T>(baseUrl: string, token: string, method: string, path: string, body: object, expected: number): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status} (expected ${expected}): ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** A 1080×1080 page with a gradient, shapes and text: what a social post looks like. */
export function squareDocument(label: string): object {
  return {
    width_px: 1080,
    height_px: 1080,
    preset_key: 'instagram-square',
    pages: [
      {
        id: 'page-1',
        background: {
          type: 'gradient',
          gradient: {
            type: 'linear',
            stops: [
              { color: '#1d4ed8', offset: 0 },
              { color: '#9333ea', offset: 1 },
            ],
          },
        },
        layers: [
          {
            id: 'card',
            type: 'shape',
            transform: { x: 90, y: 240, width: 900, height: 600 },
            shape: { kind: 'rectangle', fill: '#ffffff', radius: 48 },
            effects: { drop_shadow: { color: 'rgba(0,0,0,0.35)', blur: 40, distance: 16, angle: 90 } },
          },
          { id: 'dot', type: 'shape', transform: { x: 880, y: 120, width: 120, height: 120 }, shape: { kind: 'ellipse', fill: '#facc15' } },
          {
            id: 'title',
            type: 'text',
            transform: { x: 150, y: 300, width: 780, height: 200 },
            text: { text: `Five things we shipped ${label}`, color: '#111827', font_size: 72, font_weight: 700 },
          },
          {
            id: 'body',
            type: 'text',
            transform: { x: 150, y: 560, width: 780, height: 200 },
            text: { text: 'And what we learned from each of them, in one thread.', color: '#374151', font_size: 40 },
          },
          {
            id: 'cta',
            type: 'text',
            transform: { x: 90, y: 920, width: 900, height: 80 },
            text: { text: 'Read more →', color: '#ffffff', font_size: 48, align: 'center' },
          },
        ],
      },
    ],
  };
}

export async function benchCreativeTemplates(baseUrl: string, token: string, workspaceId: string): Promise<CreativeTemplatesFigures> {
  for (let i = 0; i < WORKSPACE_TEMPLATES; i += 1) {
    await api(
      baseUrl,
      token,
      'POST',
      '/image-editor/templates',
      { workspace_id: workspaceId, name: `Bench ${i}`, category: 'bench', document: squareDocument(`#${i}`) },
      201,
    );
  }
  const url = `${baseUrl}/image-editor/templates?workspace_id=${workspaceId}`;
  const headers = { authorization: `Bearer ${token}` };
  const probe = await fetch(url, { headers });
  const listed = (await probe.json()) as { templates?: unknown[] };
  if (probe.status !== 200) throw new Error(`GET /image-editor/templates answered ${probe.status}`);
  if (WARMUP_S > 0) await autocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP_S });
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  return {
    templates: listed.templates?.length ?? 0,
    reqPerSec: r.requests.mean,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function benchCreativeExport(baseUrl: string, token: string, workspaceId: string): Promise<CreativeExportFigures> {
  const designs: string[] = [];
  for (let i = 0; i < EXPORTS + 3; i += 1) {
    const design = await api<{ id: string }>(
      baseUrl,
      token,
      'POST',
      '/image-editor/designs',
      { workspace_id: workspaceId, name: `Export ${i}`, document: squareDocument(`run ${Date.now()}-${i}`) },
      201,
    );
    designs.push(design.id);
  }
  const times: number[] = [];
  let bytes = 0;
  let failures = 0;
  for (const [index, id] of designs.entries()) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/image-editor/designs/${id}/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'png' }),
    });
    const item = (await res.json()) as { size?: number; width?: number };
    const ms = performance.now() - started;
    if (res.status !== 201 || item.width !== 1080) {
      failures += 1;
      continue;
    }
    // The first three warm the worker code, the font and the pools.
    if (index < 3) continue;
    times.push(ms);
    bytes += item.size ?? 0;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    exports: times.length,
    width: 1080,
    height: 1080,
    p50Ms: sorted.length ? percentile(sorted, 50) : 0,
    p99Ms: sorted.length ? percentile(sorted, 99) : 0,
    meanBytes: times.length ? Math.round(bytes / times.length) : 0,
    failures,
  };
}
