import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pairedKeywords, searchKeywords } from '../../db/schema.ts';
import type { SearchProfilesInput } from '#lib/schemas/search.ts';
import { searchProfiles, textCondition, type SearchResult } from './search-profiles.ts';

export function normaliseKeyword(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 100);
}

/** The keyword and its synonyms kept by SEO staff (paired keywords work both ways). */
export async function expandKeyword(db: Db, keyword: string): Promise<string[]> {
  const rows = await db
    .select({ keyword: pairedKeywords.keyword, pairedWith: pairedKeywords.pairedWith })
    .from(pairedKeywords)
    .where(or(eq(pairedKeywords.keyword, keyword), eq(pairedKeywords.pairedWith, keyword)));
  const all = new Set([keyword]);
  for (const row of rows) all.add(row.keyword === keyword ? row.pairedWith : row.keyword);
  return [...all];
}

/** Counts a searched keyword as matched or unmatched for the SEO tools; ignored ones keep their kind. */
export async function recordSearchKeyword(db: Db, keyword: string, matched: boolean, now: Date): Promise<void> {
  if (!keyword) return;
  const kind = matched ? 'matched' : 'unmatched';
  await db
    .insert(searchKeywords)
    .values({ keyword, kind, hits: 1, lastSearchedAt: now })
    .onConflictDoUpdate({
      target: searchKeywords.keyword,
      set: {
        hits: sql`${searchKeywords.hits} + 1`,
        lastSearchedAt: now,
        kind: sql`case when ${searchKeywords.kind} = 'ignored' then 'ignored' else ${kind} end`,
      },
    });
}

/** searchpageprofileswithfreetext: the free-text search, synonyms applied, the keyword counted. */
export async function searchWithFreeText(db: Db, input: SearchProfilesInput, now: Date): Promise<SearchResult & { keyword: string }> {
  const keyword = normaliseKeyword(input.Text);
  const terms = keyword ? await expandKeyword(db, keyword) : [];
  const search = (fuzzy: boolean) => {
    const conditions = terms.map((term) => textCondition(term, { fuzzy })).filter((c) => c !== undefined);
    return searchProfiles(db, { ...input, Text: '' }, now, conditions.length ? { text: or(...conditions)! } : {});
  };
  let result = await search(false);
  // Nothing found: try again forgiving small typos (slower, so only now).
  if (result.total === 0 && terms.length > 0) result = await search(true);
  await recordSearchKeyword(db, keyword, result.total > 0, now);
  return { ...result, keyword };
}

/** A matched keyword may lead straight to a page chosen by SEO staff (e.g. "escort kbh" → a city page). */
export async function findKeywordTarget(db: Db, text: string): Promise<{ keyword: string; targetUrl: string | null }> {
  const keyword = normaliseKeyword(text);
  const [row] = keyword
    ? await db.select({ kind: searchKeywords.kind, targetUrl: searchKeywords.targetUrl }).from(searchKeywords).where(eq(searchKeywords.keyword, keyword))
    : [];
  return { keyword, targetUrl: row?.kind === 'matched' ? (row.targetUrl ?? null) : null };
}
