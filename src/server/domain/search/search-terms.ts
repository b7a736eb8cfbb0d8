/**
 * What visitors search for (issue 17, "Visitors' search terms"): a term is the visitor's words normalised
 * (lower case, spaces collapsed, Danish letters folded as the slugs have them: æ→ae, ø→oe, å→aa), and
 * what is not a search term is dropped: phone numbers (their digits split by any marks), anything with an @
 * (an email address, with or without its domain ending), web addresses, very long strings,
 * bare numbers, and searches by bots (their user agent: `isBotAgent`, ../visitors.ts). Counted per day with how many found nothing, and
 * nothing else is kept: no address, no session id, no user id.
 *
 * A term is written only once at least MIN_VISITORS different visitors searched it that day. Visitors
 * are told apart in memory only, by a hash of address and user agent under a salt made anew every day and
 * never stored (`DayKeys`, ../visitors.ts): nobody (us included) can tell afterwards who searched. Counting costs
 * a few microseconds on the search path (no database work); `flush` writes the day's counts every minute.
 * Each instance counts its own visitors (a term must reach the threshold on one instance).
 */
import { lt, sql } from 'drizzle-orm';
import { foldDanish, isoDayOf } from '#lib/format.ts';
import type { Db } from '../../db/client.ts';
import { searchTermDays } from '../../db/schema.ts';
import { DayKeys, isBotAgent } from '../visitors.ts';

/** Longer than this is not a search term (pasted text). */
const MAX_TERM_LENGTH = 60;
/** A term is written once this many different visitors searched it in a day. */
export const MIN_VISITORS = 3;
/** Different terms held per day at most (memory bound); more are not counted that day. */
const MAX_TERMS_PER_DAY = 50_000;
/** Counts are kept this many months. */
export const KEEP_MONTHS = 13;

/** Anything with an @ between words: an email address, with or without its domain ending (sofie@hotmail). */
const EMAIL = /\S\s*@\s*\S/;
const WEB_ADDRESS = /https?:\/\/|www\.|\b[a-z0-9-]+\.(?:dk|com|net|org|eu|io|info|se|no|de|uk|co)\b/i;
/** 8 or more digits in a row once whatever stands between them (spaces, dots, slashes, underscores…) is taken out: a phone number. */
const PHONE = /\d{8,}/;
/** What may stand between a phone number's digits: anything but a letter. */
const BETWEEN_DIGITS = /(?<=\d)[^\p{L}\d]+(?=\d)/gu;

/** The search term of what a visitor typed, or null when it is not one (see the module's comment). */
export function searchTermOf(text: string): string | null {
  const typed = text.normalize('NFC').trim();
  if (!typed || typed.length > MAX_TERM_LENGTH) return null;
  if (EMAIL.test(typed) || WEB_ADDRESS.test(typed) || PHONE.test(typed.replace(BETWEEN_DIGITS, ''))) return null;
  const term = foldDanish(typed)
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Nothing but digits and marks (a postcode, a price) is not a term.
  return /\p{L}/u.test(term) ? term : null;
}


type Count = { searches: number; noResults: number; visitors: Set<string> | null };

export type SearchTermSighting = { text: string; results: number; ip: string | undefined; userAgent: string | undefined };

/** The search terms of one process: counted in memory, written by `flush`. */
export class SearchTermCounter {
  private day = '';
  private readonly keys = new DayKeys();
  private terms = new Map<string, Count>();
  /** A day that ended before its counts were written: written by the next flush. */
  private ended: { day: string; terms: Map<string, Count> } | null = null;

  /** Counts one search (a few microseconds; never throws). */
  record(sighting: SearchTermSighting, now: Date): void {
    if (isBotAgent(sighting.userAgent)) return;
    const term = searchTermOf(sighting.text);
    if (!term) return;
    const day = isoDayOf(now);
    if (day !== this.day) this.startDay(day);
    let count = this.terms.get(term);
    if (!count) {
      if (this.terms.size >= MAX_TERMS_PER_DAY) return;
      count = { searches: 0, noResults: 0, visitors: new Set() };
      this.terms.set(term, count);
    }
    count.searches += 1;
    if (sighting.results === 0) count.noResults += 1;
    if (count.visitors) {
      count.visitors.add(this.keys.key(day, sighting.ip ?? '', sighting.userAgent ?? '').slice(0, 16));
      // Enough visitors: who they were is forgotten at once.
      if (count.visitors.size >= MIN_VISITORS) count.visitors = null;
    }
  }

  private startDay(day: string): void {
    if (this.day) this.ended = { day: this.day, terms: this.terms };
    this.day = day;
    this.terms = new Map();
  }

  /** Writes the counts not yet written of terms enough visitors searched; answers how many rows it wrote. */
  async flush(db: Db): Promise<number> {
    const rows = [...(this.ended ? take(this.ended.day, this.ended.terms) : []), ...take(this.day, this.terms)];
    this.ended = null;
    if (rows.length === 0) return 0;
    try {
      await db
        .insert(searchTermDays)
        .values(rows)
        .onConflictDoUpdate({
          target: [searchTermDays.day, searchTermDays.term],
          set: {
            searches: sql`${searchTermDays.searches} + excluded.searches`,
            noResults: sql`${searchTermDays.noResults} + excluded.no_results`,
          },
        });
    } catch (error) {
      // Not written: today's counts are held again for the next flush (an ended day's are let go).
      for (const row of rows) {
        const count = row.day === this.day ? this.terms.get(row.term) : undefined;
        if (count) {
          count.searches += row.searches;
          count.noResults += row.noResults;
        }
      }
      throw error;
    }
    return rows.length;
  }
}

/** The counts of one day's terms that passed the threshold, taken (the held counts start again from 0). */
function take(day: string, terms: Map<string, Count>): (typeof searchTermDays.$inferInsert)[] {
  const rows: (typeof searchTermDays.$inferInsert)[] = [];
  for (const [term, count] of terms) {
    if (count.visitors !== null || count.searches === 0) continue;
    rows.push({ day, term, searches: count.searches, noResults: count.noResults });
    count.searches = 0;
    count.noResults = 0;
  }
  return rows;
}

/** Drops the counts older than KEEP_MONTHS. */
export async function pruneSearchTerms(db: Db, now: Date): Promise<void> {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - KEEP_MONTHS);
  await db.delete(searchTermDays).where(lt(searchTermDays.day, isoDayOf(cutoff)));
}
