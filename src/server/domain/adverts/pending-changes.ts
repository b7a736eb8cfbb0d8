import type { PendingChanges } from '../../db/schema.ts';

/**
 * The advert fields support reviews one by one (spec §4 "Support reviews of advert parts"), under the
 * keys they have in `adverts.pending_changes`. The public text fields (name, title, introduction,
 * description, phone, website, location) and the spec's personal parts (WhatsApp, age, height, weight,
 * breast type, nationality, languages, services). Kind and gender are not editable by the advertiser.
 * Values: as the column (location is { regionId, cityId }; languageIds and serviceIds sorted id lists).
 */
export const MODERATED_FIELDS = [
  'name',
  'title',
  'introduction',
  'description',
  'phone',
  'hasWhatsapp',
  'website',
  'location',
  'age',
  'height',
  'weight',
  'breastType',
  'nationalityId',
  'languageIds',
  'serviceIds',
] as const;
export type ModeratedField = (typeof MODERATED_FIELDS)[number];

export type ModeratedValues = Partial<Record<ModeratedField, unknown>>;

/** Value equality for moderated values (id lists compare as sets, objects by their fields). */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify([...value].sort((x, y) => (Number(x) || 0) - (Number(y) || 0) || String(x).localeCompare(String(y))));
  if (value && typeof value === 'object') {
    return JSON.stringify(Object.fromEntries(Object.entries(value).sort(([x], [y]) => x.localeCompare(y))));
  }
  return JSON.stringify(value ?? null);
}

export type ModeratedPlan = {
  /** Values to write to the advert now (what the public will see). */
  apply: ModeratedValues;
  /** The advert's pending changes after this edit (null when nothing is pending). */
  pending: PendingChanges | null;
  /** Fields that became (or stayed with a new value) pending in this edit. */
  pendingFields: ModeratedField[];
};

/**
 * Decides what an edit does (docs/decisions/011): on an advert support has never approved, every
 * value applies at once (and any pending value of those fields is dropped); on an approved advert a
 * value that differs from the approved one waits in pending changes for support, and a value equal to
 * the approved one withdraws that field's pending value. Fields not in `wanted` keep their pending value.
 */
export function planModeratedChange(
  approved: ModeratedValues,
  wanted: ModeratedValues,
  pending: PendingChanges | null,
  isApproved: boolean,
): ModeratedPlan {
  const next: PendingChanges = { ...(pending ?? {}) };
  const apply: ModeratedValues = {};
  const pendingFields: ModeratedField[] = [];
  for (const field of MODERATED_FIELDS) {
    if (!(field in wanted)) continue;
    const value = wanted[field];
    delete next[field];
    if (!isApproved) apply[field] = value;
    else if (!sameValue(value, approved[field])) {
      next[field] = value;
      pendingFields.push(field);
    }
  }
  return { apply, pending: Object.keys(next).length ? next : null, pendingFields };
}

/** The pending values among `fields`, for a screen to show beside the approved ones. */
export function pendingOf(pending: PendingChanges | null, fields: readonly ModeratedField[]): ModeratedValues {
  const out: ModeratedValues = {};
  for (const field of fields) if (pending && field in pending) out[field] = pending[field];
  return out;
}
