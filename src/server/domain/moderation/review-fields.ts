import { asc, eq } from 'drizzle-orm';
import { REVIEW_FIELDS, type ReviewField, type ReviewValues } from '#lib/schemas/review.ts';
import type { Db } from '../../db/client.ts';
import { advertLanguages, advertServices, type Advert, type PendingChanges } from '../../db/schema.ts';
import type { ModeratedField, ModeratedValues } from '../adverts/pending-changes.ts';

/**
 * The spec's review parts (§4) and the advert's moderated fields behind them (docs/decisions/011):
 * `text` is title and description, `whatsapp` is hasWhatsapp, … `type` (kind) and `gender` are columns
 * the advertiser cannot change, so they are never pending on an approved advert.
 */
export const MODERATED_FIELDS_OF: Record<ReviewField, readonly ModeratedField[]> = {
  name: ['name'],
  location: ['location'],
  text: ['title', 'description'],
  introduction: ['introduction'],
  services: ['serviceIds'],
  phone: ['phone'],
  website: ['website'],
  age: ['age'],
  height: ['height'],
  weight: ['weight'],
  whatsapp: ['hasWhatsapp'],
  breastType: ['breastType'],
  type: [],
  gender: [],
  nationality: ['nationalityId'],
  languages: ['languageIds'],
};

/** Field names for the advertiser's notices. */
export const REVIEW_FIELD_LABELS: Record<ReviewField, { da: string; en: string }> = {
  name: { da: 'Navn', en: 'Name' },
  location: { da: 'Område', en: 'Location' },
  text: { da: 'Tekst', en: 'Text' },
  introduction: { da: 'Introduktion', en: 'Introduction' },
  services: { da: 'Ydelser', en: 'Services' },
  phone: { da: 'Telefon', en: 'Phone' },
  website: { da: 'Hjemmeside', en: 'Website' },
  age: { da: 'Alder', en: 'Age' },
  height: { da: 'Højde', en: 'Height' },
  weight: { da: 'Vægt', en: 'Weight' },
  whatsapp: { da: 'WhatsApp', en: 'WhatsApp' },
  breastType: { da: 'Brysttype', en: 'Breast type' },
  type: { da: 'Annoncetype', en: 'Advert type' },
  gender: { da: 'Køn', en: 'Gender' },
  nationality: { da: 'Nationalitet', en: 'Nationality' },
  languages: { da: 'Sprog', en: 'Languages' },
};

/** The review fields that have a proposed value waiting in `pending_changes`. */
export function pendingReviewFields(pending: PendingChanges | null): ReviewField[] {
  if (!pending) return [];
  return REVIEW_FIELDS.filter((field) => MODERATED_FIELDS_OF[field].some((m) => m in pending));
}

/** The advert's values as the public sees them (the approved ones), by review field. */
export async function currentReviewValues(db: Db, advert: Advert): Promise<ReviewValues> {
  const [languageRows, serviceRows] = await Promise.all([
    db.select({ id: advertLanguages.languageId }).from(advertLanguages).where(eq(advertLanguages.advertId, advert.id)).orderBy(asc(advertLanguages.languageId)),
    db.select({ id: advertServices.serviceId }).from(advertServices).where(eq(advertServices.advertId, advert.id)).orderBy(asc(advertServices.serviceId)),
  ]);
  return {
    name: advert.name,
    location: { regionId: advert.regionId, cityId: advert.cityId },
    text: { title: advert.title, description: advert.description },
    introduction: advert.introduction,
    services: serviceRows.map((row) => row.id),
    phone: advert.phone,
    website: advert.website,
    age: advert.age,
    height: advert.height,
    weight: advert.weight,
    whatsapp: advert.hasWhatsapp,
    breastType: advert.breastType,
    type: advert.kind,
    gender: advert.gender,
    nationality: advert.nationalityId,
    languages: languageRows.map((row) => row.id),
  };
}

/** A review field's value as moderated values (what `applyModeratedValues` writes). */
export function toModeratedValues(field: ReviewField, value: unknown): ModeratedValues {
  const [only] = MODERATED_FIELDS_OF[field];
  if (field === 'text') {
    const text = value as ReviewValues['text'];
    return { title: text.title, description: text.description };
  }
  return only ? { [only]: value } : {};
}

/** The proposed value of a field: the pending values over the current ones. */
export function proposedValue(field: ReviewField, current: ReviewValues, pending: PendingChanges | null): unknown {
  const p = pending ?? {};
  switch (field) {
    case 'text':
      return {
        title: 'title' in p ? p['title'] : current.text.title,
        description: 'description' in p ? p['description'] : current.text.description,
      };
    default: {
      const [only] = MODERATED_FIELDS_OF[field];
      return only && only in p ? p[only] : current[field];
    }
  }
}
