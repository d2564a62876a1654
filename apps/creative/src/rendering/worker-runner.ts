import { Worker } from 'node:worker_threads';

export class WorkerTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the worker did not finish within ${timeoutMs} ms`);
  }
}

const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 1024 };

/**
 * One job per worker thread, with a warm spare: a worker is started ahead of
 * need (loading its code and fonts takes ~200 ms) and waits for one message;
 * `run` hands the job to the spare and starts the next one. A worker that
 * outlives `timeoutMs` is terminated (native work included), so a job that runs
 * forever never holds the service: the caller gets WorkerTimeout. Every worker
 * is terminated once it has answered, so nothing a job allocated outlives it.
 */
export class WarmWorkers {
  private spare: Worker | null = null;
  private closed = false;

  constructor(
    private readonly script: URL | string,
    private readonly options: { eval?: boolean } = {},
  ) {}

  run<T>(job: unknown, timeoutMs: number): Promise<T> {
    const worker = this.spare ?? this.spawn();
    this.spare = null;
    this.warm();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.removeAllListeners();
        action();
        void worker.terminate();
      };
      const timer = setTimeout(() => finish(() => reject(new WorkerTimeout(timeoutMs))), timeoutMs);
      worker.once('message', (message: T) => finish(() => resolve(message)));
      worker.once('error', (error) => finish(() => reject(error)));
      worker.once('exit', (code) => finish(() => reject(new Error(`the worker exited with code ${code} without answering`))));
      worker.postMessage(job);
    });
  }

  /** Starts the spare if there is none (at start-up, and after each job). */
  warm(): void {
    if (this.closed || this.spare) return;
    const spare = this.spawn();
    // A spare that dies idle (out of memory at start, a bad build) is replaced at the next job.
    spare.once('exit', () => {
      if (this.spare === spare) this.spare = null;
    });
    spare.unref();
    this.spare = spare;
  }

  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = null;
    await spare?.terminate();
  }

  private spawn(): Worker {
    return new Worker(this.script, { eval: this.options.eval ?? false, resourceLimits: RESOURCE_LIMITS });
  }
}
