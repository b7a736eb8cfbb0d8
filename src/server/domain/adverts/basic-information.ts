import { eq } from 'drizzle-orm';
import type { BasicInformationInput } from '#lib/schemas/advert-edit.ts';
import { cities } from '../../db/schema.ts';
import type { Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { getOwnAdvert } from './own-advert.ts';
import { pendingOf, type ModeratedField, type ModeratedValues } from './pending-changes.ts';
import { saveModeratedEdit } from './moderated-edit.ts';

import type { BasicInformation, BasicInformationAnswer } from '#lib/schemas/backend-answers.ts';

export type { BasicInformation, BasicInformationAnswer };

const BASIC_FIELDS: readonly ModeratedField[] = ['name', 'title', 'introduction', 'description', 'phone', 'hasWhatsapp', 'website', 'location'];

function basicValuesOf(advert: Advert): ModeratedValues {
  return {
    name: advert.name,
    title: advert.title,
    introduction: advert.introduction,
    description: advert.description,
    phone: advert.phone,
    hasWhatsapp: advert.hasWhatsapp,
    website: advert.website,
    location: { regionId: advert.regionId, cityId: advert.cityId },
  };
}

/** Moderated values in the screen's shape (location as regionId and cityId). */
function asBasicInformation(values: ModeratedValues): Partial<BasicInformation> {
  const { location, ...rest } = values;
  return { ...(rest as Partial<BasicInformation>), ...(location ? (location as Pick<BasicInformation, 'regionId' | 'cityId'>) : {}) };
}

function answerOf(advert: Advert): BasicInformationAnswer {
  const pending = pendingOf(advert.pendingChanges, BASIC_FIELDS);
  return {
    approved: advert.approvedAt !== null,
    current: asBasicInformation(basicValuesOf(advert)) as BasicInformation,
    pending: asBasicInformation(pending),
    pendingFields: Object.keys(pending),
  };
}

/** basicinformation (GET). */
export async function getBasicInformation(ctx: DomainContext): Promise<BasicInformationAnswer> {
  return answerOf(await getOwnAdvert(ctx));
}

/** A city must exist and lie in the region given with it (400 naming CityId otherwise). */
export async function requireCityInRegion(ctx: DomainContext, regionId: number, cityId: number): Promise<void> {
  const [city] = await ctx.db.select({ regionId: cities.regionId }).from(cities).where(eq(cities.id, cityId)).limit(1);
  if (!city) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'CityId', message: 'invalid' }]);
  if (city.regionId !== regionId) {
    throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'RegionId', message: 'invalid' }]);
  }
}

/**
 * basicinformation (POST): name, title, introduction, description, phone, WhatsApp, website, location.
 * On an approved advert the changed values wait for support (the public keeps the approved ones).
 */
export async function updateBasicInformation(ctx: DomainContext, input: BasicInformationInput): Promise<BasicInformationAnswer> {
  const advert = await getOwnAdvert(ctx);
  await requireCityInRegion(ctx, input.RegionId, input.CityId);
  await saveModeratedEdit(ctx, advert, {
    action: 'advert.basic_information.update',
    approved: basicValuesOf(advert),
    wanted: {
      name: input.Name,
      title: input.Title,
      introduction: input.Introduction,
      description: input.Description,
      phone: input.Phone,
      hasWhatsapp: input.HasWhatsapp,
      website: input.Website,
      location: { regionId: input.RegionId, cityId: input.CityId },
    },
  });
  return answerOf(await getOwnAdvert(ctx));
}
