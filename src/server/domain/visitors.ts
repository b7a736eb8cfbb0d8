/**
 * Telling visitors apart without keeping who they are, and leaving bots out: what the counts of visitors'
 * search terms (search/search-terms.ts) and of adverts' insights (insights/, docs/decisions/040) share.
 *
 * - `isBotAgent`: a crawler, a script or a headless browser by its User-Agent (the `isbot` package's list,
 *   kept up to date by its maintainers), or no User-Agent at all.
 * - `DayKeys`: a visitor's parts (address, User-Agent, what they did) as a key under a random salt made
 *   for each Copenhagen day and thrown away when the day changes: nobody, us included, can tell afterwards
 *   whose key it was, even from a store the keys were written to.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isbot } from 'isbot';

/** A bot, a script, a headless browser or no browser at all: not a visitor to count. */
export function isBotAgent(userAgent: string | undefined): boolean {
  return !userAgent || isbot(userAgent);
}

export class DayKeys {
  private day = '';
  private salt = Buffer.alloc(0);

  /** The key of these parts under the salt of `day` (yyyy-MM-dd, Copenhagen): a new salt when the day changed. */
  key(day: string, ...parts: (string | number)[]): string {
    if (day !== this.day) {
      this.day = day;
      this.salt = randomBytes(32);
    }
    const hash = createHash('sha256').update(this.salt);
    for (const part of parts) hash.update(`\u0000${part}`);
    return hash.digest('base64url');
  }
}
