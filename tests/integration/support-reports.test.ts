/**
 * Reports (notice and action) over real HTTP (issue 6): a visitor reports an advert from its public
 * profile (reportadvert); support lists open reports urgent first (contentreports), opens one (it becomes
 * In progress), and decides it (decidecontentreport): no action, or lock the advert, which sends the
 * advertiser a statement of reasons (notification and email) and takes the profile off the site. The
 * reporter, when they left an address, is told the outcome in general words. Time to decision is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, adverts, auditLog, statementsOfReasons } from '#server/db/schema.ts';
import type { ContentReportDetail, ContentReportItem } from '#lib/schemas/moderation.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { fieldErrors, outboxFor } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';

const MINUTE = 60_000;
let offsetMs = 0;
let server: TestServer;
let support: { id: number; name: string; cookie: string };
let seoCookie: string;

const supportApi = (path: string, options: { query?: Record<string, string | number>; body?: unknown; cookie?: string | undefined } = {}) =>
  callApi(server.url, `/api/support/${path}`, { cookie: support.cookie, ...options } as Parameters<typeof callApi>[2]);
const fullProfile = (id: number) => callApi(server.url, '/api/frontend/fullprofile', { query: { Id: id } });

/** A report through the public form; answers its id. */
async function report(advertId: number, reason: string, reporter: { Name?: string; Email?: string } = {}): Promise<number> {
  const { status, body } = await callApi(server.url, '/api/frontend/reportadvert', {
    body: { AdvertId: advertId, Reason: reason, GoodFaith: true, Details: 'Set på profilen i dag.', Url: `https://annonce.example.test/a/${advertId}`, ...reporter },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.id as number;
}

const reporter = (name: string) => ({ Name: name, Email: `${name.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test` });

async function openReports(): Promise<ContentReportItem[]> {
  const { status, body } = await supportApi('contentreports');
  expect(status).toBe(200);
  return body.items as ContentReportItem[];
}

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(Date.now() + offsetMs), app: { rateLimitScale: 50 } });
  const user = await createSupportUserOverHttp(server, { permissions: ['Support'], name: 'Karin Kontrol' });
  support = { id: user.id, name: user.name, cookie: await signInSupport(server, user) };
  const seo = await createSupportUserOverHttp(server, { permissions: ['SEO'] });
  seoCookie = await signInSupport(server, seo);
});
afterAll(async () => {
  await server?.close();
});

describe('reports: the queue and a decision', () => {
  let calm: Awaited<ReturnType<typeof createAdvertiser>>;
  let reported: Awaited<ReturnType<typeof createAdvertiser>>;
  const ids: Record<string, number> = {};
  const reporters: Record<string, { Name: string; Email: string }> = {};

  it('lists open reports urgent first, then oldest first, with the advert and its public page', async () => {
    calm = await createAdvertiser(server.db, { name: 'Rolig Rita' });
    reported = await createAdvertiser(server.db, { name: 'Anmeldt Anna' });
    reporters['spam'] = reporter('Sune');
    reporters['fake'] = reporter('Frida');
    reporters['minor'] = reporter('Mads');
    ids['spam'] = await report(calm.id, 'spam', reporters['spam']);
    ids['fake'] = await report(calm.id, 'fake', reporters['fake']);
    ids['consent'] = await report(reported.id, 'not-consensual', reporter('Karl'));
    ids['minor'] = await report(reported.id, 'minor', reporters['minor']);
    // Suspected trafficking may be reported anonymously: no address to answer.
    ids['anonymous'] = await report(reported.id, 'trafficking');

    const items = await openReports();
    expect(items.map((item) => item.id)).toEqual([ids['minor'], ids['anonymous'], ids['consent'], ids['spam'], ids['fake']]);
    expect(items.map((item) => item.priority)).toEqual([2, 2, 1, 0, 0]);
    const spam = items.find((item) => item.id === ids['spam'])!;
    expect(spam).toMatchObject({
      advertId: calm.id,
      advertName: 'Rolig Rita',
      advertUrl: `/annonce/rolig-rita-${calm.id}/`,
      reason: 'spam',
      status: 0,
      reporterName: 'Sune',
      reporterEmail: reporters['spam']!.Email,
      decidedAt: null,
    });
    expect(items.find((item) => item.id === ids['anonymous'])).toMatchObject({ reporterName: null, reporterEmail: null });

    const paged = await supportApi('contentreports', { query: { Skip: 1, Take: 2 } });
    expect(paged.body.total).toBe(5);
    expect(paged.body.items.map((item: ContentReportItem) => item.id)).toEqual([ids['anonymous'], ids['consent']]);
  });

  it('opening a new report marks it in progress, with its details and the other reports about the advert', async () => {
    const { status, body } = await supportApi('contentreport', { query: { Id: ids['spam']! } });
    expect(status).toBe(200);
    const detail = body as ContentReportDetail;
    expect(detail).toMatchObject({
      id: ids['spam'],
      status: 1,
      details: 'Set på profilen i dag.',
      url: `https://annonce.example.test/a/${calm.id}`,
      goodFaith: true,
      decision: null,
      decisionReason: null,
      rule: null,
      decidedBy: null,
      minutesToDecision: null,
      advert: { id: calm.id, name: 'Rolig Rita', status: 1, url: `/annonce/rolig-rita-${calm.id}/` },
      otherReports: 1,
    });
    expect((await openReports()).find((item) => item.id === ids['spam'])!.status).toBe(1);
    expect((await supportApi('contentreport', { query: { Id: 987_654 } })).status).toBe(404);
  });

  it('no action: the report leaves the open queue, the reporter is told, the advertiser gets no statement', async () => {
    offsetMs += 90 * MINUTE;
    const { status, body } = await supportApi('decidecontentreport', {
      body: { Id: ids['spam'], Decision: 'no-action', Reason: 'Annoncen overholder reglerne.' },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      id: ids['spam'],
      status: 3,
      decision: 'no-action',
      decisionReason: 'Annoncen overholder reglerne.',
      decidedBy: { id: support.id, name: 'Karin Kontrol' },
      minutesToDecision: 90,
    });
    expect(body.decidedAt).not.toBeNull();
    expect((await openReports()).map((item) => item.id)).not.toContain(ids['spam']);
    expect((await fullProfile(calm.id)).status).toBe(200);

    const [mail] = await outboxFor(server, reporters['spam']!.Email);
    expect(mail!.subject).toContain('Your report has been decided');
    expect(mail!.body).toContain('ikke grebet ind');
    expect(mail!.body).toContain('we have not taken action');
    expect(mail!.body).not.toContain('Rolig Rita');
    expect(mail!.body).not.toContain('Annoncen overholder reglerne.');

    const statements = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.advertId, calm.id));
    expect(statements).toEqual([]);
    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'report.decide'), eq(auditLog.targetId, String(ids['spam']))));
    expect(audit).toMatchObject({
      actorType: 'support',
      actorId: support.id,
      before: { status: 1, decision: null },
      after: { status: 3, decision: 'no-action', minutesToDecision: 90 },
      reason: 'Annoncen overholder reglerne.',
    });
  });

  it('refuses a decision without its fields, naming them', async () => {
    const noReason = await supportApi('decidecontentreport', { body: { Id: ids['minor'], Decision: 'lock-advert' } });
    expect(noReason.status).toBe(400);
    expect(noReason.headers.get('content-type')).toContain('application/problem+json');
    const fields = Object.fromEntries((noReason.body.errors as { field: string; message: string }[]).map((e) => [e.field, e.message]));
    expect(fields).toEqual({ Reason: 'required', Rule: 'required' });

    const wrong = await fetch(`${server.url}/api/support/decidecontentreport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: support.cookie },
      body: JSON.stringify({ Id: ids['minor'], Decision: 'ban', Reason: 'x'.repeat(2001), Rule: 'terms.unknown' }),
    });
    expect(wrong.status).toBe(400);
    expect(await fieldErrors(wrong)).toEqual({ Decision: 'required', Reason: 'tooLong', Rule: 'invalid' });
    expect((await supportApi('decidecontentreport', { body: {} })).status).toBe(400);
    // Nothing was decided by the refused calls.
    expect((await openReports()).map((item) => item.id)).toContain(ids['minor']);
  });

  it('lock the advert: off the site, a statement of reasons to the advertiser, the reporter told', async () => {
    await server.db.update(accounts).set({ locale: 'en' }).where(eq(accounts.id, reported.accountId));
    const { status, body } = await supportApi('decidecontentreport', {
      body: { Id: ids['minor'], Decision: 'lock-advert', Reason: 'Billederne tyder på en mindreårig.', Rule: 'terms.minors' },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      status: 2,
      decision: 'lock-advert',
      rule: 'terms.minors',
      advert: { id: reported.id, status: 2, url: null },
      advertUrl: null,
      otherReports: 2,
    });

    // The advert is locked as support's lock is: the profile answers 410 (the blocked page), status and reason stored.
    expect((await fullProfile(reported.id)).status).toBe(410);
    const [advert] = await server.db.select().from(adverts).where(eq(adverts.id, reported.id));
    expect(advert).toMatchObject({ status: 2, statusReason: 'Billederne tyder på en mindreårig.' });

    const statements = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.advertId, reported.id));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({
      accountId: reported.accountId,
      decision: 'advert.locked',
      what: 'Anmeldt Anna',
      reason: 'Billederne tyder på en mindreårig.',
      rule: 'terms.minors',
      createdBy: support.id,
    });

    // The advertiser reads it in the backend (their language) and gets it by email.
    const cookie = await advertiserSessionCookie(server.db, reported.accountId);
    const notes = await callApi(server.url, '/api/backend/notifications', { cookie });
    const note = notes.body.items[0];
    expect(note.title).toBe('Your advert was locked');
    expect(note.body).toContain('Reason: Billederne tyder på en mindreårig.');
    expect(note.body).toContain('Rule: No minors.');
    expect(note.body).toContain('appeal against the decision once from your dashboard');
    const danish = await callApi(server.url, '/api/backend/notifications', { cookie, query: { Locale: 'da' } });
    expect(danish.body.items[0].title).toBe('Din annonce er låst');
    const [mail] = await outboxFor(server, reported.email);
    expect(mail!.subject).toContain('Your advert was locked');
    expect(mail!.body).toContain('Reason: Billederne tyder på en mindreårig.');
    expect(mail!.body).toContain('/backend/');

    const [told] = await outboxFor(server, reporters['minor']!.Email);
    expect(told!.body).toContain('annoncen er fjernet fra siden');
    expect(told!.body).toContain('the advert has been removed from the site');
    expect(told!.body).not.toContain('Anmeldt Anna');
  });

  it('a second decision on the same report is refused; another report about a locked advert is decided without a second lock', async () => {
    const again = await supportApi('decidecontentreport', { body: { Id: ids['minor'], Decision: 'no-action', Reason: 'Igen.' } });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([{ field: 'Id', message: 'alreadyDecided' }]);

    const other = await supportApi('decidecontentreport', {
      body: { Id: ids['anonymous'], Decision: 'lock-advert', Reason: 'Samme annonce, allerede låst.', Rule: 'terms.trafficking' },
    });
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ status: 2, decision: 'lock-advert' });
    expect(await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.advertId, reported.id))).toHaveLength(1);
    const locks = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'advert.lock'), eq(auditLog.targetId, String(reported.id))));
    expect(locks).toHaveLength(1);
  });

  it('lists decided reports newest decision first, and all of them with the open ones first', async () => {
    const decided = await supportApi('contentreports', { query: { Status: 'decided' } });
    expect(decided.body.items.map((item: ContentReportItem) => item.id)).toEqual([ids['anonymous'], ids['minor'], ids['spam']]);
    const all = await supportApi('contentreports', { query: { Status: 'all' } });
    expect(all.body.total).toBe(5);
    expect(all.body.items.map((item: ContentReportItem) => item.id)).toEqual([ids['consent'], ids['fake'], ids['anonymous'], ids['minor'], ids['spam']]);
    const refused = await supportApi('contentreports', { query: { Status: 'closed', Take: 500 } });
    expect(refused.status).toBe(400);
    expect(Object.fromEntries((refused.body.errors as { field: string; message: string }[]).map((e) => [e.field, e.message]))).toEqual({
      Status: 'invalid',
      Take: 'range',
    });
  });
});

describe('reports: who may', () => {
  it('answers 401 without a session and 403 to SEO, for every report call', async () => {
    const calls = [
      { path: 'contentreports' },
      { path: 'contentreport', query: { Id: 1 } },
      { path: 'decidecontentreport', body: { Id: 1, Decision: 'no-action', Reason: 'Ingen grund.' } },
    ];
    for (const one of calls) {
      const visitor = await supportApi(one.path, { ...one, cookie: undefined });
      expect(visitor.status, one.path).toBe(401);
      const seo = await supportApi(one.path, { ...one, cookie: seoCookie });
      expect(seo.status, one.path).toBe(403);
      expect(seo.headers.get('content-type')).toContain('application/problem+json');
    }
    // An advertiser's session is not a support session.
    const advertiser = await createAdvertiser(server.db);
    const cookie = await advertiserSessionCookie(server.db, advertiser.accountId);
    expect((await supportApi('contentreports', { cookie })).status).toBe(401);
  });
});
