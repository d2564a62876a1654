import { type MediaStorage, parseRange } from '@social/platform';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';

/** One stored object lent to a local tool: its URL until `close()`, and whether storage failed while it was read. */
export interface LentObject {
  url: string;
  storageFailed(): boolean;
  close(): void;
}

interface Entry {
  key: string;
  size: number;
  failed: boolean;
}

/**
 * Stored objects served to ffprobe/ffmpeg over HTTP on 127.0.0.1 with Range support, streamed from
 * storage (NATS object store or S3), so a video is never held in memory nor copied to disk: the
 * tools read the start, then seek with range requests (a `moov` box at the end costs one more
 * request, not the whole file). Each object is reachable only under a random path while it is lent;
 * the server listens on loopback alone.
 */
export class LoopbackObjects {
  private readonly entries = new Map<string, Entry>();
  private listening?: Promise<{ server: Server; port: number }>;

  constructor(
    private readonly storage: MediaStorage,
    private readonly logger: Logger,
  ) {}

  async lend(key: string, size: number): Promise<LentObject> {
    const { port } = await this.listen();
    const path = randomBytes(24).toString('hex');
    const entry: Entry = { key, size, failed: false };
    this.entries.set(path, entry);
    return { url: `http://127.0.0.1:${port}/${path}`, storageFailed: () => entry.failed, close: () => this.entries.delete(path) };
  }

  async close(): Promise<void> {
    const listening = this.listening;
    this.listening = undefined;
    if (!listening) return;
    const { server } = await listening;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listen(): Promise<{ server: Server; port: number }> {
    this.listening ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => void this.serve(req, res));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
    });
    return this.listening;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry = this.entries.get((req.url ?? '').slice(1));
    if (!entry || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const range = parseRange(req.headers.range, entry.size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${entry.size}` }).end();
      return;
    }
    const headers = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes' };
    if (req.method === 'HEAD') {
      res.writeHead(200, { ...headers, 'content-length': entry.size }).end();
      return;
    }
    try {
      const stream = await this.storage.read(entry.key, range ?? undefined);
      if (!stream) {
        res.writeHead(404).end();
        return;
      }
      if (range)
        res.writeHead(206, {
          ...headers,
          'content-range': `bytes ${range.start}-${range.end}/${entry.size}`,
          'content-length': range.end - range.start + 1,
        });
      else res.writeHead(200, { ...headers, 'content-length': entry.size });
      await pipeline(stream, res);
    } catch (error) {
      // The tool closing the connection after it read enough is normal; storage failing is not.
      if (res.destroyed && (error as NodeJS.ErrnoException)?.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      entry.failed = true;
      this.logger.warn({ err: error, object_key: entry.key }, 'reading a stored object for analysis failed');
      if (!res.headersSent) res.writeHead(503).end();
      else res.destroy();
    }
  }
}
