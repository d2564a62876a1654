import type { Readable } from 'node:stream';
import { Problem, problems } from '../problems/problem.js';
import type { MediaStorage } from './media-storage.js';

/** Media storage did not answer (or failed): 503 with Retry-After (docs/decisions.md: a dependency is unavailable). */
export const storageUnavailable = (): Problem =>
  problems.unavailable('storage_unavailable', 'Media storage is not reachable right now; try again shortly.', 5);

export interface StorageFailureLog {
  warn(details: object, message: string): void;
}

/** A body stream that failed by itself (a client gone, a byte limit passed): its error is the caller's, not storage's. */
const bodyFailed = (body: Readable) => body.errored !== null || (body.destroyed && !body.readableEnded);

/**
 * The adapter with every failure of storage itself answered as 503 `storage_unavailable` (logged with
 * its cause), so routes reading or writing bytes never answer 500 for an outage. Problems and the
 * failures of a put's own body pass through unchanged.
 */
/** A listing whose failures (at any page) are answered as `fail` answers them. */
async function* guardedListing<T>(listing: AsyncIterable<T>, fail: (error: unknown) => Promise<never>): AsyncIterable<T> {
  try {
    yield* listing;
  } catch (error) {
    await fail(error);
  }
}

export function guardedStorage(storage: MediaStorage, log?: StorageFailureLog): MediaStorage {
  const guard = async <T>(operation: string, key: string, run: () => Promise<T>, own?: () => boolean): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Problem || own?.()) throw error;
      log?.warn({ err: error, operation, object_key: key, driver: storage.driver }, 'media storage failed');
      throw storageUnavailable();
    }
  };
  const guarded: MediaStorage = {
    driver: storage.driver,
    put: (key, body, size) =>
      guard(
        'put',
        key,
        () => storage.put(key, body, size),
        () => bodyFailed(body),
      ),
    read: (key, range) => guard('read', key, () => storage.read(key, range)),
    stat: (key) => guard('stat', key, () => storage.stat(key)),
    delete: (key) => guard('delete', key, () => storage.delete(key)),
    list: (prefix) => guardedListing(storage.list(prefix), (error) => guard('list', prefix, () => Promise.reject(error))),
    close: () => storage.close(),
  };
  if (storage.createUploadTarget) {
    const presign = storage.createUploadTarget.bind(storage);
    guarded.createUploadTarget = (key, size, contentType, expiresAt) =>
      guard('presign', key, () => presign(key, size, contentType, expiresAt));
  }
  if (storage.copy) {
    const copy = storage.copy.bind(storage);
    guarded.copy = (from, to) => guard('copy', from, () => copy(from, to));
  }
  return guarded;
}
