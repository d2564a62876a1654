import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/** The request id of the request being served, carried from the gateway in a NATS header. */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const store = requestContext.getStore();
        return store ? { request_id: store.requestId } : {};
      },
    },
    // Written asynchronously: lines that arrive while a write is under way go out together in the next one, instead
    // of a write(2) per line (the gateway's access log is a line per request). No minimum length, so a line is never
    // held back when traffic is low; pino flushes what is pending when the process exits.
    pino.destination({ dest: 1, sync: false }),
  );
}

/** Routes Nest's own log lines into the same structured log. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
