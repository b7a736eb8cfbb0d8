/**
 * Typos in the free-text search (issue 17: under 50 ms at 50,000 adverts; the database's trigram pass
 * took 0.85 s). When a search finds nothing, each word that no advert holds is replaced by the known word
 * nearest to it, and the search runs again with the words found. "Known words" are the words of the
 * search texts (name, title, city, services: `advert_search_documents.search_text`) as the search memory
 * holds them (text-memory.ts), with an index of their trigrams, as pg_trgm forms them ("  word ");
 * nearness is pg_trgm's similarity (shared trigrams over all trigrams of both). The index is made again
 * from the memory's words at most every REFRESH_MS, in the background (a search meanwhile uses the one it has).
 */
import type { Db } from '../../db/client.ts';
import { searchMemory } from './search-memory.ts';

/** pg_trgm's default similarity threshold: below it, two words are not alike. */
const MIN_SIMILARITY = 0.3;
/** The known words are read again at most this often. */
const REFRESH_MS = 10 * 60_000;
/** Words shorter than this are not corrected (too little to go on). */
const MIN_WORD_LENGTH = 3;

const WORD = /[\p{L}\p{N}]+/gu;

/** A word's trigrams as pg_trgm forms them: two spaces before, one after, each run of three. */
export function trigramsOf(word: string): string[] {
  const padded = `  ${word} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i += 1) grams.add(padded.slice(i, i + 3));
  return [...grams];
}

/** Known words with an index of their trigrams. */
export class Vocabulary {
  private readonly words: string[];
  private readonly known: Set<string>;
  private readonly gramCounts: Uint8Array;
  private readonly index = new Map<string, number[]>();

  constructor(texts: Iterable<string>) {
    const words = new Set<string>();
    for (const text of texts) for (const match of text.toLowerCase().matchAll(WORD)) words.add(match[0]);
    this.words = [...words];
    this.known = words;
    this.gramCounts = new Uint8Array(this.words.length);
    this.words.forEach((word, id) => {
      const grams = trigramsOf(word);
      this.gramCounts[id] = Math.min(grams.length, 255);
      for (const gram of grams) {
        const list = this.index.get(gram);
        if (list) list.push(id);
        else this.index.set(gram, [id]);
      }
    });
  }

  get size(): number {
    return this.words.length;
  }

  has(word: string): boolean {
    return this.known.has(word);
  }

  /** The known word most like `word` (pg_trgm similarity at least MIN_SIMILARITY), or null. */
  nearest(word: string): string | null {
    const grams = trigramsOf(word);
    const shared = new Map<number, number>();
    for (const gram of grams) for (const id of this.index.get(gram) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    let best: { id: number; similarity: number } | null = null;
    for (const [id, common] of shared) {
      const similarity = common / (grams.length + this.gramCounts[id]! - common);
      // Ties go to the shorter word, then the first known.
      if (!best || similarity > best.similarity || (similarity === best.similarity && this.words[id]!.length < this.words[best.id]!.length)) {
        best = { id, similarity };
      }
    }
    return best && best.similarity >= MIN_SIMILARITY ? this.words[best.id]! : null;
  }
}

type Held = { vocabulary: Promise<Vocabulary>; readAt: number; refreshing: boolean };
const held = new WeakMap<Db, Held>();

/** The known words: those of the search texts the search memory holds (text-memory.ts), no read of its own. */
async function readVocabulary(db: Db): Promise<Vocabulary> {
  const index = await (await searchMemory(db)).texts(db);
  return new Vocabulary(index.knownWords());
}

/** The known words of this database: read once, then again in the background when older than REFRESH_MS. */
export function vocabularyOf(db: Db, now = Date.now()): Promise<Vocabulary> {
  const current = held.get(db);
  if (!current) {
    const entry: Held = { vocabulary: readVocabulary(db), readAt: now, refreshing: false };
    held.set(db, entry);
    entry.vocabulary.catch(() => held.delete(db));
    return entry.vocabulary;
  }
  if (now - current.readAt > REFRESH_MS && !current.refreshing) {
    current.refreshing = true;
    readVocabulary(db).then(
      (fresh) => {
        current.vocabulary = Promise.resolve(fresh);
        current.readAt = Date.now();
        current.refreshing = false;
      },
      () => {
        current.refreshing = false;
      },
    );
  }
  return current.vocabulary;
}

/**
 * A text with each word no advert holds replaced by what `rename` calls it (a foreign place name's Danish
 * one: "kopenhagen" → "københavn") or else the nearest known word; null when nothing changed or a word has
 * no near word (the search would still find nothing).
 */
export function correctedText(vocabulary: Vocabulary, words: string[], rename: (word: string) => string | null = () => null): string | null {
  let changed = false;
  const corrected: string[] = [];
  for (const word of words) {
    if (vocabulary.has(word) || word.length < MIN_WORD_LENGTH) {
      corrected.push(word);
      continue;
    }
    const renamed = rename(word)?.toLowerCase();
    if (renamed) {
      corrected.push(renamed);
      changed = true;
      continue;
    }
    const near = vocabulary.nearest(word);
    if (near === null) return null;
    corrected.push(near);
    changed = changed || near !== word;
  }
  return changed ? corrected.join(' ') : null;
}
