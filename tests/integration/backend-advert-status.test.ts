/**
 * Status changes of the advertiser's own advert over real HTTP (spec §4, §7; docs/decisions/011):
 * changeprofilestatus (close-advert, reactivate), setprofileholiday / resetprofileholidation, deleteuser
 * and restoreprofile; and that advertiser B gets 404 on every kind of advertiser A's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  accounts,
  adverts,
  auditLog,
  blacklistEntries,
  extraPriceItems,
  notifications,
  priceListItems,
  reviews,
  scheduleEntries,
  sessions,
} from '#server/db/schema.ts';
import { startTestServer, signIn, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { postFrom } from './accounts-helpers.ts';
import { isoDayFromNow, oneCopenhagenDay } from '#tests/support/days.ts';

const DAY = 86_400_000;
let server: TestServer;

const api = (path: string, cookie: string | undefined, body?: unknown) => callApi(server.url, `/api/backend/${path}`, { cookie, body });
const fullProfile = (id: number) => callApi(server.url, '/api/frontend/fullprofile', { query: { Id: id } });
async function searchIds(): Promise<number[]> {
  const { body } = await callApi(server.url, '/api/frontend/searchpageprofiles', { body: { PageSize: 60 } });
  return body.items.map((item: { id: number }) => item.id);
}
const fieldsOf = (problem: { errors?: { field: string }[] }) => (problem.errors ?? []).map((e) => e.field).sort();

async function advertiser(fixture: Parameters<typeof createAdvertiser>[1] = {}) {
  const created = await createAdvertiser(server.db, fixture);
  return { ...created, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}
const advertRow = async (id: number) => (await server.db.select().from(adverts).where(eq(adverts.id, id)))[0]!;

beforeAll(async () => {
  // The file compares days it computes with days the server computes: both within one Copenhagen day.
  await oneCopenhagenDay(60_000);
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('changeprofilestatus: close-advert (5) and reactivate (1)', () => {
  it('closes an active advert: gone from search and its profile; reactivating brings it back', async () => {
    const a = await advertiser();
    expect(await searchIds()).toContain(a.id);
    const closed = await api('changeprofilestatus', a.cookie, { status: 5 });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ profileStatus: 5 });
    expect((await fullProfile(a.id)).status).toBe(404);
    expect(await searchIds()).not.toContain(a.id);
    expect((await api('dashboard', a.cookie)).body.status).toEqual({ word: 'Deactivated', nextStep: 'reactivate' });
    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'advert.deactivate'), eq(auditLog.targetId, String(a.id))));
    expect(audit).toMatchObject({ actorType: 'advertiser', actorId: a.accountId, before: { status: 1 }, after: { status: 5 } });

    const reopened = await api('changeprofilestatus', a.cookie, { Status: '1' });
    expect(reopened.body).toMatchObject({ profileStatus: 1 });
    expect((await fullProfile(a.id)).status).toBe(200);
    expect(await searchIds()).toContain(a.id);
    expect(server.events).toContainEqual({ type: 'content.changed', reason: 'advert.reactivate' });
  });

  it('asking for the status the advert has changes nothing', async () => {
    const a = await advertiser();
    const { status, body } = await api('changeprofilestatus', a.cookie, { Status: 1 });
    expect(status).toBe(200);
    expect(body.profileStatus).toBe(1);
  });

  it('refuses what only support may do, deletion without the password, and unknown statuses', async () => {
    const fresh = await advertiser({ status: 0, approvedAt: null });
    const approve = await api('changeprofilestatus', fresh.cookie, { Status: 1 });
    expect(approve.status).toBe(403);
    expect(approve.headers.get('content-type')).toContain('application/problem+json');
    expect((await api('changeprofilestatus', fresh.cookie, { Status: 5 })).status).toBe(409);
    const a = await advertiser();
    expect((await api('changeprofilestatus', a.cookie, { Status: 2 })).status).toBe(403);
    expect((await api('changeprofilestatus', a.cookie, { Status: 3 })).status).toBe(403);
    const unknown = await api('changeprofilestatus', a.cookie, { Status: 4 });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body)).toEqual(['Status']);
    const locked = await advertiser({ status: 2 });
    expect((await api('changeprofilestatus', locked.cookie, { Status: 1 })).status).toBe(403);
    expect((await api('changeprofilestatus', locked.cookie, { Status: 5 })).status).toBe(409);
    expect((await advertRow(locked.id)).status).toBe(2);
    expect((await advertRow(fresh.id)).status).toBe(0);
  });
});

describe('setprofileholiday and resetprofileholidation', () => {
  it('hides the advert from searchpageprofiles until the date, keeps the paid days, and brings it back', async () => {
    const a = await advertiser();
    const before = await advertRow(a.id);
    const until = isoDayFromNow(10);
    const { status, body } = await api('setprofileholiday', a.cookie, { Until: until });
    expect(status).toBe(200);
    expect(body.onHoliday).toBe(true);
    const onHoliday = await advertRow(a.id);
    const length = onHoliday.holidayUntil!.getTime() - Date.now();
    expect(onHoliday.expirationDate!.getTime() - before.expirationDate!.getTime()).toBeGreaterThan(length - 60_000);
    expect(onHoliday.expirationDate!.getTime() - before.expirationDate!.getTime()).toBeLessThan(length + 60_000);
    expect(await searchIds()).not.toContain(a.id);
    expect((await fullProfile(a.id)).status).toBe(404);
    expect((await api('dashboard', a.cookie)).body.status).toEqual({ word: 'Holiday', nextStep: 'endHoliday' });

    const back = await api('resetprofileholidation', a.cookie, {});
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ onHoliday: false, holidayUntil: null });
    const after = await advertRow(a.id);
    expect(after.holidayUntil).toBeNull();
    expect(Math.abs(after.expirationDate!.getTime() - before.expirationDate!.getTime())).toBeLessThan(60_000);
    expect(await searchIds()).toContain(a.id);
    expect((await fullProfile(a.id)).status).toBe(200);
  });

  it('refuses a date in the past, a date that is not one, and an advert that is not active', async () => {
    const a = await advertiser();
    const past = await api('setprofileholiday', a.cookie, { Until: '2020-01-01' });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([{ field: 'Until', message: 'futureDate' }]);
    const bad = await api('setprofileholiday', a.cookie, { Until: 'next week' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['Until']);
    expect((await api('setprofileholiday', a.cookie, {})).status).toBe(400);
    const closed = await advertiser({ status: 5 });
    expect((await api('setprofileholiday', closed.cookie, { Until: new Date(Date.now() + 3 * DAY).toISOString() })).status).toBe(409);
  });
});

describe('deleteuser and restoreprofile', () => {
  it('deleteuser needs the password; then the advert is gone, every session ends and sign-in is refused', async () => {
    const a = await advertiser();
    const second = await advertiserSessionCookie(server.db, a.accountId);
    const wrong = await api('deleteuser', a.cookie, { Password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: 'Password', message: 'wrongPassword' }]);
    expect((await advertRow(a.id)).status).toBe(1);

    const deleted = await api('deleteuser', a.cookie, { password: a.password });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('set-cookie')).toMatch(/^sid=;/);
    expect((await api('userprofile', a.cookie)).status).toBe(401);
    expect((await api('dashboard', second)).status).toBe(401);
    expect(await server.db.select().from(sessions).where(eq(sessions.accountId, a.accountId))).toEqual([]);
    expect((await fullProfile(a.id)).status).toBe(404);
    expect(await searchIds()).not.toContain(a.id);
    const row = await advertRow(a.id);
    expect(row.status).toBe(3);
    expect(row.deletedAt).not.toBeNull();
    const [account] = await server.db.select().from(accounts).where(eq(accounts.id, a.accountId));
    expect(account!.deletedAt).not.toBeNull();
    const login = await callApi(server.url, '/api/frontend/login', { body: { email: a.email, password: a.password } });
    expect(login.status).toBe(401);

    const badRestore = await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: a.email, Password: 'wrong-password' } });
    expect(badRestore.status).toBe(401);
    const restored = await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: a.email.toUpperCase(), Password: a.password } });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: a.accountId, profileStatus: 1 });
    const cookie = restored.headers.get('set-cookie')!.split(';')[0]!;
    expect((await api('dashboard', cookie)).body.status.word).toBe('Active');
    expect((await fullProfile(a.id)).status).toBe(200);
    expect(await searchIds()).toContain(a.id);
    expect((await advertRow(a.id)).deletedAt).toBeNull();
    // Signing in works again.
    expect((await signIn(server, 'frontend', { email: a.email, password: a.password })).startsWith('sid=')).toBe(true);
  });

  it("restoreprofile's password check is locked like sign-in: five wrong passwords from one address (issue 15)", async () => {
    const a = await advertiser();
    expect((await api('deleteuser', a.cookie, { Password: a.password })).status).toBe(204);
    for (let n = 0; n < 5; n += 1) {
      const wrong = await postFrom(server, '127.0.0.7', '/api/frontend/restoreprofile', { Email: a.email, Password: `guess number ${n}` });
      expect(wrong.status).toBe(401);
    }
    const locked = await postFrom(server, '127.0.0.7', '/api/frontend/restoreprofile', { Email: a.email, Password: a.password });
    expect(locked.status).toBe(429);
    expect(locked.body['errors']).toEqual([{ field: 'password', message: 'accountLocked' }]);
    // The owner, from their own address, restores as usual.
    const restored = await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: a.email, Password: a.password } });
    expect(restored.status).toBe(200);
  });

  it('a locked advert stays locked after deletion and restore', async () => {
    const a = await advertiser({ status: 2 });
    expect((await api('deleteuser', a.cookie, { Password: a.password })).status).toBe(204);
    const restored = await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: a.email, Password: a.password } });
    expect(restored.status).toBe(200);
    expect((await advertRow(a.id)).status).toBe(2);
  });

  it('restoreprofile answers 410 more than 30 days after the deletion', async () => {
    const a = await advertiser();
    expect((await api('deleteuser', a.cookie, { Password: a.password })).status).toBe(204);
    await server.db.update(accounts).set({ deletedAt: new Date(Date.now() - 31 * DAY) }).where(eq(accounts.id, a.accountId));
    const late = await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: a.email, Password: a.password } });
    expect(late.status).toBe(410);
    expect((await advertRow(a.id)).status).toBe(3);
    const missing = await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: 'x' } });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['Email', 'Password']);
  });
});

describe('ownership: advertiser B gets 404 on each kind of advertiser A\'s data', () => {
  it('price items, extra price items, schedule entries, reviews, notifications and blacklist entries', async () => {
    const a = await advertiser();
    const b = await advertiser();
    const [priceItem] = await server.db.insert(priceListItems).values({ advertId: a.id, durationMinutes: 60, incallPriceOre: 150_000 }).returning();
    const [extra] = await server.db.insert(extraPriceItems).values({ advertId: a.id, description: 'Overnatning', priceOre: 500_000 }).returning();
    const [day] = await server.db.insert(scheduleEntries).values({ advertId: a.id, weekday: 1, fromTime: '10:00', toTime: '18:00' }).returning();
    const [review] = await server.db.insert(reviews).values({ advertId: a.id, authorName: 'Peter', rating: 5, text: 'Fint.', status: 1 }).returning();
    const [note] = await server.db.insert(notifications).values({ accountId: a.accountId, titleDa: 'x', titleEn: 'x', bodyDa: 'x', bodyEn: 'x' }).returning();
    const [entry] = await server.db.insert(blacklistEntries).values({ accountId: a.accountId, phone: '41223344' }).returning();

    const attempts: [string, unknown][] = [
      ['deletepricelistitem', { Id: priceItem!.id }],
      ['reorderpricelistitems', { Ids: [priceItem!.id] }],
      ['insertpriceservice', { PriceItems: [{ Id: priceItem!.id, DurationMinutes: 30, IncallPrice: 1 }] }],
      ['deleteextrapriceitem', { Id: extra!.id }],
      ['updateextrapriceitem', { Id: extra!.id, Description: 'Mit', Price: 1 }],
      ['insertpriceservice', { ExtraPriceItems: [{ Id: extra!.id, Description: 'Mit', Price: 1 }] }],
      ['deleteprofileschedule', { Id: day!.id }],
      ['addreview', { ReviewId: review!.id, Text: 'Hej' }],
      ['deletereview', { ReviewId: review!.id }],
      ['updatenotification', { Id: note!.id, Status: 1 }],
      ['removefromblacklist', { Id: entry!.id }],
    ];
    for (const [path, body] of attempts) {
      const response = await api(path, b.cookie, body);
      expect(response.status, path).toBe(404);
      expect(JSON.stringify(response.body), path).not.toContain('Overnatning');
    }

    // B's own lists never show A's data.
    const price = (await api('priceservice', b.cookie)).body;
    expect(price.priceItems).toEqual([]);
    expect(price.extraPriceItems).toEqual([]);
    expect((await api('schedule', b.cookie)).body.days.every((d: { off: boolean }) => d.off)).toBe(true);
    expect((await api('profilereviews', b.cookie)).body).toEqual([]);
    expect((await api('notifications', b.cookie)).body.items).toEqual([]);
    expect((await api('profileblacklist', b.cookie)).body).toEqual([]);

    // And A's data is untouched.
    expect(await server.db.select().from(priceListItems).where(eq(priceListItems.advertId, a.id))).toEqual([priceItem]);
    expect(await server.db.select().from(extraPriceItems).where(eq(extraPriceItems.advertId, a.id))).toEqual([extra]);
    expect(await server.db.select().from(scheduleEntries).where(eq(scheduleEntries.advertId, a.id))).toEqual([day]);
    expect(await server.db.select().from(reviews).where(eq(reviews.advertId, a.id))).toEqual([review]);
    expect(await server.db.select().from(notifications).where(eq(notifications.accountId, a.accountId))).toEqual([note]);
    expect(await server.db.select().from(blacklistEntries).where(eq(blacklistEntries.accountId, a.accountId))).toEqual([entry]);
  });

  it('B\'s edits reach only B\'s advert', async () => {
    const a = await advertiser({ name: 'Anna A' });
    const b = await advertiser({ name: 'Bella B', status: 0, approvedAt: null });
    const answer = await api('basicinformation', b.cookie, { Name: 'Bella Ny', Phone: '20304050', RegionId: (await advertRow(b.id)).regionId, CityId: (await advertRow(b.id)).cityId });
    expect(answer.status).toBe(200);
    expect((await advertRow(a.id)).name).toBe('Anna A');
    expect((await advertRow(b.id)).name).toBe('Bella Ny');
  });
});
