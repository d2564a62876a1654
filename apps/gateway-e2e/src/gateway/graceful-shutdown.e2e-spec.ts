import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { adminEnvironment } from '@social/testing';
import { aiApiKey, aiRequests, queueAiReplies } from '../support/ai.js';
import { baseUrl, call, randomIp } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { startGatewayReplica } from '../support/gateway-replica.js';
import { startServiceReplica, type ServiceReplica } from '../support/service-replica.js';
import { createTenant, Tenant } from '../support/tenancy.js';

/** Every app's default SHUTDOWN_GRACE_MS. */
const GRACE_MS = 20_000;
/** The fake AI holds each slow request this long: inside the e2e stack's AI_TIMEOUT_MS (1.5 s). */
const SLOW_MS = 1_000;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One HTTP request over `agent` (keep-alive), headers as they came on the wire (fetch hides `Connection`). */
function send(
  origin: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; agent?: Agent },
) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      `${origin}${path}`,
      {
        method,
        agent: options.agent,
        headers: {
          'x-forwarded-for': randomIp(),
          ...(options.token && { authorization: `Bearer ${options.token}` }),
          ...(payload !== undefined && { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text && /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Angles (E16) from the fake AI, which holds the answer `SLOW_MS`: a request that takes a moment in the publishing service. */
async function slowAngles(origin: string, tenant: Tenant, marker: string, agent?: Agent): Promise<Answer> {
  await queueAiReplies({ match: marker, delay_ms: SLOW_MS });
  return send(origin, 'POST', '/publication-builds/angles', {
    token: tenant.owner.token,
    body: { workspace_id: tenant.workspaceId, idea: `A slow idea (${marker})` },
    headers: { 'x-request-id': marker },
    agent,
  });
}

/** Resolves with how the process ended and how long after `since`. */
function exitOf(child: ChildProcess, since: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, ms: Date.now() - since })));
}

/** True once the fake AI has received a request for every marker: each is in flight in some publishing process. */
async function allReachedTheProvider(markers: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (const marker of markers) {
    while ((await aiRequests(marker)).length === 0) {
      if (Date.now() > deadline) throw new Error(`request ${marker} never reached the AI provider`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe('graceful shutdown (SIGTERM)', () => {
  const db = testDatabase();
  let tenant: Tenant;
  let replica: ServiceReplica | undefined;

  beforeAll(async () => {
    tenant = await createTenant();
  });

  let stopWriting = async () => undefined as void;

  afterAll(async () => {
    await stopWriting();
    await replica?.stop();
  });

  it(
    'a publishing replica stopped under load answers what it took and exits 0: ' +
      'every request 2xx, every acknowledged write stored exactly once',
    async () => {
      // The AI provider as the stack's own publishing process has it (AI settings fall back to each process's environment).
      const aiEnvironment = {
        ...adminEnvironment(),
        AI_BASE_URL: `${process.env.E2E_AI_URL!.replace(/\/control$/, '')}/v1`,
        AI_API_KEY: aiApiKey(),
      };
      replica = await startServiceReplica('publishing', { ...aiEnvironment, LOG_LEVEL: 'debug' }, { captureLogs: true });
      const { child } = replica;

      // A steady stream of writes through the gateway, every other one with an Idempotency-Key, until told to stop.
      const writes: Array<{ title: string; key?: string; status: number; id?: string }> = [];
      let writing = true;
      const writer = async (lane: number) => {
        for (let n = 0; writing; n += 1) {
          const title = `rolling ${lane}-${n} ${randomUUID()}`;
          const key = n % 2 === 0 ? randomUUID() : undefined;
          const answer = await call('POST', '/publications', {
            token: tenant.owner.token,
            body: { workspace_id: tenant.workspaceId, content_profile: 'short_text', title, source_text: 'text' },
            headers: key ? { 'idempotency-key': key } : {},
          });
          writes.push({ title, key, status: answer.status, id: answer.body?.id });
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      // Also when an expectation below fails: no request may outlive the suite's stack.
      stopWriting = async () => {
        writing = false;
        await Promise.allSettled(writers);
      };

      // Slow requests in flight in both processes (the queue group spreads them): the replica must answer its share after SIGTERM.
      const markers = Array.from({ length: 8 }, () => `slow-${randomUUID()}`);
      const slow = markers.map((marker) => slowAngles(baseUrl(), tenant, marker));
      await allReachedTheProvider(markers);
      const exited = exitOf(child, Date.now());
      child.kill('SIGTERM');
      const exit = await exited;
      // The stream goes on a while on the remaining replica.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await stopWriting();

      expect(exit).toEqual({ code: 0, signal: null, ms: expect.any(Number) });
      expect(exit.ms).toBeLessThan(GRACE_MS);
      const slowAnswers = await Promise.all(slow);
      // A reply lost in the shutdown would be the gateway's own 504 (`upstream_timeout`). The stack's publishing
      // gives the provider 1.5 s (AI_TIMEOUT_MS) for this 1 s answer, so on a saturated machine it may refuse with
      // its own 504 `ai_timeout`: that is publishing's answer, not a lost one (the replica's budget is 8 s).
      expect(
        slowAnswers.filter((answer) => answer.status !== 200 && answer.body?.code !== 'ai_timeout').map((answer) => answer.body),
      ).toEqual([]);
      for (const answer of slowAnswers.filter((answer) => answer.status === 200)) expect(answer.body.angles).toHaveLength(3);

      // At least one slow request was taken by the replica before SIGTERM and answered after it (its log says so, in that order).
      const log = replica.logs();
      const shutdownAt = log.indexOf('shutting down');
      expect(shutdownAt).toBeGreaterThan(-1);
      const answeredAfterSigterm = markers.filter((marker) => log.indexOf(`"request_id":"${marker}"`, shutdownAt) > -1);
      expect(answeredAfterSigterm.length).toBeGreaterThan(0);
      // Every request the stopping replica took was answered in full.
      for (const marker of answeredAfterSigterm)
        expect({ marker, status: slowAnswers[markers.indexOf(marker)].status }).toEqual({ marker, status: 200 });
      expect(log).toContain('shut down cleanly');

      // Writes before, during and after the stop: every one 201, each stored exactly once.
      expect(writes.length).toBeGreaterThan(10);
      expect(writes.filter((write) => write.status !== 201)).toEqual([]);
      const { rows } = await db.query<{ id: string; title: string }>(
        `SELECT id, title FROM publishing.publications WHERE workspace_id = $1 AND title LIKE 'rolling %'`,
        [tenant.workspaceId],
      );
      expect(rows.map((row) => `${row.title} ${row.id}`).sort()).toEqual(writes.map((write) => `${write.title} ${write.id}`).sort());
      // A keyed write replayed now is the one stored (Idempotent-Replayed), not a new one.
      const keyed = writes.filter((write) => write.key).slice(-3);
      for (const write of keyed) {
        const again = await call('POST', '/publications', {
          token: tenant.owner.token,
          body: { workspace_id: tenant.workspaceId, content_profile: 'short_text', title: write.title, source_text: 'text' },
          headers: { 'idempotency-key': write.key! },
        });
        expect([again.status, again.headers.get('idempotent-replayed'), again.body.id]).toEqual([201, 'true', write.id]);
      }
    },
    60_000,
  );

  it(
    'a gateway replica stopped with requests in flight answers them (Connection: ' + 'close), refuses new connections and exits 0',
    async () => {
      const gateway = await startGatewayReplica({ captureLogs: true, env: { LOG_LEVEL: 'info' } });
      const { port } = new URL(gateway.baseUrl);
      const agent = new Agent({ keepAlive: true });
      try {
        const markers = Array.from({ length: 3 }, () => `slow-gw-${randomUUID()}`);
        const inFlight = markers.map((marker) => slowAngles(gateway.baseUrl, tenant, marker, agent));
        await allReachedTheProvider(markers);

        const { child } = gateway;
        const termAt = Date.now();
        const exited = exitOf(child, termAt);
        child.kill('SIGTERM');
        // The listening socket closes at once: a new connection is refused while the requests are still running.
        await waitUntilRefused(Number(port));
        const refusedAfter = Date.now() - termAt;
        expect(refusedAfter).toBeLessThan(SLOW_MS);

        const answers = await Promise.all(inFlight);
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
        // Each client is told to take its next request elsewhere.
        expect(answers.map((answer) => answer.headers.connection)).toEqual(['close', 'close', 'close']);
        const exit = await exited;
        expect([exit.code, exit.signal]).toEqual([0, null]);
        expect(exit.ms).toBeLessThan(GRACE_MS);
        expect(gateway.logs()).toContain('shut down cleanly');
      } finally {
        agent.destroy();
        await gateway.stop();
      }
    },
    60_000,
  );
});

/** Polls a fresh TCP connection to `port` until it is refused (at most 2 s). */
async function waitUntilRefused(port: number): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`port ${port} still accepts connections`);
}
