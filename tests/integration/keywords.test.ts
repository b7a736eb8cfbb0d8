/**
 * Visitors' search terms for SEO staff over real HTTP (issue 17, "Visitors' search terms"; spec §2 support
 * matched-keywords/, unmatched-keywords/, paired-keywords/, ignored-keywords/ and matched-/unmatched-
 * keywords/{keyword}/; spec §6 search keywords: GET lists, POST insert, DELETE with Id, remove pair/ignore;
 * the frontend's searchpageprofileswithfreetext and searchpagepagefreetext): each term is in one list
 * (ignored, paired, matched when it names a kind, region, city, service or page, else unmatched), counted
 * over 7, 30 or 90 days with the share that found nothing; a pair makes a search for "kbh" (the free text and the location box) find what
 * "København" finds, and a term paired with a page leads the header search there; every decision audited.
 * The permission table (support-permissions.test.ts) refuses Support and Administration users and anonymous callers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, searchTermDays } from '#server/db/schema.ts';
import type { KeywordDetail, KeywordListAnswer, KeywordRow } from '#lib/schemas/keywords.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import { isoDayFromNow, oneCopenhagenDay } from '#tests/support/days.ts';
import { call, fieldErrors } from './accounts-helpers.ts';
import { signedInPerRole } from './support-helpers.ts';

let server: TestServer;
let seo: string;
let advertId: number;
const dayAgo = (days: number) => isoDayFromNow(-days);

beforeAll(async () => {
  // The file compares days it computes with days the server computes: both within one Copenhagen day.
  await oneCopenhagenDay(60_000);
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  ({ SEO: seo } = await signedInPerRole(server, ['SEO']));
  advertId = (await createAdvert(server.db, { name: 'Nøgleord Nanna', city: 'København' })).id;
  await server.db.insert(searchTermDays).values([
    { day: dayAgo(1), term: 'koebenhavn', searches: 40, noResults: 0 },
    { day: dayAgo(20), term: 'koebenhavn', searches: 10, noResults: 0 },
    { day: dayAgo(2), term: 'thai massage', searches: 12, noResults: 0 },
    { day: dayAgo(1), term: 'hot stone', searches: 9, noResults: 9 },
    { day: dayAgo(3), term: 'kbh', searches: 8, noResults: 8 },
    { day: dayAgo(60), term: 'kbh', searches: 5, noResults: 5 },
    { day: dayAgo(1), term: 'noget billigt', searches: 30, noResults: 10 },
  ]);
});
afterAll(async () => {
  await server?.close();
});

const list = async (name: string, query: Record<string, string | number> = {}) => {
  const response = await call(server, `/api/support/${name}keywords`, { cookie: seo, query });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as KeywordListAnswer;
};
const termsOf = (answer: KeywordListAnswer) => answer.items.map((row) => row.term);
const insert = (body: Record<string, unknown>) => call(server, '/api/support/keyword', { cookie: seo, body });
async function decided(body: Record<string, unknown>): Promise<KeywordRow> {
  const response = await insert(body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as KeywordRow;
}
const freeText = async (text: string) =>
  (await (await call(server, '/api/frontend/searchpageprofileswithfreetext', { body: { Text: text } })).json()) as { total: number; items: { id: number }[] };

describe('the four keyword lists', () => {
  it('puts each term in one list: matched with where it leads, unmatched with the share that found nothing, over 7, 30 or 90 days', async () => {
    const matched = await list('matched', { Days: 30 });
    expect(matched.days).toBe(30);
    const city = matched.items.find((row) => row.term === 'koebenhavn');
    expect(city).toMatchObject({ searches: 50, noResults: 0, target: { type: 'city', title: 'København', url: expect.stringMatching(/^\/escort\/[a-z-]+\/koebenhavn\/$/) } });
    expect(matched.items.find((row) => row.term === 'thai massage')?.target).toMatchObject({ type: 'kind', url: '/thaimassage/' });

    const unmatched = await list('unmatched', { Days: 30 });
    expect(termsOf(unmatched)).toEqual(['noget billigt', 'hot stone', 'kbh']);
    expect(unmatched.items.find((row) => row.term === 'hot stone')).toMatchObject({ searches: 9, noResults: 9, target: null });
    // By the share that found nothing: hot stone and kbh (all) before noget billigt (a third).
    expect(termsOf(await list('unmatched', { Days: 30, Sort: 'noResults' }))).toEqual(['hot stone', 'kbh', 'noget billigt']);
    // Only the last 7 days: the searches 20 days ago drop out; 90 days reach the 60-day-old ones.
    expect((await list('matched', { Days: 7 })).items.find((row) => row.term === 'koebenhavn')?.searches).toBe(40);
    expect((await list('unmatched', { Days: 90 })).items.find((row) => row.term === 'kbh')?.searches).toBe(13);
    // Paged, and searched by words ("København" typed with æøå finds the folded term).
    const page = await list('unmatched', { Days: 30, Take: 2, Skip: 2 });
    expect(page).toMatchObject({ total: 3, items: [{ term: 'kbh' }] });
    expect(termsOf(await list('matched', { Days: 30, Term: 'København' }))).toEqual(['koebenhavn']);
    // A period the lists do not offer is refused at its field.
    const refused = await call(server, '/api/support/matchedkeywords', { cookie: seo, query: { Days: 14 } });
    expect(refused.status).toBe(400);
    expect(await fieldErrors(refused)).toHaveProperty('Days');
  });

  it('ignores a term: still counted, shown only among the ignored, until the ignore is removed; each audited', async () => {
    const ignored = await decided({ Keyword: 'Noget billigt', Kind: 'ignored' });
    expect(ignored).toMatchObject({ term: 'noget billigt', id: expect.any(Number) });
    expect(termsOf(await list('unmatched'))).not.toContain('noget billigt');
    expect((await list('ignored')).items.find((row) => row.term === 'noget billigt')).toMatchObject({ searches: 30, noResults: 10, id: ignored.id });
    // removepair refuses an ignore's Id; removeignore takes it back.
    expect((await call(server, '/api/support/removepair', { cookie: seo, body: { Id: ignored.id } })).status).toBe(404);
    expect((await call(server, '/api/support/removeignore', { cookie: seo, body: { Id: ignored.id } })).status).toBe(204);
    expect(termsOf(await list('unmatched'))).toContain('noget billigt');
    const audit = await server.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'search_keyword'), eq(auditLog.targetId, String(ignored.id))));
    expect(audit.map((entry) => entry.action).sort()).toEqual(['keyword.ignored', 'keyword.unignored']);
  });

  it('pairs "kbh" with "København": the free-text search then finds what København finds; removing the pair undoes it', async () => {
    expect((await freeText('kbh')).items.map((item) => item.id)).not.toContain(advertId);
    const pair = await decided({ Keyword: 'kbh', Kind: 'paired', PairedWith: 'København' });
    expect(pair).toMatchObject({ term: 'kbh', pairedWith: 'koebenhavn' });
    expect((await freeText('kbh')).items.map((item) => item.id)).toContain(advertId);
    expect((await freeText('KBH ')).items.map((item) => item.id)).toContain(advertId);
    const paired = (await list('paired', { Days: 90 })).items.find((row) => row.term === 'kbh');
    expect(paired).toMatchObject({ pairedWith: 'koebenhavn', searches: 13, id: pair.id });
    expect(termsOf(await list('unmatched', { Days: 90 }))).not.toContain('kbh');

    // The term's screen: its searches per day over the period, and before and after the pair.
    const detail = (await (await call(server, '/api/support/keyword', { cookie: seo, query: { Keyword: 'kbh', Days: 90 } })).json()) as KeywordDetail;
    expect(detail).toMatchObject({ list: 'paired', days: 90, searches: 13, noResults: 13 });
    expect(detail.perDay).toHaveLength(90);
    expect(detail.perDay.at(-1)?.day).toBe(dayAgo(0));
    expect(detail.perDay.find((row) => row.day === dayAgo(3))).toEqual({ day: dayAgo(3), searches: 8, noResults: 8 });
    expect(detail.beforeAfter).toEqual({ before: { searches: 13, noResults: 13 }, after: { searches: 0, noResults: 0 } });

    // The location box suggests København for "kbh" too.
    const places = (await (await call(server, '/api/frontend/searchpagesearchlocation', { query: { Text: 'kbh', Locale: 'da' } })).json()) as { name: string }[];
    expect(places.map((place) => place.name)).toContain('København');

    expect((await call(server, '/api/support/removepair', { cookie: seo, body: { Id: pair.id } })).status).toBe(204);
    expect((await freeText('kbh')).items.map((item) => item.id)).not.toContain(advertId);
  });

  it('pairs a term with a page of this site: the header search leads there; an unknown page or a term paired with itself is refused at its field', async () => {
    const unknown = await insert({ Keyword: 'escort kbh', Kind: 'paired', PageUrl: '/escort/ingen-region/' });
    expect(unknown.status).toBe(400);
    expect(await fieldErrors(unknown)).toEqual({ PageUrl: 'pageUnknown' });
    const self = await insert({ Keyword: 'Kbh', Kind: 'paired', PairedWith: 'kbh' });
    expect(await fieldErrors(self)).toEqual({ PairedWith: 'pairSelf' });
    const both = await insert({ Keyword: 'kbh', Kind: 'paired', PairedWith: 'x', PageUrl: '/escort/' });
    expect(await fieldErrors(both)).toHaveProperty('PairedWith', 'pairTarget');
    const phone = await insert({ Keyword: '20 30 40 50', Kind: 'ignored' });
    expect(await fieldErrors(phone)).toEqual({ Keyword: 'notATerm' });

    const page = await decided({ Keyword: 'Escort KBH', Kind: 'paired', PageUrl: '/Escort/Region-Hovedstaden/København' });
    expect(page.pageUrl).toBe('/escort/region-hovedstaden/koebenhavn/');
    const target = (await (await call(server, '/api/frontend/searchpagepagefreetext', { query: { Text: 'escort kbh' } })).json()) as { targetUrl: string | null };
    expect(target.targetUrl).toBe('/escort/region-hovedstaden/koebenhavn/');
    // deletekeyword (the spec's DELETE with Id): the term leads nowhere again.
    expect((await call(server, '/api/support/deletekeyword', { cookie: seo, body: { Id: page.id } })).status).toBe(204);
    const after = (await (await call(server, '/api/frontend/searchpagepagefreetext', { query: { Text: 'escort kbh ' } })).json()) as { targetUrl: string | null };
    expect(after.targetUrl).toBeNull();
  });
});
