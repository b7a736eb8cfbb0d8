/**
 * The import part of `npm run bench` (issue 18): how many adverts of the old site a second the import
 * brings over, with their pictures, into the seeded database (BENCH_ADVERTS adverts already there).
 *
 * An export of BENCH_IMPORT_ADVERTS adverts (default 40), each with BENCH_IMPORT_PICTURES abstract pictures
 * (default 3, 1200×900 JPEG, coloured blocks; never photos), is built as a ZIP (docs/migration-format.md),
 * kept as the upload keeps it, and imported by the job's own function (`runMigrationImport`) with what
 * the server gives it: the picture render worker and the media queue of one task at a time. Then the
 * same number of adverts without pictures. Run while the server is stopped (PGlite has one process);
 * the time is the import's, from the first line to the last.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase, type OpenDatabaseOptions } from '#server/db/client.ts';
import { migrationImports } from '#server/db/schema.ts';
import type { PictureMedia } from '#server/domain/media/pictures.ts';
import type { DomainContext } from '#server/domain/context.ts';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { createMediaWork } from '#server/domain/media/media-work.ts';
import { createPictureRenderer } from '#server/domain/media/picture-renderer.ts';
import { startMigrationImport } from '#server/domain/migration/start-import.ts';
import { runMigrationImport } from '#server/domain/migration/run-import.ts';
import { blocksJpeg, jsonLines, makeZip, type ZipEntry } from '#tests/integration/migration-helpers.ts';

const ADVERTS = Number(process.env['BENCH_IMPORT_ADVERTS'] ?? 40);
const PICTURES = Number(process.env['BENCH_IMPORT_PICTURES'] ?? 3);

/** One advert of the export, neutral and fictional; old ids far from any the tests use. */
function line(oldId: number, pictures: string[]): Record<string, unknown> {
  return {
    oldId,
    kind: oldId % 3 === 0 ? 'thai-massage' : 'escort',
    gender: 'woman',
    name: `Bench ${oldId}`,
    slug: `bench-${oldId}`,
    title: 'En rolig annonce fra den gamle side',
    introduction: 'En kort, neutral introduktion.',
    description: 'En længere, neutral beskrivelse, som den gamle side havde den.',
    phone: `+45 4${String(oldId % 10_000_000).padStart(7, '0')}`,
    email: `bench-${oldId}@example.invalid`,
    region: 'Region Hovedstaden',
    city: 'København',
    age: 30,
    prices: [{ durationMinutes: 60, incallPrice: 1500, outcallPrice: 2000 }],
    pictures,
  };
}

async function importOnce(
  ctx: DomainContext,
  media: PictureMedia,
  workDir: string,
  firstOldId: number,
  picturesPerAdvert: number,
): Promise<{ seconds: number; imported: number; pictures: number; refused: number }> {
  const entries: ZipEntry[] = [];
  const lines: Record<string, unknown>[] = [];
  for (let i = 0; i < ADVERTS; i += 1) {
    const oldId = firstOldId + i;
    const names = Array.from({ length: picturesPerAdvert }, (_, n) => `pictures/${oldId}-${n}.jpg`);
    for (const [n, name] of names.entries()) entries.push({ name, bytes: await blocksJpeg(oldId * 10 + n, { width: 1200, height: 900 }) });
    lines.push(line(oldId, names));
  }
  const archive = await makeZip([{ name: 'adverts.jsonl', bytes: jsonLines(lines) }, ...entries]);
  const file = path.join(workDir, `export-${firstOldId}.zip`);
  await writeFile(file, archive);
  // As the upload would (the system actor: no support user is needed in the bench's database).
  const started = await startMigrationImport(
    ctx,
    { storage: media.storage, queueImport: async () => {} },
    { path: file, fileName: path.basename(file), bytes: archive.length, sha256: createHash('sha256').update(archive).digest('hex'), truncated: false },
  );
  const begin = performance.now();
  await runMigrationImport(ctx, { media }, started.import.id);
  const seconds = (performance.now() - begin) / 1000;
  const [done] = await ctx.db.select().from(migrationImports).where(eq(migrationImports.id, started.import.id));
  return { seconds, imported: done!.importedLines, pictures: done!.importedLines * picturesPerAdvert, refused: done!.lineErrors.length };
}

export async function benchImport(database: OpenDatabaseOptions, record: { fact: (fact: string) => void }, workDir: string): Promise<void> {
  const handle = await openDatabase(database);
  const renderer = createPictureRenderer();
  const dir = await mkdtemp(path.join(workDir, 'bench-import-'));
  try {
    const storage = createLocalStorage(path.join(dir, 'media'));
    const media = { storage, work: createMediaWork(1), render: renderer.render };
    const ctx: DomainContext = { db: handle.db, actor: { type: 'system' }, events: { publish: () => {} }, now: () => new Date(), storage };
    // Old ids from the clock: a reused database already has the earlier runs' (never imported twice).
    const base = 1_000_000_000 + (Math.floor(Date.now() / 1000) % 1_000_000) * 1000;
    const withPictures = await importOnce(ctx, media, dir, base, PICTURES);
    const without = await importOnce(ctx, media, dir, base + ADVERTS, 0);
    record.fact(
      `import of the old site's adverts (${handle.kind}, ${os.cpus().length} cores): ${(withPictures.imported / withPictures.seconds).toFixed(2)} adverts/s ` +
        `with ${PICTURES} pictures of 1200×900 each (${withPictures.imported} adverts, ${(withPictures.pictures / withPictures.seconds).toFixed(1)} pictures/s, ` +
        `${withPictures.refused} refused); ${(without.imported / without.seconds).toFixed(0)} adverts/s without pictures (${without.imported} adverts)`,
    );
  } finally {
    await renderer.close();
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
}
