import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { MigrationImport, MigrationImportError, MigrationImportStatus, MigrationLineError } from '#lib/schemas/migration.ts';
import { migrationImports } from '../../db/schema.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { openExportArchive } from './archive.ts';

/**
 * Support uploads an export archive of the old site (POST migrationimport; docs/migration-format.md):
 * checked as an archive with its adverts file, kept in private storage until the job has read it, and
 * queued for the durable job `migration-import`. The same file (by SHA-256) is imported once: uploaded
 * again it answers the earlier import (a failed one is tried again).
 */

export const MIGRATION_PERMISSION = 'migration:manage:any';

type MigrationImportRow = typeof migrationImports.$inferSelect;

/** The uploaded file, streamed to disk by the door with its size and SHA-256. */
export type UploadedArchive = { path: string; fileName: string; bytes: number; sha256: string; truncated: boolean };

export function migrationImportAnswer(row: MigrationImportRow): MigrationImport {
  return {
    id: row.id,
    fileName: row.fileName,
    status: row.status as MigrationImportStatus,
    error: (row.error as MigrationImportError | null) ?? null,
    totalLines: row.totalLines,
    doneLines: row.doneLines,
    importedLines: row.importedLines,
    skippedLines: row.skippedLines,
    lineErrors: row.lineErrors as MigrationLineError[],
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

const refused = (message: string) => new AppError('INVALID', 'The file was refused', [{ field: 'File', message }]);

/**
 * Starts (or finds) the import of an uploaded archive. `queueImport` queues the job (the jobs layer's,
 * given by the door). Answers the import and whether this upload created it.
 */
export async function startMigrationImport(
  ctx: DomainContext,
  deps: { storage: MediaStorage; queueImport: (importId: number) => Promise<void> },
  file: UploadedArchive,
): Promise<{ created: boolean; import: MigrationImport }> {
  requirePermission(ctx.actor, MIGRATION_PERMISSION);
  if (file.truncated) throw refused('archiveTooLarge');

  const [earlier] = await ctx.db.select().from(migrationImports).where(eq(migrationImports.sha256, file.sha256));
  if (earlier) return { created: false, import: migrationImportAnswer(await retryIfFailed(ctx, deps, earlier, file)) };

  const storageKey = await keepArchive(deps.storage, file);
  const [row] = await ctx.db
    .insert(migrationImports)
    .values({
      fileName: file.fileName.slice(0, 200),
      sha256: file.sha256,
      storageKey,
      status: 'queued',
      createdBy: ctx.actor.type === 'support' ? ctx.actor.supportUserId : null,
      createdAt: ctx.now(),
    })
    .onConflictDoNothing({ target: migrationImports.sha256 })
    .returning();
  if (!row) {
    // The same file uploaded twice at once: the other upload's import is the one.
    await deps.storage.delete('private', storageKey);
    const [other] = await ctx.db.select().from(migrationImports).where(eq(migrationImports.sha256, file.sha256));
    if (!other) throw notFound('Import');
    return { created: false, import: migrationImportAnswer(other) };
  }
  await writeAudit(ctx, {
    action: 'migration.upload',
    targetType: 'migration_import',
    targetId: row.id,
    after: { fileName: row.fileName, sha256: row.sha256, bytes: file.bytes },
  });
  await deps.queueImport(row.id);
  return { created: true, import: migrationImportAnswer(row) };
}

/** Checks the uploaded file as an export archive and keeps it in private storage; answers its key. */
async function keepArchive(storage: MediaStorage, file: UploadedArchive): Promise<string> {
  const opened = await openExportArchive(file.path);
  if (!opened.ok) throw refused(opened.reason);
  opened.archive.close();
  const storageKey = `migration/${randomUUID()}.zip`;
  await storage.putFile('private', storageKey, file.path, 'application/zip');
  return storageKey;
}

/**
 * A failed import is queued again (the job continues after its last line done), with this upload's copy
 * of the file when the earlier one is no longer kept.
 */
async function retryIfFailed(
  ctx: DomainContext,
  deps: { storage: MediaStorage; queueImport: (importId: number) => Promise<void> },
  row: MigrationImportRow,
  file: UploadedArchive,
): Promise<MigrationImportRow> {
  if (row.status !== 'failed') return row;
  const storageKey = row.storageKey ?? (await keepArchive(deps.storage, file));
  const [queued] = await ctx.db
    .update(migrationImports)
    .set({ status: 'queued', error: null, finishedAt: null, storageKey })
    .where(eq(migrationImports.id, row.id))
    .returning();
  await writeAudit(ctx, { action: 'migration.retry', targetType: 'migration_import', targetId: row.id, before: { status: row.status, error: row.error } });
  await deps.queueImport(row.id);
  return queued ?? row;
}

/** migrationimport (GET): one import's progress and refused lines. */
export async function getMigrationImport(ctx: DomainContext, id: number): Promise<MigrationImport> {
  requirePermission(ctx.actor, MIGRATION_PERMISSION);
  const [row] = await ctx.db.select().from(migrationImports).where(eq(migrationImports.id, id));
  if (!row) throw notFound('Import');
  return migrationImportAnswer(row);
}

/** How many imports migrationimports lists, newest first. */
export const RECENT_IMPORTS = 20;

/** migrationimports: the latest imports, newest first, without their refused lines (migrationimport has them). */
export async function listMigrationImports(ctx: DomainContext): Promise<Omit<MigrationImport, 'lineErrors'>[]> {
  requirePermission(ctx.actor, MIGRATION_PERMISSION);
  const rows = await ctx.db.select().from(migrationImports).orderBy(desc(migrationImports.id)).limit(RECENT_IMPORTS);
  return rows.map((row) => {
    const { lineErrors: _lineErrors, ...answer } = migrationImportAnswer(row);
    return answer;
  });
}
