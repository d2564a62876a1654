import { ChildProcess, execFileSync } from 'node:child_process';
import { Socket } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The largest message the NATS servers we start accept. The platform needs 8 MiB: editor and video
 * documents of up to 5 MiB cross NATS whole (request and reply), and nats-server's default is 1 MiB.
 */
export const PLATFORM_NATS_MAX_PAYLOAD = '8MB';

/**
 * nats-server's configuration for one of ours: nats-server 2.9 has no command-line flag for
 * `max_payload`, so everything goes into a file (listen address, JetStream and its store).
 */
export function natsServerConfig(options: {
  host: string;
  port: number;
  storeDir: string;
  maxPayload?: string;
  extraConfig?: string;
}): string {
  return [
    `listen: ${JSON.stringify(`${options.host}:${options.port}`)}`,
    `max_payload: ${options.maxPayload ?? PLATFORM_NATS_MAX_PAYLOAD}`,
    'jetstream {',
    `  store_dir: ${JSON.stringify(options.storeDir)}`,
    '}',
    // e.g. the per-app users and permissions of tools/src/nats-auth.
    ...(options.extraConfig ? [options.extraConfig] : []),
    '',
  ].join('\n');
}

/**
 * A nats-server with JetStream on a free port, storing under a temporary (or given) folder, taking
 * messages up to 8 MiB (`maxPayload` sets another size, e.g. `1MB` to play a default server).
 */
export async function startPrivateNats(
  storeDir?: string,
  options: { maxPayload?: string; extraConfig?: string } = {},
): Promise<PrivateNats> {
  const binary = findNatsServer();
  if (!binary) throw new Error(NATS_INSTALL_HINT);
  const port = await freePort();
  const dir = storeDir ?? mkdtempSync(join(tmpdir(), 'nats-'));
  mkdirSync(dir, { recursive: true });
  // JetStream keeps its data under <dir>/jetstream; the file sits beside it.
  const configFile = join(dir, 'nats-server.conf');
  writeFileSync(
    configFile,
    natsServerConfig({ host: '127.0.0.1', port, storeDir: dir, maxPayload: options.maxPayload, extraConfig: options.extraConfig }),
  );
  const child: ChildProcess = startProcess(binary, ['-c', configFile], { stdio: 'ignore' });
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
