/**
 * Visitors' search terms over real HTTP (issue 17, "Visitors' search terms"): the header's free-text search
 * and the filters' free text are counted per day with the searches that found nothing, and nothing else is
 * stored; a term is written only when 3 different visitors (address and browser, told apart in memory
 * only) searched it that day; phone numbers, email addresses and bots are never counted; counts older than
 * 13 months are pruned. Visitors are other loopback addresses (127.0.0.2, …), as the server sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { searchTermDays } from '#server/db/schema.ts';
import { pruneSearchTerms } from '#server/domain/search/search-terms.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import { postFrom } from './accounts-helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await createAdvert(server.db, { name: 'Søgeord Sofie', city: 'Aalborg' });
});
afterAll(async () => {
  await server?.close();
});

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

/** A search as a visitor at `address` with `agent` ('' : none) makes it: the free-text call, or the filters' call with Text. */
async function searchAs(address: string, text: string, options: { agent?: string; call?: 'searchpageprofileswithfreetext' | 'searchpageprofiles' } = {}): Promise<number> {
  const call = options.call ?? 'searchpageprofileswithfreetext';
  return (await postFrom(server, address, `/api/frontend/${call}`, { Text: text }, { 'user-agent': options.agent ?? BROWSER })).status;
}

const written = async () => {
  await server.app.searchTerms.flush(server.db);
  return server.db.select().from(searchTermDays);
};
const rowOf = async (term: string) => (await written()).find((row) => row.term === term);

describe('visitors’ search terms', () => {
  it('writes a term once 3 different visitors searched it in a day, with its searches and those that found nothing, and nothing about them', async () => {
    expect(await searchAs('127.0.0.2', 'Søgeord')).toBe(200);
    expect(await searchAs('127.0.0.3', 'søgeord ')).toBe(200);
    expect(await searchAs('127.0.0.2', 'SØGEORD')).toBe(200);
    // Two visitors (one of them twice): not yet.
    expect(await rowOf('soegeord')).toBeUndefined();
    // The same visitor with another browser counts as another visitor; the filters' free text counts too.
    expect(await searchAs('127.0.0.3', 'Søgeord', { agent: `${BROWSER} Edg/120.0`, call: 'searchpageprofiles' })).toBe(200);
    const row = await rowOf('soegeord');
    expect(row).toEqual({ day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), term: 'soegeord', searches: 4, noResults: 0 });
    // Later searches of the day are added up.
    expect(await searchAs('127.0.0.4', 'søgeord')).toBe(200);
    expect((await rowOf('soegeord'))?.searches).toBe(5);
    // The row holds the day, the term and two counts: nothing names a visitor.
    expect(Object.keys(row!).sort()).toEqual(['day', 'noResults', 'searches', 'term']);
  });

  it('counts the searches that found nothing', async () => {
    for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) expect(await searchAs(address, 'zyxwvut')).toBe(200);
    expect(await rowOf('zyxwvut')).toMatchObject({ searches: 3, noResults: 3 });
  });

  it('never counts a phone number, an email address or a bot’s search', async () => {
    for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']) {
      await searchAs(address, '20 30 40 50');
      await searchAs(address, 'anna@example.dk');
      // Issue 30: a phone number's digits split by any mark, and an address without its domain ending.
      await searchAs(address, 'anna 20/12/34/56');
      await searchAs(address, 'anna 20_12_34_56');
      await searchAs(address, 'sofie@hotmail');
      await searchAs(address, 'botord', { agent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
      await searchAs(address, 'botord', { agent: '' });
    }
    const terms = (await written()).map((row) => row.term);
    expect(terms.filter((term) => /\d{4}|\d{2} \d{2}|@|botord|hotmail/.test(term))).toEqual([]);
  });

  it('forgets the personal terms the old rule kept (migration 0024), and nothing else', async () => {
    const day = '2026-11-20';
    await server.db.insert(searchTermDays).values(
      ['anna 20 12 34 56', 'ring 2012 3456', 'sofie hotmail', 'gmail com anna', 'escort 2100', 'thai massage 8000 aarhus c', 'hotel'].map((term) => ({ day, term, searches: 3, noResults: 0 })),
    );
    const migration = await readFile(path.join(import.meta.dirname, '../../src/server/db/migrations/0024_forget_personal_search_terms.sql'), 'utf8');
    await server.db.execute(sql.raw(migration));
    const left = (await server.db.select().from(searchTermDays).where(eq(searchTermDays.day, day))).map((row) => row.term).sort();
    expect(left).toEqual(['escort 2100', 'hotel', 'thai massage 8000 aarhus c']);
  });

  it('counts the location box’s words once the visitor chose a place, never at each keystroke', async () => {
    const box = (text: string, visitor: number, chosen: boolean) =>
      fetch(`${server.url}/api/frontend/searchpagesearchlocation?${new URLSearchParams({ Text: text, Locale: 'da', ...(chosen ? { Chosen: 'true' } : {}) })}`, {
        headers: { 'user-agent': `${BROWSER} Visitor/${visitor}` },
      });
    for (const visitor of [1, 2, 3]) {
      for (const typed of ['Aal', 'Aalb', 'Aalbo']) expect((await box(typed, visitor, false)).status).toBe(200);
    }
    expect((await written()).map((row) => row.term).filter((term) => term.startsWith('aal'))).toEqual([]);
    for (const visitor of [1, 2, 3]) {
      const answer = await box('Ålborg', visitor, true);
      expect(answer.headers.get('cache-control')).toContain('no-store');
      expect(((await answer.json()) as { name: string }[]).map((place) => place.name)).toContain('Aalborg');
    }
    expect(await rowOf('aalborg')).toMatchObject({ searches: 3, noResults: 0 });
  });

  it('keeps the counts 13 months', async () => {
    await server.db.insert(searchTermDays).values([
      { day: '2024-01-10', term: 'gammelt ord', searches: 5, noResults: 1 },
      { day: '2025-12-01', term: 'nyere ord', searches: 4, noResults: 0 },
    ]);
    await pruneSearchTerms(server.db, new Date('2026-11-26T12:00:00Z'));
    expect(await server.db.select().from(searchTermDays).where(eq(searchTermDays.term, 'gammelt ord'))).toEqual([]);
    expect(await server.db.select().from(searchTermDays).where(eq(searchTermDays.term, 'nyere ord'))).toHaveLength(1);
  });
});
