/** What every fault of `npm run faults` is made of, and the platform's processes as the faults change them. */
import type { FaultEnvironment, ReplicaHandle } from './environment.js';
import type { EventLoad, Session, WriteLoad } from './load.js';

export interface Fault {
  name: string;
  /** Injects the fault and undoes it as an operator or supervisor would (restart, continue). */
  inject(load: WriteLoad, events: EventLoad): Promise<void>;
  /** A long outage: writes may wait this long for an acknowledgement (default GIVE_UP_MS). */
  giveUpMs?: number;
  /** After the load has drained: what the fault's own checks found wrong, and its figures for the note. */
  verify?(): Promise<{ problems: string[]; figures: string }>;
}

/** The fault workspace and its owner (the instance's first user, so also its administrator). */
export interface Tenant {
  session: Session;
  workspaceId: string;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `condition` every 200 ms until it holds (true) or `limitMs` passed (false). */
export async function until(condition: () => Promise<boolean>, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
}

/**
 * Every process of the platform that should be running, by app: a killed replica leaves, its replacement joins.
 * After each fault, one that is gone died of the fault rather than being killed by it.
 */
export class PlatformProcesses {
  private readonly expected = new Map<number, { app: string; label: string }>();

  constructor(private readonly env: FaultEnvironment) {}

  add(pid: number, app: string, label = app): void {
    this.expected.set(pid, { app, label });
  }

  pidsOf(app: string): number[] {
    return [...this.expected].filter(([, process]) => process.app === app).map(([pid]) => pid);
  }

  /** Labels of the processes that should run and do not. */
  dead(): string[] {
    return [...this.expected].filter(([pid]) => !isAlive(pid)).map(([, process]) => process.label);
  }

  /** kill -9, as a crash or the OOM killer would: no shutdown hooks, nothing flushed. */
  async kill(pid: number): Promise<void> {
    this.expected.delete(pid);
    process.kill(pid, 'SIGKILL');
    if (!(await until(async () => !isAlive(pid), 10_000))) throw new Error(`process ${pid} outlived SIGKILL`);
  }

  /** SIGTERM, as Kubernetes stops a pod: the process drains and exits (SIGKILL after 30 s, its grace period). */
  async stop(pid: number): Promise<void> {
    this.expected.delete(pid);
    process.kill(pid, 'SIGTERM');
    if (await until(async () => !isAlive(pid), 30_000)) return;
    process.kill(pid, 'SIGKILL');
    await until(async () => !isAlive(pid), 10_000);
  }

  async start(app: string, label: string, overrides?: NodeJS.ProcessEnv): Promise<ReplicaHandle> {
    const replica = await this.env.startReplica(app, overrides);
    this.add(replica.child.pid!, app, label);
    return replica;
  }
}

/** One JSON call to the API: its status and parsed answer. */
export async function callApi<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as T };
}

/** The answer of a call that must succeed with `expected`, else an error naming what came back. */
export async function expectStatus<T = Record<string, unknown>>(
  expected: number,
  answer: Promise<{ status: number; body: T }>,
  what: string,
): Promise<T> {
  const { status, body } = await answer;
  if (status !== expected) throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}
