import type { ChildProcess } from 'node:child_process';
import { stopProcess } from './processes.js';

export interface RestartPolicy {
  /** First wait before a restart; doubles after each crash up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A process that ran this long before crashing starts again at `initialDelayMs`. */
  resetAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 1_000, maxDelayMs: 30_000, resetAfterMs: 60_000 };

export interface SupervisorOptions {
  name: string;
  /** Starts a new process of the app. */
  spawn: () => ChildProcess;
  /** Where the "exited; restarting" and "is back" lines go. */
  log: (line: string) => void;
  /** After a restart: resolves true once the app serves again (e.g. the gateway's /ready is 200). */
  isBack: () => Promise<boolean>;
  /** Told of each restarted process (the stack's `pids`). */
  onSpawn?: (child: ChildProcess) => void;
  policy?: RestartPolicy;
}

/** One app process kept running: restarted with backoff whenever it exits on its own. */
export class Supervisor {
  private child: ChildProcess;
  private stopping = false;
  private failures = 0;
  private startedAt = Date.now();
  private restartTimer?: NodeJS.Timeout;
  private readonly policy: RestartPolicy;

  /** Takes over `first`, an already running process of the app (started by the caller, e.g. during the stack's start-up). */
  constructor(
    first: ChildProcess,
    private readonly options: SupervisorOptions,
  ) {
    this.policy = options.policy ?? DEFAULT_RESTART_POLICY;
    this.child = first;
    if (first.exitCode !== null || first.signalCode !== null) this.exited(first, first.exitCode, first.signalCode);
    else first.once('exit', (code, signal) => this.exited(first, code, signal));
  }

  get current(): ChildProcess {
    return this.child;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    await stopProcess(this.child);
  }

  private launch(): ChildProcess {
    const child = this.options.spawn();
    this.startedAt = Date.now();
    this.options.onSpawn?.(child);
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    return child;
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping || child !== this.child) return;
    if (Date.now() - this.startedAt >= this.policy.resetAfterMs) this.failures = 0;
    const delay = Math.min(this.policy.maxDelayMs, this.policy.initialDelayMs * 2 ** this.failures);
    this.failures += 1;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    this.options.log(`${this.options.name} exited (${how}); restarting in ${formatSeconds(delay)}`);
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      this.child = this.launch();
      void this.announceWhenBack(this.child);
    }, delay);
    this.restartTimer.unref();
  }

  /** Polls `isBack` until it says yes (then logs it), or this process is gone again. */
  private async announceWhenBack(child: ChildProcess): Promise<void> {
    while (!this.stopping && child === this.child && child.exitCode === null && child.signalCode === null) {
      if (await this.options.isBack().catch(() => false)) {
        if (!this.stopping && child === this.child && child.exitCode === null) this.options.log(`${this.options.name} is back`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250).unref());
    }
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}
