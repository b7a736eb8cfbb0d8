import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createS3Storage, type S3StorageOptions } from '#server/adapters/storage/s3-storage.ts';
import type { MediaStorage } from '#server/adapters/types.ts';

/**
 * An S3-compatible server on loopback (s3rver, files in a temporary folder) with one bucket, and the media
 * storage adapter talking to it over HTTP as it talks to S3: for tests of what runs against S3_BUCKET.
 */
export async function startS3StandIn(bucket: string): Promise<{ storage: MediaStorage; settings: S3StorageOptions; stop: () => Promise<void> }> {
  const directory = await mkdtemp(path.join(os.tmpdir(), `s3-${bucket}-`));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const settings = { bucket, endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  return {
    storage: createS3Storage(settings),
    settings,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
