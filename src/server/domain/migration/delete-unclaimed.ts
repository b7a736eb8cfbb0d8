import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import { MIGRATION_UNCLAIMED_DAYS } from '#lib/schemas/migration.ts';
import { migratedAdverts, type MigratedPictureFile } from '../../db/schema.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { removePictureFiles } from '../media/picture-processing.ts';

/**
 * The cleanup of imports nobody claimed (run daily by the job `migration.cleanup`): an imported advert
 * not claimed MIGRATION_UNCLAIMED_DAYS after its import (imported, invited, duplicate or refused) loses
 * its personal data (name, email, phone, texts, prices, support's reason, the claim link) and its
 * pictures' files, and becomes `deleted`. The row, its old id and its old slug stay: the old address
 * answers Gone (our server by the id; Netlify's _redirects needs the whole address, docs/decisions/032)
 * and the id is never used again. An import support merged into an existing advert (duplicate with an
 * advert) keeps its state and its link to that advert, so its old address goes on leading there; it loses
 * the imported data and pictures all the same. Answers how many; call until it answers 0.
 */

const UNCLAIMED_STATES = ['imported', 'invited', 'duplicate', 'refused'];

/** What an import forgets of its person (unclaimed and expired, or its account erased): the old id and state stay. */
export const forgottenImport = (): Partial<typeof migratedAdverts.$inferInsert> => ({ email: null, phone: null, data: {}, pictures: [], refusedReason: null, claimTokenHash: null, claimExpiresAt: null });

/** Removes the files of an import's pictures (a missing file is not an error: safe to repeat). */
export async function removeImportFiles(storage: MediaStorage, files: readonly MigratedPictureFile[]): Promise<void> {
  for (const picture of files) await removePictureFiles(storage, { storageKey: picture.key, originalKey: picture.originalKey });
}
const BATCH = 100;

export async function deleteUnclaimedImports(ctx: DomainContext, storage: MediaStorage): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - MIGRATION_UNCLAIMED_DAYS * 86_400_000);
  const rows = await ctx.db
    .select({ id: migratedAdverts.id, state: migratedAdverts.state, pictures: migratedAdverts.pictures, advertId: migratedAdverts.advertId })
    .from(migratedAdverts)
    .where(and(inArray(migratedAdverts.state, UNCLAIMED_STATES), isNull(migratedAdverts.deletedAt), isNull(migratedAdverts.claimedAt), lt(migratedAdverts.createdAt, cutoff)))
    .orderBy(asc(migratedAdverts.id))
    .limit(BATCH);
  for (const row of rows) {
    // Files first: a failure here leaves the row to be tried again at the next run.
    await removeImportFiles(storage, row.pictures);
    const now = ctx.now();
    const merged = row.state === 'duplicate' && row.advertId !== null;
    await ctx.db
      .update(migratedAdverts)
      .set({
        state: merged ? 'duplicate' : 'deleted',
        name: merged ? undefined : '',
        ...forgottenImport(),
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(migratedAdverts.id, row.id));
    await writeAudit(ctx, { action: 'migration.delete', targetType: 'migrated_advert', targetId: row.id, before: { state: row.state }, after: { state: merged ? 'duplicate' : 'deleted' } });
  }
  return rows.length;
}
