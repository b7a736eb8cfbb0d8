import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import {
  MIGRATION_LIMITS,
  type MigratedAdvertData,
  type MigrationImportError,
  type MigrationLineError,
} from '#lib/schemas/migration.ts';
import type { Db } from '../../db/client.ts';
import { migratedAdverts, migrationImports, type MigratedPictureFile } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { ADVERT_TYPE, GENDER } from '../adverts/statuses.ts';
import { loadRiskWords } from '../moderation/risk-signals.ts';
import type { PictureMedia } from '../media/pictures.ts';
import { processPicture, removePictureFiles } from '../media/picture-processing.ts';
import { openExportArchive, type ExportArchive } from './archive.ts';
import { checkLine, loadPlaceIndex, type CheckedLine, type LineRefusal } from './check-line.ts';

/**
 * The import of one uploaded export archive (the job `migration-import`, jobs/migration-import-job.ts;
 * docs/migration-format.md). Line by line: a refused line is recorded with its number and reason and the
 * next is read; a line whose old id was imported before (by any file) is skipped; a good line's pictures
 * go through the upload pipeline (`processPicture`: type by content, metadata dropped, AVIF and WebP,
 * private) and the advert is stored in the same transaction as the import's progress. Progress is kept
 * as the number of the last line done, so a run cut short (a crash, a restart) continues after it; the
 * old id's uniqueness makes a line done twice (the crash fell between its pictures and its commit)
 * create nothing twice.
 */

/** Progress of refused and skipped lines is written at least this often (imported lines at once). */
const FLUSH_LINES = 100;
const FLUSH_MS = 1000;

/** Where the stored pictures of imported adverts live: `pictures/migrated/{uuid}…` (private until claimed). */
const PICTURE_FOLDER = 'migrated';

export type ImportRunDeps = {
  media: PictureMedia;
  /** Aborted when the server stops: the run ends between two lines (the queue runs it again later). */
  signal?: AbortSignal | undefined;
  /**
   * Called whenever progress is written (a test stops a run at a chosen line with it). The job's lock
   * needs nothing from here: the queue's worker renews it while the run works.
   */
  heartbeat?: (() => Promise<void>) | undefined;
};

type Pending = { done: number; skipped: number; errors: MigrationLineError[]; since: number; lines: number };

/** Runs (or continues) the import `importId`. A failure that another try cannot mend marks it failed and answers. */
export async function runMigrationImport(ctx: DomainContext, deps: ImportRunDeps, importId: number): Promise<void> {
  const [row] = await ctx.db.select().from(migrationImports).where(eq(migrationImports.id, importId));
  if (!row || row.status === 'done' || row.status === 'failed') return;
  const storage = deps.media.storage;
  if (!row.storageKey) return failImport(ctx.db, importId, 'archiveMissing', ctx.now());

  await ctx.db.update(migrationImports).set({ status: 'running', error: null }).where(eq(migrationImports.id, importId));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'migration-import-'));
  let archive: ExportArchive | null = null;
  try {
    const archivePath = path.join(dir, 'archive.zip');
    await storage.download('private', row.storageKey, archivePath);
    const opened = await openExportArchive(archivePath);
    if (!opened.ok) return await failImport(ctx.db, importId, opened.reason, ctx.now());
    archive = opened.archive;

    let totalLines = row.totalLines;
    if (totalLines === 0) {
      const counting = archive.lines();
      while (!(await counting.next()).done) totalLines += 1;
      await ctx.db.update(migrationImports).set({ totalLines }).where(eq(migrationImports.id, importId));
    }
    const [places, riskWords] = await Promise.all([loadPlaceIndex(ctx.db), loadRiskWords(ctx.db)]);

    const pending: Pending = { done: row.doneLines, skipped: 0, errors: [], since: Date.now(), lines: 0 };
    const flush = async (db: Db, imported = 0) => {
      await db
        .update(migrationImports)
        .set({
          doneLines: pending.done,
          importedLines: sql`${migrationImports.importedLines} + ${imported}`,
          skippedLines: sql`${migrationImports.skippedLines} + ${pending.skipped}`,
          lineErrors: sql`${migrationImports.lineErrors} || ${JSON.stringify(pending.errors)}::jsonb`,
        })
        .where(eq(migrationImports.id, importId));
      pending.skipped = 0;
      pending.errors = [];
      pending.lines = 0;
      pending.since = Date.now();
    };
    const flushNow = async () => {
      await flush(ctx.db);
      await deps.heartbeat?.();
    };

    let number = 0;
    for await (const { text, tooLong } of archive.lines()) {
      number += 1;
      if (number <= row.doneLines) continue;
      deps.signal?.throwIfAborted();
      pending.done = number;
      pending.lines += 1;
      const outcome: LineRefusal | CheckedLine | null = tooLong
        ? { ok: false, reason: 'lineTooLong' }
        : text.trim() === ''
          ? null
          : checkLine(text, places, riskWords);
      if (outcome && !outcome.ok) {
        pending.errors.push({ line: number, reason: outcome.reason, ...(outcome.detail ? { detail: outcome.detail } : {}) });
      } else if (outcome) {
        const result = await importLine(ctx, deps, archive, dir, number, importId, outcome, pending, flush);
        if (result === 'imported') {
          await deps.heartbeat?.();
          continue;
        }
      }
      if (pending.lines >= FLUSH_LINES || Date.now() - pending.since >= FLUSH_MS) await flushNow();
    }
    await flushNow();
    await ctx.db
      .update(migrationImports)
      .set({ status: 'done', finishedAt: ctx.now(), storageKey: null, totalLines: number })
      .where(eq(migrationImports.id, importId));
    // The archive has been read: only the imported adverts' own pictures stay.
    await storage.delete('private', row.storageKey);
  } finally {
    archive?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Marks the import failed for a reason no retry mends (the uploaded archive is kept: the same file uploaded again retries). */
export async function failImport(db: Db, importId: number, reason: MigrationImportError, now: Date): Promise<void> {
  await db.update(migrationImports).set({ status: 'failed', error: reason, finishedAt: now }).where(eq(migrationImports.id, importId));
}

/**
 * One checked line: skipped when its old id is already here, else its pictures stored and the advert
 * written with the progress in one transaction. Answers what happened; a refusal lands in `pending`.
 */
async function importLine(
  ctx: DomainContext,
  deps: ImportRunDeps,
  archive: ExportArchive,
  dir: string,
  number: number,
  importId: number,
  checked: CheckedLine,
  pending: Pending,
  flush: (db: Db, imported?: number) => Promise<void>,
): Promise<'imported' | 'skipped' | 'refused'> {
  const { line, place } = checked;
  const [existing] = await ctx.db.select({ id: migratedAdverts.id }).from(migratedAdverts).where(eq(migratedAdverts.oldId, line.oldId));
  if (existing) {
    pending.skipped += 1;
    return 'skipped';
  }
  const refuse = (reason: LineRefusal['reason'], detail: string): 'refused' => {
    pending.errors.push({ line: number, reason, detail });
    return 'refused';
  };

  const entries = line.pictures.map((name) => ({ name, entry: archive.entry(name) }));
  const missing = entries.find((item) => !item.entry);
  if (missing) return refuse('pictureMissing', missing.name);

  const stored: MigratedPictureFile[] = [];
  const dropStored = () => Promise.all(stored.map((picture) => removePictureFiles(deps.media.storage, { storageKey: picture.key, originalKey: picture.originalKey })));
  try {
    for (const [index, { name, entry }] of entries.entries()) {
      const filePath = path.join(dir, `picture-${index}`);
      let extracted: Awaited<ReturnType<ExportArchive['extract']>>;
      try {
        extracted = await archive.extract(entry!, filePath, MIGRATION_LIMITS.pictureBytes);
      } catch {
        // A damaged entry (its data does not unpack to its stated size): this line only.
        await dropStored();
        return refuse('pictureRefused', `${name}: unreadable`);
      }
      if (!extracted) {
        await dropStored();
        return refuse('pictureRefused', `${name}: tooLarge`);
      }
      // The same pipeline as an upload: the archive's name stands for the browser's (its extension must
      // agree with the content); an export states no Content-Type.
      const file = { path: filePath, fileName: path.posix.basename(name), mimetype: '', truncated: false };
      const outcome = await deps.media.work.run(() => processPicture(deps.media.storage, file, PICTURE_FOLDER, deps.media.render));
      await rm(filePath, { force: true });
      if (!outcome.ok) {
        await dropStored();
        return refuse('pictureRefused', `${name}: ${outcome.reason}`);
      }
      const picture = outcome.picture;
      stored.push({
        key: picture.storageKey,
        originalKey: picture.originalKey,
        sha256: extracted.sha256,
        width: picture.width,
        height: picture.height,
        variants: picture.variants,
        perceptualHash: picture.perceptualHash,
        fileName: name,
      });
    }

    const data: MigratedAdvertData = {
      title: line.title,
      introduction: line.introduction,
      description: line.description,
      titleEn: line.titleEn,
      introductionEn: line.introductionEn,
      descriptionEn: line.descriptionEn,
      age: line.age,
      prices: line.prices.map((item) => ({
        durationMinutes: item.DurationMinutes,
        incallPriceOre: item.IncallPrice,
        outcallPriceOre: item.OutcallPrice,
        description: item.Description,
      })),
      extraPrices: line.extraPrices.map((item) => ({ description: item.Description, priceOre: item.Price })),
      regionName: line.region,
      cityName: line.city,
    };
    const now = ctx.now();
    const inserted = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(migratedAdverts)
        .values({
          oldId: line.oldId,
          importId,
          line: number,
          state: 'imported',
          kind: line.kind === 'thai-massage' ? ADVERT_TYPE.ThaiMassage : ADVERT_TYPE.IndependentEscort,
          gender: line.gender === 'transgender' ? GENDER.Transgender : GENDER.Woman,
          name: line.name,
          oldSlug: line.slug,
          email: line.email,
          phone: line.phone,
          regionId: place.regionId,
          cityId: place.cityId,
          data,
          pictures: stored,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: migratedAdverts.oldId })
        .returning({ id: migratedAdverts.id });
      // Another run took the old id meanwhile: this line is a skip after all.
      if (!row) pending.skipped += 1;
      await flush(tx, row ? 1 : 0);
      return row !== undefined;
    });
    if (!inserted) {
      await dropStored();
      return 'skipped';
    }
    return 'imported';
  } catch (error) {
    await dropStored().catch(() => {});
    throw error;
  }
}
