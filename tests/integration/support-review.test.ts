/**
 * Support's review of new adverts and pending changes (issue 6 "Moderation", spec §4), over real HTTP:
 * reviewqueue (kinds, oldest first, risk signals first), reviewadvert (each field's approved and
 * proposed value), and the save (approve, modify, refuse per field; approve or decline a new advert).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { adverts, auditLog, outboxMessages, products, promotions, statementsOfReasons, verifications } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser, type AdvertiserFixture } from '#tests/support/fixtures.ts';
import { uniquePhone } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';
import { backendApi, submitDocuments, supportApi, type Advertiser } from './verification-helpers.ts';
import { buy, pay, waitForStatus } from './orders-helpers.ts';
import { INTRODUCTORY_PERIOD_DAYS } from '#server/domain/adverts/statuses.ts';

const DAY = 86_400_000;
let server: TestServer;
let supportCookie: string;

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  supportCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'], name: 'Rikke Review' }));
});
afterAll(async () => {
  await server?.close();
});

/** An advertiser with a unique phone (the fixture's default phone is shared, which is itself a risk signal). */
async function advertiser(name: string, fixture: AdvertiserFixture = {}): Promise<Advertiser> {
  const created = await createAdvertiser(server.db, { name, phone: uniquePhone(), ...fixture });
  return { advertId: created.id, accountId: created.accountId, name, email: created.email, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

/** A new advert, not approved and not verified, with a package running (bought before approval). */
const newAdvert = (name: string, fixture: AdvertiserFixture = {}) =>
  advertiser(name, { status: 0, approvedAt: null, ageVerifiedAt: null, expirationDate: new Date(Date.now() + 30 * DAY), ...fixture });

const queue = async (kind?: string) => {
  const { status, body } = await supportApi(server, 'reviewqueue', supportCookie, { query: { Take: 200, ...(kind ? { Kind: kind } : {}) } });
  expect(status).toBe(200);
  return body as { total: number; items: { advertId: number; risk: string[]; since: string; pendingFields: string[]; ageVerified: boolean; pendingPictures: number }[] };
};
const review = (id: number) => supportApi(server, 'reviewadvert', supportCookie, { query: { Id: id } });
const save = (body: Record<string, unknown>) => supportApi(server, 'reviewadvert', supportCookie, { body });
const fieldsOf = (body: { errors?: { field: string; message: string }[] }) => Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));
const fullProfile = (id: number) => callApi(server.url, '/api/frontend/fullprofile', { query: { Id: id } });
const freeText = (text: string) => callApi(server.url, '/api/frontend/searchpageprofileswithfreetext', { query: { Text: text } });
const notifications = async (who: Advertiser, locale: 'da' | 'en' = 'da') =>
  (await callApi(server.url, '/api/backend/notifications', { cookie: who.cookie, query: { Locale: locale } })).body.items as { title: string; body: string }[];
const rowOf = async (id: number) => (await server.db.select().from(adverts).where(eq(adverts.id, id)))[0]!;

describe('reviewqueue', () => {
  it('lists new adverts oldest first, with a risk signal first; pending changes and media in their own queues', async () => {
    const older = await newAdvert('Ældste Nye', { createdAt: new Date(Date.now() - 3 * DAY) });
    const newer = await newAdvert('Nyere Nye', { createdAt: new Date(Date.now() - 2 * DAY) });
    // The newest one shares its phone with another account's advert: it goes first.
    const sharedPhone = uniquePhone();
    const risky = await newAdvert('Risiko Nye', { createdAt: new Date(Date.now() - DAY), phone: sharedPhone });
    await advertiser('Anden Konto', { phone: sharedPhone });

    const items = (await queue()).items;
    const order = items.map((i) => i.advertId).filter((id) => [older.advertId, newer.advertId, risky.advertId].includes(id));
    expect(order).toEqual([risky.advertId, older.advertId, newer.advertId]);
    const riskyItem = items.find((i) => i.advertId === risky.advertId)!;
    expect(riskyItem.risk).toEqual(['samePhone']);
    expect(items.find((i) => i.advertId === older.advertId)).toMatchObject({ risk: [], ageVerified: false });
    expect((await queue('new')).total).toBe((await queue()).total);

    // An approved advert whose owner proposes a change waits in 'changes' since the change, not in 'new'.
    const live = await advertiser('Levende Annonce');
    const form = await callApi(server.url, '/api/backend/basicinformation', { cookie: live.cookie });
    const current = form.body.current;
    const edit = await callApi(server.url, '/api/backend/basicinformation', {
      cookie: live.cookie,
      body: { ...current, Name: current.name, Title: 'En helt ny titel', Introduction: current.introduction, Description: current.description, Phone: current.phone, HasWhatsapp: false, Website: '', RegionId: current.regionId, CityId: current.cityId },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const changes = await queue('changes');
    const item = changes.items.find((i) => i.advertId === live.advertId)!;
    expect(item.pendingFields).toEqual(['text']);
    expect(Date.now() - Date.parse(item.since)).toBeLessThan(60_000);
    expect((await queue('new')).items.some((i) => i.advertId === live.advertId)).toBe(false);
    expect((await rowOf(live.advertId)).pendingSince).not.toBeNull();

    const wrongKind = await supportApi(server, 'reviewqueue', supportCookie, { query: { Kind: 'everything' } });
    expect(wrongKind.status).toBe(400);
    expect(fieldsOf(wrongKind.body)).toEqual({ Kind: 'invalid' });
  });
});

describe('a new advert', () => {
  it('cannot go live before verification; after it, approval makes it Active and public, with support’s corrections', async () => {
    const who = await newAdvert('Vilma Venter');
    const opened = await review(who.advertId);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ isNew: true, status: 0, ageVerifiedAt: null, account: { email: who.email } });
    const name = opened.body.fields.find((f: { field: string }) => f.field === 'name');
    expect(name).toEqual({ field: 'name', current: null, proposed: 'Vilma Venter', pending: true });
    // The reference ids in the values come with their names (the screen shows names, not numbers).
    const place = opened.body.fields.find((f: { field: string }) => f.field === 'location').proposed as { regionId: number; cityId: number };
    expect(opened.body.names.cities[String(place.cityId)]).toBe('København');
    expect(opened.body.names.regions[String(place.regionId)]).toMatchObject({ da: expect.stringContaining('Hovedstaden') });
    expect(opened.body.fields.map((f: { field: string }) => f.field)).toEqual([
      'name', 'location', 'text', 'introduction', 'services', 'phone', 'website', 'age', 'height', 'weight', 'whatsapp', 'breastType', 'type', 'gender', 'nationality', 'languages',
    ]);

    const refused = await save({ Id: who.advertId, Approve: true });
    expect(refused.status).toBe(409);
    expect(fieldsOf(refused.body)).toEqual({ Approve: 'notVerified' });
    expect((await rowOf(who.advertId)).status).toBe(0);

    // The advertiser verifies; support accepts the documents (the real calls).
    await submitDocuments(server, who);
    const [verification] = await server.db.select().from(verifications).where(eq(verifications.advertId, who.advertId)).orderBy(desc(verifications.id)).limit(1);
    expect((await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: verification!.id } })).status).toBe(200);

    // A value that breaks the form's rules is refused, naming the field; nothing is saved.
    const bad = await save({ Id: who.advertId, Approve: true, Fields: [{ Field: 'age', Action: 'modify', Value: 16 }] });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual({ age: 'range' });
    expect((await rowOf(who.advertId)).status).toBe(0);

    const approved = await save({
      Id: who.advertId,
      Approve: true,
      Fields: [
        { Field: 'name', Action: 'approve' },
        { Field: 'introduction', Action: 'modify', Value: 'Rolig og venlig.' },
      ],
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: 1, isNew: false });
    const row = await rowOf(who.advertId);
    expect(row.approvedAt).not.toBeNull();
    const profile = await fullProfile(who.advertId);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ name: 'Vilma Venter', introduction: 'Rolig og venlig.' });
    const found = await freeText('Vilma Venter');
    expect(found.status).toBe(200);
    expect(found.body.items.map((i: { id: number }) => i.id)).toContain(who.advertId);
    expect((await notifications(who)).some((n) => n.title === 'Din annonce er godkendt')).toBe(true);
    expect((await queue('new')).items.some((i) => i.advertId === who.advertId)).toBe(false);

    // Approving again: it is no longer new.
    const again = await save({ Id: who.advertId, Approve: true });
    expect(again.status).toBe(409);
    expect(fieldsOf(again.body)).toEqual({ Approve: 'notNew' });
  });

  it('a first approval without a package gives the introductory period (docs/decisions/016); a package already bought is kept', async () => {
    const fresh = await newAdvert('Ida Intro', { expirationDate: null });
    const paid = await newAdvert('Pia Pakke');
    const paidUntil = (await rowOf(paid.advertId)).expirationDate!;
    for (const who of [fresh, paid]) {
      await submitDocuments(server, who);
      const [verification] = await server.db.select().from(verifications).where(eq(verifications.advertId, who.advertId)).orderBy(desc(verifications.id)).limit(1);
      expect((await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: verification!.id } })).status).toBe(200);
      expect((await save({ Id: who.advertId, Approve: true })).status).toBe(200);
    }
    const days = ((await rowOf(fresh.advertId)).expirationDate!.getTime() - Date.now()) / DAY;
    expect(days).toBeGreaterThan(INTRODUCTORY_PERIOD_DAYS - 0.01);
    expect(days).toBeLessThanOrEqual(INTRODUCTORY_PERIOD_DAYS);
    expect((await rowOf(paid.advertId)).expirationDate).toEqual(paidUntil);
    expect((await freeText('Ida Intro')).body.items.map((i: { id: number }) => i.id)).toContain(fresh.advertId);
    const [note] = await notifications(fresh);
    expect(note!.body).toMatch(/vises på siden til og med \d{2}-\d{2}-\d{4}/);
  });

  it('a package paid before the first approval waits: it starts the day support approves the advert, not at purchase (issue 29)', async () => {
    const who = await newAdvert('Wanda Venter', { expirationDate: null });
    const membership30 = (await server.db.select({ id: products.id }).from(products).where(eq(products.code, 'membership-30')))[0]!.id;
    const offer = await backendApi(server, 'promotions', who.cookie, { query: { TypeId: 1 } });
    expect(offer.body).toMatchObject({ startsWhenPublic: true, waitingDays: 0 });
    const bought = await buy(server, who, membership30);
    expect((await pay(server, bought)).status).toBe(303);
    const paid = await waitForStatus(server, who, bought.orderId, 1);
    // Paid, with its receipt, but no days spent while nobody can see the advert.
    expect(paid).toMatchObject({ statusName: 'Paid', periodStart: null, periodEnd: null });
    expect(paid.documents.map((doc) => doc.kind)).toEqual(['receipt']);
    expect((await rowOf(who.advertId)).expirationDate).toBeNull();
    expect((await backendApi(server, 'promotions', who.cookie, { query: { TypeId: 1 } })).body).toMatchObject({ startsWhenPublic: true, waitingDays: 30, runningUntil: null });
    expect((await backendApi(server, 'dashboardlastpromotions', who.cookie)).body).toEqual([expect.objectContaining({ orderId: bought.orderId, waiting: true, startsAt: null })]);

    await submitDocuments(server, who);
    const [verification] = await server.db.select().from(verifications).where(eq(verifications.advertId, who.advertId)).orderBy(desc(verifications.id)).limit(1);
    expect((await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: verification!.id } })).status).toBe(200);
    const approvedAt = Date.now();
    expect((await save({ Id: who.advertId, Approve: true })).status).toBe(200);
    // The 30 paid days run from the approval (not the introductory period, not from the purchase).
    const expiry = (await rowOf(who.advertId)).expirationDate!.getTime();
    expect(expiry).toBeGreaterThanOrEqual(approvedAt + 30 * DAY - 1000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 30 * DAY);
    const started = await waitForStatus(server, who, bought.orderId, 1);
    expect(new Date(started.periodEnd!).getTime()).toBe(expiry);
    expect(new Date(started.periodStart!).getTime()).toBeGreaterThanOrEqual(approvedAt - 1000);
    const [promotion] = await server.db.select().from(promotions).where(eq(promotions.orderId, bought.orderId));
    expect(promotion!.endsAt.getTime()).toBe(expiry);
    expect((await backendApi(server, 'promotions', who.cookie, { query: { TypeId: 1 } })).body).toMatchObject({ startsWhenPublic: false, waitingDays: 0 });
  });

  it('declined: locked, with a statement of reasons the advertiser is told about', async () => {
    const who = await newAdvert('Dorte Afvist');
    const missingRule = await save({ Id: who.advertId, Decline: { Reason: 'Billederne viser ikke annoncøren.' } });
    expect(missingRule.status).toBe(400);
    expect(fieldsOf(missingRule.body)).toEqual({ 'Decline.Rule': 'required' });

    const declined = await save({ Id: who.advertId, Decline: { Reason: 'Billederne viser ikke annoncøren.', Rule: 'terms.identity' } });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body.status).toBe(2);
    const [statement] = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.advertId, who.advertId));
    expect(statement).toMatchObject({ decision: 'advert.locked', reason: 'Billederne viser ikke annoncøren.', rule: 'terms.identity' });
    const [note] = await notifications(who);
    expect(note!.title).toBe('Din annonce er låst');
    expect(note!.body).toContain('Billederne viser ikke annoncøren.');
    expect((await fullProfile(who.advertId)).status).toBe(410);
  });
});

describe('pending changes of an approved advert', () => {
  it('approves one field, modifies another and refuses a third in one save: public values, notice and audit', async () => {
    const who = await advertiser('Sofie Før', { languageCodes: ['da'] });
    const edit = await callApi(server.url, '/api/backend/basicinformation', {
      cookie: who.cookie,
      body: {
        Name: 'Sofie Efter',
        Title: 'Ny titel',
        Introduction: 'Ny introduktion.',
        Description: 'Ny beskrivelse.',
        Phone: (await rowOf(who.advertId)).phone,
        HasWhatsapp: false,
        Website: '',
        RegionId: (await rowOf(who.advertId)).regionId,
        CityId: (await rowOf(who.advertId)).cityId,
      },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);

    const opened = await review(who.advertId);
    expect(opened.status).toBe(200);
    const byField = Object.fromEntries(opened.body.fields.map((f: { field: string }) => [f.field, f]));
    expect(byField.name).toEqual({ field: 'name', current: 'Sofie Før', proposed: 'Sofie Efter', pending: true });
    expect(byField.text).toEqual({
      field: 'text',
      current: { title: 'En rolig aften', description: 'Ring for en aftale.' },
      proposed: { title: 'Ny titel', description: 'Ny beskrivelse.' },
      pending: true,
    });
    expect(byField.age).toMatchObject({ pending: false, current: 30, proposed: 30 });

    // A field that is not pending cannot be approved; nothing is saved.
    const notPending = await save({ Id: who.advertId, Fields: [{ Field: 'name', Action: 'approve' }, { Field: 'age', Action: 'approve' }] });
    expect(notPending.status).toBe(400);
    expect(fieldsOf(notPending.body)).toEqual({ age: 'notPending' });
    // A refusal needs a reason.
    const noReason = await save({ Id: who.advertId, Fields: [{ Field: 'text', Action: 'refuse' }] });
    expect(noReason.status).toBe(400);
    expect(fieldsOf(noReason.body)).toEqual({ 'Fields.0.Reason': 'required' });
    expect((await rowOf(who.advertId)).name).toBe('Sofie Før');

    const saved = await save({
      Id: who.advertId,
      Fields: [
        { Field: 'name', Action: 'approve' },
        { Field: 'introduction', Action: 'modify', Value: 'Rettet af support.' },
        { Field: 'text', Action: 'refuse', Reason: 'Teksten lover noget, vi ikke tillader.' },
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.fields.every((f: { pending: boolean }) => !f.pending)).toBe(true);

    const profile = await fullProfile(who.advertId);
    expect(profile.body).toMatchObject({ name: 'Sofie Efter', introduction: 'Rettet af support.', title: 'En rolig aften', description: 'Ring for en aftale.' });
    const row = await rowOf(who.advertId);
    expect(row.pendingChanges).toBeNull();
    expect(row.pendingSince).toBeNull();
    expect((await queue('changes')).items.some((i) => i.advertId === who.advertId)).toBe(false);

    const [note] = await notifications(who);
    expect(note!.title).toBe('Ændringer i din annonce blev afvist');
    expect(note!.body).toContain('Tekst (begrundelse: Teksten lover noget, vi ikke tillader.)');
    expect(note!.body).toContain('Support har rettet: Introduktion.');
    const mail = await server.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, who.email)).orderBy(desc(outboxMessages.id)).limit(1);
    expect(mail[0]!.body).toContain('Teksten lover noget, vi ikke tillader.');

    const audit = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'advert'), eq(auditLog.targetId, String(who.advertId))))
      .orderBy(auditLog.id);
    const reviewEntries = audit.filter((a) => a.action.startsWith('advert.review.'));
    expect(reviewEntries.map((a) => a.action)).toEqual(['advert.review.approve', 'advert.review.modify', 'advert.review.refuse']);
    expect(reviewEntries[1]).toMatchObject({ before: { field: 'introduction', current: 'Venlig og diskret.', proposed: 'Ny introduktion.' }, after: { field: 'introduction', value: 'Rettet af support.' } });
    expect(reviewEntries[2]!.reason).toBe('Teksten lover noget, vi ikke tillader.');
  });

  it('answers 404 for an advert that does not exist, and refuses approving or declining an approved one', async () => {
    expect((await review(987_654)).status).toBe(404);
    const who = await advertiser('Allerede Godkendt');
    const decline = await save({ Id: who.advertId, Decline: { Reason: 'Test.', Rule: 'terms.other' } });
    expect(decline.status).toBe(409);
    expect(fieldsOf(decline.body)).toEqual({ Decline: 'notNew' });
  });
});
