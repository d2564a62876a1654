import { ChildProcess, execFileSync } from 'node:child_process';
import { Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startProcess, stopProcess, waitFor } from './processes.js';

/** Whether something accepts TCP connections at a nats:// URL. */
export async function natsAnswers(url: string, timeoutMs = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port || 4222), hostname, () => done(true));
  });
}

export function findNatsServer(): string | undefined {
  for (const candidate of [process.env.NATS_SERVER_BIN, 'nats-server', '/usr/sbin/nats-server', '/usr/local/bin/nats-server']) {
    if (!candidate) continue;
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

export const NATS_INSTALL_HINT =
  'nats-server was not found. Install it (Debian/Ubuntu: `apt-get install nats-server`; macOS: `brew install nats-server`; ' +
  'or a release from the NATS project), or point NATS_URL at a running NATS server with JetStream.';

export interface PrivateNats {
  url: string;
  stop(): Promise<void>;
}

/** A nats-server with JetStream on a free port, storing under a temporary (or given) folder. */
export async function startPrivateNats(storeDir?: string): Promise<PrivateNats> {
  const binary = findNatsServer();
  if (!binary) throw new Error(NATS_INSTALL_HINT);
  const port = await freePort();
  const dir = storeDir ?? mkdtempSync(join(tmpdir(), 'nats-'));
  const child: ChildProcess = startProcess(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
  const url = `nats://127.0.0.1:${port}`;
  await waitFor(`nats-server on ${url}`, () => natsAnswers(url), 10_000);
  return {
    url,
    stop: async () => {
      await stopProcess(child);
      if (!storeDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
