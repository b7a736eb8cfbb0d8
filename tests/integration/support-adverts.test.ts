/**
 * Support's advert pages over real HTTP (issue 6 "Moderation" and "Audit log"; spec §7 support calls
 * profiles, full profile, status change, login histories, action histories, media current/deleted,
 * messages, reviews, reports): search by id, name, email and phone with paging; the full profile with names
 * instead of ids; a lock with a rule and a reason (statement of reasons to the advertiser, audited, the
 * public page gone); an unlock with a reason; sign-ins; the history of support, advertiser and system
 * actions with before and after; current and deleted media; a message that appears in the advertiser's
 * backend notifications; the advert's reviews and reports; refusals of bad input with 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, adverts, auditLog, reviews, statementsOfReasons } from '#server/db/schema.ts';
import { SYSTEM } from '#server/domain/context.ts';
import { changeAdvertStatus } from '#server/domain/adverts/change-status.ts';
import type {
  ActionHistoryItem,
  AdvertMedia,
  AdvertMessageItem,
  AdvertProfile,
  AdvertProfileItem,
  AdvertReportItem,
  AdvertReviewItem,
  LoginHistoryItem,
} from '#lib/schemas/support-adverts.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { outboxFor, postFrom } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';

let server: TestServer;
let support: { id: number; name: string; cookie: string };
let advertiser: Awaited<ReturnType<typeof createAdvertiser>>;
let advertiserCookie: string;
const unique = Math.random().toString(36).slice(2, 8);

const supportApi = (path: string, options: { query?: Record<string, string | number>; body?: unknown; cookie?: string } = {}) =>
  callApi(server.url, `/api/support/${path}`, { cookie: support.cookie, ...options });
const backendApi = (path: string, body?: unknown) => callApi(server.url, `/api/backend/${path}`, { cookie: advertiserCookie, ...(body === undefined ? {} : { body }) });

async function history(): Promise<ActionHistoryItem[]> {
  const { status, body } = await supportApi('actionhistories', { query: { Id: advertiser.id, Take: 200 } });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.items as ActionHistoryItem[];
}

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  const user = await createSupportUserOverHttp(server, { permissions: ['Support'], name: 'Karin Kontrol' });
  support = { id: user.id, name: user.name, cookie: await signInSupport(server, user) };
  advertiser = await createAdvertiser(server.db, {
    name: `Søgbar Sofie ${unique}`,
    phone: '+45 61 72 83 94',
    city: 'København',
    languageCodes: ['da', 'en'],
    nationalityCode: 'DK',
    pictureCount: 2,
  });
  advertiserCookie = await advertiserSessionCookie(server.db, advertiser.accountId);
  // Two more adverts with the same name part, for paging.
  await createAdvertiser(server.db, { name: `Søgbar Sara ${unique}` });
  await createAdvertiser(server.db, { name: `Søgbar Signe ${unique}` });
});
afterAll(async () => {
  await server?.close();
});

describe('profiles: support searches adverts', () => {
  it('finds an advert by id, name, email and phone, and pages the results', async () => {
    const byId = await supportApi('profiles', { query: { Id: advertiser.id } });
    expect(byId.status).toBe(200);
    expect(byId.body.total).toBe(1);
    const item = byId.body.items[0] as AdvertProfileItem;
    expect(item).toMatchObject({ id: advertiser.id, name: advertiser.name, email: advertiser.email, phone: '+45 61 72 83 94', kind: 'escort', status: 1, verified: true, lastLoginAt: null });

    const byEmail = await supportApi('profiles', { query: { Email: advertiser.email.toUpperCase() } });
    expect(byEmail.body.items.map((i: AdvertProfileItem) => i.id)).toEqual([advertiser.id]);

    // The phone by its digits, with or without +45 and spaces.
    for (const phone of ['61728394', '+4561728394', '0045 6172 8394', '72 83']) {
      const byPhone = await supportApi('profiles', { query: { Phone: phone, Name: unique } });
      expect(byPhone.body.items.map((i: AdvertProfileItem) => i.id), phone).toEqual([advertiser.id]);
    }

    const byName = await supportApi('profiles', { query: { Name: `søgbar s`, Take: 2 } });
    const all = await supportApi('profiles', { query: { Name: unique } });
    expect(all.body.total).toBe(3);
    const names = (all.body.items as AdvertProfileItem[]).map((i) => i.name);
    expect(names).toEqual([`Søgbar Signe ${unique}`, `Søgbar Sara ${unique}`, `Søgbar Sofie ${unique}`]);
    expect(byName.body.items).toHaveLength(2);
    const second = await supportApi('profiles', { query: { Name: unique, Skip: 2, Take: 2 } });
    expect(second.body.total).toBe(3);
    expect((second.body.items as AdvertProfileItem[]).map((i) => i.name)).toEqual([`Søgbar Sofie ${unique}`]);

    const none = await supportApi('profiles', { query: { Name: unique, Email: 'nobody@example.test' } });
    expect(none.body).toEqual({ total: 0, items: [] });
  });

  it('refuses bad search input with 400 naming the field', async () => {
    const badId = await supportApi('profiles', { query: { Id: 'abc' } });
    expect(badId.status).toBe(400);
    expect(badId.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.stringify(badId.body)).toContain('Id');
    const badTake = await supportApi('profiles', { query: { Take: 500 } });
    expect(badTake.status).toBe(400);
    expect(JSON.stringify(badTake.body)).toContain('Take');
    const badPhone = await supportApi('profiles', { query: { Phone: 'ring mig' } });
    expect(badPhone.status).toBe(400);
    expect(JSON.stringify(badPhone.body)).toContain('phoneInvalid');
  });
});

describe('profile: the full advert', () => {
  it('shows the advert, its account, names of places and choices, verification and counts', async () => {
    const { status, body } = await supportApi('profile', { query: { Id: advertiser.id } });
    expect(status).toBe(200);
    const profile = body as AdvertProfile;
    expect(profile).toMatchObject({
      id: advertiser.id,
      name: advertiser.name,
      kind: 'escort',
      status: 1,
      lock: null,
      account: { id: advertiser.accountId, email: advertiser.email, emailVerified: true, phoneVerified: true },
      fields: { city: 'København', age: 30, phone: '+45 61 72 83 94' },
      counts: { pictures: 2, videos: 0, deletedMedia: 0, reviews: 0, reports: 0 },
    });
    expect(profile.publicUrl).toMatch(new RegExp(`-${advertiser.id}/$`));
    expect(profile.fields.region?.da).toBeTruthy();
    expect(profile.fields.nationality).not.toBeNull();
    expect(profile.fields.languages).toHaveLength(2);
    expect(profile.fields.languages.map((l) => l.da)).toContain('Dansk');
    expect((await supportApi('profile', { query: { Id: 987_654 } })).status).toBe(404);
    expect((await supportApi('profile', { query: {} })).status).toBe(400);
  });
});

describe('status change: lock and unlock', () => {
  it('a lock needs a rule and a reason (400 naming them); closing or deleting is not support’s to do here', async () => {
    const { status, body } = await supportApi('profilestatus', { body: { Id: advertiser.id, Status: 2, Reason: '' } });
    expect(status).toBe(400);
    const fields = JSON.stringify(body);
    expect(fields).toContain('Reason');
    expect(fields).toContain('Rule');
    // Support hides an advert only by locking it (with a statement of reasons): not by deleting or closing it.
    for (const hidden of [3, 5]) {
      const badStatus = await supportApi('profilestatus', { body: { Id: advertiser.id, Status: hidden, Reason: 'Skjul', Rule: 'terms.identity' } });
      expect(badStatus.status, String(hidden)).toBe(400);
      expect(JSON.stringify(badStatus.body)).toContain('Status');
    }
  });

  it('locks with a rule and a reason: statement of reasons to the advertiser, audited, off the public site', async () => {
    const reason = 'Billederne viser ikke annoncøren selv.';
    const { status, body } = await supportApi('profilestatus', { body: { Id: advertiser.id, Status: 2, Rule: 'terms.identity', Reason: reason } });
    expect(status, JSON.stringify(body)).toBe(200);
    const profile = body as AdvertProfile;
    expect(profile.status).toBe(2);
    expect(profile.publicUrl).toBeNull();
    expect(profile.lock).toMatchObject({ reason, rule: 'terms.identity', lockedBy: 'Karin Kontrol', appealed: false });

    const [statement] = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.advertId, advertiser.id));
    expect(statement).toMatchObject({ decision: 'advert.locked', reason, rule: 'terms.identity', createdBy: support.id, accountId: advertiser.accountId });
    // The advertiser sees the decision in the backend and by email.
    const notices = await backendApi('notifications');
    expect(notices.body.items[0].title).toBe('Din annonce er låst');
    expect(notices.body.items[0].body).toContain(reason);
    expect((await outboxFor(server, advertiser.email)).some((m: { subject: string | null }) => m.subject?.includes('låst'))).toBe(true);
    const statements = await backendApi('statementsofreasons');
    expect(JSON.stringify(statements.body)).toContain(reason);

    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'advert.lock'), eq(auditLog.targetId, String(advertiser.id))));
    expect(audit).toMatchObject({ actorType: 'support', actorId: support.id, reason, before: { status: 1 }, after: { status: 2, statusReason: reason } });
    expect(audit!.ip).toBeTruthy();

    // The public profile answers as for a blocked advert.
    const publicPage = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: advertiser.id } });
    expect(publicPage.status).toBe(410);

    // Locking again is refused, naming the status.
    const again = await supportApi('profilestatus', { body: { Id: advertiser.id, Status: 2, Rule: 'terms.other', Reason: 'Igen.' } });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('sameStatus');
  });

  it('unlocks to Active with a reason, audited', async () => {
    const reason = 'Annoncøren har sendt egne billeder.';
    const { status, body } = await supportApi('profilestatus', { body: { Id: advertiser.id, Status: 1, Reason: reason } });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 1, lock: null, statusReason: null });
    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'advert.unlock'), eq(auditLog.targetId, String(advertiser.id))));
    expect(audit).toMatchObject({ actorType: 'support', reason, before: { status: 2 }, after: { status: 1 } });
    expect((await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: advertiser.id } })).status).toBe(200);
    // The advertiser is told, in the backend and by email (support's reason stays in the audit log).
    const notices = await backendApi('notifications');
    expect(notices.body.items[0].title).toBe('Din annonce er låst op');
    expect(notices.body.items[0].body).toContain('vises på siden igen');
    expect((await outboxFor(server, advertiser.email)).some((m: { subject: string | null }) => m.subject?.includes('låst op'))).toBe(true);
  });
});

describe('loginhistories', () => {
  it('lists the sign-in attempts newest first, with the address and the outcome', async () => {
    const failed = await callApi(server.url, '/api/frontend/login', { body: { email: advertiser.email, password: 'not the password at all' } });
    expect(failed.status).toBe(401);
    const ok = await callApi(server.url, '/api/frontend/login', { body: { email: advertiser.email, password: advertiser.password } });
    expect(ok.status).toBe(200);
    const { status, body } = await supportApi('loginhistories', { query: { Id: advertiser.id } });
    expect(status).toBe(200);
    expect(body.total).toBe(2);
    const items = body.items as LoginHistoryItem[];
    expect(items.map((i) => i.success)).toEqual([true, false]);
    expect(items[0]!.ip).toBeTruthy();
    const paged = await supportApi('loginhistories', { query: { Id: advertiser.id, Skip: 1, Take: 1 } });
    expect((paged.body.items as LoginHistoryItem[]).map((i) => i.success)).toEqual([false]);
    const profile = await supportApi('profile', { query: { Id: advertiser.id } });
    expect(profile.body.account.lastLoginAt).not.toBeNull();
  });
});

describe('actionhistories: the audit log of the advert', () => {
  it('holds support, advertiser and system actions with before and after, newest first', async () => {
    // The advertiser closes and reopens the advert, and deletes a picture.
    expect((await backendApi('changeprofilestatus', { Status: 5 })).status).toBe(200);
    expect((await backendApi('changeprofilestatus', { Status: 1 })).status).toBe(200);
    const pictures = await backendApi('profilepictures');
    expect((await backendApi('deleteprofilepicture', { PictureId: pictures.body[1].id })).status).toBe(200);
    // The system locks it (as an automatic check would), and support unlocks it again.
    const [row] = await server.db.select().from(adverts).where(eq(adverts.id, advertiser.id));
    await changeAdvertStatus({ db: server.db, actor: SYSTEM, events: { publish: () => {} }, now: () => new Date() }, row!, 2, {
      action: 'advert.lock',
      extra: { statusReason: 'Automatisk kontrol.' },
      reason: 'Automatisk kontrol.',
    });
    expect((await supportApi('profilestatus', { body: { Id: advertiser.id, Status: 1, Reason: 'Kontrollen tog fejl.' } })).status).toBe(200);

    const items = await history();
    const times = items.map((i) => Date.parse(i.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const supportLock = items.find((i) => i.action === 'advert.lock' && i.actor.type === 'support')!;
    expect(supportLock).toMatchObject({ actor: { type: 'support', name: 'Karin Kontrol' }, targetType: 'advert', targetId: String(advertiser.id), before: { status: 1 }, after: { status: 2 } });
    expect(supportLock.reason).toContain('Billederne');
    expect(supportLock.ip).toBeTruthy();
    expect(items.some((i) => i.action === 'statement.issue' && i.actor.type === 'support')).toBe(true);

    const deactivate = items.find((i) => i.action === 'advert.deactivate')!;
    expect(deactivate).toMatchObject({ actor: { type: 'advertiser' }, before: { status: 1 }, after: { status: 5 } });
    expect(items.find((i) => i.action === 'picture.delete')).toMatchObject({ actor: { type: 'advertiser' }, targetType: 'picture', targetId: String(pictures.body[1].id) });
    expect(items.find((i) => i.action === 'account.sign_in')).toMatchObject({ actor: { type: 'advertiser' } });

    const systemLock = items.find((i) => i.action === 'advert.lock' && i.actor.type === 'system')!;
    expect(systemLock).toMatchObject({ before: { status: 1 }, after: { status: 2 }, reason: 'Automatisk kontrol.' });
    // Newest first: support's unlock after the system's lock.
    expect(items.findIndex((i) => i.reason === 'Kontrollen tog fejl.')).toBeLessThan(items.indexOf(systemLock));

    // Actions on other adverts are not in it.
    const other = await createAdvertiser(server.db, {});
    await callApi(server.url, '/api/support/profilestatus', { cookie: support.cookie, body: { Id: other.id, Status: 2, Rule: 'terms.spam', Reason: 'Anden annonce.' } });
    expect((await history()).some((i) => i.reason === 'Anden annonce.')).toBe(false);

    const page = await supportApi('actionhistories', { query: { Id: advertiser.id, Skip: 1, Take: 2 } });
    expect(page.body.items.map((i: ActionHistoryItem) => i.id)).toEqual(items.slice(1, 3).map((i) => i.id));
  });

  it('names support signed in as the advertiser (impersonation)', async () => {
    await server.db.insert(auditLog).values({ actorType: 'advertiser', actorId: advertiser.accountId, impersonatedBy: support.id, action: 'advert.holiday.set', targetType: 'advert', targetId: String(advertiser.id), before: { holidayUntil: null }, after: { holidayUntil: '2026-12-24' } });
    const [latest] = await history();
    expect(latest).toMatchObject({ action: 'advert.holiday.set', actor: { type: 'impersonation', name: 'Karin Kontrol' } });
  });

  it('no call edits or deletes audit entries', async () => {
    for (const path of ['actionhistories', 'removeactionhistory', 'updateactionhistory']) {
      const post = await supportApi(path, { body: { Id: advertiser.id } });
      expect(post.status, path).toBe(404);
    }
  });

  it('the database itself refuses to change or delete an audit entry (append-only)', async () => {
    const [entry] = await server.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog).limit(1);
    expect(entry).toBeDefined();
    // Drizzle reports the failed query; the database's refusal is its cause.
    const refusal = (query: Promise<unknown>) => query.then(() => 'allowed', (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message));
    expect(await refusal(server.db.update(auditLog).set({ reason: 'rewritten' }).where(eq(auditLog.id, entry!.id)))).toMatch(/append-only: UPDATE/);
    expect(await refusal(server.db.delete(auditLog).where(eq(auditLog.id, entry!.id)))).toMatch(/append-only: DELETE/);
    const [still] = await server.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.id, entry!.id));
    expect(still?.action).toBe(entry!.action);
  });
});

describe('media current and deleted', () => {
  it('lists the current pictures and the deleted one', async () => {
    const current = await supportApi('currentmedia', { query: { Id: advertiser.id } });
    expect(current.status).toBe(200);
    const media = current.body as AdvertMedia;
    expect(media.pictures).toHaveLength(1);
    expect(media.pictures[0]).toMatchObject({ moderation: 'approved', deletedAt: null, filesExist: true });
    expect(media.pictures[0]!.variants[0]!.url).toMatch(/^\/api\/support\/mediafile\/picture\//);
    const deleted = (await supportApi('deletedmedia', { query: { Id: advertiser.id } })).body as AdvertMedia;
    expect(deleted.pictures).toHaveLength(1);
    expect(deleted.pictures[0]!.deletedAt).not.toBeNull();
    // Its files are gone from storage, so no address is given.
    expect(deleted.pictures[0]).toMatchObject({ filesExist: false, variants: [] });
    expect(deleted.videos).toEqual([]);
    const profile = await supportApi('profile', { query: { Id: advertiser.id } });
    expect(profile.body.counts).toMatchObject({ pictures: 1, deletedMedia: 1 });
  });
});

describe('messages to the advertiser', () => {
  it('sends one text to both languages; it appears in the backend notifications and is audited', async () => {
    const sent = await supportApi('advertmessages', { body: { Id: advertiser.id, Title: 'Husk dine priser', Body: 'Din prisliste er tom.' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({ titleDa: 'Husk dine priser', titleEn: 'Husk dine priser', bodyDa: 'Din prisliste er tom.', read: false });
    const notices = await backendApi('notifications');
    expect(notices.body.items[0]).toMatchObject({ title: 'Husk dine priser', body: 'Din prisliste er tom.', read: false });
    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'notification.send'), eq(auditLog.targetId, String((sent.body as AdvertMessageItem).id))));
    expect(audit).toMatchObject({ actorType: 'support', actorId: support.id, targetType: 'notification' });
    expect((await history()).some((i) => i.action === 'notification.send')).toBe(true);
  });

  it('sends Danish and English texts; an English account reads the English one', async () => {
    await server.db.update(accounts).set({ locale: 'en' }).where(eq(accounts.id, advertiser.accountId));
    const sent = await supportApi('advertmessages', {
      body: { Id: advertiser.id, Title: 'Nye billeder', Body: 'Upload gerne nye billeder.', TitleEn: 'New pictures', BodyEn: 'Please upload new pictures.' },
    });
    expect(sent.status).toBe(201);
    const notices = await backendApi('notifications');
    expect(notices.body.items[0]).toMatchObject({ title: 'New pictures', body: 'Please upload new pictures.' });
    const list = await supportApi('advertmessages', { query: { Id: advertiser.id } });
    const items = list.body.items as AdvertMessageItem[];
    expect(items[0]).toMatchObject({ titleDa: 'Nye billeder', titleEn: 'New pictures' });
    // The lock's statement of reasons is among the messages too.
    expect(items.some((i) => i.titleDa === 'Din annonce er låst')).toBe(true);
    expect(list.body.total).toBe(items.length);
  });

  it('refuses a message without a title or body, or with half an English version (400 naming the fields)', async () => {
    const empty = await supportApi('advertmessages', { body: { Id: advertiser.id, Title: ' ', Body: '' } });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('Title');
    expect(JSON.stringify(empty.body)).toContain('Body');
    const half = await supportApi('advertmessages', { body: { Id: advertiser.id, Title: 'Hej', Body: 'Tekst', TitleEn: 'Hello' } });
    expect(half.status).toBe(400);
    expect(JSON.stringify(half.body)).toContain('BodyEn');
    expect((await supportApi('advertmessages', { body: { Id: 987_654, Title: 'Hej', Body: 'Tekst' } })).status).toBe(404);
  });
});

describe('reviews and reports of the advert', () => {
  it('lists every review, pending ones included', async () => {
    await server.db.insert(reviews).values([
      { advertId: advertiser.id, authorName: 'Bente', rating: 5, text: 'Meget venlig.', status: 1 },
      { advertId: advertiser.id, authorName: 'Carl', rating: 3, text: 'Venter på godkendelse.', status: 0 },
    ]);
    const { status, body } = await supportApi('advertreviews', { query: { Id: advertiser.id } });
    expect(status).toBe(200);
    const items = body as AdvertReviewItem[];
    expect(items.map((r) => [r.authorName, r.status]).sort()).toEqual([['Bente', 1], ['Carl', 0]]);
  });

  it('lists the reports about the advert, open and decided', async () => {
    const reported = await callApi(server.url, '/api/frontend/reportadvert', {
      body: { AdvertId: advertiser.id, Reason: 'fake', GoodFaith: true, Details: 'Billederne er fra nettet.', Name: 'Frida', Email: `frida-${unique}@example.test`, Url: `https://annonce.example.test/a/${advertiser.id}` },
    });
    expect(reported.status, JSON.stringify(reported.body)).toBe(201);
    const { status, body } = await supportApi('advertreports', { query: { Id: advertiser.id } });
    expect(status).toBe(200);
    expect(body as AdvertReportItem[]).toEqual([expect.objectContaining({ id: reported.body.id, reason: 'fake', status: 0, decision: null, reporterName: 'Frida' })]);
    const profile = await supportApi('profile', { query: { Id: advertiser.id } });
    expect(profile.body.counts).toMatchObject({ reviews: 2, pendingReviews: 1, reports: 1, openReports: 1 });
  });
});

describe('the account overview: sign-in locked out', () => {
  it('says until when sign-in is locked out from an address after five failures there (the lock is per address)', async () => {
    const before = await supportApi('profile', { query: { Id: advertiser.id } });
    expect(before.body.account.lockedUntil).toBeNull();
    const started = Date.now();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const failed = await postFrom(server, '127.0.0.9', '/api/frontend/login', { email: advertiser.email, password: 'not the password at all' });
      expect(failed.status).toBe(401);
    }
    const after = await supportApi('profile', { query: { Id: advertiser.id } });
    const until = Date.parse(after.body.account.lockedUntil as string);
    expect(until).toBeGreaterThanOrEqual(started + 15 * 60_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000);
    // The owner signs in from elsewhere all the same.
    expect((await callApi(server.url, '/api/frontend/login', { body: { email: advertiser.email, password: advertiser.password } })).status).toBe(200);
  });
});
