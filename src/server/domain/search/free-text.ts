import type { Db } from '../../db/client.ts';
import type { SearchProfilesInput } from '#lib/schemas/search.ts';
import { searchProfiles, searchWords, type SearchResult } from './search-profiles.ts';
import { correctedText, vocabularyOf } from './spelling.ts';
import { pairedPage, pairedTerms } from './keywords.ts';

export function normaliseKeyword(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 100);
}

/** searchpageprofileswithfreetext: the free-text search, pairs applied (keywords.ts) (the door counts the search term). */
export async function searchWithFreeText(db: Db, input: SearchProfilesInput, now: Date): Promise<SearchResult & { keyword: string }> {
  const keyword = normaliseKeyword(input.Text);
  const terms = keyword ? await pairedTerms(db, keyword) : [];
  const search = (texts: string[]) => searchProfiles(db, { ...input, Text: '' }, now, { texts });
  let result = await search(terms);
  // Nothing found: the words no advert holds replaced by the nearest known ones (small typos), once.
  if (result.total === 0 && terms.length > 0) {
    const vocabulary = await vocabularyOf(db);
    const corrected = [...new Set(terms.map((term) => correctedText(vocabulary, searchWords(term))).filter((text): text is string => text !== null))];
    if (corrected.length > 0) result = await search(corrected);
  }
  return { ...result, keyword };
}

/** searchpagepagefreetext: a term SEO staff paired with a page leads the header search there (e.g. "escort kbh" → a city page). */
export async function findKeywordTarget(db: Db, text: string): Promise<{ keyword: string; targetUrl: string | null }> {
  const keyword = normaliseKeyword(text);
  return { keyword, targetUrl: keyword ? await pairedPage(db, keyword) : null };
}
