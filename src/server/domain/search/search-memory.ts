import { eq, sql } from 'drizzle-orm';
import { copyOutText, type Db } from '../../db/client.ts';
import { anyOf } from '../../db/any-of.ts';
import { advertSearch, advertSearchDocuments } from '../../db/schema.ts';
import type { AdvertCard } from '#lib/schemas/public-advert.ts';
import { searchIndexChangesSince, searchIndexMayHaveChanged, searchIndexVersion } from './search-index-log.ts';
import { BOOST_RANK } from './ranking.ts';
import { readAllTexts, readTexts, type TextIndex, type TextRow } from './text-memory.ts';

/**
 * The search index's narrow rows, held in memory per database and kept current through the index's
 * change log (search-index-log.ts): every search first asks the log what changed since the version it
 * holds (one indexed query that usually finds nothing; concurrent searches share one) and reloads just
 * those rows. Filtering, counting and ordering then run in memory over typed-array columns, so a search
 * costs one small query however many adverts there are, and PGlite (one thread, in this process) is
 * not queued behind search scans under load. About 2 kB of memory per public advert. Free text runs in
 * memory as well, over the adverts' texts (text-memory.ts), read at the first free-text search and
 * patched with the rows after.
 */

export type MemoryRow = {
  id: number;
  kind: number;
  regionId: number | null;
  cityId: number | null;
  age: number | null;
  height: number | null;
  weight: number | null;
  breastType: number | null;
  nationalityId: number | null;
  incall: boolean;
  outcall: boolean;
  validated: boolean;
  hasVideo: boolean;
  hasReview: boolean;
  languageIds: number[];
  serviceIds: number[];
  frontPageBoosted: boolean;
  rank: number;
};

const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** Whether two rows of one advert search alike (every field the columns are built from). */
function sameRow(a: MemoryRow, b: MemoryRow): boolean {
  for (const key of Object.keys(a) as (keyof MemoryRow)[]) {
    const x = a[key];
    const y = b[key];
    if (Array.isArray(x) && Array.isArray(y) ? !sameIds(x, y) : x !== y) return false;
  }
  return true;
}

/** Rows sorted as results are: higher rank first, then higher id. */
function before(a: MemoryRow, b: MemoryRow): number {
  return b.rank - a.rank || b.id - a.id;
}

/** Flag bits of `SearchColumns.flags` (`searchBoosted`: a search boost runs, so the rank is above BOOST_RANK). */
export const FLAG = { incall: 1, outcall: 2, validated: 4, video: 8, review: 16, searchBoosted: 32 } as const;

/**
 * The rows column by column: scanning tens of thousands of rows reads a few small arrays in order
 * instead of visiting as many objects. Missing numbers are -1. Languages and services are flattened:
 * row i's are `languages[languageStart[i]] .. languages[languageStart[i + 1] - 1]`. `lists` holds the
 * positions of the rows of one kind, region or city (`kind:0`, `region:3`, `city:17`), in order.
 */
export type SearchColumns = {
  size: number;
  id: Int32Array;
  kind: Uint8Array;
  regionId: Int32Array;
  cityId: Int32Array;
  age: Int16Array;
  height: Int16Array;
  weight: Int16Array;
  breastType: Int16Array;
  nationalityId: Int32Array;
  flags: Uint8Array;
  languageStart: Int32Array;
  languages: Int32Array;
  serviceStart: Int32Array;
  services: Int32Array;
  lists: Map<string, Int32Array>;
};

function buildColumns(rows: MemoryRow[]): SearchColumns {
  const size = rows.length;
  const c: SearchColumns = {
    size,
    id: new Int32Array(size),
    kind: new Uint8Array(size),
    regionId: new Int32Array(size),
    cityId: new Int32Array(size),
    age: new Int16Array(size),
    height: new Int16Array(size),
    weight: new Int16Array(size),
    breastType: new Int16Array(size),
    nationalityId: new Int32Array(size),
    flags: new Uint8Array(size),
    languageStart: new Int32Array(size + 1),
    languages: new Int32Array(rows.reduce((n, row) => n + row.languageIds.length, 0)),
    serviceStart: new Int32Array(size + 1),
    services: new Int32Array(rows.reduce((n, row) => n + row.serviceIds.length, 0)),
    lists: new Map(),
  };
  // Positions per kind, region and city, keyed by number (a string key per row cost a third of the build).
  const byKind = new Map<number, number[]>();
  const byRegion = new Map<number, number[]>();
  const byCity = new Map<number, number[]>();
  const add = (lists: Map<number, number[]>, key: number, position: number) => {
    const list = lists.get(key);
    if (list) list.push(position);
    else lists.set(key, [position]);
  };
  let language = 0;
  let service = 0;
  rows.forEach((row, i) => {
    c.id[i] = row.id;
    c.kind[i] = row.kind;
    c.regionId[i] = row.regionId ?? -1;
    c.cityId[i] = row.cityId ?? -1;
    c.age[i] = row.age ?? -1;
    c.height[i] = row.height ?? -1;
    c.weight[i] = row.weight ?? -1;
    c.breastType[i] = row.breastType ?? -1;
    c.nationalityId[i] = row.nationalityId ?? -1;
    c.flags[i] =
      (row.incall ? FLAG.incall : 0) |
      (row.outcall ? FLAG.outcall : 0) |
      (row.validated ? FLAG.validated : 0) |
      (row.hasVideo ? FLAG.video : 0) |
      (row.hasReview ? FLAG.review : 0) |
      (row.rank >= BOOST_RANK ? FLAG.searchBoosted : 0);
    c.languageStart[i] = language;
    for (const id of row.languageIds) c.languages[language++] = id;
    c.serviceStart[i] = service;
    for (const id of row.serviceIds) c.services[service++] = id;
    add(byKind, row.kind, i);
    if (row.regionId !== null) add(byRegion, row.regionId, i);
    if (row.cityId !== null) add(byCity, row.cityId, i);
  });
  c.languageStart[size] = language;
  c.serviceStart[size] = service;
  for (const [prefix, lists] of [['kind', byKind], ['region', byRegion], ['city', byCity]] as const) {
    for (const [key, list] of lists) c.lists.set(`${prefix}:${key}`, Int32Array.from(list));
  }
  return c;
}

/** Result cards kept in memory, at most this many per language (the first pages are asked for most). */
const CARD_CACHE_SIZE = 3000;
/** A change to more adverts than this reloads everything (one scan beats a long id list). */
const PATCH_LIMIT = 5000;

export class SearchMemory {
  version: number;
  /** Bumped on every change; a card fetched across a change is not cached. */
  generation = 0;
  rows: MemoryRow[];
  private table: SearchColumns | null = null;
  /** The rows by advert id, made when a change is first compared and kept up to date after. */
  private byId: Map<number, MemoryRow> | null = null;
  private cards = { da: new Map<number, AdvertCard>(), en: new Map<number, AdvertCard>() };
  /** The adverts' texts for free text (text-memory.ts), read at the first free-text search. */
  private textIndex: TextIndex | null = null;
  private textLoad: Promise<TextIndex> | null = null;
  /** Adverts changed while the texts were being read: read again once that is done. */
  private changedWhileReading: Set<number> | null = null;

  constructor(version: number, rows: MemoryRow[]) {
    this.version = version;
    this.rows = rows.sort(before);
  }

  /** The rows as columns (typed arrays, in result order), built once after each change. */
  columns(): SearchColumns {
    this.table ??= buildColumns(this.rows);
    return this.table;
  }

  /**
   * Replaces the rows of these adverts with `fresh` (those still public). When every one is what memory
   * holds already (a package bought for an advert that stays public moves only clocks the rows do not
   * hold), the columns are kept: rebuilding them costs a pass over every advert on the thread that answers
   * searches, and payments arrive many times a second.
   */
  patch(advertIds: number[], fresh: MemoryRow[], version: number, texts: TextRow[] | null = null): void {
    const changed = new Set(advertIds);
    if (!this.holdsAlready(changed, fresh)) this.replace(changed, fresh);
    if (this.textIndex && texts) this.textIndex.apply(changed, texts);
    else if (this.changedWhileReading) for (const id of changed) this.changedWhileReading.add(id);
    for (const id of changed) {
      this.cards.da.delete(id);
      this.cards.en.delete(id);
    }
    this.version = version;
    this.generation += 1;
  }

  /** Whether free text is held (or being read): a patch then needs the changed adverts' texts too. */
  get holdsTexts(): boolean {
    return this.textIndex !== null;
  }

  /** The texts for free text, read once (the first free-text search waits for it) and patched after. */
  texts(db: Db): Promise<TextIndex> {
    if (this.textIndex) return Promise.resolve(this.textIndex);
    this.textLoad ??= (async () => {
      const changed = (this.changedWhileReading = new Set());
      try {
        const index = await readAllTexts(db);
        // A change may have landed before the read saw it: those adverts are read again.
        while (changed.size > 0) {
          const ids = [...changed];
          changed.clear();
          index.apply(ids, await readTexts(db, ids));
        }
        this.textIndex = index;
        return index;
      } finally {
        this.changedWhileReading = null;
        this.textLoad = null;
      }
    })();
    return this.textLoad;
  }

  /** Whether the advert is public now (memory holds the public adverts): the insights beacon's check. */
  isPublic(advertId: number): boolean {
    this.byId ??= new Map(this.rows.map((row) => [row.id, row]));
    return this.byId.has(advertId);
  }

  /** Whether the rows of `changed` in memory are exactly `fresh` (none added, none gone, none different). */
  private holdsAlready(changed: Set<number>, fresh: MemoryRow[]): boolean {
    const freshById = new Map(fresh.map((row) => [row.id, row]));
    this.byId ??= new Map(this.rows.map((row) => [row.id, row]));
    for (const id of changed) {
      const held = this.byId.get(id);
      const now = freshById.get(id);
      if (held === undefined ? now !== undefined : now === undefined || !sameRow(held, now)) return false;
    }
    return true;
  }

  /** Takes the rows of `changed` out and puts `fresh` in, each at its place in result order. */
  private replace(changed: Set<number>, fresh: MemoryRow[]): void {
    const byId = (this.byId ??= new Map(this.rows.map((row) => [row.id, row])));
    for (const id of changed) {
      const held = byId.get(id);
      if (!held) continue;
      const at = this.positionOf(held);
      if (this.rows[at]?.id === id) this.rows.splice(at, 1);
      else this.rows = this.rows.filter((row) => row.id !== id);
      byId.delete(id);
    }
    for (const row of fresh) {
      this.rows.splice(this.positionOf(row), 0, row);
      byId.set(row.id, row);
    }
    this.table = null;
  }

  /** Where `row` is, or belongs, in result order (binary search: rank and id order the rows). */
  private positionOf(row: MemoryRow): number {
    let low = 0;
    let high = this.rows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(this.rows[middle]!, row) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  cachedCard(id: number, locale: 'da' | 'en'): AdvertCard | undefined {
    const cache = this.cards[locale];
    const card = cache.get(id);
    if (card) {
      // Most recently used last, so the oldest is dropped first.
      cache.delete(id);
      cache.set(id, card);
    }
    return card;
  }

  keepCard(card: AdvertCard, locale: 'da' | 'en', generation: number): void {
    if (generation !== this.generation) return;
    const cache = this.cards[locale];
    cache.set(card.id, card);
    if (cache.size > CARD_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
}

const rowColumns = {
  id: advertSearch.advertId,
  kind: advertSearch.kind,
  regionId: advertSearch.regionId,
  cityId: advertSearch.cityId,
  age: advertSearch.age,
  height: advertSearch.height,
  weight: advertSearch.weight,
  breastType: advertSearch.breastType,
  nationalityId: advertSearch.nationalityId,
  incall: advertSearch.incall,
  outcall: advertSearch.outcall,
  validated: advertSearch.validated,
  hasVideo: advertSearch.hasVideo,
  hasReview: advertSearch.hasReview,
  languageIds: advertSearch.languageIds,
  serviceIds: advertSearch.serviceIds,
  frontPageBoosted: advertSearch.frontPageBoosted,
  rank: advertSearch.rank,
};

/** Every row built by the same literal, so they share one hidden class (fast property reads). */
function toRow(r: MemoryRow): MemoryRow {
  return {
    id: r.id,
    kind: r.kind,
    regionId: r.regionId,
    cityId: r.cityId,
    age: r.age,
    height: r.height,
    weight: r.weight,
    breastType: r.breastType,
    nationalityId: r.nationalityId,
    incall: r.incall,
    outcall: r.outcall,
    validated: r.validated,
    hasVideo: r.hasVideo,
    hasReview: r.hasReview,
    languageIds: r.languageIds,
    serviceIds: r.serviceIds,
    frontPageBoosted: r.frontPageBoosted,
    rank: r.rank,
  };
}

/** The columns of a memory row, in `rowColumns` order, as SQL (for COPY). */
const COPY_COLUMNS =
  'advert_id, kind, region_id, city_id, age, height, weight, breast_type, nationality_id, incall, outcall, validated, ' +
  'has_video, has_review, language_ids, service_ids, front_page_boosted, rank';

/** One line of COPY text output (see copyOutText) as a row. */
function rowFromCopy(line: string): MemoryRow {
  const f = line.split('\t');
  const int = (value: string | undefined) => (value === undefined || value === '\\N' ? null : Number(value));
  const ids = (value: string | undefined) => (value && value.length > 2 ? value.slice(1, -1).split(',').map(Number) : []);
  return {
    id: Number(f[0]),
    kind: Number(f[1]),
    regionId: int(f[2]),
    cityId: int(f[3]),
    age: int(f[4]),
    height: int(f[5]),
    weight: int(f[6]),
    breastType: int(f[7]),
    nationalityId: int(f[8]),
    incall: f[9] === 't',
    outcall: f[10] === 't',
    validated: f[11] === 't',
    hasVideo: f[12] === 't',
    hasReview: f[13] === 't',
    languageIds: ids(f[14]),
    serviceIds: ids(f[15]),
    frontPageBoosted: f[16] === 't',
    rank: Number(f[17]),
  };
}

async function loadAll(db: Db): Promise<SearchMemory> {
  // The version first: a change landing between the two reads is applied again later, harmlessly.
  const version = await searchIndexVersion(db);
  // PGlite: one COPY (far lighter than a query answer of 50,000 rows); PostgreSQL: one query.
  const text = await copyOutText(db, `select ${COPY_COLUMNS} from advert_search`);
  if (text !== null) {
    const rows = text.split('\n').filter((line) => line.length > 0).map(rowFromCopy);
    return new SearchMemory(version, rows);
  }
  const rows = await db.select(rowColumns).from(advertSearch);
  return new SearchMemory(version, rows.map(toRow));
}

type Holder = {
  memory: Promise<SearchMemory>;
  /** The check running now, and whether another must follow it (asked for while it ran). */
  running: Promise<SearchMemory> | null;
  next: Promise<SearchMemory> | null;
};

const holders = new WeakMap<Db, Holder>();

async function bringUpToDate(db: Db, holder: Holder): Promise<SearchMemory> {
  const memory = await holder.memory;
  // A database only this process writes to: no question to ask until this process records a change.
  if (!searchIndexMayHaveChanged(db, memory.version)) return memory;
  const changes = await searchIndexChangesSince(db, memory.version);
  if (changes === null || changes.advertIds.length > PATCH_LIMIT) {
    const reloaded = loadAll(db);
    holder.memory = reloaded;
    reloaded.catch(() => holders.delete(db));
    return reloaded;
  }
  if (changes.advertIds.length > 0) {
    const where = anyOf(advertSearch.advertId, changes.advertIds);
    if (!memory.holdsTexts) {
      const fresh = await db.select(rowColumns).from(advertSearch).where(where);
      memory.patch(changes.advertIds, fresh.map(toRow), changes.version);
    } else {
      // Rows and texts in one statement (a payment's patch waits for no second one).
      const d = advertSearchDocuments;
      const fresh = await db
        .select({ ...rowColumns, searchText: d.searchText, lexemes: sql<string | null>`array_to_string(tsvector_to_array(${d.document}), ' ')` })
        .from(advertSearch)
        .leftJoin(d, eq(d.advertId, advertSearch.advertId))
        .where(where);
      const texts = fresh.map((row) => ({ id: row.id, searchText: row.searchText ?? '', lexemes: row.lexemes ?? '' }));
      memory.patch(changes.advertIds, fresh.map(toRow), changes.version, texts);
    }
  }
  return memory;
}

/**
 * The in-memory index of this database, current as of a check that started after this call: every
 * write acknowledged before a search is seen by it. Checks are coalesced: while one runs, callers
 * share the one that follows it.
 */
export function searchMemory(db: Db): Promise<SearchMemory> {
  let holder = holders.get(db);
  if (!holder) {
    const memory = loadAll(db);
    holder = { memory, running: null, next: null };
    holders.set(db, holder);
    // A failed first load is not kept: the next search tries again.
    memory.catch(() => holders.delete(db));
    return memory;
  }
  const h = holder;
  const start = (): Promise<SearchMemory> => {
    const check = bringUpToDate(db, h).finally(() => {
      h.running = null;
    });
    h.running = check;
    return check;
  };
  if (!h.running) return start();
  if (!h.next) {
    const previous = h.running;
    h.next = previous
      .catch(() => undefined)
      .then(() => {
        h.next = null;
        return start();
      });
  }
  return h.next;
}

/** The result cards of these adverts in the order given (from memory when kept, else one query). */
export async function memoryCards(db: Db, memory: SearchMemory, ids: number[], locale: 'da' | 'en'): Promise<AdvertCard[]> {
  const found = new Map<number, AdvertCard>();
  const missing: number[] = [];
  for (const id of ids) {
    const card = memory.cachedCard(id, locale);
    if (card) found.set(id, card);
    else missing.push(id);
  }
  if (missing.length > 0) {
    const generation = memory.generation;
    const d = advertSearchDocuments;
    const rows = await db
      .select({ card: locale === 'en' ? d.cardEn : d.cardDa })
      .from(d)
      .where(anyOf(d.advertId, missing));
    for (const row of rows) {
      const card = row.card as AdvertCard;
      found.set(card.id, card);
      memory.keepCard(card, locale, generation);
    }
  }
  return ids.map((id) => found.get(id)).filter((card): card is AdvertCard => card !== undefined);
}
