import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { closeGracefullyOnSignals } from '@social/platform';
import type { Logger } from 'pino';

/** How often, while closing, keep-alive connections that have just gone idle are closed. */
const IDLE_SWEEP_MS = 100;

/**
 * SIGTERM for the gateway: Nest's `close()` stops listening (new connections
 * are refused) and waits for the requests in flight, which still get their
 * replies because the NATS connection drains last (an application-shutdown
 * hook, after the HTTP server has closed). Every response sent while closing
 * says `Connection: close`, and keep-alive connections that go idle are
 * closed, so a client moves to another replica instead of being cut off.
 * Fastify's `return503OnClosing` is off (fastify-options.ts): a request that
 * reaches us on a kept-alive connection while closing is answered, not 503'd.
 */
export function closeGatewayOnSignals(app: NestFastifyApplication, options: { logger: Logger; graceMs: number }): void {
  const fastify = app.getHttpAdapter().getInstance();
  let closing = false;
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });
  closeGracefullyOnSignals(async () => {
    closing = true;
    const sweep = setInterval(() => fastify.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    try {
      await app.close();
    } finally {
      clearInterval(sweep);
    }
  }, options);
}
