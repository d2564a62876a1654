import { Worker } from 'node:worker_threads';

export class WorkerTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the worker did not finish within ${timeoutMs} ms`);
  }
}

/**
 * Runs one job in a fresh worker thread and answers its first message. A worker
 * that outlives `timeoutMs` is terminated (its native work included), so a page
 * that renders forever never holds the service: the caller gets WorkerTimeout.
 * Memory is capped too (`maxOldGenerationSizeMb`).
 */
export function runInWorker<T>(script: URL | string, workerData: unknown, timeoutMs: number, options: { eval?: boolean } = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, { workerData, eval: options.eval ?? false, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => reject(new WorkerTimeout(timeoutMs))), timeoutMs);
    worker.once('message', (message: T) => finish(() => resolve(message)));
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (code) => finish(() => reject(new Error(`the worker exited with code ${code} without answering`))));
  });
}
