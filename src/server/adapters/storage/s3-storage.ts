import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../../config.ts';
import type { MediaStorage, StorageArea } from '../types.ts';
import { assertSafeKey, contentTypeOfKey } from './keys.ts';

export type S3StorageOptions = NonNullable<Config['s3']>;

/** A missing object: GetObject answers NoSuchKey, HeadObject a bare 404 (NotFound). */
function isMissing(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return (error as { name?: string } | null)?.name === 'NoSuchKey';
}

/**
 * S3-compatible object storage (AWS SDK v3): one bucket, keys `public/…` and `private/…`
 * (docs/decisions/013). Files from disk are streamed (multipart above 5 MB, `Upload`), bodies are read
 * as streams; `/media/*` streams public objects through `open` (localRoot is null).
 */
export function createS3Storage(options: S3StorageOptions): MediaStorage {
  const client = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    // S3-compatible stores (MinIO, R2, s3rver, …) do not all know the SDK's newer default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const objectKey = (area: StorageArea, key: string) => `${area}/${assertSafeKey(key)}`;

  const get = async (area: StorageArea, key: string) => {
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: objectKey(area, key) }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  return {
    async putFile(area, key, filePath, contentType) {
      const upload = new Upload({
        client,
        params: { Bucket, Key: objectKey(area, key), Body: createReadStream(filePath), ContentType: contentType },
        // At most queueSize × partSize bytes are held in memory at once.
        queueSize: 2,
        partSize: 8 * 1024 * 1024,
      });
      await upload.done();
    },
    async putBytes(area, key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: objectKey(area, key), Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength }),
      );
    },
    async open(area, key) {
      const object = await get(area, key);
      if (!object?.Body) return null;
      return {
        body: object.Body as Readable,
        size: object.ContentLength ?? 0,
        contentType: contentTypeOfKey(key),
      };
    },
    async download(area, key, filePath) {
      const object = await get(area, key);
      if (!object?.Body) throw new Error(`no stored file ${area}/${key}`);
      await mkdir(path.dirname(filePath), { recursive: true });
      await pipeline(object.Body as Readable, createWriteStream(filePath));
    },
    async exists(area, key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(area, key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async copy(fromArea, fromKey, toArea, toKey) {
      const source = objectKey(fromArea, fromKey);
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key: objectKey(toArea, toKey),
          CopySource: `${Bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
          ContentType: contentTypeOfKey(toKey),
          MetadataDirective: 'REPLACE',
        }),
      );
    },
    async delete(area, key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(area, key) }));
    },
    async deletePrefix(area, prefix) {
      const Prefix = objectKey(area, prefix);
      let deleted = 0;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken, MaxKeys: 1000 }));
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (keys.length > 0) {
          // DeleteObjects takes at most 1,000 keys: one call per listed page.
          const answer = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
          const failed = answer.Errors ?? [];
          if (failed.length > 0) throw new Error(`could not delete ${failed.length} objects under ${Prefix}: ${failed[0]?.Code ?? ''}`);
          deleted += keys.length;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return deleted;
    },
    localRoot: () => null,
  };
}
