/**
 * Free text in memory (src/server/domain/search/text-memory.ts) finds exactly what the database's rule
 * finds: every word matching by Danish stems (`document @@ plainto_tsquery('danish', word)`) or as a
 * substring of the search text, typed, with æ, ø and å spelled out, or as its one stem (compounds). The rule in SQL below is the one the
 * search ran in the database until issue 17 moved it into memory; both must agree on plurals and compounds
 * ("massager", "thaimassagen"), Danish letters either way ("aalborg", "ålborg", "koebenhavn"), hyphens,
 * stop words, several words and words nobody wrote. The memory follows changes to an advert's text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { adverts, advertSearchDocuments } from '#server/db/schema.ts';
import { foldDanish } from '#lib/format.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import { rowsOf, type DatabaseHandle } from '#server/db/client.ts';
import { MIN_STEM_IN_COMPOUND } from '#server/domain/search/text-memory.ts';
import { searchProfiles, searchWords } from '#server/domain/search/search-profiles.ts';
import { refreshAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import { SearchProfilesSchema } from '#lib/schemas/search.ts';

let handle: DatabaseHandle;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ handle, drop } = await openTestDatabase());
  await seedReference(handle.db, { siteUrl: 'http://localhost:3000' });
  const texts: { name: string; title: string; description: string; city: string }[] = [
    { name: 'Tekstmemo Åse', title: 'Thaimassage i hjertet af byen', description: 'Klassisk thaimassage og olie-massage.', city: 'Aalborg' },
    { name: 'Tekstmemo Søs', title: 'Rolige massager', description: 'Mange forskellige massager hver dag.', city: 'København' },
    { name: 'Tekstmemo Bo', title: 'Thaimassagen du har ventet på', description: 'Og en kop te bagefter.', city: 'Aarhus' },
    { name: 'Tekstmemo Kaj-Ove', title: 'Wellness og ro', description: 'Hot stone efter aftale.', city: 'Odense' },
  ];
  for (const text of texts) await createAdvert(handle.db, text);
});
afterAll(async () => {
  await drop?.();
});

/** The rule in the database: every word by Danish stems or as a substring, typed, folded or its one stem (compounds). */
async function sqlRule(text: string): Promise<SQL | undefined> {
  const words = searchWords(text);
  if (words.length === 0) return undefined;
  const d = advertSearchDocuments;
  const like = (part: string) => sql`${d.searchText} like ${`%${part.replace(/[%_\\]/g, '')}%`}`;
  const perWord: SQL[] = [];
  for (const word of words) {
    const folded = foldDanish(word);
    const stems = rowsOf<{ lexeme: string }>(await handle.db.execute(sql`select unnest(tsvector_to_array(to_tsvector('danish', ${word}))) as lexeme`));
    const stem = stems.length === 1 && stems[0]!.lexeme.length >= MIN_STEM_IN_COMPOUND ? stems[0]!.lexeme : null;
    perWord.push(
      sql`(${d.document} @@ plainto_tsquery('danish', ${word}) or ${like(word)}${folded !== word ? sql` or ${like(folded)}` : sql``}${stem ? sql` or ${like(stem)}` : sql``})`,
    );
  }
  return and(...perWord);
}

async function inDatabase(text: string): Promise<number[]> {
  const rows = await handle.db.select({ id: advertSearchDocuments.advertId }).from(advertSearchDocuments).where(await sqlRule(text));
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

async function inMemory(text: string): Promise<number[]> {
  const result = await searchProfiles(handle.db, v.parse(SearchProfilesSchema, { Text: text, PageSize: 60 }), new Date());
  return result.items.map((card) => card.id).sort((a, b) => a - b);
}

describe('free text in memory', () => {
  it('finds exactly what the database’s rule finds', async () => {
    const queries = [
      'massage', 'massager', 'Massagen', 'thaimassage', 'thaimassagen', 'thai massage', 'olie-massage', 'olie',
      'aalborg', 'ålborg', 'Aalborg', 'koebenhavn', 'København', 'søs', 'soes', 'åse', 'aase', 'kaj-ove',
      'tekstmemo', 'tekstmemo bo', 'hot stone', 'og', 'te', 'ventet', 'vente', 'ro', 'qqqzzz', 'tekstmemo qqqzzz',
    ];
    for (const text of queries) {
      const database = await inDatabase(text);
      expect(await inMemory(text), `"${text}" (${database.length} in the database)`).toEqual(database);
    }
    // The issue's cases: a plural and a compound find what the singular finds; Danish letters either way.
    expect(await inMemory('massager')).toEqual(await inMemory('massage'));
    expect((await inMemory('thaimassagen')).length).toBeGreaterThanOrEqual(2);
    expect(await inMemory('ålborg')).toEqual(await inMemory('aalborg'));
    expect((await inMemory('koebenhavn')).length).toBeGreaterThan(0);
  });

  it('follows a change to an advert’s text', async () => {
    const { id } = await createAdvert(handle.db, { name: 'Tekstmemo Dorte', title: 'Fodmassage' });
    expect(await inMemory('fodmassage')).toContain(id);
    await handle.db.update(adverts).set({ title: 'Rygbehandling' }).where(eq(adverts.id, id));
    await refreshAdvertSearch(handle.db, [id], new Date());
    expect(await inMemory('fodmassage')).not.toContain(id);
    expect(await inMemory('rygbehandling')).toEqual(await inDatabase('rygbehandling'));
    expect(await inMemory('rygbehandling')).toContain(id);
    // Deactivated: gone from the texts too.
    await handle.db.update(adverts).set({ status: 5 }).where(eq(adverts.id, id));
    await refreshAdvertSearch(handle.db, [id], new Date());
    expect(await inMemory('rygbehandling')).not.toContain(id);
  });
});
