import { eq } from 'drizzle-orm';
import { VALIDATION_STATUS, VERIFICATION_STATUS } from '#lib/schemas/verification.ts';
import { adverts, verifications } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { changeAdvertStatus } from '../adverts/change-status.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { publishAdvertChange } from '../adverts/own-advert.ts';
import { isTestProviderRow, type VerificationPolicy } from './support-validation.ts';

/**
 * An appeal against a declined or rejected verification was upheld for the advertiser (reversed): the
 * verification counts as accepted after all (the advert is verified), and an advert the rejection locked
 * is unlocked (Active when support had approved it, else New). A TEST provider's result is not verified
 * where the policy refuses it (production): nothing changes. Answers what was restored, or null when the
 * verification is gone or was not declined or rejected. The appeal's decider acts (audited).
 */
export async function reverseVerificationDecision(ctx: DomainContext, verificationId: number, policy: VerificationPolicy): Promise<string | null> {
  const [row] = await ctx.db.select().from(verifications).where(eq(verifications.id, verificationId)).limit(1);
  if (!row || (row.status !== VERIFICATION_STATUS.Declined && row.status !== VERIFICATION_STATUS.Rejected)) return null;
  // A TEST provider checked no age: in production its result never verifies, not even through an appeal.
  if (isTestProviderRow(row) && !policy.testResultsMayVerify) return 'verification.testProviderResult';
  const now = ctx.now();
  await ctx.db.update(verifications).set({ status: VERIFICATION_STATUS.Validated }).where(eq(verifications.id, row.id));
  const [advert] = row.advertId === null ? [] : await ctx.db.select().from(adverts).where(eq(adverts.id, row.advertId)).limit(1);
  let unlocked = false;
  if (advert) {
    await ctx.db
      .update(adverts)
      .set({ validationStatus: VALIDATION_STATUS.Validated, ageVerifiedAt: advert.ageVerifiedAt ?? now })
      .where(eq(adverts.id, advert.id));
    if (row.status === VERIFICATION_STATUS.Rejected && advert.status === PROFILE_STATUS.Locked && advert.deletedAt === null) {
      const to = advert.approvedAt ? PROFILE_STATUS.Active : PROFILE_STATUS.New;
      await changeAdvertStatus(ctx, advert, to, { action: 'advert.unlock', extra: { statusReason: null }, reason: 'appeal reversed' });
      unlocked = true;
    } else {
      await publishAdvertChange(ctx, advert.id, 'validation.reverse');
    }
  }
  await writeAudit(ctx, {
    action: 'validation.reverse',
    targetType: 'verification',
    targetId: row.id,
    before: { status: row.status, validationStatus: advert?.validationStatus ?? null, advertStatus: advert?.status ?? null },
    after: { status: VERIFICATION_STATUS.Validated, validationStatus: VALIDATION_STATUS.Validated, advertUnlocked: unlocked },
  });
  return unlocked ? 'verification.validated+advert.unlocked' : 'verification.validated';
}
