import { Global, Module } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { InstanceSettings, type MediaStorage, NATS_CONNECTION, openMediaStorage } from '@social/platform';

/** The storage adapter the instance settings choose (NATS object store unless S3 is configured). */
export const MEDIA_STORAGE = Symbol('MEDIA_STORAGE');

@Global()
@Module({
  providers: [
    {
      provide: MEDIA_STORAGE,
      inject: [InstanceSettings, NATS_CONNECTION],
      useFactory: (settings: InstanceSettings, nats: NatsConnection): Promise<MediaStorage> => openMediaStorage(settings, nats),
    },
  ],
  exports: [MEDIA_STORAGE],
})
export class StorageModule {}
