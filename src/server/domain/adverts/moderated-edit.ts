import { and, eq } from 'drizzle-orm';
import { slugify } from '#lib/format.ts';
import { advertLanguages, advertServices, adverts, type Advert, type PendingChanges } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { planModeratedChange, type ModeratedField, type ModeratedValues } from './pending-changes.ts';
import { publishAdvertChange, type AdvertChange } from './own-advert.ts';
import { requireNoRiskWords } from '../moderation/risk-signals.ts';

/**
 * Writes moderated values to the advert as the public will see them: the columns, the slug with the
 * name, the place, and the language and service lists. Used when an edit applies directly (a new advert)
 * and, later, when support approves a pending field (the support issue).
 */
export async function applyModeratedValues(db: Db, advertId: number, values: ModeratedValues): Promise<void> {
  const columns: AdvertChange = {};
  for (const [field, value] of Object.entries(values) as [ModeratedField, unknown][]) {
    switch (field) {
      case 'name':
        columns.name = value as string;
        columns.slug = slugify(value as string) || 'annonce';
        break;
      case 'location': {
        const place = value as { regionId: number; cityId: number };
        columns.regionId = place.regionId;
        columns.cityId = place.cityId;
        break;
      }
      case 'languageIds':
        await db.delete(advertLanguages).where(eq(advertLanguages.advertId, advertId));
        if ((value as number[]).length) {
          await db.insert(advertLanguages).values((value as number[]).map((languageId) => ({ advertId, languageId })));
        }
        break;
      case 'serviceIds':
        await db.delete(advertServices).where(eq(advertServices.advertId, advertId));
        if ((value as number[]).length) {
          await db.insert(advertServices).values((value as number[]).map((serviceId) => ({ advertId, serviceId })));
        }
        break;
      default:
        (columns as Record<string, unknown>)[field] = value;
    }
  }
  if (Object.keys(columns).length) await db.update(adverts).set(columns).where(eq(adverts.id, advertId));
}

/**
 * When an advert's pending changes started waiting (the review queue's "since"): kept while something
 * stays pending, now when pending changes appear, null when none are left.
 */
export function pendingSinceAfter(advert: Pick<Advert, 'pendingChanges' | 'pendingSince'>, pending: PendingChanges | null, now: Date): Date | null {
  if (!pending || !Object.keys(pending).length) return null;
  const hadPending = advert.pendingChanges !== null && Object.keys(advert.pendingChanges).length > 0;
  return hadPending && advert.pendingSince ? advert.pendingSince : now;
}

/**
 * One advertiser edit of moderated fields (docs/decisions/011): decides what applies now and what waits
 * for support (`planModeratedChange`), writes both, audits before/after, and publishes the change when
 * the public advert changed. `approved` are the advert's current (approved) values of the same fields.
 */
export async function saveModeratedEdit(
  ctx: DomainContext,
  advert: Advert,
  input: { action: string; approved: ModeratedValues; wanted: ModeratedValues },
): Promise<{ pendingFields: ModeratedField[] }> {
  // Words that suggest a minor block the save (issue 6 risk signals), whether the text applies or waits.
  const { name, title, introduction, description } = input.wanted;
  await requireNoRiskWords(ctx.db, { name, title, introduction, description });
  const plan = planModeratedChange(input.approved, input.wanted, advert.pendingChanges, advert.approvedAt !== null);
  await ctx.db.transaction(async (tx) => {
    await applyModeratedValues(tx, advert.id, plan.apply);
    await tx
      .update(adverts)
      .set({ pendingChanges: plan.pending, pendingSince: pendingSinceAfter(advert, plan.pending, ctx.now()) })
      .where(and(eq(adverts.id, advert.id), eq(adverts.accountId, advert.accountId)));
  });
  await writeAudit(ctx, {
    action: input.action,
    targetType: 'advert',
    targetId: advert.id,
    before: { values: input.approved, pendingChanges: advert.pendingChanges },
    after: { applied: plan.apply, pendingChanges: plan.pending },
  });
  if (Object.keys(plan.apply).length) await publishAdvertChange(ctx, advert.id, input.action);
  return { pendingFields: plan.pendingFields };
}
