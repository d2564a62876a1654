import type { Logger } from 'pino';

export interface GracefulShutdownOptions {
  logger: Logger;
  /** The budget (`SHUTDOWN_GRACE_MS`): past it the process logs what it was doing and exits 1. */
  graceMs: number;
  signals?: NodeJS.Signals[];
}

/**
 * On SIGTERM (or Ctrl-C) runs `close` once, then exits 0; exits 1 when `close`
 * throws or outlasts the budget. Instead of Nest's `enableShutdownHooks`, which
 * re-raises the signal (the process then ends "killed by SIGTERM", not 0) and
 * has no budget. Exiting explicitly also means a forgotten timer or socket
 * cannot keep a stopped process alive.
 */
export function closeGracefullyOnSignals(close: () => Promise<unknown>, options: GracefulShutdownOptions): void {
  const { logger, graceMs } = options;
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // Already closing: e.g. Ctrl-C reaches the dev runner's children directly and again as the runner's SIGTERM.
    // The budget still bounds the shutdown.
    if (closing) {
      logger.info({ signal }, 'already shutting down');
      return;
    }
    closing = true;
    const startedAt = Date.now();
    logger.info({ signal, grace_ms: graceMs }, 'shutting down: finishing work in progress');
    // Deliberately not unref'ed: it is what ends a shutdown that hangs.
    const budget = setTimeout(() => {
      logger.error({ grace_ms: graceMs }, 'shutdown did not finish within SHUTDOWN_GRACE_MS: exiting 1');
      process.exit(1);
    }, graceMs);
    close().then(
      () => {
        clearTimeout(budget);
        logger.info({ took_ms: Date.now() - startedAt }, 'shut down cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        clearTimeout(budget);
        logger.error({ err: error }, 'shutdown failed: exiting 1');
        process.exit(1);
      },
    );
  };
  for (const signal of options.signals ?? (['SIGTERM', 'SIGINT'] as NodeJS.Signals[])) process.on(signal, onSignal);
}
