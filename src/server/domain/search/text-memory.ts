/**
 * The free-text part of the search memory (issue 17: a search for a common word or a typo under 50 ms at
 * 50,000 adverts; in the database a common word cost 135 ms, checked a batch at a time in rank order).
 *
 * The rule is the database's, run in memory: every word of a text must match an advert, either by its
 * Danish stems (the lexemes PostgreSQL's `danish` configuration makes of the word are all among the
 * lexemes of the advert's `document`: what `document @@ plainto_tsquery('danish', word)` asks) or as a
 * substring of the advert's `search_text` (name, title, city, services, lower case, æøå also spelled out),
 * typed, with æ, ø and å folded, or as its stem (a word of one stem of at least MIN_STEM_IN_COMPOUND
 * letters: "massager" finds "thaimassagen", a compound the stems alone do not join). The database still makes the lexemes, of the adverts' texts when they
 * are indexed and of a searched word when it is first searched (one small query, no table; kept after), so
 * the stemming is exactly the database's. tests/integration/search-text-memory.test.ts compares the two.
 *
 * Held per advert: the ids of the words of its search text and of its lexemes (interned: each stored once
 * however many adverts hold it). A search looks through the known words once per searched word, then
 * scans every advert's ids once. Kept current by search-memory.ts, which reads the changed adverts'
 * documents when it patches its rows.
 */
import { sql } from 'drizzle-orm';
import { foldDanish } from '#lib/format.ts';
import { copyOutText, rowsOf, type Db } from '../../db/client.ts';
import { anyOf, textArray } from '../../db/any-of.ts';
import { advertSearchDocuments } from '../../db/schema.ts';

/** How many searched texts' matches are kept until the next change. */
const RECENT_TEXTS = 200;

/** A stem this long or longer is also looked for inside the words of the search text (compounds). */
export const MIN_STEM_IN_COMPOUND = 5;

/** The adverts a free text matches: `marks[advertId]` is 1 for each (a byte per advert id up to the highest), and how many. */
export type TextMatches = { marks: Uint8Array; count: number };

/** One advert's text as read from the database: its search text and its lexemes, space-separated. */
export type TextRow = { id: number; searchText: string; lexemes: string };

/**
 * A word as a search looks for it: its lexemes' ids (null: it has one no advert holds, or none) and which
 * words of the search texts hold one of its substrings (a byte per known word, 1: holds one).
 */
type PreparedWord = { lexemes: Int32Array | null; words: Uint8Array };

/**
 * One advert's text: the ids of the words of its search text and of the lexemes of its document, each
 * sorted. A searched word never holds a space, so "a substring of the search text" is "a substring of one
 * of its words": the known words are scanned once per searched word (a few thousand, not 50,000 texts).
 */
type TextDoc = { words: Int32Array; lexemes: Int32Array };

/** Interned strings: each stored once, known by a number. */
class Strings {
  readonly list: string[] = [];
  private readonly ids = new Map<string, number>();

  idOf(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.list.length;
      this.ids.set(text, id);
      this.list.push(text);
    }
    return id;
  }

  find(text: string): number | undefined {
    return this.ids.get(text);
  }
}

const sortedIds = (texts: Iterable<string>, strings: Strings) => {
  const ids = new Set<number>();
  for (const text of texts) if (text) ids.add(strings.idOf(text));
  return Int32Array.from(ids).sort();
};

/**
 * The adverts by position, and which adverts hold each word and each lexeme (positions, ascending): word w
 * is held by `wordPosts[wordStart[w]] .. wordPosts[wordStart[w + 1] - 1]`. A search then touches only the
 * adverts that hold what it looks for.
 */
type Postings = { ids: Int32Array; maxId: number; docs: TextDoc[]; wordStart: Int32Array; wordPosts: Int32Array; lexemeStart: Int32Array; lexemePosts: Int32Array };

function postingsOf(docs: TextDoc[], key: 'words' | 'lexemes', count: number): { start: Int32Array; posts: Int32Array } {
  const start = new Int32Array(count + 1);
  for (const doc of docs) for (const id of doc[key]) start[id + 1]! += 1;
  for (let i = 0; i < count; i++) start[i + 1]! += start[i]!;
  const next = start.slice(0, count);
  const posts = new Int32Array(start[count]!);
  docs.forEach((doc, k) => {
    for (const id of doc[key]) posts[next[id]!++] = k;
  });
  return { start, posts };
}

export class TextIndex {
  private readonly lexemes = new Strings();
  private readonly words = new Strings();
  private readonly docs = new Map<number, TextDoc>();
  /** Made again at the first search after a change. */
  private postings: Postings | null = null;
  /** The matches of the texts searched most recently, until the next change (popular terms repeat). */
  private readonly recent = new Map<string, TextMatches>();

  constructor(rows: Iterable<TextRow>) {
    for (const row of rows) this.set(row);
  }

  get size(): number {
    return this.docs.size;
  }

  /** Every word the search texts have held (spelling.ts corrects typos towards them). */
  knownWords(): readonly string[] {
    return this.words.list;
  }

  private set(row: TextRow): void {
    this.docs.set(row.id, { words: sortedIds(row.searchText.split(/\s+/), this.words), lexemes: sortedIds(row.lexemes.split(' '), this.lexemes) });
  }

  /** The texts of these adverts are now `fresh` (those still public; the others are dropped). */
  apply(advertIds: Iterable<number>, fresh: TextRow[]): void {
    for (const id of advertIds) this.docs.delete(id);
    for (const row of fresh) this.set(row);
    this.postings = null;
    this.recent.clear();
  }

  /**
   * The matches of these texts (lists of words, with each word's lexemes): from the recent ones when the
   * same words were searched since the last change, else found and kept (the marks are shared: read only).
   */
  find(texts: { word: string; lexemes: string[] }[][]): TextMatches {
    const key = texts.map((words) => words.map((w) => w.word).join(' ')).join('\n');
    const held = this.recent.get(key);
    if (held) {
      this.recent.delete(key);
      this.recent.set(key, held);
      return held;
    }
    const found = this.matching(texts.map((words) => words.map((w) => this.prepare(w.word, w.lexemes))));
    this.recent.set(key, found);
    if (this.recent.size > RECENT_TEXTS) this.recent.delete(this.recent.keys().next().value!);
    return found;
  }

  /** A searched word with its lexemes as the database made them. */
  private prepare(word: string, lexemes: string[]): PreparedWord {
    const folded = foldDanish(word);
    const parts = folded !== word ? [word, folded] : [word];
    // A compound holds the stem of its last part: "massager" (stem "massag") finds "thaimassagen" too.
    const stem = lexemes.length === 1 ? lexemes[0]! : '';
    if (stem.length >= MIN_STEM_IN_COMPOUND && !parts.includes(stem)) parts.push(stem);
    const known = this.words.list;
    const words = new Uint8Array(known.length);
    for (let id = 0; id < known.length; id++) {
      const text = known[id]!;
      for (const part of parts) {
        if (text.includes(part)) {
          words[id] = 1;
          break;
        }
      }
    }
    if (lexemes.length === 0) return { lexemes: null, words };
    const ids: number[] = [];
    for (const lexeme of lexemes) {
      const id = this.lexemes.find(lexeme);
      // A lexeme no advert ever held: no advert matches by stems.
      if (id === undefined) return { lexemes: null, words };
      ids.push(id);
    }
    return { lexemes: Int32Array.from(ids), words };
  }

  private layout(): Postings {
    if (this.postings) return this.postings;
    const docs = [...this.docs.values()];
    const words = postingsOf(docs, 'words', this.words.list.length);
    const lexemes = postingsOf(docs, 'lexemes', this.lexemes.list.length);
    const ids = Int32Array.from(this.docs.keys());
    this.postings = {
      ids,
      maxId: ids.reduce((max, id) => Math.max(max, id), 0),
      docs,
      wordStart: words.start,
      wordPosts: words.posts,
      lexemeStart: lexemes.start,
      lexemePosts: lexemes.posts,
    };
    return this.postings;
  }

  /** The adverts that match any of the texts, each text a list of words that must all match. */
  private matching(texts: PreparedWord[][]): TextMatches {
    const p = this.layout();
    const found: TextMatches = { marks: new Uint8Array(p.maxId + 1), count: 0 };
    const wanted = texts.filter((words) => words.length > 0);
    if (wanted.length === 0) return found;
    const size = p.ids.length;
    // Per text: how many of its words each advert holds; `seen` keeps an advert from counting twice for one word.
    const held = new Uint8Array(size);
    const seen = new Int32Array(size);
    let stamp = 0;
    for (const words of wanted) {
      held.fill(0);
      for (const word of words) {
        stamp += 1;
        const mark = (k: number) => {
          if (seen[k] !== stamp) {
            seen[k] = stamp;
            held[k]! += 1;
          }
        };
        const lexemes = word.lexemes;
        if (lexemes) {
          // Every lexeme of the word: the adverts of its first lexeme that hold the others too.
          const first = lexemes[0]!;
          for (let j = p.lexemeStart[first]!, to = p.lexemeStart[first + 1]!; j < to; j++) {
            const k = p.lexemePosts[j]!;
            let all = true;
            for (let x = 1; x < lexemes.length && all; x++) all = holds(p.docs[k]!.lexemes, 0, p.docs[k]!.lexemes.length, lexemes[x]!);
            if (all) mark(k);
          }
        }
        const marks = word.words;
        for (let w = 0; w < marks.length; w++) {
          if (marks[w] !== 1) continue;
          for (let j = p.wordStart[w]!, to = p.wordStart[w + 1]!; j < to; j++) mark(p.wordPosts[j]!);
        }
      }
      for (let k = 0; k < size; k++) {
        if (held[k] !== words.length) continue;
        const id = p.ids[k]!;
        if (found.marks[id] === 0) {
          found.marks[id] = 1;
          found.count += 1;
        }
      }
    }
    return found;
  }
}

/** Whether the sorted ids `sorted[from..to)` hold `id` (binary search). */
function holds(sorted: Int32Array, from: number, to: number, id: number): boolean {
  let low = from;
  let high = to - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = sorted[middle]!;
    if (at === id) return true;
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** The columns a text row is read from (the lexemes of the document, space-separated). */
const LEXEMES = `array_to_string(tsvector_to_array(document), ' ')`;

/** COPY text escapes a backslash, tab, newline and carriage return; search texts rarely hold one. */
function unescapeCopy(value: string): string {
  return value.includes('\\') ? value.replace(/\\(.)/g, (_all, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c)) : value;
}

/** Every public advert's text (one COPY on PGlite, one query on PostgreSQL). */
export async function readAllTexts(db: Db): Promise<TextIndex> {
  const text = await copyOutText(db, `select advert_id, search_text, ${LEXEMES} from advert_search_documents`);
  if (text !== null) {
    const rows: TextRow[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      const [id, searchText, lexemes] = line.split('\t');
      rows.push({ id: Number(id), searchText: unescapeCopy(searchText ?? ''), lexemes: unescapeCopy(lexemes ?? '') });
    }
    return new TextIndex(rows);
  }
  return new TextIndex(await readTexts(db, null));
}

/** The texts of these adverts (null: all). */
export async function readTexts(db: Db, advertIds: number[] | null): Promise<TextRow[]> {
  const d = advertSearchDocuments;
  const query = db
    .select({ id: d.advertId, searchText: d.searchText, lexemes: sql<string>`array_to_string(tsvector_to_array(${d.document}), ' ')` })
    .from(d);
  return advertIds === null ? query : query.where(anyOf(d.advertId, advertIds));
}

/** Searched words' lexemes, kept per database (words repeat; the stemming never changes). */
const stems = new WeakMap<Db, Map<string, string[]>>();
const STEMS_KEPT = 20_000;

/** The lexemes the database's Danish configuration makes of each word (one query for those not yet known). */
export async function lexemesOf(db: Db, words: string[]): Promise<Map<string, string[]>> {
  let known = stems.get(db);
  if (!known) {
    known = new Map();
    stems.set(db, known);
  }
  const missing = [...new Set(words.filter((word) => !known.has(word)))];
  if (missing.length > 0) {
    const result = await db.execute(
      sql`select w as word, array_to_string(tsvector_to_array(to_tsvector('danish', w)), ' ') as lexemes from unnest(${textArray(missing)}) as w`,
    );
    if (known.size + missing.length > STEMS_KEPT) known.clear();
    for (const row of rowsOf<{ word: string; lexemes: string }>(result)) known.set(row.word, row.lexemes ? row.lexemes.split(' ') : []);
  }
  return new Map(words.map((word) => [word, known.get(word) ?? []]));
}
