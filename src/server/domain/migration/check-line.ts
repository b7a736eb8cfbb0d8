import * as v from 'valibot';
import { normalisePlaceName } from '#lib/format.ts';
import { MigrationLineSchema, type MigrationLine, type MigrationLineErrorReason } from '#lib/schemas/migration.ts';
import type { Db } from '../../db/client.ts';
import { cities, regions } from '../../db/schema.ts';
import { findRiskWords } from '../moderation/risk-signals.ts';

/**
 * One line of adverts.jsonl checked without touching the archive (docs/migration-format.md): JSON, the
 * format's fields by the advert editor's and the account's rules (MigrationLineSchema), the place names
 * matched to our regions and cities, and support's risk words (the words that block an advertiser's own
 * texts block an imported text too). A refusal names its reason (an i18n key) and a detail.
 */

export type LineRefusal = { ok: false; reason: MigrationLineErrorReason; detail?: string };
export type Place = { regionId: number; cityId: number };
export type CheckedLine = { ok: true; line: MigrationLine; place: Place };

/** Our regions and cities by their names as an export may write them (case, accents, æøå and "Region" folded). */
export type PlaceIndex = { find: (region: string, city: string) => { ok: true; place: Place } | LineRefusal };

/** A place name as compared: normalisePlaceName, and a leading "Region" left out ("Region Hovedstaden" = "Hovedstaden"). */
const placeKey = (name: string): string => normalisePlaceName(name).replace(/^region(?=.)/, '');

export async function loadPlaceIndex(db: Db): Promise<PlaceIndex> {
  const [regionRows, cityRows] = await Promise.all([
    db.select({ id: regions.id, name: regions.name, nameEn: regions.nameEn, slug: regions.slug }).from(regions),
    db.select({ id: cities.id, regionId: cities.regionId, name: cities.name, slug: cities.slug }).from(cities),
  ]);
  const regionByKey = new Map<string, number>();
  for (const row of regionRows) for (const name of [row.name, row.nameEn, row.slug]) regionByKey.set(placeKey(name), row.id);
  const citiesByKey = new Map<string, { id: number; regionId: number }[]>();
  for (const row of cityRows) {
    for (const key of new Set([placeKey(row.name), placeKey(row.slug)])) {
      const list = citiesByKey.get(key) ?? [];
      list.push({ id: row.id, regionId: row.regionId });
      citiesByKey.set(key, list);
    }
  }
  return {
    find: (region, city) => {
      const found = citiesByKey.get(placeKey(city)) ?? [];
      if (region) {
        const regionId = regionByKey.get(placeKey(region));
        if (regionId === undefined) return { ok: false, reason: 'unknownRegion', detail: region };
        const inRegion = found.find((c) => c.regionId === regionId);
        if (!inRegion) return { ok: false, reason: 'unknownCity', detail: city };
        return { ok: true, place: { regionId, cityId: inRegion.id } };
      }
      if (found.length === 0) return { ok: false, reason: 'unknownCity', detail: city };
      if (new Set(found.map((c) => c.id)).size > 1) return { ok: false, reason: 'ambiguousCity', detail: city };
      return { ok: true, place: { regionId: found[0]!.regionId, cityId: found[0]!.id } };
    },
  };
}

type Issue = v.InferIssue<typeof MigrationLineSchema>;

/** The reason of the first failing field (the export's field names; list items by index: `prices.0.IncallPrice`). */
function refusalOf(issue: Issue): LineRefusal {
  const path = issue.path ?? [];
  const field = path.map((item) => String(item.key)).join('.');
  const top = field.split('.')[0] ?? '';
  if (!field) return { ok: false, reason: 'invalidJson', detail: 'object' };
  if (issue.message === 'required') return { ok: false, reason: 'missingField', detail: field };
  if (top === 'oldId') return { ok: false, reason: 'invalidOldId' };
  if (issue.message === 'underAge') return { ok: false, reason: 'underAge' };
  if (issue.message === 'tooManyPictures') return { ok: false, reason: 'tooManyPictures' };
  if (top === 'phone') return { ok: false, reason: 'invalidPhone' };
  if (top === 'email') return { ok: false, reason: 'invalidEmail' };
  return { ok: false, reason: 'invalidField', detail: `${field}: ${issue.message}` };
}

const TEXT_FIELDS = ['name', 'title', 'introduction', 'description', 'titleEn', 'introductionEn', 'descriptionEn'] as const;

/** Checks one line's text. `riskWords` is support's list (moderation/risk-signals.ts). */
export function checkLine(text: string, places: PlaceIndex, riskWords: readonly string[]): CheckedLine | LineRefusal {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'invalidJson' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, reason: 'invalidJson', detail: 'object' };
  const parsed = v.safeParse(MigrationLineSchema, json);
  if (!parsed.success) return refusalOf(parsed.issues[0]);
  const line = parsed.output;
  const flagged = TEXT_FIELDS.map((field) => [field, findRiskWords(line[field], riskWords)] as const).filter(([, words]) => words.length > 0);
  if (flagged.length > 0) {
    return { ok: false, reason: 'forbiddenWords', detail: flagged.map(([field, words]) => `${field}: ${words.join(', ')}`).join('; ') };
  }
  const place = places.find(line.region, line.city);
  if (!place.ok) return place;
  return { ok: true, line, place: place.place };
}
