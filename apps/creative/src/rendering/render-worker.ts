import { parentPort } from 'node:worker_threads';
import { registerFonts, renderPage } from './page-painter.js';
import type { RenderJob } from './render-job.js';

/** Worker thread entry (see DesignRenderer): warms up (code, fonts), then renders the one job it is sent and answers. */
registerFonts();
parentPort!.once('message', (job: RenderJob) => {
  void renderPage(job).then((outcome) => parentPort!.postMessage(outcome, outcome.ok ? [outcome.bytes.buffer as ArrayBuffer] : []));
});
