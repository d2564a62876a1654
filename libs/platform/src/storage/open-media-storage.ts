import type { NatsConnection } from '@nats-io/transport-node';
import type { InstanceSettings } from '../settings/instance-settings.js';
import { guardedStorage, type StorageFailureLog } from './guarded-storage.js';
import type { MediaStorage } from './media-storage.js';
import { mediaObjectStoreMaxBytes } from '../events/jetstream-replicas.js';
import { MEDIA_OBJECT_BUCKET, NatsObjectStorage } from './nats-object-storage.js';
import type { S3StorageOptions } from './s3-storage.js';

/** The S3 settings when S3-compatible storage applies (`media_storage_driver` s3, or all five `s3_*` set), else null. */
export function s3OptionsFrom(settings: Pick<InstanceSettings, 'string'>): S3StorageOptions | null {
  const options: S3StorageOptions = {
    endpoint: settings.string('s3_endpoint'),
    bucket: settings.string('s3_bucket'),
    region: settings.string('s3_region'),
    accessKeyId: settings.string('s3_access_key_id'),
    secretAccessKey: settings.string('s3_secret_access_key'),
  };
  const complete = Object.values(options).every((value) => value !== '');
  if (settings.string('media_storage_driver') === 's3') {
    const keys: Record<keyof S3StorageOptions, string> = {
      endpoint: 's3_endpoint',
      bucket: 's3_bucket',
      region: 's3_region',
      accessKeyId: 's3_access_key_id',
      secretAccessKey: 's3_secret_access_key',
    };
    const missing = (Object.keys(keys) as Array<keyof S3StorageOptions>).filter((name) => options[name] === '').map((name) => keys[name]);
    if (missing.length > 0) throw new Error(`media_storage_driver is s3 but these S3 settings are empty: ${missing.join(', ')}`);
    return options;
  }
  return complete ? options : null;
}

/**
 * The media storage the instance settings choose (the S3 client is loaded only when used), its
 * failures answered as 503 `storage_unavailable` (guardedStorage). The NATS bucket holds at most
 * MEDIA_OBJECT_STORE_MAX_BYTES; past it a put is 507 `storage_full`.
 */
export async function openMediaStorage(
  settings: Pick<InstanceSettings, 'string'>,
  nats: NatsConnection,
  log?: StorageFailureLog,
): Promise<MediaStorage> {
  const s3 = s3OptionsFrom(settings);
  if (!s3) return guardedStorage(new NatsObjectStorage(nats, MEDIA_OBJECT_BUCKET, { maxBytes: mediaObjectStoreMaxBytes() }), log);
  const { S3Storage } = await import('./s3-storage.js');
  return guardedStorage(new S3Storage(s3), log);
}
