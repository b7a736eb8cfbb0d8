/**
 * Visitors' search terms as SEO staff work with them (issue 17; spec §2 support matched-, unmatched-,
 * paired- and ignored-keywords; spec §6 search keywords). The counts are `search_term_days` (written by
 * search-terms.ts); SEO staff's decisions are one `search_keywords` row per term: 'ignored', or 'paired'
 * with a page of this site (`target_url`) or with another term (the pair in `paired_keywords`).
 *
 * A term is in exactly one list, in this order: ignored (still counted, shown nowhere else); paired;
 * matched, when it names by itself a kind, a region, a city, a service or a published landing page
 * (compared with the slugs' Danish folding, hyphens as spaces); else unmatched: it found nothing, or
 * found adverts but has no page of its own.
 */
import { and, eq, gte, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { landingPages, pairedKeywords, searchKeywords, searchTermDays, services } from '../../db/schema.ts';
import { foldDanish, isoDayOf } from '#lib/format.ts';
import { landingPublicPath, type LandingPageTypeValue } from '#lib/schemas/landing-page.ts';
import type {
  KeywordDetail,
  KeywordInsertInput,
  KeywordList,
  KeywordListAnswer,
  KeywordListQuery,
  KeywordPeriod,
  KeywordRow,
  KeywordTarget,
} from '#lib/schemas/keywords.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { ADVERT_KINDS } from '../adverts/statuses.ts';
import { sitePath } from '../site/redirects.ts';
import { cachedLocations, canonicalLandingPath } from './landing-path.ts';
import { searchTermOf } from './search-terms.ts';

const DAY_MS = 86_400_000;

/** The key names and terms are compared by: folded, hyphens and spaces alike. */
function matchKey(text: string): string {
  return foldDanish(text).replace(/[\s-]+/g, ' ').trim();
}

/** The public path of a landing page row (one rule for the site, support and search: #lib/schemas/landing-page.ts). */
const landingPagePath = (page: { type: string; url: string; locale: string }) =>
  landingPublicPath(page.type as LandingPageTypeValue, page.url.replace(/^\/+|\/+$/g, ''), page.locale === 'en' ? 'en' : 'da');

const KIND_NAMES: Record<(typeof ADVERT_KINDS)[number], string[]> = {
  escort: ['escort', 'escorts', 'escortpige', 'escortpiger'],
  'trans-escort': ['trans escort', 'transescort', 'trans escorts', 'trans'],
  thaimassage: ['thaimassage', 'thai massage', 'thaimassager'],
};

/** Published landing pages, with what names them (`pageNames`). */
async function publishedLandingPages(db: Db) {
  return db
    .select({ type: landingPages.type, url: landingPages.url, locale: landingPages.locale, title: landingPages.title, serviceId: landingPages.serviceId })
    .from(landingPages)
    .where(isNotNull(landingPages.publishedAt));
}

/** The names a published landing page is reached by in the header search: its title and the last part of its address; none for a place's text. */
const pageNames = (page: { type: string; url: string; title: string }): string[] =>
  page.type === 'index' ? [] : [page.title, page.url.replace(/^.*\//, '')];

/** Everything a term can name by itself, by match key (the first one found wins). */
async function namedTargets(db: Db): Promise<Map<string, KeywordTarget>> {
  const targets = new Map<string, KeywordTarget>();
  const add = (name: string, target: KeywordTarget) => {
    const key = matchKey(name);
    if (key && !targets.has(key)) targets.set(key, target);
  };
  for (const kind of ADVERT_KINDS) for (const name of KIND_NAMES[kind]) add(name, { type: 'kind', title: kind, url: `/${kind}/` });
  const regions = await cachedLocations(db);
  for (const region of regions) {
    for (const name of [region.name, region.nameEn, region.slug]) add(name, { type: 'region', title: region.name, url: `/escort/${region.slug}/` });
  }
  for (const region of regions) {
    for (const city of region.cities) {
      for (const name of [city.city, city.slug]) add(name, { type: 'city', title: city.city, url: `/escort/${region.slug}/${city.slug}/` });
    }
  }
  const pages = await publishedLandingPages(db);
  const serviceRows = await db.select({ id: services.id, nameDa: services.nameDa, nameEn: services.nameEn, slug: services.slug }).from(services);
  for (const service of serviceRows) {
    const page = pages.find((p) => p.type === 'service' && p.serviceId === service.id && p.locale === 'da');
    const target: KeywordTarget = { type: 'service', title: service.nameDa, url: page ? landingPagePath(page) : `/escort/?services=${service.id}` };
    for (const name of [service.nameDa, service.nameEn, service.slug]) add(name, target);
  }
  for (const page of pages) {
    for (const name of pageNames(page)) add(name, { type: 'page', title: page.title, url: landingPagePath(page) });
  }
  return targets;
}

type Decision = { id: number | null; kind: 'ignored' | 'paired'; pairedWith: string | null; pageUrl: string | null; at: Date | null };

/** SEO staff's decisions by term. Pairs made before decisions had rows (demo data) count, without an Id. */
async function decisions(db: Db): Promise<Map<string, Decision>> {
  const byTerm = new Map<string, Decision>();
  const rows = await db
    .select({ id: searchKeywords.id, keyword: searchKeywords.keyword, kind: searchKeywords.kind, targetUrl: searchKeywords.targetUrl, at: searchKeywords.createdAt })
    .from(searchKeywords);
  const pairs = await db.select({ keyword: pairedKeywords.keyword, pairedWith: pairedKeywords.pairedWith, at: pairedKeywords.createdAt }).from(pairedKeywords);
  for (const row of rows) {
    if (row.kind === 'ignored') byTerm.set(row.keyword, { id: row.id, kind: 'ignored', pairedWith: null, pageUrl: null, at: row.at });
    else if (row.targetUrl) byTerm.set(row.keyword, { id: row.id, kind: 'paired', pairedWith: null, pageUrl: row.targetUrl, at: row.at });
  }
  for (const pair of pairs) {
    const held = byTerm.get(pair.keyword);
    const id = rows.find((row) => row.keyword === pair.keyword && row.kind === 'paired')?.id ?? null;
    if (!held) byTerm.set(pair.keyword, { id, kind: 'paired', pairedWith: pair.pairedWith, pageUrl: null, at: pair.at });
    else if (held.kind === 'paired' && !held.pageUrl) held.pairedWith = pair.pairedWith;
  }
  return byTerm;
}

function listOf(decision: Decision | undefined, target: KeywordTarget | undefined): KeywordList {
  if (decision?.kind === 'ignored') return 'ignored';
  if (decision?.kind === 'paired') return 'paired';
  return target ? 'matched' : 'unmatched';
}

function rowOf(term: string, counts: { searches: number; noResults: number } | undefined, decision: Decision | undefined, target: KeywordTarget | undefined): KeywordRow {
  return {
    term,
    searches: counts?.searches ?? 0,
    noResults: counts?.noResults ?? 0,
    id: decision?.id ?? null,
    target: decision ? null : (target ?? null),
    pairedWith: decision?.pairedWith ?? null,
    pageUrl: decision?.pageUrl ?? null,
    decidedAt: decision?.at?.toISOString() ?? null,
  };
}

/** The first day (yyyy-MM-dd, Copenhagen) of a period of `days` days ending today. */
function firstDayOf(now: Date, days: number): string {
  return isoDayOf(new Date(now.getTime() - (days - 1) * DAY_MS));
}

/** One of the four lists, a page of it, counted over the last `Days` days. */
export async function listKeywords(ctx: DomainContext, list: KeywordList, query: KeywordListQuery): Promise<KeywordListAnswer> {
  requirePermission(ctx.actor, 'seo:keywords:any');
  const days = query.Days as KeywordPeriod;
  const counted = await ctx.db
    .select({ term: searchTermDays.term, searches: sql<number>`sum(${searchTermDays.searches})::int`, noResults: sql<number>`sum(${searchTermDays.noResults})::int` })
    .from(searchTermDays)
    .where(gte(searchTermDays.day, firstDayOf(ctx.now(), days)))
    .groupBy(searchTermDays.term);
  const counts = new Map(counted.map((row) => [row.term, row]));
  const byTerm = await decisions(ctx.db);
  const targets = await namedTargets(ctx.db);
  // Decided terms are listed even when nobody searched them in the period (a pair made ahead of time).
  const terms = new Set([...counts.keys(), ...(list === 'paired' || list === 'ignored' ? byTerm.keys() : [])]);
  const wanted = query.Term ? matchKey(query.Term) : '';
  const rows: KeywordRow[] = [];
  for (const term of terms) {
    if (wanted && !matchKey(term).includes(wanted)) continue;
    const decision = byTerm.get(term);
    const target = targets.get(matchKey(term));
    if (listOf(decision, target) !== list) continue;
    rows.push(rowOf(term, counts.get(term), decision, target));
  }
  const share = (row: KeywordRow) => (row.searches === 0 ? 0 : row.noResults / row.searches);
  rows.sort((a, b) =>
    query.Sort === 'term'
      ? a.term.localeCompare(b.term, 'da')
      : query.Sort === 'noResults'
        ? share(b) - share(a) || b.searches - a.searches || a.term.localeCompare(b.term, 'da')
        : b.searches - a.searches || a.term.localeCompare(b.term, 'da'),
  );
  return { total: rows.length, items: rows.slice(query.Skip, query.Skip + query.Take), days };
}

/** A term as typed, normalised as the counts have it, or a field error. */
function termOf(text: string, field: string): string {
  const term = searchTermOf(text);
  if (!term) throw new AppError('INVALID', 'Not a search term', [{ field, message: 'notATerm' }]);
  return term;
}

/** keyword (GET): one term, its list, its searches per day over the period, and before and after its decision. */
export async function getKeyword(ctx: DomainContext, keyword: string, daysWanted: number): Promise<KeywordDetail> {
  requirePermission(ctx.actor, 'seo:keywords:any');
  const term = termOf(keyword, 'Keyword');
  const days = daysWanted as KeywordPeriod;
  const all = await ctx.db
    .select({ day: searchTermDays.day, searches: searchTermDays.searches, noResults: searchTermDays.noResults })
    .from(searchTermDays)
    .where(eq(searchTermDays.term, term))
    .orderBy(searchTermDays.day);
  const decision = (await decisions(ctx.db)).get(term);
  const target = (await namedTargets(ctx.db)).get(matchKey(term));
  if (all.length === 0 && !decision) throw notFound('The search term');
  const now = ctx.now();
  const first = firstDayOf(now, days);
  const byDay = new Map(all.map((row) => [row.day, row]));
  const perDay: KeywordDetail['perDay'] = [];
  for (let i = days - 1; i >= 0; i -= 1) {
    const day = isoDayOf(new Date(now.getTime() - i * DAY_MS));
    const row = byDay.get(day);
    perDay.push({ day, searches: row?.searches ?? 0, noResults: row?.noResults ?? 0 });
  }
  const inPeriod = all.filter((row) => row.day >= first);
  const sum = (rows: typeof all) => rows.reduce((acc, row) => ({ searches: acc.searches + row.searches, noResults: acc.noResults + row.noResults }), { searches: 0, noResults: 0 });
  const decidedDay = decision?.at ? isoDayOf(decision.at) : null;
  return {
    ...rowOf(term, sum(inPeriod), decision, target),
    list: listOf(decision, target),
    days,
    perDay,
    beforeAfter: decidedDay ? { before: sum(all.filter((row) => row.day < decidedDay)), after: sum(all.filter((row) => row.day > decidedDay)) } : null,
  };
}

/** A page of this site a term may be paired with: a search landing path or a published landing page. */
async function knownPagePath(db: Db, url: string): Promise<string | null> {
  let path: string;
  try {
    path = sitePath(new URL(url, 'http://local.invalid').pathname);
  } catch {
    return null;
  }
  const landing = await canonicalLandingPath(db, path);
  if (landing) return landing;
  const pages = await db
    .select({ type: landingPages.type, url: landingPages.url, locale: landingPages.locale })
    .from(landingPages)
    .where(isNotNull(landingPages.publishedAt));
  return pages.map(landingPagePath).find((candidate) => candidate === path) ?? null;
}

/** keyword (POST), the spec's insert: ignore a term, or pair it with another term or a page. Replaces the term's earlier decision. */
export async function insertKeyword(ctx: DomainContext, input: KeywordInsertInput): Promise<KeywordRow> {
  requirePermission(ctx.actor, 'seo:keywords:any');
  const term = termOf(input.Keyword, 'Keyword');
  let pairedWith: string | null = null;
  let pageUrl: string | null = null;
  if (input.Kind === 'paired') {
    if (input.PageUrl) {
      pageUrl = await knownPagePath(ctx.db, input.PageUrl);
      if (!pageUrl) throw new AppError('INVALID', 'No such page on this site', [{ field: 'PageUrl', message: 'pageUnknown' }]);
    } else {
      pairedWith = termOf(input.PairedWith, 'PairedWith');
      if (pairedWith === term) throw new AppError('INVALID', 'A term cannot be paired with itself', [{ field: 'PairedWith', message: 'pairSelf' }]);
    }
  }
  const row = await ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const before = (await decisions(tx)).get(term);
    await tx.delete(pairedKeywords).where(eq(pairedKeywords.keyword, term));
    const [saved] = await tx
      .insert(searchKeywords)
      .values({ keyword: term, kind: input.Kind, targetUrl: pageUrl, createdAt: ctx.now() })
      .onConflictDoUpdate({ target: searchKeywords.keyword, set: { kind: input.Kind, targetUrl: pageUrl, createdAt: ctx.now() } })
      .returning({ id: searchKeywords.id, at: searchKeywords.createdAt });
    if (pairedWith) await tx.insert(pairedKeywords).values({ keyword: term, pairedWith, createdAt: ctx.now() });
    const after = { kind: input.Kind, pairedWith, pageUrl };
    await writeAudit(txCtx, {
      action: input.Kind === 'ignored' ? 'keyword.ignored' : 'keyword.paired',
      targetType: 'search_keyword',
      targetId: saved!.id,
      before: before ? { term, kind: before.kind, pairedWith: before.pairedWith, pageUrl: before.pageUrl } : null,
      after: { term, ...after },
    });
    return { id: saved!.id, at: saved!.at };
  });
  forgetPairs(ctx.db);
  return { term, searches: 0, noResults: 0, id: row.id, target: null, pairedWith, pageUrl, decidedAt: row.at.toISOString() };
}

/**
 * deletekeyword (the spec's DELETE with Id), removepair and removeignore: the decision with this Id is
 * taken back and the term goes back to matched or unmatched. `only` refuses an Id of the other kind.
 */
export async function removeKeywordDecision(ctx: DomainContext, id: number, only?: 'ignored' | 'paired'): Promise<void> {
  requirePermission(ctx.actor, 'seo:keywords:any');
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(searchKeywords).where(eq(searchKeywords.id, id));
    if (!row || (only && (only === 'ignored' ? row.kind !== 'ignored' : row.kind === 'ignored'))) throw notFound('The decision');
    const pairs = await tx.delete(pairedKeywords).where(eq(pairedKeywords.keyword, row.keyword)).returning({ pairedWith: pairedKeywords.pairedWith });
    await tx.delete(searchKeywords).where(eq(searchKeywords.id, id));
    await writeAudit({ ...ctx, db: tx }, {
      action: row.kind === 'ignored' ? 'keyword.unignored' : 'keyword.unpaired',
      targetType: 'search_keyword',
      targetId: id,
      before: { term: row.keyword, kind: row.kind, pairedWith: pairs[0]?.pairedWith ?? null, pageUrl: row.targetUrl },
    });
  });
  forgetPairs(ctx.db);
}

// ---- The pairs on the search path -------------------------------------------------------------

type PairMemory = { at: number; byTerm: Map<string, Set<string>>; pages: Map<string, string>; namedPages: Map<string, string> };
/** Pairs change rarely and are read on every free-text search: held per database, read again after 30 s or a change here. */
const pairMemories = new WeakMap<Db, PairMemory>();
const PAIRS_FOR_MS = 30_000;

function forgetPairs(db: Db): void {
  pairMemories.delete(db);
}

async function pairMemory(db: Db): Promise<PairMemory> {
  const held = pairMemories.get(db);
  if (held && Date.now() - held.at < PAIRS_FOR_MS) return held;
  const pairs = await db.select({ keyword: pairedKeywords.keyword, pairedWith: pairedKeywords.pairedWith }).from(pairedKeywords);
  const pageRows = await db
    .select({ keyword: searchKeywords.keyword, targetUrl: searchKeywords.targetUrl })
    .from(searchKeywords)
    .where(and(isNotNull(searchKeywords.targetUrl), or(eq(searchKeywords.kind, 'paired'), eq(searchKeywords.kind, 'matched'))));
  const byTerm = new Map<string, Set<string>>();
  const link = (from: string, to: string) => {
    const key = searchTermOf(from);
    const other = searchTermOf(to);
    if (!key || !other) return;
    if (!byTerm.has(key)) byTerm.set(key, new Set());
    byTerm.get(key)!.add(other);
  };
  // Pairs work both ways: a search for either term finds what the other finds.
  for (const pair of pairs) {
    link(pair.keyword, pair.pairedWith);
    link(pair.pairedWith, pair.keyword);
  }
  const pages = new Map<string, string>();
  for (const row of pageRows) {
    const key = searchTermOf(row.keyword);
    if (key && row.targetUrl) pages.set(key, row.targetUrl);
  }
  // A published landing page (not a place's text) is reached by its title or address typed in the header search.
  const namedPages = new Map<string, string>();
  for (const page of await publishedLandingPages(db)) {
    for (const name of pageNames(page)) {
      const key = matchKey(name);
      if (key && !namedPages.has(key)) namedPages.set(key, landingPagePath(page));
    }
  }
  const memory = { at: Date.now(), byTerm, pages, namedPages };
  pairMemories.set(db, memory);
  return memory;
}

/** The typed text and the terms paired with it (the free-text search and the location box search for all). */
export async function pairedTerms(db: Db, text: string): Promise<string[]> {
  const term = searchTermOf(text);
  const all = new Set([text]);
  if (term) for (const other of (await pairMemory(db)).byTerm.get(term) ?? []) all.add(other);
  return [...all];
}

/**
 * Where the header search leads a term (searchpagepagefreetext), or null (the free-text results): the page
 * SEO staff paired it with, else a published landing page it names (a page made for a visitors' term).
 */
export async function pairedPage(db: Db, text: string): Promise<string | null> {
  const term = searchTermOf(text);
  if (!term) return null;
  const memory = await pairMemory(db);
  return memory.pages.get(term) ?? memory.namedPages.get(matchKey(term)) ?? null;
}

/** A landing page was published, changed or taken down: the header search sees it at once on this instance. */
export function forgetKeywordPages(db: Db): void {
  forgetPairs(db);
}
