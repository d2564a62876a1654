import { Global, Module } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { InstanceSettings, type MediaStorage, NATS_CONNECTION, openMediaStorage, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';

/** The storage adapter the instance settings choose (NATS object store unless S3 is configured). */
export const MEDIA_STORAGE = Symbol('MEDIA_STORAGE');

@Global()
@Module({
  providers: [
    {
      provide: MEDIA_STORAGE,
      inject: [InstanceSettings, NATS_CONNECTION, SERVICE_LOGGER],
      useFactory: (settings: InstanceSettings, nats: NatsConnection, logger: Logger): Promise<MediaStorage> =>
        openMediaStorage(settings, nats, logger),
    },
  ],
  exports: [MEDIA_STORAGE],
})
export class StorageModule {}
