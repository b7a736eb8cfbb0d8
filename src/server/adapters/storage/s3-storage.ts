import type { Config } from '../../config.ts';
import type { MediaStorage } from '../types.ts';

/** S3-compatible object storage (AWS SDK v3): one bucket, keys `public/…` and `private/…`. */
export function createS3Storage(options: NonNullable<Config['s3']>): MediaStorage {
  throw new Error(`S3 storage is not built yet (bucket ${options.bucket})`);
}
