import type { Db } from '../../db/client.ts';
import type { SearchProfilesInput } from '#lib/schemas/search.ts';
import { searchProfiles, searchWords } from './search-profiles.ts';
import { correctedText, vocabularyOf } from './spelling.ts';
import { danishNameOf, knownPlaces, placesNamedIn, type KnownPlaces } from './place-names.ts';
import type { FreeTextResult } from '#lib/schemas/public-advert.ts';
import { normalisePlaceName } from '#lib/format.ts';
import { pairedPage, pairedTerms } from './keywords.ts';

export function normaliseKeyword(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 100);
}

/** searchpageprofileswithfreetext: the free-text search, pairs applied (keywords.ts) (the door counts the search term). */
export async function searchWithFreeText(db: Db, input: SearchProfilesInput, now: Date): Promise<FreeTextResult> {
  const keyword = normaliseKeyword(input.Text);
  const terms = keyword ? await pairedTerms(db, keyword) : [];
  const search = (texts: string[]) => searchProfiles(db, { ...input, Text: '' }, now, { texts });
  const result = await search(terms);
  if (result.total > 0 || terms.length === 0) return { ...result, keyword, spelledAs: null, places: [] };
  // Nothing found (issue 31, item 3): the words no advert holds read as the Danish name of a foreign place
  // name ("Kopenhagen" → "København") or as the nearest known word (small typos), once; the page says what the
  // results are for ("Mente du København?"). Still nothing: the places the words name, for the page to offer.
  const [vocabulary, places] = await Promise.all([vocabularyOf(db), knownPlaces(db)]);
  const corrected = [...new Set(terms.map((term) => correctedText(vocabulary, searchWords(term), danishNameOf)).filter((text): text is string => text !== null))];
  if (corrected.length > 0) {
    const rescued = await search(corrected);
    if (rescued.total > 0) return { ...rescued, keyword, spelledAs: displayed(places, corrected[0]!), places: [] };
  }
  return { ...result, keyword, spelledAs: null, places: placesNamedIn(places, keyword) };
}

/** A corrected text as the page shows it: words that are place names as the place is written ("København"). */
function displayed(places: KnownPlaces, text: string): string {
  return text
    .split(' ')
    .map((word) => places.byFolded.get(normalisePlaceName(word))?.find((place) => normalisePlaceName(place.name) === normalisePlaceName(word))?.name ?? word)
    .join(' ');
}

/** searchpagepagefreetext: a term SEO staff paired with a page leads the header search there (e.g. "escort kbh" → a city page). */
export async function findKeywordTarget(db: Db, text: string): Promise<{ keyword: string; targetUrl: string | null }> {
  const keyword = normaliseKeyword(text);
  return { keyword, targetUrl: keyword ? await pairedPage(db, keyword) : null };
}
