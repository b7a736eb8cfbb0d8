import { and, asc, eq, isNull } from 'drizzle-orm';
import * as v from 'valibot';
import {
  REVIEW_FIELDS,
  REVIEW_VALUE_SCHEMAS,
  type ReviewAdvertAnswer,
  type ReviewField,
  type ReviewNames,
  type ReviewValues,
  type SaveReviewInput,
} from '#lib/schemas/review.ts';
import { anyOf } from '../../db/any-of.ts';
import { accounts, adverts, cities, languages, nationalities, pictures, regions, services, videos, type Advert, type PendingChanges } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound, type FieldError } from '../errors.ts';
import { startWaitingPackages } from '../commerce/fulfilment.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { applyModeratedValues, pendingSinceAfter } from '../adverts/moderated-edit.ts';
import { publishAdvertChange } from '../adverts/own-advert.ts';
import { changeAdvertStatus, requireStatusChange, statusChangerOf } from '../adverts/change-status.ts';
import { INTRODUCTORY_PERIOD_DAYS, PROFILE_STATUS, kindOf } from '../adverts/statuses.ts';
import { formatDate } from '#lib/format.ts';
import { requireVerifiedForLive } from '../verification/require-verified.ts';
import { MODERATION, backendPicture } from '../media/pictures.ts';
import { backendVideo } from '../media/videos.ts';
import { issueStatementOfReasons, noticeToAdvertiser } from './statements.ts';
import { riskSignalsFor } from './risk-signals.ts';
import {
  REVIEW_FIELD_LABELS,
  MODERATED_FIELDS_OF,
  currentReviewValues,
  pendingReviewFields,
  proposedValue,
  toModeratedValues,
} from './review-fields.ts';

/**
 * Support's review of one advert (issue 6 "Moderation": `review/{id}` and `review-adverts/{id}`; spec §4):
 * a new advert, or an approved one with pending changes, field by field. Each field is approved (the
 * proposal is published), modified (support's value, checked with the advertiser's form rules, is
 * published) or refused (the proposal is dropped and the advertiser told why), and all is saved at once.
 * Values are written with `applyModeratedValues` and published with `publishAdvertChange`, the code path
 * of the advertiser's own edits (docs/decisions/011). A new advert is approved (New → Active through the
 * status table, only when its owner is verified: `requireVerifiedForLive`) or declined (New → Locked, a
 * statement of reasons 'advert.locked' with the reason and rule, which the advertiser can appeal).
 * Pending pictures and videos are listed here and decided with the media calls (approveimageitem, …).
 */

const PERMISSION = 'advert:moderate:any';

async function findAdvert(ctx: DomainContext, id: number): Promise<Advert> {
  const [advert] = await ctx.db.select().from(adverts).where(and(eq(adverts.id, id), isNull(adverts.deletedAt))).limit(1);
  if (!advert || advert.status === PROFILE_STATUS.Deleted) throw notFound('Advert');
  return advert;
}

const isNewAdvert = (advert: Advert): boolean => advert.status === PROFILE_STATUS.New;

/** The names of the regions, cities, services, languages and nationalities these values refer to. */
async function namesOf(ctx: DomainContext, values: readonly unknown[][]): Promise<ReviewNames> {
  const ids = { regions: new Set<number>(), cities: new Set<number>(), services: new Set<number>(), languages: new Set<number>(), nationalities: new Set<number>() };
  const add = (set: Set<number>, value: unknown) => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) set.add(value);
  };
  for (const [field, value] of values) {
    if (value === null || value === undefined) continue;
    if (field === 'location') {
      add(ids.regions, (value as ReviewValues['location']).regionId);
      add(ids.cities, (value as ReviewValues['location']).cityId);
    } else if (field === 'services' || field === 'languages') {
      if (Array.isArray(value)) for (const id of value) add(ids[field], id);
    } else if (field === 'nationality') {
      add(ids.nationalities, value);
    }
  }
  const list = (set: Set<number>) => [...set];
  const [regionRows, cityRows, serviceRows, languageRows, nationalityRows] = await Promise.all([
    ctx.db.select({ id: regions.id, da: regions.name, en: regions.nameEn }).from(regions).where(anyOf(regions.id, list(ids.regions))),
    ctx.db.select({ id: cities.id, name: cities.name }).from(cities).where(anyOf(cities.id, list(ids.cities))),
    ctx.db.select({ id: services.id, da: services.nameDa, en: services.nameEn }).from(services).where(anyOf(services.id, list(ids.services))),
    ctx.db.select({ id: languages.id, da: languages.nameDa, en: languages.nameEn }).from(languages).where(anyOf(languages.id, list(ids.languages))),
    ctx.db.select({ id: nationalities.id, da: nationalities.nameDa, en: nationalities.nameEn }).from(nationalities).where(anyOf(nationalities.id, list(ids.nationalities))),
  ]);
  const both = (rows: { id: number; da: string; en: string }[]) => Object.fromEntries(rows.map((row) => [String(row.id), { da: row.da, en: row.en }]));
  return {
    regions: both(regionRows),
    cities: Object.fromEntries(cityRows.map((row) => [String(row.id), row.name])),
    services: both(serviceRows),
    languages: both(languageRows),
    nationalities: both(nationalityRows),
  };
}

/** reviewadvert (GET): every review field with its approved and proposed value, the pending media and the risk signals. */
export async function getReviewAdvert(ctx: DomainContext, id: number): Promise<ReviewAdvertAnswer> {
  requirePermission(ctx.actor, PERMISSION);
  const advert = await findAdvert(ctx, id);
  const [current, [account], pictureRows, videoRows, risks] = await Promise.all([
    currentReviewValues(ctx.db, advert),
    ctx.db.select({ id: accounts.id, email: accounts.email, dateOfBirth: accounts.dateOfBirth }).from(accounts).where(eq(accounts.id, advert.accountId)),
    ctx.db
      .select()
      .from(pictures)
      .where(and(eq(pictures.advertId, advert.id), eq(pictures.moderationStatus, MODERATION.pending), isNull(pictures.deletedAt)))
      .orderBy(asc(pictures.createdAt), asc(pictures.id)),
    // Only videos that finished converting can be looked at.
    ctx.db
      .select()
      .from(videos)
      .where(and(eq(videos.advertId, advert.id), eq(videos.moderationStatus, 0), eq(videos.status, 2), isNull(videos.deletedAt)))
      .orderBy(asc(videos.createdAt), asc(videos.id)),
    riskSignalsFor(ctx.db, [advert.id]),
  ]);
  const isNew = isNewAdvert(advert);
  const pendingFields = new Set(pendingReviewFields(advert.pendingChanges));
  const risk = risks.get(advert.id) ?? { risk: [], details: { words: [], samePhoneAdvertIds: [], samePictureAdvertIds: [] } };
  const fields = REVIEW_FIELDS.map((field) => ({
    field,
    current: isNew ? null : current[field],
    proposed: proposedValue(field, current, advert.pendingChanges),
    pending: isNew || pendingFields.has(field),
  }));
  return {
    advertId: advert.id,
    name: advert.name,
    kind: kindOf(advert),
    status: advert.status,
    isNew,
    validationStatus: advert.validationStatus,
    ageVerifiedAt: advert.ageVerifiedAt?.toISOString() ?? null,
    account: { id: account!.id, email: account!.email, dateOfBirth: account!.dateOfBirth },
    createdAt: advert.createdAt.toISOString(),
    pendingSince: advert.pendingSince?.toISOString() ?? null,
    fields,
    pictures: pictureRows.map((row) => backendPicture(row, 'support')),
    videos: videoRows.map((row) => backendVideo(row, 'support')),
    risk: risk.risk,
    riskDetails: risk.details,
    names: await namesOf(ctx, fields.flatMap((row) => [[row.field, row.current], [row.field, row.proposed]])),
  };
}

const invalid = (fields: FieldError[]) => new AppError('INVALID', 'Some required fields are missed', fields);

/** Support's value for a field, checked with the advertiser's form rules and against the reference data. */
async function checkedValue(ctx: DomainContext, field: ReviewField, raw: unknown): Promise<unknown> {
  const result = v.safeParse(REVIEW_VALUE_SCHEMAS[field], raw);
  if (!result.success) {
    throw invalid(
      result.issues.map((issue) => ({
        field: [field, ...(issue.path ?? []).map((p) => String(p.key))].join('.'),
        message: issue.message,
      })),
    );
  }
  const value = result.output as ReviewValues[ReviewField];
  if (field === 'location') {
    const place = value as ReviewValues['location'];
    const [city] = await ctx.db.select({ regionId: cities.regionId }).from(cities).where(eq(cities.id, place.cityId!));
    if (!city) throw invalid([{ field: 'location.CityId', message: 'invalid' }]);
    if (city.regionId !== place.regionId) throw invalid([{ field: 'location.RegionId', message: 'invalid' }]);
  }
  const ids = value as number[];
  if (field === 'services' && ids.length) {
    const known = await ctx.db.select({ id: services.id }).from(services).where(anyOf(services.id, ids));
    if (known.length !== ids.length) throw invalid([{ field, message: 'ids' }]);
  }
  if (field === 'languages' && ids.length) {
    const known = await ctx.db.select({ id: languages.id }).from(languages).where(anyOf(languages.id, ids));
    if (known.length !== ids.length) throw invalid([{ field, message: 'ids' }]);
  }
  if (field === 'nationality' && value !== null) {
    const [known] = await ctx.db.select({ id: nationalities.id }).from(nationalities).where(eq(nationalities.id, value as number));
    if (!known) throw invalid([{ field, message: 'invalid' }]);
  }
  return value;
}

type Decision = { field: ReviewField; action: 'approve' | 'modify' | 'refuse'; value?: unknown; reason: string };

/**
 * reviewadvert (POST): the decisions on the fields, then Approve or Decline for a new advert, in one save.
 * The field values and pending changes are written in one transaction; the status change follows its
 * commit through `changeAdvertStatus` (which refreshes the search index, and that must see committed rows).
 * Everything is checked before anything is written: a field that is not pending cannot be approved or
 * refused (400 `notPending`, naming it); a modified value must pass the form's rules (400 naming
 * `{field}` or `{field}.{Part}`); Approve or Decline of an advert that is not new: 409 `notNew`; Approve
 * of an advert whose owner is not verified: 409 `Approve` `notVerified`. The field writes run in one
 * transaction; each field is audited with before and after. Afterwards the advertiser is told what was
 * refused (with the reasons) and changed, and, for a new advert, that it was approved or declined.
 */
export async function saveReview(ctx: DomainContext, input: SaveReviewInput, deps: { messaging: Messaging }): Promise<ReviewAdvertAnswer> {
  requirePermission(ctx.actor, PERMISSION);
  const advert = await findAdvert(ctx, input.Id);
  const isNew = isNewAdvert(advert);
  const pending: PendingChanges = { ...(advert.pendingChanges ?? {}) };
  const pendingFields = new Set(pendingReviewFields(advert.pendingChanges));

  // 1. Check everything.
  const notPending = input.Fields.filter((f) => f.Action !== 'modify' && !isNew && !pendingFields.has(f.Field));
  if (notPending.length) throw invalid(notPending.map((f) => ({ field: f.Field, message: 'notPending' })));
  // A new advert's values are already its own: a refusal needs a proposal to drop (else modify or decline).
  const nothingToRefuse = input.Fields.filter((f) => f.Action === 'refuse' && !pendingFields.has(f.Field));
  if (nothingToRefuse.length) throw invalid(nothingToRefuse.map((f) => ({ field: f.Field, message: 'notPending' })));
  if ((input.Approve || input.Decline) && !isNew) {
    throw new AppError('CONFLICT', 'Only a new advert can be approved or declined', [{ field: input.Approve ? 'Approve' : 'Decline', message: 'notNew' }]);
  }
  if (input.Approve || input.Decline) {
    requireStatusChange(advert.status, input.Approve ? PROFILE_STATUS.Active : PROFILE_STATUS.Locked, statusChangerOf(ctx));
  }
  if (input.Approve) {
    try {
      requireVerifiedForLive(advert);
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, error.message, [{ field: 'Approve', message: 'notVerified' }]);
      throw error;
    }
  }
  const decisions: Decision[] = [];
  for (const f of input.Fields) {
    decisions.push({
      field: f.Field,
      action: f.Action,
      reason: f.Reason,
      ...(f.Action === 'modify' ? { value: await checkedValue(ctx, f.Field, f.Value) } : {}),
    });
  }

  // 2. Write, in one transaction.
  const current = await currentReviewValues(ctx.db, advert);
  const now = ctx.now();
  const supportUserId = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  let changedPublic = false;
  await ctx.db.transaction(async (tx) => {
    const txCtx: DomainContext = { ...ctx, db: tx };
    for (const decision of decisions) {
      const keys = MODERATED_FIELDS_OF[decision.field];
      const proposed = proposedValue(decision.field, current, advert.pendingChanges);
      const hadProposal = keys.some((k) => k in pending);
      let after: unknown = null;
      if (decision.action === 'approve' && hadProposal) {
        const values = Object.fromEntries(keys.filter((k) => k in pending).map((k) => [k, pending[k]]));
        await applyModeratedValues(tx, advert.id, values);
        after = proposed;
        changedPublic = true;
      } else if (decision.action === 'approve') {
        after = proposed;
      } else if (decision.action === 'modify') {
        if (decision.field === 'type') await tx.update(adverts).set({ kind: decision.value as number }).where(eq(adverts.id, advert.id));
        else if (decision.field === 'gender') await tx.update(adverts).set({ gender: decision.value as number }).where(eq(adverts.id, advert.id));
        else await applyModeratedValues(tx, advert.id, toModeratedValues(decision.field, decision.value));
        after = decision.value;
        changedPublic = true;
      }
      for (const key of keys) delete pending[key];
      await writeAudit(txCtx, {
        action: `advert.review.${decision.action}`,
        targetType: 'advert',
        targetId: advert.id,
        before: { field: decision.field, current: current[decision.field], proposed },
        after: { field: decision.field, value: decision.action === 'refuse' ? current[decision.field] : after },
        reason: decision.reason || null,
      });
    }
    // Approving a new advert publishes it as proposed, including what is still pending.
    if (input.Approve && Object.keys(pending).length) {
      await applyModeratedValues(tx, advert.id, pending);
      for (const key of Object.keys(pending)) delete pending[key];
    }
    const nextPending = Object.keys(pending).length ? pending : null;
    await tx
      .update(adverts)
      .set({ pendingChanges: nextPending, pendingSince: pendingSinceAfter(advert, nextPending, now) })
      .where(eq(adverts.id, advert.id));
  });
  // The status changes after the commit: changeAdvertStatus refreshes the search index, which must see committed rows.
  // The first approval starts the packages paid while the advert could not be shown (issue 29); an
  // advert that never had a package gets the introductory period (docs/decisions/016).
  const started = input.Approve && advert.approvedAt === null ? await ctx.db.transaction((tx) => startWaitingPackages(tx, advert.id, now)) : null;
  const expirationDate = started ?? advert.expirationDate ?? new Date(now.getTime() + INTRODUCTORY_PERIOD_DAYS * 86_400_000);
  if (input.Approve) {
    await changeAdvertStatus(ctx, advert, PROFILE_STATUS.Active, {
      action: 'advert.approve',
      extra: { approvedAt: now, approvedBy: supportUserId, statusReason: null, expirationDate },
    });
  } else if (input.Decline) {
    await changeAdvertStatus(ctx, advert, PROFILE_STATUS.Locked, {
      action: 'advert.decline',
      extra: { statusReason: input.Decline.Reason },
      reason: input.Decline.Reason,
    });
  } else if (changedPublic) {
    await publishAdvertChange(ctx, advert.id, 'advert.review');
  }

  // 3. Tell the advertiser.
  const refused = decisions.filter((d) => d.action === 'refuse');
  const modified = decisions.filter((d) => d.action === 'modify');
  if (refused.length || modified.length) await noticeToAdvertiser(ctx, advert.accountId, reviewNotice(refused, modified), deps);
  if (input.Approve) {
    await noticeToAdvertiser(
      ctx,
      advert.accountId,
      {
        titleDa: 'Din annonce er godkendt',
        titleEn: 'Your advert is approved',
        bodyDa: `Support har godkendt din annonce. Den vises på siden til og med ${formatDate(expirationDate)} og derefter, så længe du har en aktiv pakke.`,
        bodyEn: `Support approved your advert. It is shown on the site until ${formatDate(expirationDate)} and after that while you have an active package.`,
        link: '/backend/',
      },
      deps,
    );
  }
  if (input.Decline) {
    await issueStatementOfReasons(
      ctx,
      { advertId: advert.id, accountId: advert.accountId, decision: 'advert.locked', what: advert.name, reason: input.Decline.Reason, rule: input.Decline.Rule },
      deps,
    );
  }
  return getReviewAdvert(ctx, advert.id);
}

/** The advertiser's notice of refused proposals (each with support's reason) and of values support changed. */
function reviewNotice(refused: Decision[], modified: Decision[]) {
  const list = (items: Decision[], lang: 'da' | 'en', withReason: boolean) =>
    items
      .map((d) => {
        const label = REVIEW_FIELD_LABELS[d.field][lang];
        if (!withReason) return label;
        return lang === 'da' ? `${label} (begrundelse: ${d.reason})` : `${label} (reason: ${d.reason})`;
      })
      .join('; ');
  const da = [
    refused.length ? `Support har ikke godkendt disse ændringer i din annonce: ${list(refused, 'da', true)}. Annoncen viser fortsat de godkendte oplysninger.` : '',
    modified.length ? `Support har rettet: ${list(modified, 'da', false)}.` : '',
  ];
  const en = [
    refused.length ? `Support did not approve these changes to your advert: ${list(refused, 'en', true)}. Your advert keeps showing the approved details.` : '',
    modified.length ? `Support corrected: ${list(modified, 'en', false)}.` : '',
  ];
  return {
    titleDa: refused.length ? 'Ændringer i din annonce blev afvist' : 'Support har rettet din annonce',
    titleEn: refused.length ? 'Changes to your advert were declined' : 'Support corrected your advert',
    bodyDa: da.filter(Boolean).join(' '),
    bodyEn: en.filter(Boolean).join(' '),
    link: '/backend/basic/',
  };
}
