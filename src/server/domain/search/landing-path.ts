import type { Db } from '../../db/client.ts';
import { normalisePlaceName } from '#lib/format.ts';
import { listLocations, type LocationRegion } from '../site/site-info.ts';
import { ADVERT_KINDS } from '../adverts/statuses.ts';

const caches = new WeakMap<Db, { at: number; regions: LocationRegion[] }>();

/** A city was added or renamed here: read the places again at the next use (search/keywords.ts forgets its pages with it). */
export function forgetLocations(db: Db): void {
  caches.delete(db);
}

/** Regions and cities change rarely: read them at most once a minute (per database), and after a change here. */
export async function cachedLocations(db: Db): Promise<LocationRegion[]> {
  let cache = caches.get(db);
  if (!cache || Date.now() - cache.at > 60_000) {
    cache = { at: Date.now(), regions: await listLocations(db) };
    caches.set(db, cache);
  }
  return cache.regions;
}

/**
 * The canonical form of a search landing path (spec §2: kind, then a known region, then a known city,
 * names compared normalised), or null when a segment is unknown. `/Escort/Region-Hovedstaden/København/`
 * → `/escort/region-hovedstaden/koebenhavn/`.
 */
export async function canonicalLandingPath(db: Db, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const english = /^\/en\//i.test(decoded);
  const parts = decoded.replace(/^\/(en\/)?/i, '').split('/').filter(Boolean);
  if (parts.length === 0 || parts.length > 3) return null;
  const kind = ADVERT_KINDS.find((k) => normalisePlaceName(k) === normalisePlaceName(parts[0]!));
  if (!kind) return null;
  const segments: string[] = [kind];
  if (parts[1]) {
    const wanted = normalisePlaceName(parts[1]);
    const region = (await cachedLocations(db)).find(
      (r) => normalisePlaceName(r.slug) === wanted || normalisePlaceName(r.name) === wanted || normalisePlaceName(r.nameEn) === wanted,
    );
    if (!region) return null;
    segments.push(region.slug);
    if (parts[2]) {
      const city = region.cities.find((c) => normalisePlaceName(c.slug) === normalisePlaceName(parts[2]!) || normalisePlaceName(c.city) === normalisePlaceName(parts[2]!));
      if (!city) return null;
      segments.push(city.slug);
    }
  }
  return `${english ? '/en' : ''}/${segments.join('/')}/`;
}
