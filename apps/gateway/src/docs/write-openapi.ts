import 'reflect-metadata';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, type MediaStorage } from '@social/platform';
import { pino } from 'pino';
import { gatewaySettings } from '../config.js';
import { GatewayModule } from '../gateway.module.js';
import { fastifyOptions } from '../http/fastify-options.js';
import { buildOpenApi } from './openapi.js';

/**
 * Writes the document `/openapi.json` serves (without `servers`, which depends on the request) to the
 * path given, at build time: `node apps/gateway/dist/docs/write-openapi.js libs/sdk/openapi.json`.
 * The gateway's application is created exactly as main.ts creates it, but never initialised or
 * listening, so nothing connects to NATS or reads storage; the stand-ins below fail loudly if touched.
 */
async function main(target: string | undefined) {
  if (!target) throw new Error('usage: write-openapi <output.json>');
  // Placeholders only satisfy the settings' formats: no handler, guard or hook runs at build time.
  const config = loadConfig(gatewaySettings, {
    JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nunused while writing the document\n-----END PUBLIC KEY-----',
    JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nunused while writing the document\n-----END PRIVATE KEY-----',
    SECRETS_KEY: Buffer.alloc(32).toString('base64'),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot(
      config,
      untouchable<NatsConnection>('NATS'),
      pino({ level: 'silent' }),
      untouchable<MediaStorage>('media storage'),
    ),
    new FastifyAdapter(fastifyOptions(config)),
    { bodyParser: false, logger: false, abortOnError: false },
  );
  const { servers: _servers, ...document } = buildOpenApi(app);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const path = resolve(target);
  // An unchanged document keeps its modification time, so the generated client is not rebuilt.
  if ((await readFile(path, 'utf8').catch(() => '')) === text) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** A dependency that must not be used while the document is built: any member access throws. */
function untouchable<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(target, member) {
      // Nest's scanner inspects every provider value (`constructor`, symbols, `then`): Object's own answers do.
      if (typeof member === 'symbol' || member === 'then' || member in target) return Reflect.get(target, member);
      throw new Error(`${name} is not available while the OpenAPI document is written (used: ${member})`);
    },
  });
}

main(process.argv[2]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`write-openapi: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
