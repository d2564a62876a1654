/**
 * Video projects under load (issue 13): `PUT /video-projects/{id}` with a
 * 200 KB document. Each connection replaces its own project in a loop, sending
 * the head it was answered last as `expected_head_revision`, so every request
 * is a real new head revision (a revision row of 200 KB each); a 409 would be
 * a lost update and counts as a failure. Reports req/s, p50 and p99.
 * Issue 22: the document is checked once (at the gateway) and crosses NATS once per write; the
 * current figure is in docs/performance.md.
 */

const KB = 1024;
export const DOCUMENT_BYTES = 200 * KB;

export interface CreativeVideoFigures {
  connections: number;
  durationS: number;
  documentBytes: number;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  failures: Record<string, number>;
}

/**
 * A document of at least `bytes` of JSON: a text track of 100 ms captions (documents are the
 * client's own JSON, issue 22; this one is shaped like an editor's timeline).
 */
export function videoDocumentOf(bytes: number): object {
  const clips: object[] = [];
  const sentence =
    'Five things we shipped this week, and what we learned from each of them: fewer hops, smaller pages, and boring technology. ';
  // Longer captions for larger documents: a track holds at most 2,000 clips.
  const caption = sentence.repeat(Math.max(1, Math.floor(bytes / 1_500 / sentence.length)));
  const document = {
    schema_version: 1,
    width_px: 1920,
    height_px: 1080,
    frame_rate: 30,
    duration_ms: 0,
    tracks: [{ id: 'captions', kind: 'text', name: 'Captions', clips }],
  };
  while (JSON.stringify(document).length < bytes) {
    clips.push({ id: `c${clips.length}`, start_ms: clips.length * 100, duration_ms: 100, text: `${clips.length} ${caption}` });
    document.duration_ms = clips.length * 100;
  }
  return document;
}

async function send(url: string, method: string, token: string, body: object): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function benchCreativeVideo(options: {
  baseUrl: string;
  token: string;
  workspaceId: string;
  connections: number;
  warmupS: number;
  durationS: number;
  /** How large the document is (default 200 KB; the `creative-documents` target sends 4.5 MiB). */
  documentBytes?: number;
}): Promise<CreativeVideoFigures> {
  const { baseUrl, token, workspaceId, connections } = options;
  const document = videoDocumentOf(options.documentBytes ?? DOCUMENT_BYTES);
  const documentBytes = JSON.stringify(document).length;
  const projects: Array<{ id: string; head: number }> = [];
  for (let i = 0; i < connections; i++) {
    const created = await send(`${baseUrl}/video-projects`, 'POST', token, { workspace_id: workspaceId, name: `Bench ${i}`, document });
    if (created.status !== 201) throw new Error(`POST /video-projects answered ${created.status}: ${created.text.slice(0, 300)}`);
    projects.push({ id: (JSON.parse(created.text) as { id: string }).id, head: 1 });
  }
  const failures: Record<string, number> = {};
  const latencies: number[] = [];
  const run = async (seconds: number, record: boolean): Promise<void> => {
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      projects.map(async (project) => {
        while (Date.now() < until) {
          const started = performance.now();
          const answer = await send(`${baseUrl}/video-projects/${project.id}`, 'PUT', token, {
            workspace_id: workspaceId,
            document,
            expected_head_revision: project.head,
          }).catch(() => ({ status: 0, text: '' }));
          const elapsed = performance.now() - started;
          const head = /"head_revision":(\d+)/.exec(answer.text);
          if (answer.status === 200 && head) {
            project.head = Number(head[1]);
            if (record) latencies.push(elapsed);
          } else {
            if (record) failures[String(answer.status)] = (failures[String(answer.status)] ?? 0) + 1;
            const current = await fetch(`${baseUrl}/video-projects/${project.id}`, { headers: { authorization: `Bearer ${token}` } }).then(
              (r) => r.text(),
            );
            project.head = Number(/"head_revision":(\d+)/.exec(current)?.[1] ?? project.head);
          }
        }
      }),
    );
  };
  await run(options.warmupS, false);
  const started = Date.now();
  await run(options.durationS, true);
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    connections,
    durationS: options.durationS,
    documentBytes,
    requests: latencies.length,
    reqPerSec: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failures,
  };
}
