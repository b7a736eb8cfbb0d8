import { asc, eq } from 'drizzle-orm';
import type { PersonalDetailsInput } from '#lib/schemas/advert-edit.ts';
import { anyOf } from '../../db/any-of.ts';
import { advertLanguages, languages, nationalities, type Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { getOwnAdvert } from './own-advert.ts';
import { pendingOf, type ModeratedField, type ModeratedValues } from './pending-changes.ts';
import { saveModeratedEdit } from './moderated-edit.ts';

import type { PersonalDetails, PersonalDetailsAnswer } from '#lib/schemas/backend-answers.ts';

export type { PersonalDetails, PersonalDetailsAnswer };


const PERSONAL_FIELDS: readonly ModeratedField[] = ['age', 'height', 'weight', 'breastType', 'nationalityId', 'languageIds'];

async function personalValuesOf(ctx: DomainContext, advert: Advert): Promise<PersonalDetails> {
  const rows = await ctx.db
    .select({ id: advertLanguages.languageId })
    .from(advertLanguages)
    .where(eq(advertLanguages.advertId, advert.id))
    .orderBy(asc(advertLanguages.languageId));
  return {
    age: advert.age,
    height: advert.height,
    weight: advert.weight,
    breastType: advert.breastType,
    nationalityId: advert.nationalityId,
    languageIds: rows.map((row) => row.id),
  };
}

async function answerOf(ctx: DomainContext, advert: Advert): Promise<PersonalDetailsAnswer> {
  const pending = pendingOf(advert.pendingChanges, PERSONAL_FIELDS);
  const [current, nationalityRows, languageRows] = await Promise.all([
    personalValuesOf(ctx, advert),
    ctx.db.select().from(nationalities).orderBy(asc(nationalities.nameDa)),
    ctx.db.select().from(languages).orderBy(asc(languages.nameDa)),
  ]);
  return {
    approved: advert.approvedAt !== null,
    current,
    pending: pending as Partial<PersonalDetails>,
    pendingFields: Object.keys(pending),
    options: { nationalities: nationalityRows, languages: languageRows },
  };
}

/** personaldetails (GET). */
export async function getPersonalDetails(ctx: DomainContext): Promise<PersonalDetailsAnswer> {
  return answerOf(ctx, await getOwnAdvert(ctx));
}

/**
 * personaldetails (POST): age, height, weight, breast type, nationality, languages. All are parts
 * support reviews (spec §4), so on an approved advert changes wait for approval like the texts.
 */
export async function updatePersonalDetails(ctx: DomainContext, input: PersonalDetailsInput): Promise<PersonalDetailsAnswer> {
  const advert = await getOwnAdvert(ctx);
  const languageIds = [...new Set(input.Languages)].sort((a, b) => a - b);
  if (languageIds.length) {
    const known = await ctx.db.select({ id: languages.id }).from(languages).where(anyOf(languages.id, languageIds));
    if (known.length !== languageIds.length) {
      throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Languages', message: 'ids' }]);
    }
  }
  if (input.NationalityId !== null) {
    const [known] = await ctx.db.select({ id: nationalities.id }).from(nationalities).where(eq(nationalities.id, input.NationalityId));
    if (!known) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'NationalityId', message: 'invalid' }]);
  }
  const approved = await personalValuesOf(ctx, advert);
  const wanted: ModeratedValues = {
    age: input.Age,
    height: input.Height,
    weight: input.Weight,
    breastType: input.BreastType,
    nationalityId: input.NationalityId,
    languageIds,
  };
  await saveModeratedEdit(ctx, advert, { action: 'advert.personal_details.update', approved: { ...approved }, wanted });
  return answerOf(ctx, await getOwnAdvert(ctx));
}
