/**
 * The places the site knows by the names visitors type (issue 31, item 3): the Danish names of the cities
 * and regions, folded as the slugs are (æ→ae, ø→oe, å→aa, case and spaces dropped), the regions' English
 * names, and the foreign names of Danish places that visitors from abroad use (Copenhagen, Kopenhagen,
 * Elsinore, Århus …). Read by the free-text search's rescue (free-text.ts: "Mente du København?") and the
 * location box's suggestions (site/references.ts).
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cities, regions } from '../../db/schema.ts';
import { normalisePlaceName } from '#lib/format.ts';
import type { NamedPlace } from '#lib/schemas/public-advert.ts';
import { Vocabulary } from './spelling.ts';

/**
 * Foreign and old spellings of Danish places → the city's Danish name (as the cities table has it). English,
 * German, Swedish, Norwegian, French, Spanish, Italian and Polish names, and spellings without æ, ø and å
 * that folding does not reach (o for ø, a for å).
 */
const FOREIGN_NAMES: Record<string, readonly string[]> = {
  København: ['Copenhagen', 'Kopenhagen', 'Köpenhamn', 'Kobenhavn', 'Copenhague', 'Copenaghen', 'Kopenhaga', 'Kjøbenhavn'],
  Helsingør: ['Elsinore', 'Helsingor', 'Helsingoer', 'Helsingör'],
  Aarhus: ['Århus', 'Arhus', 'Aarhuus'],
  Aalborg: ['Ålborg', 'Alborg'],
  Aabenraa: ['Åbenrå', 'Abenra', 'Apenrade'],
  Sønderborg: ['Sonderburg', 'Sonderborg'],
  Haderslev: ['Hadersleben'],
  Tønder: ['Tondern', 'Tonder'],
  Ribe: ['Ripen'],
  Rønne: ['Ronne'],
  Køge: ['Koge', 'Kjøge'],
  Næstved: ['Nastved'],
  Hillerød: ['Hillerod'],
  'Kongens Lyngby': ['Lyngby', "King's Lyngby"],
  Hørsholm: ['Horsholm'],
  Odense: ['Odensee'],
  Vejle: ['Veile'],
};

/** Folded foreign name → Danish city name. */
const DANISH_NAME_OF = new Map<string, string>(Object.entries(FOREIGN_NAMES).flatMap(([danish, names]) => names.map((name) => [normalisePlaceName(name), danish])));

/** The Danish names whose foreign names begin like `text` (at least 3 letters), for the location box. */
export function danishNamesStartingWith(text: string): string[] {
  const folded = normalisePlaceName(text);
  if (folded.length < 3) return [];
  const found = new Set<string>();
  for (const [foreign, danish] of DANISH_NAME_OF) if (foreign.startsWith(folded) && normalisePlaceName(danish) !== folded) found.add(danish);
  return [...found];
}

export type { NamedPlace };

export type KnownPlaces = { byFolded: Map<string, NamedPlace[]>; near: Vocabulary };

/** The places by every folded name they are known by, and a trigram index of those names for typos. */
export function indexPlaces(places: NamedPlace[], regionEnglish: Map<string, string>): KnownPlaces {
  const byFolded = new Map<string, NamedPlace[]>();
  const add = (name: string, place: NamedPlace) => {
    const key = normalisePlaceName(name);
    if (key.length === 0) return;
    const list = byFolded.get(key) ?? [];
    if (!list.includes(place)) list.push(place);
    byFolded.set(key, list);
  };
  for (const place of places) {
    add(place.name, place);
    if (place.citySlug === null) {
      const english = regionEnglish.get(place.regionSlug);
      if (english) add(english, place);
      // "Region Hovedstaden" is also typed as "Hovedstaden".
      add(place.name.replace(/^Region\s+/i, ''), place);
    }
  }
  const byName = new Map(places.filter((place) => place.citySlug !== null).map((place) => [place.name, place]));
  for (const [foreign, danish] of DANISH_NAME_OF) {
    const place = byName.get(danish);
    if (place) byFolded.set(foreign, [...new Set([...(byFolded.get(foreign) ?? []), place])]);
  }
  return { byFolded, near: new Vocabulary(byFolded.keys()) };
}

/**
 * The places that `text` names: the whole text, or one of its words or two-word runs, by a name the place is
 * known by, or (a typo) the nearest such name. A city brings its region after it. At most `limit`.
 */
export function placesNamedIn(known: KnownPlaces, text: string, limit = 4): NamedPlace[] {
  const words = text.split(/\s+/).filter(Boolean);
  const candidates = [text, ...words.slice(0, -1).map((word, i) => `${word} ${words[i + 1]}`), ...words];
  const found: NamedPlace[] = [];
  for (const candidate of candidates) {
    const folded = normalisePlaceName(candidate);
    if (folded.length < 3) continue;
    const key = known.byFolded.has(folded) ? folded : known.near.nearest(folded);
    for (const place of key ? (known.byFolded.get(key) ?? []) : []) if (!found.includes(place)) found.push(place);
    if (found.length > 0) break;
  }
  const withRegions: NamedPlace[] = [];
  for (const place of found) {
    withRegions.push(place);
    if (place.citySlug !== null) withRegions.push({ name: place.region, regionSlug: place.regionSlug, citySlug: null, region: place.region });
  }
  const seen = new Set<string>();
  return withRegions.filter((place) => {
    const key = `${place.regionSlug}/${place.citySlug ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, limit);
}

/** How long the places are kept before they are read again (support may add a city). */
const REFRESH_MS = 10 * 60_000;
const held = new WeakMap<Db, { known: Promise<KnownPlaces>; readAt: number }>();

/** The places of this database, indexed; read again when older than REFRESH_MS. */
export function knownPlaces(db: Db, now = Date.now()): Promise<KnownPlaces> {
  const current = held.get(db);
  if (current && now - current.readAt <= REFRESH_MS) return current.known;
  const known = readPlaces(db);
  held.set(db, { known, readAt: now });
  known.catch(() => held.delete(db));
  return known;
}

async function readPlaces(db: Db): Promise<KnownPlaces> {
  const [regionRows, cityRows] = await Promise.all([
    db.select({ name: regions.name, nameEn: regions.nameEn, slug: regions.slug }).from(regions).orderBy(asc(regions.id)),
    db
      .select({ name: cities.name, slug: cities.slug, regionSlug: regions.slug, region: regions.name })
      .from(cities)
      .innerJoin(regions, eq(regions.id, cities.regionId))
      .orderBy(asc(cities.id)),
  ]);
  const places: NamedPlace[] = [
    ...cityRows.map((row) => ({ name: row.name, regionSlug: row.regionSlug, citySlug: row.slug, region: row.region })),
    ...regionRows.map((row) => ({ name: row.name, regionSlug: row.slug, citySlug: null, region: row.name })),
  ];
  return indexPlaces(places, new Map(regionRows.map((row) => [row.slug, row.nameEn])));
}

/** The Danish city name a folded foreign name stands for ("kopenhagen" → "København"), or null. */
export function danishNameOf(word: string): string | null {
  return DANISH_NAME_OF.get(normalisePlaceName(word)) ?? null;
}
