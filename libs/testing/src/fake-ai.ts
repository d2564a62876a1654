import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake provider; queued replies are used once each, oldest first. */
export interface FakeAiReply {
  /** Only a request whose raw body contains this text takes the reply (a marker in the idea keeps tests apart); unset: any request. */
  match?: string;
  /** The model's message content: a string is sent as it is (raw text), anything else as its JSON text. */
  content?: unknown;
  /** HTTP status; default 200. */
  status?: number;
  /** The whole HTTP body, sent as is instead of a chat completion (an error body, or an answer that is not a completion). */
  raw_body?: string;
  /** Wait this long before answering (a slow provider). */
  delay_ms?: number;
}

/** A request the fake provider received, as it arrived. */
export interface FakeAiRequest {
  method: string;
  path: string;
  /** The Authorization header, "" when none was sent. */
  authorization: string;
  /** The JSON body parsed, or the raw text when it was not JSON. */
  body: unknown;
  received_at: string;
}

export interface FakeAi {
  /** http://127.0.0.1:<port>; the API answers POST <anything>/chat/completions (so `${url}/v1` is a base URL). */
  url: string;
  /** `${url}/control`: POST /replies {replies} queues replies, GET /requests?match= lists what was received. */
  controlUrl: string;
  stop(): Promise<void>;
}

/** What the provider answers when no queued reply applies: a usable set of three angles. */
export const FAKE_AI_DEFAULT_CONTENT = {
  angles: ['Behind the scenes', 'Customer story', 'Myth versus fact'].map((label, i) => ({
    label,
    hook: `Hook ${i + 1}`,
    thesis: `Thesis ${i + 1}`,
    approach: `Approach ${i + 1}`,
    objective: 'awareness',
    desired_reaction: 'curiosity',
    evidence: `Evidence ${i + 1}`,
    build_direction: { angle: label, audience: 'followers', media_preference: 'image', outcome: 'shares', tone_adjustment: '' },
    media: { brief: `Brief ${i + 1}`, role: 'supporting', source_ref: '', treatment: 'photo' },
  })),
};

function completion(model: unknown, content: unknown): string {
  return JSON.stringify({
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: typeof model === 'string' ? model : 'fake',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) },
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json') {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

/**
 * A local OpenAI-compatible chat-completions server for tests: real HTTP, so
 * the platform's client is exercised end to end (headers, timeouts, status
 * codes), with no internet. Tests queue replies and read the requests it
 * received through its control API.
 */
export async function startFakeAi(): Promise<FakeAi> {
  const queue: FakeAiReply[] = [];
  const requests: Array<FakeAiRequest & { raw: string }> = [];

  async function answerCompletion(req: IncomingMessage, res: ServerResponse, raw: string) {
    const body = parseJson(raw);
    requests.push({
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://fake').pathname,
      authorization: req.headers.authorization ?? '',
      body,
      received_at: new Date().toISOString(),
      raw,
    });
    const index = queue.findIndex((reply) => reply.match === undefined || raw.includes(reply.match));
    const reply: FakeAiReply = index >= 0 ? queue.splice(index, 1)[0] : { content: FAKE_AI_DEFAULT_CONTENT };
    if (reply.delay_ms) await new Promise((resolve) => setTimeout(resolve, reply.delay_ms));
    const model = (body as { model?: unknown } | null)?.model;
    send(res, reply.status ?? 200, reply.raw_body ?? completion(model, reply.content ?? FAKE_AI_DEFAULT_CONTENT));
  }

  async function answerControl(req: IncomingMessage, res: ServerResponse, path: string, raw: string) {
    if (path === '/control/replies' && req.method === 'POST') {
      const replies = (parseJson(raw) as { replies?: unknown } | null)?.replies;
      if (!Array.isArray(replies)) return send(res, 400, JSON.stringify({ error: 'replies must be an array' }));
      queue.push(...(replies as FakeAiReply[]));
      return send(res, 200, JSON.stringify({ queued: queue.length }));
    }
    if (path === '/control/requests' && req.method === 'GET') {
      const match = new URL(req.url ?? '/', 'http://fake').searchParams.get('match');
      const found = requests.filter((r) => match === null || r.raw.includes(match)).map(({ raw: _raw, ...request }) => request);
      return send(res, 200, JSON.stringify(found));
    }
    send(res, 404, JSON.stringify({ error: 'not found' }));
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    void readBody(req)
      .then((raw) => {
        if (path.startsWith('/control')) return answerControl(req, res, path, raw);
        if (path.endsWith('/chat/completions') && req.method === 'POST') return answerCompletion(req, res, raw);
        send(res, 404, JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      })
      .catch(() => send(res, 400, JSON.stringify({ error: 'bad request' })));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    controlUrl: `${url}/control`,
    stop: async () => {
      // The platform's fetch keeps connections alive: close them, or close() waits for their idle timeout.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
