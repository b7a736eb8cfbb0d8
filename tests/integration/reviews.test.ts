/**
 * Visitors' reviews over real HTTP (issue 6, "Reviews"): a visitor asks for a code by SMS for a review of
 * a public profile (reviewcode), writes the review with it (addprofilereview), one per phone per advert; a
 * number on the advertiser's blacklist is refused in neutral words; support works the queue
 * (pendingreviews, pendingreview, decidereview): approve, reject with a reason, and the advertiser's removal
 * requests (remove or keep); an approved review appears in fullprofile and in the reviews filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { adverts, auditLog, blacklistEntries, phoneVerificationCodes, reviews } from '#server/db/schema.ts';
import type { PendingReviewDetail, PendingReviewItem } from '#lib/schemas/reviews.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { lastSmsCode, outboxFor, uniquePhone } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';

const MINUTE = 60_000;
let offsetMs = 0;
let server: TestServer;
let supportCookie: string;
let seoCookie: string;

const frontend = (path: string, body: unknown) => callApi(server.url, `/api/frontend/${path}`, { body });
const supportApi = (path: string, options: { query?: Record<string, string | number>; body?: unknown; cookie?: string } = {}) =>
  callApi(server.url, `/api/support/${path}`, { cookie: supportCookie, ...options });

/** A code for a review by SMS, read from the outbox as support reads it. */
async function codeFor(advertId: number, phone: string): Promise<string> {
  const { status, body } = await frontend('reviewcode', { ProfileId: advertId, Phone: phone });
  expect(status, JSON.stringify(body)).toBe(200);
  return lastSmsCode(server, phone);
}

/** A review written with a fresh code; answers its id. */
async function writeReview(advertId: number, phone: string, review: { Name?: string; Rating?: number; Text?: string } = {}): Promise<number> {
  const Code = await codeFor(advertId, phone);
  const { status, body } = await frontend('addprofilereview', {
    ProfileId: advertId,
    Name: 'Mette',
    Rating: 5,
    Text: 'Venlig og punktlig, alt som aftalt.',
    Phone: phone,
    Code,
    ...review,
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.id as number;
}

const fieldOf = (body: { errors?: { field: string; message: string }[] }) => Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(Date.now() + offsetMs), app: { rateLimitScale: 50 } });
  const user = await createSupportUserOverHttp(server, { permissions: ['Support'], name: 'Rikke Review' });
  supportCookie = await signInSupport(server, user);
  const seo = await createSupportUserOverHttp(server, { permissions: ['SEO'] });
  seoCookie = await signInSupport(server, seo);
});
afterAll(async () => {
  await server?.close();
});

describe('reviewcode and addprofilereview: a visitor writes a review', () => {
  it('sends a code by SMS, stores it hashed, and takes the review with it; the review waits for support', async () => {
    const advert = await createAdvertiser(server.db, { name: 'Anmeldt Asta' });
    const phone = uniquePhone();
    const sent = await frontend('reviewcode', { ProfileId: advert.id, Phone: `+45 ${phone.slice(0, 2)} ${phone.slice(2)}` });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.phone).toBe(`${phone.slice(0, 4)}xxxx`);
    const code = await lastSmsCode(server, phone);
    const [stored] = await server.db.select().from(phoneVerificationCodes).where(eq(phoneVerificationCodes.phone, phone));
    expect(stored!.accountId).toBeNull();
    expect(stored!.codeHash).not.toContain(code);

    const { status, body } = await frontend('addprofilereview', {
      ProfileId: advert.id,
      Name: 'Mette',
      Rating: 4,
      Text: 'Venlig og punktlig, alt som aftalt.',
      Phone: phone,
      Code: code,
    });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.status).toBe(0);
    const [review] = await server.db.select().from(reviews).where(eq(reviews.id, body.id));
    expect(review).toMatchObject({ advertId: advert.id, authorName: 'Mette', authorPhone: phone, rating: 4, status: 0 });
    // Not public before approval.
    const profile = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: advert.id } });
    expect(profile.body.reviews).toEqual([]);
    const audit = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'review.create'), eq(auditLog.targetId, String(body.id))));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0]!.after)).not.toContain(phone);

    // The code works once.
    const again = await frontend('addprofilereview', { ProfileId: advert.id, Name: 'Mette', Rating: 4, Text: 'Endnu en gang, tak.', Phone: phone, Code: code });
    expect(again.status).toBe(409);
    expect(fieldOf(again.body)).toEqual({ Phone: 'alreadyReviewed' });
  });

  it('refuses a wrong code (400 at Code), an expired one, and a code asked for another advert', async () => {
    const advert = await createAdvertiser(server.db);
    const other = await createAdvertiser(server.db);
    const phone = uniquePhone();
    const code = await codeFor(advert.id, phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const review = { ProfileId: advert.id, Name: 'Jonas', Rating: 3, Text: 'Fint, men lidt forsinket.', Phone: phone };

    const bad = await frontend('addprofilereview', { ...review, Code: wrong });
    expect(bad.status).toBe(400);
    expect(fieldOf(bad.body)).toEqual({ Code: 'codeWrong' });
    const elsewhere = await frontend('addprofilereview', { ...review, ProfileId: other.id, Code: code });
    expect(elsewhere.status).toBe(400);
    expect(fieldOf(elsewhere.body)).toEqual({ Code: 'codeWrong' });

    offsetMs += 11 * MINUTE;
    const expired = await frontend('addprofilereview', { ...review, Code: code });
    expect(expired.status).toBe(400);
    expect(fieldOf(expired.body)).toEqual({ Code: 'codeExpired' });
  });

  it('allows five tries of a code, then asks for a new one; a new code is refused within a minute', async () => {
    const advert = await createAdvertiser(server.db);
    const phone = uniquePhone();
    const code = await codeFor(advert.id, phone);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    const review = { ProfileId: advert.id, Name: 'Ida', Rating: 5, Text: 'Rigtig god oplevelse.', Phone: phone };
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) statuses.push((await frontend('addprofilereview', { ...review, Code: wrong })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const locked = await frontend('addprofilereview', { ...review, Code: code });
    expect(locked.status).toBe(429);
    expect(fieldOf(locked.body)).toEqual({ Code: 'codeAttempts' });

    const soon = await frontend('reviewcode', { ProfileId: advert.id, Phone: phone });
    expect(soon.status).toBe(429);
    expect(fieldOf(soon.body)).toEqual({ Phone: 'tooSoon' });
    offsetMs += 2 * MINUTE;
    const fresh = await codeFor(advert.id, phone);
    expect((await frontend('addprofilereview', { ...review, Code: fresh })).status).toBe(201);
  });

  it('takes one review per phone per advert (409 naming Phone), before any SMS is sent', async () => {
    const advert = await createAdvertiser(server.db);
    const phone = uniquePhone();
    await writeReview(advert.id, phone);
    const before = (await outboxFor(server, `+45${phone}`)).length;
    offsetMs += 2 * MINUTE;
    const second = await frontend('reviewcode', { ProfileId: advert.id, Phone: phone });
    expect(second.status).toBe(409);
    expect(fieldOf(second.body)).toEqual({ Phone: 'alreadyReviewed' });
    expect(await outboxFor(server, `+45${phone}`)).toHaveLength(before);
    // The same number may review another advert.
    const other = await createAdvertiser(server.db);
    await writeReview(other.id, phone);
  });

  it("refuses a number on the advertiser's blacklist in neutral words", async () => {
    const advert = await createAdvertiser(server.db);
    const phone = uniquePhone();
    await server.db.insert(blacklistEntries).values({ accountId: advert.accountId, phone, note: 'Udeblev' });
    const refused = await frontend('reviewcode', { ProfileId: advert.id, Phone: `0045${phone}` });
    expect(refused.status).toBe(403);
    expect(fieldOf(refused.body)).toEqual({ Phone: 'reviewRefused' });
    expect(JSON.stringify(refused.body).toLowerCase()).not.toContain('blacklist');
    expect(await outboxFor(server, `+45${phone}`)).toHaveLength(0);

    // Blacklisted after the code was sent: the review itself is refused too.
    const later = uniquePhone();
    const code = await codeFor(advert.id, later);
    await server.db.insert(blacklistEntries).values({ accountId: advert.accountId, phone: later, note: null });
    const review = await frontend('addprofilereview', { ProfileId: advert.id, Name: 'Per', Rating: 1, Text: 'Ikke godt overhovedet.', Phone: later, Code: code });
    expect(review.status).toBe(403);
    expect(fieldOf(review.body)).toEqual({ Phone: 'reviewRefused' });
  });

  it('refuses a review of an advert that is not public (404)', async () => {
    const hidden = await createAdvertiser(server.db, { status: 5 });
    const phone = uniquePhone();
    const answer = await frontend('reviewcode', { ProfileId: hidden.id, Phone: phone });
    expect(answer.status).toBe(404);
    expect(fieldOf(answer.body)).toEqual({ ProfileId: 'advertNotPublic' });
    expect((await frontend('reviewcode', { ProfileId: 99_999_999, Phone: phone })).status).toBe(404);
  });

  it('answers bad input with 400 naming the field', async () => {
    const advert = await createAdvertiser(server.db);
    const badPhone = await frontend('reviewcode', { ProfileId: advert.id, Phone: '1234' });
    expect(badPhone.status).toBe(400);
    expect(fieldOf(badPhone.body)).toEqual({ Phone: 'phone' });
    const bad = await frontend('addprofilereview', { ProfileId: advert.id, Name: '', Rating: 6, Text: 'kort', Phone: uniquePhone(), Code: '12a' });
    expect(bad.status).toBe(400);
    expect(fieldOf(bad.body)).toMatchObject({ Name: 'required', Rating: 'rating', Text: 'tooShort', Code: 'code' });
    const long = await frontend('addprofilereview', { ProfileId: advert.id, Name: 'Ole', Rating: 5, Text: 'x'.repeat(2001), Phone: uniquePhone(), Code: '123456' });
    expect(fieldOf(long.body)).toEqual({ Text: 'tooLong' });
  });

  it('refuses words that suggest a minor, at their field, without using up the code', async () => {
    const advert = await createAdvertiser(server.db);
    const phone = uniquePhone();
    const code = await codeFor(advert.id, phone);
    const review = { ProfileId: advert.id, Name: 'Eva', Rating: 2, Phone: phone, Code: code };
    const risky = await frontend('addprofilereview', { ...review, Text: 'Hun lignede en skolepige.' });
    expect(risky.status).toBe(400);
    expect(fieldOf(risky.body)).toEqual({ Text: 'forbiddenWords' });
    expect((await frontend('addprofilereview', { ...review, Text: 'Hyggelig og professionel.' })).status).toBe(201);
  });
});

describe('pendingreviews, pendingreview, decidereview: support decides', () => {
  it('lists pending reviews oldest first, shows one with its advert, and approves it onto the profile', async () => {
    const advert = await createAdvertiser(server.db, { name: 'Godkendt Gitte' });
    const first = await writeReview(advert.id, uniquePhone(), { Name: 'Først', Text: 'Den første anmeldelse her.' });
    offsetMs += MINUTE;
    const second = await writeReview(advert.id, uniquePhone(), { Name: 'Sidst', Rating: 2, Text: 'Den anden anmeldelse her.' });

    const list = await supportApi('pendingreviews', { query: { Take: 200 } });
    expect(list.status).toBe(200);
    const ids = (list.body.items as PendingReviewItem[]).map((item) => item.id);
    expect(ids.indexOf(first)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect((list.body.items as PendingReviewItem[]).find((item) => item.id === first)).toMatchObject({
      kind: 'new',
      advertId: advert.id,
      advertName: 'Godkendt Gitte',
      authorName: 'Først',
    });
    const counts = await supportApi('pendingcounts');
    expect(counts.body.pendingReviews.count).toBe(list.body.total);

    const one = await supportApi('pendingreview', { query: { Id: first } });
    expect(one.status).toBe(200);
    const detail = one.body as PendingReviewDetail;
    expect(detail).toMatchObject({ open: true, decision: null, advert: { id: advert.id, name: 'Godkendt Gitte' } });
    expect(detail.advert.url).toMatch(/^\/annonce\/godkendt-gitte-\d+\/$/);
    expect(detail.authorPhone).toMatch(/^\d{4}xxxx$/);

    const approved = await supportApi('decidereview', { body: { Id: first, Decision: 'approve' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: 1, open: false, decision: 'approve', decidedBy: { name: 'Rikke Review' } });
    const again = await supportApi('decidereview', { body: { Id: first, Decision: 'reject', Reason: 'For sent' } });
    expect(again.status).toBe(409);
    expect(fieldOf(again.body)).toEqual({ Id: 'alreadyDecided' });

    const profile = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: advert.id } });
    expect(profile.body.reviews).toEqual([expect.objectContaining({ id: first, authorName: 'Først', rating: 5, text: 'Den første anmeldelse her.' })]);
    expect(JSON.stringify(profile.body)).not.toMatch(/authorPhone/);
    // The reviews filter of the search follows the approval.
    const search = await callApi(server.url, '/api/frontend/searchpageprofiles', { query: { Review: 'true', Take: 200 } });
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body)).toContain(`"id":${advert.id}`);
    const audit = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'review.approve'), eq(auditLog.targetId, String(first))));
    expect(audit).toHaveLength(1);
    // The advertiser is told of the new review on the dashboard.
    const notices = await callApi(server.url, '/api/backend/notifications', { cookie: await advertiserSessionCookie(server.db, advert.accountId) });
    expect(notices.body.items[0]).toMatchObject({ title: 'Du har fået en ny anmeldelse', link: '/backend/reviews/' });
    expect(notices.body.items[0].body).toContain('Først (5 af 5 stjerner)');
  });

  it('rejects a review only with a reason; it never reaches the profile', async () => {
    const advert = await createAdvertiser(server.db);
    const id = await writeReview(advert.id, uniquePhone());
    const noReason = await supportApi('decidereview', { body: { Id: id, Decision: 'reject' } });
    expect(noReason.status).toBe(400);
    expect(fieldOf(noReason.body)).toEqual({ Reason: 'required' });
    const unfitting = await supportApi('decidereview', { body: { Id: id, Decision: 'keep' } });
    expect(unfitting.status).toBe(400);
    expect(fieldOf(unfitting.body)).toEqual({ Decision: 'invalid' });
    const rejected = await supportApi('decidereview', { body: { Id: id, Decision: 'reject', Reason: 'Personoplysninger i teksten.' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 3, decision: 'reject', decisionReason: 'Personoplysninger i teksten.' });
    const profile = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: advert.id } });
    expect(profile.body.reviews).toEqual([]);
    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'review.reject'), eq(auditLog.targetId, String(id))));
    expect(audit!.reason).toBe('Personoplysninger i teksten.');
  });

  it("takes the advertiser's removal requests: keep leaves the review, remove takes it off the profile", async () => {
    const advert = await createAdvertiser(server.db, { name: 'Fjernet Frida' });
    const advertiser = await advertiserSessionCookie(server.db, advert.accountId);
    const kept = await writeReview(advert.id, uniquePhone(), { Name: 'Beholdt' });
    const removed = await writeReview(advert.id, uniquePhone(), { Name: 'Fjernet' });
    for (const id of [kept, removed]) expect((await supportApi('decidereview', { body: { Id: id, Decision: 'approve' } })).status).toBe(200);
    for (const id of [kept, removed]) {
      const asked = await callApi(server.url, '/api/backend/deletereview', { body: { ReviewId: id, Reason: 'Ikke en rigtig kunde' }, cookie: advertiser });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    }
    const list = await supportApi('pendingreviews', { query: { Take: 200 } });
    const waiting = (list.body.items as PendingReviewItem[]).filter((item) => item.advertId === advert.id);
    expect(waiting.map((item) => [item.id, item.kind])).toEqual([
      [kept, 'removal'],
      [removed, 'removal'],
    ]);
    expect((await supportApi('decidereview', { body: { Id: kept, Decision: 'approve' } })).status).toBe(400);

    expect((await supportApi('decidereview', { body: { Id: kept, Decision: 'keep' } })).body).toMatchObject({ status: 1, decision: 'keep', open: false });
    expect((await supportApi('decidereview', { body: { Id: removed, Decision: 'remove' } })).body).toMatchObject({ status: 2, decision: 'remove', open: false });
    const after = await supportApi('pendingreviews', { query: { Take: 200 } });
    expect((after.body.items as PendingReviewItem[]).filter((item) => item.advertId === advert.id)).toEqual([]);
    const profile = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: advert.id } });
    expect((profile.body.reviews as { id: number }[]).map((review) => review.id)).toEqual([kept]);
    const actions = await server.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetType, 'review'));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['review.keep', 'review.remove']));
    // The advertiser gets the answer to both requests, newest first.
    const notices = await callApi(server.url, '/api/backend/notifications', { cookie: advertiser });
    const titles = (notices.body.items as { title: string; body: string }[]).map((n) => n.title);
    expect(titles.slice(0, 2)).toEqual(['Anmeldelsen er fjernet', 'Anmeldelsen bliver på annoncen']);
    expect(notices.body.items[1].body).toContain('Beholdt');
  });

  it('does not tell the advertiser of a rejected review they never saw', async () => {
    const advert = await createAdvertiser(server.db);
    const id = await writeReview(advert.id, uniquePhone());
    expect((await supportApi('decidereview', { body: { Id: id, Decision: 'reject', Reason: 'Reklame.' } })).status).toBe(200);
    const notices = await callApi(server.url, '/api/backend/notifications', { cookie: await advertiserSessionCookie(server.db, advert.accountId) });
    expect(JSON.stringify(notices.body.items)).not.toContain('anmeldelse');
  });

  it('needs the Support permission: 401 without a session, 403 for SEO', async () => {
    const advert = await createAdvertiser(server.db);
    const id = await writeReview(advert.id, uniquePhone());
    expect((await supportApi('pendingreviews', { cookie: '' })).status).toBe(401);
    expect((await supportApi('pendingreviews', { cookie: seoCookie })).status).toBe(403);
    expect((await supportApi('pendingreview', { query: { Id: id }, cookie: seoCookie })).status).toBe(403);
    expect((await supportApi('decidereview', { body: { Id: id, Decision: 'approve' }, cookie: seoCookie })).status).toBe(403);
    expect((await supportApi('pendingreview', { query: { Id: 99_999_999 } })).status).toBe(404);
    const [row] = await server.db.select({ status: reviews.status }).from(reviews).where(eq(reviews.id, id));
    expect(row!.status).toBe(0);
    // The advert stays as it was.
    const [stillThere] = await server.db.select({ id: adverts.id }).from(adverts).where(eq(adverts.id, advert.id));
    expect(stillThere).toBeDefined();
  });
});
