import 'reflect-metadata';
import { BeforeApplicationShutdown, DynamicModule, Global, INestMicroservice, Module, OnApplicationShutdown, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { healthPattern } from '@social/contracts';
import type { Logger } from 'pino';
import type { DataSourceOptions } from 'typeorm';
import { ConfigError, ConfigOf, ConfigSpec, loadConfig } from '../config/config.js';
import { DatabaseModule, openServiceDatabase } from '../database/database.js';
import { ServiceEvents, type EventConsumerDefinition } from '../events/service-events.js';
import { createLogger, NestPinoLogger } from '../logging/logger.js';
import { watchDatabasePool, watchDurableConsumers, watchOutbox } from '../metrics/collectors.js';
import { startMetricsServer } from '../metrics/metrics-server.js';
import { Metrics } from '../metrics/metrics.js';
import { rpcClientMetrics } from '../metrics/rpc-metrics.js';
import { connectNats, natsAuthOptions, type NatsAuthSettings } from '../rpc/nats-connection.js';
import { CallerTokenSigner, CallerTokenVerifier } from '../access/caller-token.js';
import { CallerIdentityGuard } from './caller-identity.guard.js';
import { SizedReplySerializer } from './sized-reply-serializer.js';
import { DrainingNatsServer } from './draining-nats-server.js';
import { closeGracefullyOnSignals } from './graceful-shutdown.js';
import { RpcClient } from '../rpc/rpc-client.js';
import { InstanceSettings } from '../settings/instance-settings.js';
import { TerminusModule } from '@nestjs/terminus';
import { Probes } from '../health/probes.js';
import { createHealthController, SERVICE_NAME, startHealthServer } from './health.js';
import { isMigrateCommand, migrateAndExit } from './migrate.js';
import { isResealCommand, resealAndExit, type SealedColumn } from './reseal.js';
import { RequestContextInterceptor } from './request-context.interceptor.js';
import { RpcProblemFilter } from './rpc-problem.filter.js';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_LOGGER } from './tokens.js';

interface BaseServiceConfig extends NatsAuthSettings {
  DATABASE_URL: string;
  JWT_PRIVATE_KEY: string;
  JWT_PUBLIC_KEY: string;
  LOG_LEVEL: string;
  HEALTH_PORT: number;
  MIGRATE_ON_START: 'true' | 'false';
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
  EVENTS_MAX_DELIVER: number;
  METRICS_PORT: number;
  METRICS_HOST: string;
  SHUTDOWN_GRACE_MS: number;
}

export interface ServiceDefinition<S extends ConfigSpec> {
  /** Also the PostgreSQL schema and the NATS queue group. */
  name: string;
  settings: S;
  entities: DataSourceOptions['entities'];
  migrations: DataSourceOptions['migrations'];
  /** The service's feature modules. */
  imports: Array<Type<unknown> | DynamicModule>;
  /** Relay the service's `outbox_events` (see `enqueueEvent`) to JetStream; needs `OUTBOX_TABLE_SQL` in a migration. */
  outbox?: boolean;
  /** Durable event consumers, started once the service listens (docs/architecture.md, "Durable events"). */
  eventConsumers?: EventConsumerDefinition[];
  /**
   * Load the instance settings (database > environment > default) from the
   * admin service at start-up and provide `InstanceSettings` for injection.
   */
  instanceSettings?: boolean;
  /** Columns holding SecretBox envelopes: `main.js reseal` seals them again after a SECRETS_KEY rotation. */
  sealedColumns?: SealedColumn[];
}

/**
 * The one bootstrap of every domain service: validated config, migrated
 * database, a NATS microservice in its own queue group (replicas share the
 * load), problems rendered for the gateway, request ids in the logs, a health
 * check, and a clean stop on SIGTERM.
 */
export async function runService<S extends ConfigSpec>(definition: ServiceDefinition<S>): Promise<INestMicroservice> {
  // `main.js migrate` (Kubernetes init container): migrations only, no NATS.
  if (isMigrateCommand()) return migrateAndExit(definition);
  // `main.js reseal`: after SECRETS_KEY gained a new first key, re-seal the service's secrets with it.
  if (isResealCommand()) return resealAndExit(definition);
  let config: ConfigOf<S> & BaseServiceConfig;
  try {
    config = loadConfig(definition.settings) as ConfigOf<S> & BaseServiceConfig;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  try {
    return await start(definition, config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'could not start');
    process.exit(1);
  }
}

async function start<S extends ConfigSpec>(
  definition: ServiceDefinition<S>,
  config: ConfigOf<S> & BaseServiceConfig,
  logger: Logger,
): Promise<INestMicroservice> {
  const dataSource = await openServiceDatabase(
    {
      url: config.DATABASE_URL,
      schema: definition.name,
      entities: definition.entities,
      migrations: definition.migrations,
      migrate: config.MIGRATE_ON_START === 'true',
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    logger,
  );
  const natsAuth = natsAuthOptions(config);
  const outbound = await connectNats(config.NATS_URL, `${definition.name}-client`, natsAuth);
  // Every request this service sends carries a caller token it signs; every request it serves must carry one.
  const signer = await CallerTokenSigner.fromPem(config.JWT_PRIVATE_KEY, definition.name).ready();
  const verifier = await CallerTokenVerifier.fromPem(config.JWT_PUBLIC_KEY);
  // Features add their own gauges (scheduler, job queues) by injecting Metrics.
  const metrics = new Metrics(definition.name);
  watchDatabasePool(metrics, dataSource);
  if (definition.outbox) watchOutbox(metrics, dataSource);
  watchDurableConsumers(
    metrics,
    outbound,
    (definition.eventConsumers ?? []).map((consumer) => consumer.durable),
  );
  const events = new ServiceEvents(definition.name, outbound, logger, { maxDeliver: config.EVENTS_MAX_DELIVER, metrics });
  if (definition.outbox) events.startRelay(dataSource);
  // Closed after Nest has stopped taking messages, so in-flight handlers can still ask other services.
  const closers: Array<{ close(): unknown }> = [{ close: () => outbound.drain().catch(() => undefined) }];
  const instanceSettings = definition.instanceSettings ? await InstanceSettings.load(outbound, logger, { signer }) : undefined;
  if (instanceSettings) closers.unshift(instanceSettings);
  class CloseOnShutdown implements BeforeApplicationShutdown, OnApplicationShutdown {
    // Events finish while NATS and the DataSource are still open.
    async beforeApplicationShutdown() {
      await events.stop();
    }
    async onApplicationShutdown() {
      await Promise.all(closers.map((closer) => closer.close()));
    }
  }

  @Global()
  @Module({
    providers: [
      { provide: SERVICE_CONFIG, useValue: config },
      { provide: SERVICE_LOGGER, useValue: logger },
      { provide: NATS_CONNECTION, useValue: outbound },
      { provide: RpcClient, useValue: new RpcClient(outbound, 5_000, rpcClientMetrics(metrics), signer) },
      { provide: Metrics, useValue: metrics },
      ...(instanceSettings ? [{ provide: InstanceSettings, useValue: instanceSettings }] : []),
      CloseOnShutdown,
    ],
    exports: [SERVICE_CONFIG, SERVICE_LOGGER, NATS_CONNECTION, RpcClient, Metrics, ...(instanceSettings ? [InstanceSettings] : [])],
  })
  class ServiceCoreModule {}

  @Module({
    imports: [
      ServiceCoreModule,
      DatabaseModule.forDataSource(dataSource),
      TerminusModule.forRoot({ logger: false }),
      ...definition.imports,
    ],
    controllers: [createHealthController(healthPattern(definition.name))],
    providers: [
      { provide: SERVICE_NAME, useValue: definition.name },
      Probes,
      { provide: APP_FILTER, useValue: new RpcProblemFilter(logger) },
      // Before any handler: the caller token is verified and the principal taken from it.
      { provide: APP_GUARD, useValue: new CallerIdentityGuard(verifier, logger, metrics) },
      { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
    ],
  })
  class ServiceRootModule {}

  const app = await NestFactory.createMicroservice<MicroserviceOptions>(ServiceRootModule, {
    // Nest's NATS transport, except that closing answers every request taken first (see DrainingNatsServer).
    strategy: new DrainingNatsServer({
      ...natsAuth,
      servers: [config.NATS_URL],
      queue: definition.name,
      name: definition.name,
      maxReconnectAttempts: -1,
      // A reply over the server's max_payload is a 500 at once, not a 504 after the caller's timeout.
      serializer: new SizedReplySerializer(() => outbound.info?.max_payload, logger),
    }),
    logger: new NestPinoLogger(logger),
    bufferLogs: false,
  });
  // SIGTERM: requests taken are answered, then consumers, workers and the relay
  // finish (beforeApplicationShutdown), then NATS and the database close.
  closeGracefullyOnSignals(() => app.close(), { logger, graceMs: config.SHUTDOWN_GRACE_MS });
  // Both connections: the server's (requests) and the outbound one (events, calls to other services).
  const probes = app.get(Probes).watch({ nats: [outbound], dataSource });
  await app.listen();
  probes.watch({ nats: [app.unwrap<NatsConnection>(), outbound], dataSource });
  await events.startConsumers(app, definition.eventConsumers ?? []);
  if (config.HEALTH_PORT > 0) closers.push(startHealthServer(config.HEALTH_PORT, probes));
  if (config.METRICS_PORT > 0) {
    const server = startMetricsServer(config.METRICS_PORT, metrics, config.METRICS_HOST);
    server.port.catch((error: unknown) => logger.error({ err: error, port: config.METRICS_PORT }, 'metrics endpoint could not listen'));
    closers.push(server);
  }
  logger.info({ queue: definition.name }, 'service listening on NATS');
  return app;
}
