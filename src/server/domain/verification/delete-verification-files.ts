import { and, eq, isNull, lt } from 'drizzle-orm';
import { VERIFICATION_LIMITS } from '#lib/schemas/verification.ts';
import { verifications } from '../../db/schema.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import { SYSTEM, type DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';

const DAY = 86_400_000;

/**
 * The daily clean-up (job `verification.files`): the files of every verification decided more than
 * 30 days ago are deleted from private storage; the row stays (who decided, when, the outcome, the
 * method) with its files emptied and files_deleted_at set. Audited as the system. Answers how many.
 */
export async function deleteExpiredVerificationFiles(ctx: DomainContext, storage: MediaStorage): Promise<number> {
  const system = { ...ctx, actor: SYSTEM };
  const now = ctx.now();
  const due = await ctx.db
    .select()
    .from(verifications)
    .where(and(lt(verifications.decidedAt, new Date(now.getTime() - VERIFICATION_LIMITS.filesKeptDays * DAY)), isNull(verifications.filesDeletedAt)))
    .limit(500);
  for (const row of due) {
    for (const file of row.files) await storage.delete('private', file.key);
    await ctx.db.update(verifications).set({ files: [], filesDeletedAt: now }).where(eq(verifications.id, row.id));
    await writeAudit(system, {
      action: 'verification.files_deleted',
      targetType: 'verification',
      targetId: row.id,
      before: { files: row.files.map((file) => file.kind) },
      after: { files: [], filesDeletedAt: now },
    });
  }
  return due.length;
}
