import { parentPort, workerData } from 'node:worker_threads';
import { renderPage } from './page-painter.js';
import type { RenderJob } from './render-job.js';

/** Worker thread entry (see DesignRenderer): renders the job it was started with and answers once. */
const outcome = await renderPage(workerData as RenderJob);
parentPort!.postMessage(outcome, outcome.ok ? [outcome.bytes.buffer as ArrayBuffer] : []);
