/**
 * A first start with S3_BUCKET (several instances, docs/decisions/013 and 033): the demo's pictures are
 * written to the local disk by the seed and must end up in the bucket, where every instance and every
 * `/media/` answer looks, with nothing left on this disk. The bucket is s3rver on loopback.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { pictures, type MediaVariant } from '#server/db/schema.ts';
import { prepareDatabase } from '#server/main.ts';
import { startS3StandIn } from '#tests/support/s3-stand-in.ts';

describe('the demo seed with S3_BUCKET', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  let s3: Awaited<ReturnType<typeof startS3StandIn>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'seed-s3-'));
    s3 = await startS3StandIn('seed-demo');
    const config = loadConfig({
      DATA_DIR: dataDir,
      SEED_DEMO_ADVERTS: '6',
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint,
      S3_REGION: s3.settings.region,
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    });
    handle = await openDatabase({ pgliteDir: 'memory://' });
    await prepareDatabase(handle, config, pino({ level: 'silent' }));
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    await s3?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("puts every seeded picture's private masters and public copies in the bucket", async () => {
    const rows = await handle.db.select().from(pictures);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      for (const variant of row.variants as MediaVariant[]) {
        expect(await s3.storage.exists('private', variant.key)).toBe(true);
        if (row.publicKey) expect(await s3.storage.exists('public', `${row.publicKey}-${variant.width}.webp`)).toBe(true);
      }
    }
  });

  it('leaves no picture on the local disk', async () => {
    const left = await readdir(path.join(dataDir, 'media'), { recursive: true, withFileTypes: true }).catch(() => []);
    expect(left.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
  });
});
