import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface FakeS3 {
  /** The S3_* settings that point the platform at it. */
  settings: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver, pure JavaScript) with one bucket, for
 * testing the S3 storage adapter for real: signatures, presigned PUTs, ranges.
 * It keeps objects in a temporary directory, removed on stop.
 */
export async function startFakeS3(bucket = 'media'): Promise<FakeS3> {
  const directory = mkdtempSync(join(tmpdir(), 'fake-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    resetOnClose: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    // s3rver accepts its default credentials.
    settings: { endpoint: `http://127.0.0.1:${port}`, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
