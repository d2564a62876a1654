import { Global, Module } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { InstanceSettings, type MediaStorage, NATS_CONNECTION, openMediaStorage, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';

/**
 * Media's object storage, as the instance settings choose it (NATS object store unless S3 is
 * configured), the way media and the gateway open it: rendering reads the images a page shows
 * and writes the rendered bytes of exports into upload sessions media opened.
 */
export const CREATIVE_MEDIA_STORAGE = Symbol('CREATIVE_MEDIA_STORAGE');

@Global()
@Module({
  providers: [
    {
      provide: CREATIVE_MEDIA_STORAGE,
      inject: [InstanceSettings, NATS_CONNECTION, SERVICE_LOGGER],
      useFactory: (settings: InstanceSettings, nats: NatsConnection, logger: Logger): Promise<MediaStorage> =>
        openMediaStorage(settings, nats, logger),
    },
  ],
  exports: [CREATIVE_MEDIA_STORAGE],
})
export class CreativeStorageModule {}
