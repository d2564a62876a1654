import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';

/** What a receiver path does with one request: answer a status (with Retry-After), redirect, or never answer. */
export type ReceiverStep = number | { status: number; retryAfter?: number } | 'hang' | 'redirect';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A real HTTP server playing the customers' receivers, on the port the stack allows
 * (E2E_WEBHOOK_RECEIVER_PORT, listed in WEBHOOK_ALLOWED_ORIGINS). Each path has a script of steps, one per
 * request (200 when it runs out), and keeps what it received, body byte for byte.
 */
export class WebhookReceiver {
  private readonly scripts = new Map<string, ReceiverStep[]>();
  private readonly received: ReceivedRequest[] = [];
  private readonly hanging = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const port = Number(process.env.E2E_WEBHOOK_RECEIVER_PORT);
    if (!port) throw new Error('E2E_WEBHOOK_RECEIVER_PORT is not set: run the e2e suites through jest (global setup).');
    const server = createServer();
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => receiver.answer(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    return receiver;
  }

  /** A fresh path with its script; its URL. */
  endpoint(steps: ReceiverStep[] = []): string {
    const path = `/hooks/${randomUUID()}`;
    this.scripts.set(path, [...steps]);
    return `${this.origin}${path}`;
  }

  requestsTo(url: string): ReceivedRequest[] {
    const path = new URL(url).pathname;
    return this.received.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    for (const release of this.hanging) release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answer(path: string, headers: IncomingHttpHeaders, body: string, res: import('node:http').ServerResponse): void {
    this.received.push({ path, headers, body, at: Date.now() });
    const step = this.scripts.get(path)?.shift() ?? 200;
    if (step === 'hang') {
      // Answered only when the suite stops: the sender must give up on its own.
      const release = () => res.destroy();
      this.hanging.add(release);
      return;
    }
    if (step === 'redirect') {
      res.writeHead(302, { location: `${this.origin}/hooks/redirected` }).end();
      return;
    }
    const { status, retryAfter } = typeof step === 'number' ? { status: step, retryAfter: undefined } : step;
    res.writeHead(status, { 'content-type': 'text/plain', ...(retryAfter !== undefined && { 'retry-after': String(retryAfter) }) });
    res.end(status < 300 ? 'ok' : 'no');
  }
}
