/**
 * Taking over an advert of the old site (issue 18, docs/decisions/031 and 032): support's invitation (the
 * link by email to its owner only, a notice by SMS), the claim at /create/?claim= (claimpreview,
 * claimmigratedadvert: password, date of birth, terms; the account confirmed by the link, the advert New
 * with its texts and prices, the SMS code), the old address before and after the approval, and merging an
 * import into an existing advertiser's advert. Imports are written as rows here; the import itself is
 * migration-import.test.ts.
 */
import path from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { accounts, adverts, auditLog, extraPriceItems, migratedAdverts, priceListItems } from '#server/db/schema.ts';
import type { MigratedAdvertData } from '#lib/schemas/migration.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import { oneCopenhagenDay, yearsAgo } from '#tests/support/days.ts';
import { writeSite } from '#tests/support/built-site.ts';
import { call, clockedServer, fieldErrors, GOOD_PASSWORD, outboxFor, placeOf, sessionCookieOf, uniqueEmail, uniquePhone } from './accounts-helpers.ts';
import { signedInPerRole } from './support-helpers.ts';

const { server, userProfile } = clockedServer();
const DAY = 86_400_000;
let supportCookie: string;
let seoCookie: string;

beforeAll(async () => {
  // The file compares days it computes with days the server computes: both within one Copenhagen day.
  await oneCopenhagenDay(60_000);
  // A built site (the old addresses answer from it: its not-found page).
  await writeSite(path.join(server().dataDir, 'site'), 'one', { 'index.html': '<h1>Forside</h1>', '404.html': '<h1>Siden findes ikke</h1>' });
  ({ Support: supportCookie, SEO: seoCookie } = await signedInPerRole(server(), ['Support', 'SEO']));
});

let nextOldId = 500_000 + Math.floor(Math.random() * 100_000);
const data: MigratedAdvertData = {
  title: 'Rolig aften i byen',
  introduction: 'En neutral introduktion fra den gamle side.',
  description: 'En længere, neutral beskrivelse fra den gamle side.',
  titleEn: 'A quiet evening in town',
  introductionEn: '',
  descriptionEn: '',
  age: 29,
  prices: [{ durationMinutes: 60, incallPriceOre: 150_000, outcallPriceOre: null, description: '' }],
  extraPrices: [{ description: 'Transport', priceOre: 20_000 }],
  regionName: 'Hovedstaden',
  cityName: 'København',
};

/** An imported advert of the old site, as the import leaves it. */
async function imported(overrides: Partial<typeof migratedAdverts.$inferInsert> = {}) {
  const place = await placeOf(server(), 'København');
  const oldId = (nextOldId += 1);
  const [row] = await server()
    .db.insert(migratedAdverts)
    .values({ oldId, kind: 0, gender: 1, name: 'Lise Lind', oldSlug: 'lise-lind', email: uniqueEmail('gammel'), phone: uniquePhone(), regionId: place.RegionId, cityId: place.CityId, data, ...overrides })
    .returning();
  return row!;
}

const invite = (id: number, cookie = supportCookie) => call(server(), '/api/support/invitemigrationadvert', { cookie, body: { Id: id } });
const claim = (body: Record<string, unknown>) => call(server(), '/api/frontend/claimmigratedadvert', { body });
const oldAddress = (row: { oldId: number; oldSlug: string }) => fetch(`${server().url}/P/${row.oldSlug}--${row.oldId}.html/`, { redirect: 'manual' });

/** The claim link's token from the last invitation to an address. */
async function claimToken(email: string): Promise<string> {
  const messages = (await outboxFor(server(), email)).filter((m) => m.body.includes('/create/?claim='));
  const token = /\/create\/\?claim=([\w-]+)/.exec(messages.at(-1)?.body ?? '')?.[1];
  expect(token, `an invitation to ${email}`).toBeDefined();
  return token!;
}

const claimBody = (token: string, overrides: Record<string, unknown> = {}) => ({
  Token: token,
  Password: GOOD_PASSWORD,
  DateOfBirth: '15-04-1995',
  AcceptTerms: true,
  Locale: 'da',
  ...overrides,
});

describe('invitemigrationadvert', () => {
  it('sends the link by email only, a notice by SMS, and never shows the link to support', async () => {
    const row = await imported();
    const response = await invite(row.id);
    expect(response.status).toBe(200);
    const answer = await response.text();
    expect(answer).toContain('"state":"invited"');
    const token = await claimToken(row.email!);
    expect(answer).not.toContain(token);

    const [email] = await outboxFor(server(), row.email!);
    expect(email!.subject).toContain('Lise Lind');
    // In both languages (the old site kept none), each part with the link to /create in its language.
    expect(email!.body).toContain(`/create/?claim=${token}`);
    expect(email!.body).toContain(`/en/create/?claim=${token}`);
    expect(email!.subject).toMatch(/Din annonce .* \/ Your advert /);
    const sms = await outboxFor(server(), `+45${row.phone}`);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).not.toContain('claim=');
    const [stored] = await server().db.select().from(migratedAdverts).where(eq(migratedAdverts.id, row.id));
    expect(stored).toMatchObject({ state: 'invited' });
    expect(stored!.claimTokenHash).not.toBe(token);
    const [audit] = await server().db.select().from(auditLog).where(eq(auditLog.action, 'migration.invite'));
    expect(JSON.stringify(audit)).not.toContain(token);

    // Sent again: a new link; the first one no longer works.
    expect((await invite(row.id)).status).toBe(200);
    const second = await claimToken(row.email!);
    expect(second).not.toBe(token);
    expect(await fieldErrors(await claim(claimBody(token)))).toEqual({ Token: 'linkInvalid' });
  });

  it('is refused without an email or a phone, for an address that has an account, after a refusal, and for anyone but Support', async () => {
    expect(await fieldErrors(await invite((await imported({ email: null })).id))).toEqual({ Id: 'noEmail' });
    expect(await fieldErrors(await invite((await imported({ phone: null })).id))).toEqual({ Id: 'noPhone' });
    const existing = await createAdvert(server().db, { name: 'Har Konto' });
    const [account] = await server().db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, existing.accountId));
    expect(await fieldErrors(await invite((await imported({ email: account!.email })).id))).toEqual({ Id: 'emailHasAccount' });
    expect(await fieldErrors(await invite((await imported({ state: 'refused' })).id))).toEqual({ Id: 'notInvitable' });
    expect((await invite(987_654)).status).toBe(404);
    const row = await imported();
    expect((await invite(row.id, seoCookie)).status).toBe(403);
    expect((await invite(row.id, '')).status).toBe(401);
  });
});

describe('claimmigratedadvert', () => {
  it('makes the account and the advert with its texts and prices, signs in and sends the SMS code; the old address follows the advert', async () => {
    const row = await imported();
    await invite(row.id);
    const token = await claimToken(row.email!);

    const preview = await call(server(), '/api/frontend/claimpreview', { body: { Token: token } });
    expect(await preview.json()).toEqual({ name: 'Lise Lind', email: row.email });

    // A bad form: each field says why, nothing is made, and the link still works.
    expect(await fieldErrors(await claim(claimBody(token, { DateOfBirth: yearsAgo(18, 1) })))).toEqual({ DateOfBirth: 'underAge' });
    expect(Object.keys(await fieldErrors(await claim(claimBody(token, { AcceptTerms: false }))))).toEqual(['AcceptTerms']);
    expect(Object.keys(await fieldErrors(await claim(claimBody(token, { Password: 'password' }))))).toEqual(['Password']);
    expect((await server().db.select().from(accounts).where(eq(accounts.email, row.email!))).length).toBe(0);

    const response = await claim(claimBody(token));
    expect(response.status).toBe(200);
    const cookie = sessionCookieOf(response);
    expect(cookie).toBeDefined();
    const answer = (await response.json()) as { advertId: number; phone: string; phoneVerificationId: number };
    expect(answer.phone).toBe(row.phone);
    expect((await outboxFor(server(), `+45${row.phone}`)).at(-1)!.body).toMatch(/\b\d{6}\b/);
    expect((await userProfile(cookie)).status).toBe(200);

    const [account] = await server().db.select().from(accounts).where(eq(accounts.email, row.email!));
    expect(account!.activatedAt).not.toBeNull();
    expect(account!.emailVerifiedAt).not.toBeNull();
    expect(account!.dateOfBirth).toBe('1995-04-15');
    const [advert] = await server().db.select().from(adverts).where(eq(adverts.id, answer.advertId));
    expect(advert).toMatchObject({ status: 0, name: 'Lise Lind', title: data.title, introduction: data.introduction, titleEn: data.titleEn, phone: row.phone, regionId: row.regionId, cityId: row.cityId });
    expect(await server().db.select({ minutes: priceListItems.durationMinutes, incall: priceListItems.incallPriceOre }).from(priceListItems).where(eq(priceListItems.advertId, advert!.id))).toEqual([{ minutes: 60, incall: 150_000 }]);
    expect(await server().db.select({ priceOre: extraPriceItems.priceOre }).from(extraPriceItems).where(eq(extraPriceItems.advertId, advert!.id))).toEqual([{ priceOre: 20_000 }]);
    const [stored] = await server().db.select().from(migratedAdverts).where(eq(migratedAdverts.id, row.id));
    expect(stored).toMatchObject({ state: 'claimed', accountId: account!.id, advertId: advert!.id, claimTokenHash: null });

    // Used: the link works once.
    expect(await fieldErrors(await claim(claimBody(token)))).toEqual({ Token: 'linkInvalid' });
    // Not public yet (verification and approval are ahead): the old address is not found, not gone.
    expect((await oldAddress(row)).status).toBe(404);
    // Verified and approved like any advert: the old address leads to it.
    await server()
      .db.update(adverts)
      .set({ status: 1, approvedAt: new Date(), ageVerifiedAt: new Date(), expirationDate: new Date(Date.now() + 30 * DAY) })
      .where(eq(adverts.id, advert!.id));
    const moved = await oldAddress(row);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/annonce/lise-lind-${advert!.id}/`);
    // Support sees it live (claimed, and its advert public now), and finds it by that state.
    const detail = await call(server(), '/api/support/migrationadvert', { cookie: supportCookie, query: { Id: row.id } });
    expect(await detail.json()).toMatchObject({ state: 'live', advertId: advert!.id });
    const live = await call(server(), '/api/support/migrationadverts', { cookie: supportCookie, query: { State: 'live', OldId: row.oldId } });
    expect(((await live.json()) as { items: { id: number }[] }).items.map((item) => item.id)).toEqual([row.id]);
    const claimedOnly = await call(server(), '/api/support/migrationadverts', { cookie: supportCookie, query: { State: 'claimed', OldId: row.oldId } });
    expect(((await claimedOnly.json()) as { items: unknown[] }).items).toEqual([]);
  });

  it('refuses a link that expired, and an address that got an account meanwhile', async () => {
    const late = await imported();
    await invite(late.id);
    const lateToken = await claimToken(late.email!);
    // The link's days are over.
    await server().db.update(migratedAdverts).set({ claimExpiresAt: new Date(Date.now() - 1000) }).where(eq(migratedAdverts.id, late.id));
    expect(await fieldErrors(await call(server(), '/api/frontend/claimpreview', { body: { Token: lateToken } }))).toEqual({ Token: 'linkInvalid' });
    expect(await fieldErrors(await claim(claimBody(lateToken)))).toEqual({ Token: 'linkInvalid' });

    const row = await imported();
    await invite(row.id);
    const token = await claimToken(row.email!);
    await createAdvert(server().db, { name: 'Kom Først' }).then(({ accountId }) =>
      server().db.update(accounts).set({ email: row.email! }).where(eq(accounts.id, accountId)),
    );
    const response = await claim(claimBody(token));
    expect(response.status).toBe(409);
    expect(await fieldErrors(response)).toEqual({ Token: 'emailHasAccount' });
  });
});

describe('mergemigrationadvert', () => {
  it("makes the import a duplicate of an existing advertiser's advert, whose page the old address then leads to", async () => {
    const existing = await createAdvert(server().db, { name: 'Eksisterende Annonce' });
    const row = await imported({ state: 'invited' });
    const response = await call(server(), '/api/support/mergemigrationadvert', { cookie: supportCookie, body: { Id: row.id, AdvertId: existing.id } });
    expect(response.status).toBe(200);
    const [stored] = await server().db.select().from(migratedAdverts).where(eq(migratedAdverts.id, row.id));
    expect(stored).toMatchObject({ state: 'duplicate', advertId: existing.id, accountId: existing.accountId, claimTokenHash: null });
    const moved = await oldAddress(row);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/annonce/eksisterende-annonce-${existing.id}/`);

    expect(await fieldErrors(await call(server(), '/api/support/mergemigrationadvert', { cookie: supportCookie, body: { Id: (await imported()).id, AdvertId: 987_654 } }))).toEqual({ AdvertId: 'advertNotFound' });
    expect((await call(server(), '/api/support/mergemigrationadvert', { cookie: seoCookie, body: { Id: row.id, AdvertId: existing.id } })).status).toBe(403);
  });
});
