import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';

/** A free TCP port on loopback, chosen by the OS. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/** `count` distinct free ports: all held open together while they are picked, so none is handed out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer().listen(0, '127.0.0.1');
      await once(server, 'listening');
      return server;
    }),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/**
 * A free port below Linux's ephemeral range (32768+), for a server that starts long after its port was picked (a
 * suite's own receiver): outgoing connections and port-0 listeners take their ports from that range, so none of them
 * can take this one meanwhile.
 */
export async function freePortOutsideEphemeralRange(low = 20_000, high = 32_000): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
  throw new Error(`no free port between ${low} and ${high}`);
}

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs`. */
export async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function startProcess(command: string, args: string[], options: SpawnOptions): ChildProcess {
  return spawn(command, args, { ...options, stdio: options.stdio ?? 'inherit' });
}

/** Thrown by a `waitFor` check when waiting longer cannot help (e.g. the process died). */
export class StopWaiting extends Error {}

/** Polls until `check` resolves true, or fails after `timeoutMs` naming what it waited for. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, intervalMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await check().catch((error: unknown) => {
      if (error instanceof StopWaiting) throw error;
      return false;
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
