/**
 * The advertiser's backend calls that edit their advert, over real HTTP with the spec's parameter names
 * (spec §7; issue 4 part B): basicinformation, personaldetails, the price list calls, schedule, reviews,
 * blacklist and the dashboard. Status changes, holiday, deletion and ownership are in
 * backend-advert-status.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  adverts,
  auditLog,
  cities,
  languages,
  notifications,
  promotions,
  reviews,
  services,
} from '#server/db/schema.ts';
import { isBlacklisted } from '#server/domain/adverts/blacklist.ts';
import { SYSTEM } from '#server/domain/context.ts';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { callApi, createAdvertiser } from '#tests/support/fixtures.ts';

let server: TestServer;
/** An approved, public advert and its session cookie. */
let live: { id: number; accountId: number; cookie: string };
/** A new advert support has not approved yet. */
let draft: { id: number; accountId: number; cookie: string };
let copenhagen: { id: number; regionId: number };
let aarhus: { id: number; regionId: number };

const api = (path: string, cookie: string | undefined, body?: unknown, query?: Record<string, string | number>) =>
  callApi(server.url, `/api/backend/${path}`, { cookie, body, query });
const fullProfile = (id: number) => callApi(server.url, '/api/frontend/fullprofile', { query: { Id: id } });
const fieldsOf = (problem: { errors?: { field: string }[] }) => (problem.errors ?? []).map((e) => e.field).sort();

async function advertiser(fixture: Parameters<typeof createAdvertiser>[1] = {}) {
  const created = await createAdvertiser(server.db, fixture);
  const cookie = await signIn(server, 'frontend', { email: created.email, password: created.password });
  return { id: created.id, accountId: created.accountId, cookie };
}

async function cityNamed(name: string) {
  const [city] = await server.db.select({ id: cities.id, regionId: cities.regionId }).from(cities).where(eq(cities.name, name));
  return city!;
}

const basicForm = (overrides: Record<string, unknown> = {}) => ({
  Name: 'Sofie',
  Title: 'En rolig aften',
  Introduction: 'Venlig og diskret.',
  Description: 'Ring for en aftale.',
  Phone: '20304050',
  HasWhatsapp: false,
  Website: '',
  RegionId: copenhagen.regionId,
  CityId: copenhagen.id,
  ...overrides,
});

beforeAll(async () => {
  server = await startTestServer();
  copenhagen = await cityNamed('København');
  aarhus = await cityNamed('Aarhus');
  live = await advertiser({ name: 'Sofie', languageCodes: ['da'] });
  draft = await advertiser({ name: 'Nina', status: 0, approvedAt: null, expirationDate: null, emailVerified: true, phoneVerified: false });
});
afterAll(async () => {
  await server?.close();
});

describe('every backend call needs a session', () => {
  it('answers 401 problem+json without one', async () => {
    for (const [path, body] of [
      ['dashboard', undefined],
      ['basicinformation', basicForm()],
      ['priceservice', undefined],
      ['schedule', undefined],
      ['profilereviews', undefined],
      ['changeprofilestatus', { Status: 5 }],
      ['readnews', { Id: 1 }],
    ] as const) {
      const response = await api(path, undefined, body);
      expect(response.status, path).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
  });
});

describe('basicinformation (GET/POST)', () => {
  it('GET answers the approved values and nothing pending', async () => {
    const { status, body } = await api('basicinformation', live.cookie);
    expect(status).toBe(200);
    expect(body).toMatchObject({ approved: true, pending: {}, pendingFields: [] });
    expect(body.current).toMatchObject({ name: 'Sofie', phone: '20304050', cityId: copenhagen.id, regionId: copenhagen.regionId });
  });

  it('POST on an approved advert keeps the change pending: the public profile shows the approved values', async () => {
    const eventsBefore = server.events.length;
    const { status, body } = await api(
      'basicinformation',
      live.cookie,
      basicForm({ Title: 'Ny titel', Phone: '+45 31 32 33 34', Website: 'https://sofie.example.dk', RegionId: aarhus.regionId, CityId: aarhus.id }),
    );
    expect(status).toBe(200);
    expect(body.current.title).toBe('En rolig aften');
    expect(body.pending).toEqual({
      title: 'Ny titel',
      phone: '31323334',
      website: 'https://sofie.example.dk',
      regionId: aarhus.regionId,
      cityId: aarhus.id,
    });
    expect(body.pendingFields.sort()).toEqual(['location', 'phone', 'title', 'website']);
    const profile = await fullProfile(live.id);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ title: 'En rolig aften', phone: '20304050', website: null, location: { city: 'København' } });
    // Nothing public changed: no rebuild asked for.
    expect(server.events.slice(eventsBefore)).toEqual([]);
    const [row] = await server.db.select().from(adverts).where(eq(adverts.id, live.id));
    expect(row!.pendingChanges).toMatchObject({ title: 'Ny titel', location: { regionId: aarhus.regionId, cityId: aarhus.id } });
    const audit = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'advert.basic_information.update'), eq(auditLog.targetId, String(live.id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: 'advertiser', actorId: live.accountId });
    expect(audit[0]!.after).toMatchObject({ pendingChanges: { title: 'Ny titel' } });
  });

  it('sending the approved value again withdraws that pending change (parameter names in any case)', async () => {
    const form = Object.fromEntries(
      Object.entries(basicForm({ Phone: '31323334', Website: 'https://sofie.example.dk', RegionId: aarhus.regionId, CityId: aarhus.id })).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const { body } = await api('basicinformation', live.cookie, form);
    expect(body.pendingFields.sort()).toEqual(['location', 'phone', 'website']);
    expect(body.pending.title).toBeUndefined();
  });

  it('POST on a new advert applies at once', async () => {
    const eventsBefore = server.events.length;
    const { status, body } = await api('basicinformation', draft.cookie, basicForm({ Name: 'Nina Nord', Title: 'Hej', HasWhatsapp: true }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ approved: false, pending: {}, current: { name: 'Nina Nord', title: 'Hej', hasWhatsapp: true } });
    const [row] = await server.db.select().from(adverts).where(eq(adverts.id, draft.id));
    expect(row).toMatchObject({ name: 'Nina Nord', slug: 'nina-nord', pendingChanges: null });
    expect(server.events.slice(eventsBefore)).toContainEqual(expect.objectContaining({ type: 'content.changed' }));
  });

  it('answers 400 problem+json naming each bad field', async () => {
    const { status, body, headers } = await api(
      'basicinformation',
      live.cookie,
      basicForm({ Name: 'S', Title: 'x'.repeat(81), Introduction: 'x'.repeat(501), Description: 'x'.repeat(4001), Phone: '12345', Website: 'javascript:alert(1)', CityId: 'x' }),
    );
    expect(status).toBe(400);
    expect(headers.get('content-type')).toContain('application/problem+json');
    expect(fieldsOf(body)).toEqual(['CityId', 'Description', 'Introduction', 'Name', 'Phone', 'Title', 'Website']);
    expect(body.errors.find((e: { field: string }) => e.field === 'Name').message).toBe('tooShort');
  });

  it('refuses a city outside the region given', async () => {
    const { status, body } = await api('basicinformation', live.cookie, basicForm({ RegionId: copenhagen.regionId, CityId: aarhus.id }));
    expect(status).toBe(400);
    expect(fieldsOf(body)).toEqual(['RegionId']);
  });
});

describe('personaldetails (GET/POST)', () => {
  it('GET answers the values with the choices', async () => {
    const { status, body } = await api('personaldetails', live.cookie);
    expect(status).toBe(200);
    expect(body.current).toMatchObject({ age: 30, height: 170, weight: 60 });
    expect(body.current.languageIds).toHaveLength(1);
    expect(body.options.languages.length).toBeGreaterThan(5);
  });

  it('POST on an approved advert: changed details wait for support, the public keeps the approved ones', async () => {
    const langs = await server.db.select().from(languages);
    const en = langs.find((l) => l.code === 'en')!.id;
    const da = langs.find((l) => l.code === 'da')!.id;
    const { status, body } = await api('personaldetails', live.cookie, { Age: 31, Height: 170, Weight: 60, BreastType: 1, Languages: `${da},${en}` });
    expect(status).toBe(200);
    expect(body.pending).toEqual({ age: 31, breastType: 1, languageIds: [da, en].sort((a, b) => a - b) });
    expect((await fullProfile(live.id)).body).toMatchObject({ age: 30, breastType: null, languages: [expect.objectContaining({ code: 'da' })] });
  });

  it('POST on a new advert applies at once, languages included', async () => {
    const [de] = await server.db.select().from(languages).where(eq(languages.code, 'de'));
    const { body } = await api('personaldetails', draft.cookie, { age: '25', height: '', weight: null, breastType: 2, languages: [de!.id] });
    expect(body.current).toEqual({ age: 25, height: null, weight: null, breastType: 2, nationalityId: null, languageIds: [de!.id] });
    expect(body.pendingFields).toEqual([]);
  });

  it('answers 400 for ages under 18, heights and weights out of range and unknown languages', async () => {
    const bad = await api('personaldetails', live.cookie, { Age: 17, Height: 250, Weight: 20, BreastType: 3 });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['Age', 'BreastType', 'Height', 'Weight']);
    const unknown = await api('personaldetails', live.cookie, { Age: 30, Languages: [999999] });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body)).toEqual(['Languages']);
  });
});

describe('price list: priceservice, insertpriceservice, updateextrapriceitem, deleteextrapriceitem, reorderpricelistitems, deletepricelistitem, updatepaymentoptions', () => {
  let itemIds: number[] = [];
  let extraId = 0;

  it('insertpriceservice adds price items (DKK → øre) and extras; the public sees them at once', async () => {
    const eventsBefore = server.events.length;
    const { status, body } = await api('insertpriceservice', live.cookie, {
      PriceItems: [
        { DurationMinutes: 30, IncallPrice: 800 },
        { durationminutes: 60, incallprice: '1500', outcallprice: '1800,50', description: 'Inkl. drikkevarer' },
      ],
      ExtraPriceItems: [{ Description: 'Overnatning', Price: 5000 }],
    });
    expect(status).toBe(200);
    expect(body.priceItems).toMatchObject([
      { durationMinutes: 30, incallPriceOre: 80_000, outcallPriceOre: null },
      { durationMinutes: 60, incallPriceOre: 150_000, outcallPriceOre: 180_050, description: 'Inkl. drikkevarer' },
    ]);
    expect(body).toMatchObject({ incall: true, outcall: true });
    itemIds = body.priceItems.map((item: { id: number }) => item.id);
    extraId = body.extraPriceItems[0].id;
    const profile = (await fullProfile(live.id)).body;
    expect(profile.priceList.map((p: { id: number }) => p.id)).toEqual(itemIds);
    expect(profile.extraPrices).toEqual([{ id: extraId, description: 'Overnatning', priceOre: 500_000 }]);
    expect(profile).toMatchObject({ incall: true, outcall: true });
    expect(server.events.slice(eventsBefore)).toContainEqual(expect.objectContaining({ type: 'content.changed' }));
  });

  it('insertpriceservice with Services: on an approved advert the services wait for support', async () => {
    const rows = await server.db.select({ id: services.id }).from(services).limit(2);
    const ids = rows.map((r) => r.id);
    const { body } = await api('insertpriceservice', live.cookie, { Services: ids });
    expect(body.pendingServiceIds).toEqual([...ids].sort((a, b) => a - b));
    expect(body.services.filter((s: { selected: boolean }) => s.selected)).toEqual([]);
    expect(body.services[0]).toEqual(expect.objectContaining({ type: expect.any(Number), nameDa: expect.any(String) }));
    expect((await fullProfile(live.id)).body.services).toEqual([]);
    const direct = await api('insertpriceservice', draft.cookie, { Services: ids.join(',') });
    expect(direct.body.services.filter((s: { selected: boolean }) => s.selected).map((s: { id: number }) => s.id).sort()).toEqual([...ids].sort());
  });

  it('insertpriceservice refuses a price item without a price and a too short duration', async () => {
    const { status, body } = await api('insertpriceservice', live.cookie, { PriceItems: [{ DurationMinutes: 5 }] });
    expect(status).toBe(400);
    expect(fieldsOf(body)).toEqual(['PriceItems.0.DurationMinutes', 'PriceItems.0.IncallPrice']);
  });

  it('updateextrapriceitem changes one and adds one; deleteextrapriceitem removes one', async () => {
    const changed = await api('updateextrapriceitem', live.cookie, { Id: extraId, Description: 'Hele natten', Price: '4500' });
    expect(changed.status).toBe(200);
    expect(changed.body.extraPriceItems).toEqual([{ id: extraId, description: 'Hele natten', priceOre: 450_000 }]);
    const added = await api('updateextrapriceitem', live.cookie, { Description: 'Rollespil', Price: 500 });
    expect(added.body.extraPriceItems).toHaveLength(2);
    const addedId = added.body.extraPriceItems[1].id;
    const deleted = await api('deleteextrapriceitem', live.cookie, { Id: addedId });
    expect(deleted.body.extraPriceItems.map((e: { id: number }) => e.id)).toEqual([extraId]);
    expect((await api('deleteextrapriceitem', live.cookie, { Id: addedId })).status).toBe(404);
  });

  it('reorderpricelistitems takes exactly the advert\'s ids in the new order', async () => {
    const reversed = [...itemIds].reverse();
    const { status, body } = await api('reorderpricelistitems', live.cookie, { Ids: reversed });
    expect(status).toBe(200);
    expect(body.priceItems.map((p: { id: number }) => p.id)).toEqual(reversed);
    expect((await fullProfile(live.id)).body.priceList.map((p: { id: number }) => p.id)).toEqual(reversed);
    const missing = await api('reorderpricelistitems', live.cookie, { Ids: [itemIds[0]] });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['Ids']);
    expect((await api('reorderpricelistitems', live.cookie, { Ids: `${itemIds[0]},${itemIds[0]}` })).status).toBe(400);
    expect((await api('reorderpricelistitems', live.cookie, { Ids: 'a,b' })).status).toBe(400);
  });

  it('deletepricelistitem removes one; outcall follows the remaining prices', async () => {
    const { status, body } = await api('deletepricelistitem', live.cookie, { Id: itemIds[1] });
    expect(status).toBe(200);
    expect(body.priceItems.map((p: { id: number }) => p.id)).toEqual([itemIds[0]]);
    expect(body).toMatchObject({ incall: true, outcall: false });
    expect((await fullProfile(live.id)).body.outcall).toBe(false);
  });

  it('updatepaymentoptions stores the choices; unknown ones answer 400', async () => {
    const { status, body } = await api('updatepaymentoptions', live.cookie, { PaymentOptions: ['MobilePay', 'cash'] });
    expect(status).toBe(200);
    expect(body.paymentOptions.filter((p: { selected: boolean }) => p.selected).map((p: { code: string }) => p.code)).toEqual(['cash', 'mobilepay']);
    expect((await fullProfile(live.id)).body.paymentOptions).toEqual(['cash', 'mobilepay']);
    const bad = await api('updatepaymentoptions', live.cookie, { PaymentOptions: 'cash,bitcoin' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['PaymentOptions']);
  });

  it('priceservice (GET) answers it all, with the six payment options', async () => {
    const { body } = await api('priceservice', live.cookie);
    expect(body.paymentOptions.map((p: { code: string }) => p.code)).toEqual(['cash', 'creditcard', 'mobilepay', 'paypal', 'revolut', 'wise']);
    expect(body.priceItems).toHaveLength(1);
    expect(body.extraPriceItems).toHaveLength(1);
  });
});

describe('schedule: schedule (GET/POST), updateprofileschedule, deleteprofileschedule', () => {
  it('POST schedule sets the week; days not given are off; the profile shows it', async () => {
    const { status, body } = await api('schedule', live.cookie, {
      Days: [
        { Weekday: 1, From: '10:00', To: '18:00' },
        { weekday: 5, from: '20:00', to: '04:00' },
      ],
    });
    expect(status).toBe(200);
    expect(body.days).toHaveLength(7);
    expect(body.days[0]).toMatchObject({ weekday: 1, from: '10:00', to: '18:00', off: false });
    expect(body.days[1]).toMatchObject({ weekday: 2, off: true, from: null });
    expect((await fullProfile(live.id)).body.schedule).toEqual([
      { weekday: 1, from: '10:00', to: '18:00' },
      { weekday: 5, from: '20:00', to: '04:00' },
    ]);
  });

  it('updateprofileschedule sets one day; deleteprofileschedule makes days off by Weekday or Id', async () => {
    const updated = await api('updateprofileschedule', live.cookie, { Weekday: 1, From: '09:00', To: '17:00' });
    expect(updated.body.days[0]).toMatchObject({ from: '09:00', to: '17:00' });
    const added = await api('updateprofileschedule', live.cookie, { Weekday: 7, From: '12:00', To: '24:00' });
    const sundayId = added.body.days[6].id;
    const byWeekday = await api('deleteprofileschedule', live.cookie, { Weekday: 1 });
    expect(byWeekday.body.days[0].off).toBe(true);
    const byId = await api('deleteprofileschedule', live.cookie, { Id: sundayId });
    expect(byId.body.days[6].off).toBe(true);
    expect((await api('deleteprofileschedule', live.cookie, { Id: sundayId })).status).toBe(404);
    const { body } = await api('schedule', live.cookie);
    expect(body.days.filter((d: { off: boolean }) => !d.off).map((d: { weekday: number }) => d.weekday)).toEqual([5]);
  });

  it('answers 400 for bad times, weekdays and the same day twice', async () => {
    const bad = await api('updateprofileschedule', live.cookie, { Weekday: 8, From: '25:00', To: '9' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['From', 'To', 'Weekday']);
    const twice = await api('schedule', live.cookie, { Days: [{ Weekday: 1, From: '10:00', To: '11:00' }, { Weekday: 1, From: '12:00', To: '13:00' }] });
    expect(twice.status).toBe(400);
    expect((await api('deleteprofileschedule', live.cookie, {})).status).toBe(400);
  });
});

describe('reviews: profilereviews, addreview, deletereview', () => {
  let approvedId = 0;
  let pendingId = 0;

  beforeAll(async () => {
    const rows = await server.db
      .insert(reviews)
      .values([
        { advertId: live.id, authorName: 'Peter', authorPhone: '40506070', rating: 5, text: 'Meget punktlig.', status: 1 },
        { advertId: live.id, authorName: 'Ole', rating: 3, text: 'Ventede længe.', status: 0 },
        { advertId: live.id, authorName: 'Jens', rating: 1, text: 'Skjult.', status: 2 },
      ])
      .returning();
    approvedId = rows[0]!.id;
    pendingId = rows[1]!.id;
  });

  it('profilereviews lists approved, pending and hidden reviews, without the reviewer\'s phone', async () => {
    const { status, body } = await api('profilereviews', live.cookie);
    expect(status).toBe(200);
    expect(body.map((r: { status: number }) => r.status).sort()).toEqual([0, 1, 2]);
    expect(JSON.stringify(body)).not.toContain('40506070');
  });

  it('addreview publishes one reply; a second is refused', async () => {
    const { status, body } = await api('addreview', live.cookie, { ReviewId: approvedId, Text: 'Tak for besøget!' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: approvedId, reply: 'Tak for besøget!' });
    const profile = (await fullProfile(live.id)).body;
    expect(profile.reviews.find((r: { id: number }) => r.id === approvedId).reply).toBe('Tak for besøget!');
    const again = await api('addreview', live.cookie, { ReviewId: approvedId, Text: 'Igen' });
    expect(again.status).toBe(409);
    expect((await api('addreview', live.cookie, { ReviewId: approvedId, Text: '' })).status).toBe(400);
  });

  it('deletereview asks support to remove a review: marked, not deleted', async () => {
    const { status, body } = await api('deletereview', live.cookie, { ReviewId: pendingId, Reason: 'Aldrig mødt ham' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: pendingId, removalRequested: true });
    const [row] = await server.db.select().from(reviews).where(eq(reviews.id, pendingId));
    expect(row!.removalRequestedAt).not.toBeNull();
    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'review.removal_requested'), eq(auditLog.targetId, String(pendingId))));
    expect(audit!.reason).toBe('Aldrig mødt ham');
  });
});

describe('blacklist: addtoblacklist, profileblacklist', () => {
  it('adds a normalised Danish number with a note; refuses duplicates and bad numbers', async () => {
    const added = await api('addtoblacklist', live.cookie, { Phone: '+45 41 22 33 44', Note: 'Udeblev' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ phone: '41223344', note: 'Udeblev' });
    const duplicate = await api('addtoblacklist', live.cookie, { Phone: '41 22 33 44' });
    expect(duplicate.status).toBe(409);
    expect(fieldsOf(duplicate.body)).toEqual(['Phone']);
    const bad = await api('addtoblacklist', live.cookie, { Phone: '123', Note: 'x'.repeat(201) });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['Note', 'Phone']);
    const list = await api('profileblacklist', live.cookie);
    expect(list.body).toEqual([expect.objectContaining({ phone: '41223344', note: 'Udeblev' })]);
  });

  it('isBlacklisted knows the number however it is written, only for that advertiser', async () => {
    const ctx = { db: server.db, actor: SYSTEM, events: { publish: () => {} }, now: () => new Date() };
    expect(await isBlacklisted(ctx, live.id, '0045 41223344')).toBe(true);
    expect(await isBlacklisted(ctx, draft.id, '41223344')).toBe(false);
    expect(await isBlacklisted(ctx, live.id, '41223345')).toBe(false);
  });

  it('removefromblacklist takes it off again', async () => {
    const [entry] = (await api('profileblacklist', live.cookie)).body;
    expect((await api('removefromblacklist', live.cookie, { Id: entry.id })).status).toBe(204);
    expect((await api('profileblacklist', live.cookie)).body).toEqual([]);
  });
});

describe('dashboard: dashboard, skipdashboarditems, updateskipitems, notifications, updatenotification, dashboardlastpromotions', () => {
  it('dashboard says New with the checklist of what is missing', async () => {
    const { status, body } = await api('dashboard', draft.cookie);
    expect(status).toBe(200);
    expect(body).toMatchObject({ profileStatus: 0, status: { word: 'New', nextStep: 'completeChecklist' }, canGoLive: false, expirationDate: null });
    const byKey = Object.fromEntries(body.checklist.map((i: { key: string }) => [i.key, i]));
    expect(byKey['emailVerified'].done).toBe(true);
    expect(byKey['phoneVerified'].done).toBe(false);
    expect(byKey['pictures'].done).toBe(true);
    expect(byKey['approval']).toMatchObject({ done: false, required: true, skippable: false });
  });

  it('dashboard says Active for a live advert, with its expiration date and pending fields', async () => {
    const { body } = await api('dashboard', live.cookie);
    expect(body.status).toEqual({ word: 'Pending', nextStep: 'waitForChanges' });
    expect(new Date(body.expirationDate).getTime()).toBeGreaterThan(Date.now());
    expect(body.pendingFields).toEqual(expect.arrayContaining(['phone', 'age', 'serviceIds']));
  });

  it('updateskipitems hides skippable items; skipdashboarditems answers them; others are refused', async () => {
    const { status, body } = await api('updateskipitems', draft.cookie, { Items: ['schedule'] });
    expect(status).toBe(200);
    expect(body).toEqual({ items: ['schedule'], skippable: ['priceList', 'schedule'] });
    expect((await api('skipdashboarditems', draft.cookie)).body.items).toEqual(['schedule']);
    const dashboard = (await api('dashboard', draft.cookie)).body;
    expect(dashboard.checklist.find((i: { key: string }) => i.key === 'schedule').skipped).toBe(true);
    const bad = await api('updateskipitems', draft.cookie, { Items: 'approval' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['Items']);
  });

  it('notifications lists the account\'s messages; updatenotification marks them read and unread', async () => {
    const [first] = await server.db
      .insert(notifications)
      .values([
        { accountId: live.accountId, titleDa: 'Velkommen', titleEn: 'Welcome', bodyDa: 'Hej', bodyEn: 'Hi' },
        { accountId: live.accountId, titleDa: 'Godkendt', titleEn: 'Approved', bodyDa: 'Din annonce', bodyEn: 'Your advert' },
      ])
      .returning();
    const list = await api('notifications', live.cookie, undefined, { Locale: 'en' });
    expect(list.status).toBe(200);
    expect(list.body.unread).toBe(2);
    expect(list.body.items.map((n: { title: string }) => n.title).sort()).toEqual(['Approved', 'Welcome']);
    const read = await api('updatenotification', live.cookie, { Id: first!.id, Status: 1 });
    expect(read.body).toMatchObject({ id: first!.id, status: 1, read: true, title: 'Velkommen' });
    expect((await api('dashboard', live.cookie)).body.unreadNotifications).toBe(1);
    expect((await api('updatenotification', live.cookie, { Id: first!.id, Status: 'unread' })).body.read).toBe(false);
    expect((await api('updatenotification', live.cookie, { Id: first!.id, Status: 7 })).status).toBe(400);
  });

  it('dashboardlastpromotions answers the last promotions, or none', async () => {
    expect((await api('dashboardlastpromotions', draft.cookie)).body).toEqual([]);
    const now = Date.now();
    await server.db.insert(promotions).values({ advertId: live.id, type: 2, startsAt: new Date(now - 86_400_000), endsAt: new Date(now + 86_400_000) });
    const { body } = await api('dashboardlastpromotions', live.cookie);
    expect(body).toEqual([expect.objectContaining({ type: 2, active: true })]);
  });
});
