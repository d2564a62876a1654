import { Global, Module } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { InstanceSettings, type MediaStorage, NATS_CONNECTION, openMediaStorage, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';

/**
 * Media's object storage, opened the way media and the gateway open it (NATS object store unless
 * S3 is configured): the preview reads attached images from it to show what a network receives.
 */
export const PUBLISHING_MEDIA_STORAGE = Symbol('PUBLISHING_MEDIA_STORAGE');

@Global()
@Module({
  providers: [
    {
      provide: PUBLISHING_MEDIA_STORAGE,
      inject: [InstanceSettings, NATS_CONNECTION, SERVICE_LOGGER],
      useFactory: (settings: InstanceSettings, nats: NatsConnection, logger: Logger): Promise<MediaStorage> =>
        openMediaStorage(settings, nats, logger),
    },
  ],
  exports: [PUBLISHING_MEDIA_STORAGE],
})
export class PublishingMediaStorageModule {}
