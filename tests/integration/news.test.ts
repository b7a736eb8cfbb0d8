/**
 * News for advertisers over real HTTP (issue 17, "News for advertisers"; spec §6 support news: Skip, Take,
 * Title, LocaleId; add, delete): Administration writes news per language (Markdown body, a first day, an
 * optional end day, pinned), lists them by title and language, changes and deletes them, each audited;
 * advertisers see the published ones of their language on the dashboard, pinned first and then newest,
 * unread ones marked, and opening one (readnews) marks it read for that advertiser only. The permission
 * table (support-permissions.test.ts) refuses Support and SEO users and anonymous callers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, auditLog } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import type { Dashboard } from '#lib/schemas/backend-answers.ts';
import type { SupportNewsItem } from '#lib/schemas/news.ts';
import { call, fieldErrors } from './accounts-helpers.ts';
import { newAdvertiser, type Advertiser } from './verification-helpers.ts';
import { signedInPerRole } from './support-helpers.ts';
import { isoDayFromNow, oneCopenhagenDay } from '#tests/support/days.ts';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  // The file compares days it computes with days the server computes: both within one Copenhagen day.
  await oneCopenhagenDay(60_000);
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  ({ Administration: admin } = await signedInPerRole(server, ['Administration']));
});
afterAll(async () => {
  await server?.close();
});

/** yyyy-MM-dd in Copenhagen, `days` calendar days from today (news days are Copenhagen days). */
const dayFrom = (days: number) => isoDayFromNow(days);

async function save(body: Record<string, unknown>): Promise<SupportNewsItem> {
  const response = await call(server, '/api/support/news', { cookie: admin, body: { Pinned: false, PublishFrom: '', EndsOn: '', ...body } });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as SupportNewsItem;
}

const dashboardOf = async (who: Advertiser) => (await (await call(server, '/api/backend/dashboard', { cookie: who.cookie })).json()) as Dashboard;

describe('news written by Administration', () => {
  it('adds, lists by title and language, pages, changes and deletes news, each audited', async () => {
    const tag = `Liste${Date.now()}`;
    const first = await save({ LocaleId: 'da', Title: `${tag} første`, Body: 'Vi har **nye** priser.', PublishFrom: dayFrom(-2) });
    expect(first).toMatchObject({ locale: 'da', title: `${tag} første`, publishFrom: dayFrom(-2), endsOn: '', pinned: false, state: 'published' });
    const draft = await save({ LocaleId: 'da', Title: `${tag} kladde`, Body: 'Ikke klar.' });
    expect(draft.state).toBe('draft');
    const english = await save({ LocaleId: 'en', Title: `${tag} English`, Body: 'New prices.', PublishFrom: dayFrom(1) });
    expect(english.state).toBe('scheduled');

    const list = async (query: Record<string, string | number>) =>
      (await (await call(server, '/api/support/news', { cookie: admin, query })).json()) as { total: number; items: SupportNewsItem[] };
    expect((await list({ Title: tag.toLowerCase() })).total).toBe(3);
    expect((await list({ Title: tag, LocaleId: 'en' })).items.map((item) => item.id)).toEqual([english.id]);
    // Drafts first (they wait for a day), then the newest first day.
    const page = await list({ Title: tag, Take: 2 });
    expect(page.items.map((item) => item.id)).toEqual([draft.id, english.id]);
    expect((await list({ Title: tag, Take: 2, Skip: 2 })).items.map((item) => item.id)).toEqual([first.id]);

    const changed = await save({ Id: first.id, LocaleId: 'da', Title: `${tag} rettet`, Body: 'Vi har nye priser.', PublishFrom: dayFrom(-2), Pinned: true });
    expect(changed).toMatchObject({ id: first.id, title: `${tag} rettet`, pinned: true });
    expect(await (await call(server, '/api/support/newsitem', { cookie: admin, query: { Id: first.id } })).json()).toMatchObject({ title: `${tag} rettet` });

    expect((await call(server, '/api/support/deletenews', { cookie: admin, body: { Id: draft.id } })).status).toBe(204);
    expect((await call(server, '/api/support/newsitem', { cookie: admin, query: { Id: draft.id } })).status).toBe(404);

    const audits = async (id: number) =>
      server.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'news'), eq(auditLog.targetId, String(id))));
    const [change] = (await audits(first.id)).filter((row) => row.action === 'news.changed');
    expect(change?.before).toMatchObject({ title: `${tag} første`, pinned: false });
    expect(change?.after).toMatchObject({ title: `${tag} rettet`, pinned: true });
    expect((await audits(draft.id)).map((row) => row.action).sort()).toEqual(['news.created', 'news.deleted']);
  });

  it('refuses a news item without a title, or one that ends before its first day, naming the field in the user’s words', async () => {
    const noTitle = await call(server, '/api/support/news', { cookie: admin, body: { LocaleId: 'da', Title: ' ', Body: 'Tekst.' } });
    expect(noTitle.status).toBe(400);
    expect(await fieldErrors(noTitle)).toEqual({ Title: 'required' });
    const backwards = await call(server, '/api/support/news', {
      cookie: admin,
      body: { LocaleId: 'da', Title: 'Baglæns', Body: 'Tekst.', PublishFrom: dayFrom(3), EndsOn: dayFrom(1) },
    });
    expect(backwards.status).toBe(400);
    expect(await fieldErrors(backwards)).toEqual({ EndsOn: 'endBeforeStart' });
  });
});

describe('news on the advertiser’s dashboard', () => {
  it('shows the published news of the advertiser’s language, pinned first, then newest, each unread until opened by that advertiser', async () => {
    const tag = `Tavle${Date.now()}`;
    const older = await save({ LocaleId: 'da', Title: `${tag} ældre`, Body: 'Ældre nyhed.', PublishFrom: dayFrom(-5) });
    const pinned = await save({ LocaleId: 'da', Title: `${tag} fastgjort`, Body: 'Vigtigt.', PublishFrom: dayFrom(-9), Pinned: true });
    const newer = await save({ LocaleId: 'da', Title: `${tag} nyere`, Body: 'Nyere nyhed.', PublishFrom: dayFrom(-1) });
    const hidden = [
      await save({ LocaleId: 'da', Title: `${tag} kladde`, Body: 'Kladde.' }),
      await save({ LocaleId: 'da', Title: `${tag} senere`, Body: 'Senere.', PublishFrom: dayFrom(2) }),
      await save({ LocaleId: 'da', Title: `${tag} slut`, Body: 'Slut.', PublishFrom: dayFrom(-10), EndsOn: dayFrom(-1) }),
      await save({ LocaleId: 'en', Title: `${tag} English`, Body: 'English.', PublishFrom: dayFrom(-1) }),
    ];

    const reader = await newAdvertiser(server, 'Nina Nyhedslæser');
    const other = await newAdvertiser(server, 'Olga Anden');
    const mine = (dashboard: Dashboard) => dashboard.news.filter((item) => item.title.startsWith(tag));
    const shown = mine(await dashboardOf(reader));
    expect(shown.map((item) => item.id)).toEqual([pinned.id, newer.id, older.id]);
    expect(shown.every((item) => !item.read)).toBe(true);
    expect(shown.map((item) => item.id)).not.toEqual(expect.arrayContaining(hidden.map((item) => item.id)));

    expect((await call(server, '/api/backend/readnews', { cookie: reader.cookie, body: { Id: newer.id } })).status).toBe(200);
    expect((await call(server, '/api/backend/readnews', { cookie: reader.cookie, body: { Id: newer.id } })).status).toBe(200);
    expect(mine(await dashboardOf(reader)).map((item) => [item.id, item.read])).toEqual([
      [pinned.id, false],
      [newer.id, true],
      [older.id, false],
    ]);
    expect(mine(await dashboardOf(other)).every((item) => !item.read)).toBe(true);

    // An advertiser who reads English sees the English news only.
    await server.db.update(accounts).set({ locale: 'en' }).where(eq(accounts.id, other.accountId));
    expect(mine(await dashboardOf(other)).map((item) => item.id)).toEqual([hidden[3]!.id]);
  });

  it('opens only news that is out: a draft is not found, and readnews needs a signed-in advertiser', async () => {
    const draft = await save({ LocaleId: 'da', Title: 'Kladde til læsning', Body: 'Ikke ude endnu.' });
    const reader = await newAdvertiser(server, 'Petra Prøver');
    expect((await call(server, '/api/backend/readnews', { cookie: reader.cookie, body: { Id: draft.id } })).status).toBe(404);
    expect((await call(server, '/api/backend/readnews', { body: { Id: draft.id } })).status).toBe(401);
    expect((await call(server, '/api/backend/readnews', { cookie: admin, body: { Id: draft.id } })).status).toBe(401);
  });
});
