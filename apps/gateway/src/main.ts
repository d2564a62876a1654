import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  CallerTokenSigner,
  ConfigError,
  connectNats,
  createLogger,
  InstanceSettings,
  loadConfig,
  Metrics,
  natsAuthOptions,
  NestPinoLogger,
  openMediaStorage,
  startMetricsServer,
} from '@social/platform';
import { gatewaySettings } from './config.js';
import { mountDocs } from './docs/docs.js';
import { GatewayModule } from './gateway.module.js';
import { documentBodyLimit } from './http/body-limits.js';
import { configureFastify, fastifyOptions } from './http/fastify-options.js';
import { closeGatewayOnSignals } from './http/graceful-close.js';
import { applyCors, parseAllowedOrigins } from './http/cors.js';
import { recordHttpMetrics } from './http/http-metrics.js';
import { mountWebConsole, webConsoleDir } from './http/web-console.js';

async function main() {
  let config;
  try {
    config = loadConfig(gatewaySettings);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`gateway: ${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger('gateway', config.LOG_LEVEL);
  try {
    const nats = await connectNats(config.NATS_URL, 'gateway', natsAuthOptions(config));
    const signer = await CallerTokenSigner.fromPem(config.JWT_PRIVATE_KEY, 'gateway').ready();
    // Documents cross NATS whole: their body limit is at most what the server's max_payload carries.
    const documentLimit = documentBodyLimit(config.DOCUMENT_BODY_LIMIT_BYTES, nats.info?.max_payload);
    if (documentLimit.lowered) {
      logger.warn(
        {
          max_payload: documentLimit.lowered.maxPayload,
          document_body_limit_bytes: documentLimit.bytes,
          configured: documentLimit.lowered.configured,
        },
        `NATS max_payload is ${documentLimit.lowered.maxPayload} bytes: document bodies are limited to ${documentLimit.bytes} bytes ` +
          '(413 beyond) instead of DOCUMENT_BODY_LIMIT_BYTES; configure the server with max_payload: 8MB',
      );
    }
    // The public address is an instance setting (database > PUBLIC_BASE_URL > unset), read once at start-up.
    const settings = await InstanceSettings.load(nats, logger, { signer });
    config = { ...config, PUBLIC_BASE_URL: settings.string('public_base_url').replace(/\/+$/, '') || undefined };
    // Upload and content bytes go between the client and storage here, never over NATS (the media service's settings choose the storage).
    const mediaStorage = await openMediaStorage(settings, nats, logger);
    settings.close();
    const metrics = new Metrics('gateway');
    const app = await NestFactory.create<NestFastifyApplication>(
      GatewayModule.forRoot(config, nats, logger, mediaStorage, metrics),
      new FastifyAdapter(fastifyOptions(config)),
      { bodyParser: false, logger: new NestPinoLogger(logger) },
    );
    configureFastify(app.getHttpAdapter().getInstance(), logger, documentLimit.bytes);
    applyCors(app.getHttpAdapter().getInstance(), parseAllowedOrigins(config.CORS_ALLOWED_ORIGINS));
    recordHttpMetrics(app.getHttpAdapter().getInstance(), metrics);
    closeGatewayOnSignals(app, { logger, graceMs: config.SHUTDOWN_GRACE_MS });
    mountDocs(app, config.PUBLIC_BASE_URL);
    const consoleDir = webConsoleDir(config.WEB_CONSOLE_DIR);
    if (consoleDir) mountWebConsole(app.getHttpAdapter().getInstance(), consoleDir, logger);
    else if (config.WEB_CONSOLE_DIR) logger.warn({ dir: config.WEB_CONSOLE_DIR }, 'WEB_CONSOLE_DIR has no index.html: no web console');
    const metricsPort = config.METRICS_PORT;
    if (metricsPort > 0) {
      // On a port of its own: /metrics is never served on the API port.
      const server = startMetricsServer(metricsPort, metrics, config.METRICS_HOST);
      server.port.catch((error: unknown) => logger.error({ err: error, port: metricsPort }, 'metrics endpoint could not listen'));
      // Hooks are added before listening; closed with the app.
      app
        .getHttpAdapter()
        .getInstance()
        .addHook('onClose', () => server.close());
    }
    await app.listen(config.PORT, '0.0.0.0');
    logger.info({ port: config.PORT }, 'gateway listening');
  } catch (error) {
    logger.fatal({ err: error }, 'could not start');
    process.exit(1);
  }
}

void main();
