/**
 * Statements of reasons and appeals over real HTTP (issue 6, DSA): every decision that locks or declines
 * something of an advertiser's is a statement they read in the backend (statementsofreasons) and may
 * appeal once (appealstatement); the appeal lands in support's queue (appeals) and is decided by another
 * support user than the one who made the decision (decideappeal): reversed undoes it (an advert unlocked,
 * a declined picture approved), upheld keeps it; the advertiser is told either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { adverts, auditLog, pictures } from '#server/db/schema.ts';
import type { AppealItem, StatementOfReasons } from '#lib/schemas/moderation.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { outboxFor } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';

type Moderator = { id: number; name: string; cookie: string };
type Advertiser = { id: number; accountId: number; email: string; cookie: string };

let server: TestServer;
let first: Moderator;
let second: Moderator;
let seoCookie: string;

const supportApi = (path: string, cookie: string | undefined, options: { query?: Record<string, string | number>; body?: unknown } = {}) =>
  callApi(server.url, `/api/support/${path}`, { ...(cookie ? { cookie } : {}), ...options });
const backendApi = (path: string, cookie: string | undefined, body?: unknown) =>
  callApi(server.url, `/api/backend/${path}`, { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { body }) });
const fullProfile = (id: number) => callApi(server.url, '/api/frontend/fullprofile', { query: { Id: id } });
const fieldsOf = (body: { errors?: { field: string; message: string }[] }) => Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));

async function moderator(name: string): Promise<Moderator> {
  const user = await createSupportUserOverHttp(server, { permissions: ['Support'], name });
  return { id: user.id, name: user.name, cookie: await signInSupport(server, user) };
}

async function advertiser(name: string): Promise<Advertiser> {
  const created = await createAdvertiser(server.db, { name });
  return { id: created.id, accountId: created.accountId, email: created.email, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

/** `by` locks the advert through a report (the usual way a lock with a statement of reasons happens). */
async function lockThroughReport(advertId: number, by: Moderator): Promise<void> {
  const reported = await callApi(server.url, '/api/frontend/reportadvert', { body: { AdvertId: advertId, Reason: 'trafficking', GoodFaith: true } });
  expect(reported.status).toBe(201);
  const decided = await supportApi('decidecontentreport', by.cookie, {
    body: { Id: reported.body.id, Decision: 'lock-advert', Reason: 'Tegn på udnyttelse i teksten.', Rule: 'terms.trafficking' },
  });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
}

async function statementsOf(who: Advertiser): Promise<StatementOfReasons[]> {
  const { status, body } = await backendApi('statementsofreasons', who.cookie);
  expect(status).toBe(200);
  return body as StatementOfReasons[];
}

async function openAppeals(cookie = second.cookie): Promise<{ total: number; items: AppealItem[] }> {
  const { status, body } = await supportApi('appeals', cookie);
  expect(status).toBe(200);
  return body;
}

async function latestNotification(who: Advertiser, locale: 'da' | 'en' = 'da'): Promise<{ title: string; body: string; link: string | null }> {
  const { body } = await callApi(server.url, '/api/backend/notifications', { cookie: who.cookie, query: { Locale: locale } });
  return body.items[0];
}

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  first = await moderator('Første Moderator');
  second = await moderator('Anden Moderator');
  const seo = await createSupportUserOverHttp(server, { permissions: ['SEO'] });
  seoCookie = await signInSupport(server, seo);
});
afterAll(async () => {
  await server?.close();
});

describe('a locked advert: statement, appeal once, decided by another support user', () => {
  let locked: Advertiser;
  let bystander: Advertiser;
  let statementId: number;

  it('lists the statement for its advertiser only', async () => {
    locked = await advertiser('Låst Lise');
    bystander = await advertiser('Uberørt Ulla');
    await lockThroughReport(locked.id, first);

    const [statement, ...rest] = await statementsOf(locked);
    expect(rest).toEqual([]);
    expect(statement).toMatchObject({
      decision: 'advert.locked',
      what: 'Låst Lise',
      reason: 'Tegn på udnyttelse i teksten.',
      rule: 'terms.trafficking',
      appeal: null,
    });
    statementId = statement!.id;
    expect(await statementsOf(bystander)).toEqual([]);
  });

  it('appeals once: the text is checked, someone else cannot, a second appeal is refused', async () => {
    const short = await backendApi('appealstatement', locked.cookie, { Id: statementId, Text: 'Nej.' });
    expect(short.status).toBe(400);
    expect(fieldsOf(short.body)).toEqual({ Text: 'tooShort' });
    const missing = await backendApi('appealstatement', locked.cookie, {});
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual({ Id: 'required', Text: 'required' });
    const tooLong = await backendApi('appealstatement', locked.cookie, { Id: statementId, Text: 'x'.repeat(4001) });
    expect(fieldsOf(tooLong.body)).toEqual({ Text: 'tooLong' });

    const foreign = await backendApi('appealstatement', bystander.cookie, { Id: statementId, Text: 'Det er ikke min annonce, men alligevel.' });
    expect(foreign.status).toBe(404);

    const text = 'Teksten er misforstået; jeg arbejder selvstændigt og frivilligt.';
    const appealed = await backendApi('appealstatement', locked.cookie, { Id: statementId, Text: text });
    expect(appealed.status, JSON.stringify(appealed.body)).toBe(204);
    const again = await backendApi('appealstatement', locked.cookie, { Id: statementId, Text: `${text} Igen.` });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([{ field: 'Id', message: 'alreadyAppealed' }]);

    const [statement] = await statementsOf(locked);
    expect(statement!.appeal).toMatchObject({ text, decision: null, decidedAt: null, reason: null });
    expect(statement!.appeal!.appealedAt).toEqual(expect.any(String));
    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'statement.appeal'), eq(auditLog.targetId, String(statementId))));
    expect(audit).toMatchObject({ actorType: 'advertiser', actorId: locked.accountId });
  });

  it('lands in the appeals queue and the dashboard count, naming who made the decision', async () => {
    const queue = await openAppeals();
    expect(queue.total).toBe(1);
    expect(queue.items[0]).toMatchObject({
      id: statementId,
      advertId: locked.id,
      advertName: 'Låst Lise',
      decision: 'advert.locked',
      rule: 'terms.trafficking',
      decidedBy: { id: first.id, name: 'Første Moderator' },
      appealText: 'Teksten er misforstået; jeg arbejder selvstændigt og frivilligt.',
      appealDecision: null,
      appealDecidedAt: null,
    });
    const counts = await supportApi('pendingcounts', second.cookie);
    expect(counts.body.appeals).toEqual({ count: 1, oldest: queue.items[0]!.appealedAt });
  });

  it('the support user who made the decision may not decide the appeal', async () => {
    const refused = await supportApi('decideappeal', first.cookie, { body: { Id: statementId, Decision: 'reversed', Reason: 'Jeg tog fejl.' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.errors).toEqual([{ field: 'Id', message: 'sameModerator' }]);
    expect((await openAppeals()).total).toBe(1);
  });

  it('another support user reverses it: the advert is active again and the advertiser is told', async () => {
    expect((await fullProfile(locked.id)).status).toBe(410);
    const missing = await supportApi('decideappeal', second.cookie, { body: { Id: statementId, Decision: 'maybe' } });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual({ Decision: 'required', Reason: 'required' });

    const reason = 'Teksten beskriver selvstændigt arbejde.';
    const reversed = await supportApi('decideappeal', second.cookie, { body: { Id: statementId, Decision: 'reversed', Reason: reason } });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(204);

    const [advert] = await server.db.select().from(adverts).where(eq(adverts.id, locked.id));
    expect(advert).toMatchObject({ status: 1, statusReason: null });
    expect((await fullProfile(locked.id)).status).toBe(200);

    const note = await latestNotification(locked);
    expect(note.title).toBe('Din klage fik medhold');
    expect(note.body).toContain('Din annonce er låst op igen.');
    expect(note.body).toContain(reason);
    expect((await latestNotification(locked, 'en')).title).toBe('Your appeal was successful');
    const mails = await outboxFor(server, locked.email);
    expect(mails.at(-1)!.subject).toContain('Din klage fik medhold');

    const [statement] = await statementsOf(locked);
    expect(statement!.appeal).toMatchObject({ decision: 'reversed', reason });
    expect(statement!.appeal!.decidedAt).toEqual(expect.any(String));

    const again = await supportApi('decideappeal', second.cookie, { body: { Id: statementId, Decision: 'upheld', Reason: 'Alligevel ikke.' } });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([{ field: 'Id', message: 'alreadyDecided' }]);

    expect((await openAppeals()).total).toBe(0);
    const decided = await supportApi('appeals', second.cookie, { query: { Status: 'decided' } });
    expect(decided.body.items.map((item: AppealItem) => [item.id, item.appealDecision])).toEqual([[statementId, 'reversed']]);
    // One appeal by its id, decided: the outcome, its reason and who decided it.
    const one = await supportApi('appeal', second.cookie, { query: { Id: statementId } });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: statementId, appealDecision: 'reversed', appealReason: reason, appealDecidedBy: { id: second.id }, decidedBy: { id: first.id } });
    expect((await supportApi('pendingcounts', second.cookie)).body.appeals).toEqual({ count: 0, oldest: null });

    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'statement.appeal.decide'), eq(auditLog.targetId, String(statementId))));
    expect(audit).toMatchObject({ actorId: second.id, reason, after: { appealDecision: 'reversed', restored: 'advert.status.1' } });
  });

  it('upheld: the advert stays locked and the advertiser is told', async () => {
    const kept = await advertiser('Fastholdt Frida');
    await lockThroughReport(kept.id, first);
    const [statement] = await statementsOf(kept);
    expect((await backendApi('appealstatement', kept.cookie, { Id: statement!.id, Text: 'Jeg mener, afgørelsen er forkert.' })).status).toBe(204);
    const upheld = await supportApi('decideappeal', second.cookie, { body: { Id: statement!.id, Decision: 'upheld', Reason: 'Teksten taler for sig selv.' } });
    expect(upheld.status).toBe(204);
    const [advert] = await server.db.select().from(adverts).where(eq(adverts.id, kept.id));
    expect(advert!.status).toBe(2);
    expect((await fullProfile(kept.id)).status).toBe(410);
    const note = await latestNotification(kept, 'en');
    expect(note.title).toBe('Your appeal was not successful');
    expect(note.body).toContain('the decision stands');
    expect((await statementsOf(kept))[0]!.appeal).toMatchObject({ decision: 'upheld', reason: 'Teksten taler for sig selv.' });
  });

  it('unknown statements and statements without an appeal answer 404', async () => {
    expect((await supportApi('decideappeal', second.cookie, { body: { Id: 987_654, Decision: 'upheld', Reason: 'Ingen.' } })).status).toBe(404);
    const fresh = await advertiser('Uappelleret Ulrik');
    await lockThroughReport(fresh.id, first);
    const [statement] = await statementsOf(fresh);
    expect((await supportApi('decideappeal', second.cookie, { body: { Id: statement!.id, Decision: 'upheld', Reason: 'Ingen klage.' } })).status).toBe(404);
    expect((await supportApi('appeal', second.cookie, { query: { Id: statement!.id } })).status).toBe(404);
    expect((await supportApi('appeal', second.cookie, { query: { Id: 987_654 } })).status).toBe(404);
  });
});

describe('media: a declined picture is a statement; a reversed appeal approves it', () => {
  it('declines, appeals, reverses: the picture is approved; a removed one can only be uploaded again', async () => {
    const owner = await advertiser('Billed Birthe');
    const [declined, removed] = await server.db
      .insert(pictures)
      .values([
        { advertId: owner.id, storageKey: `pictures/${owner.id}/appeal-a`, width: 320, height: 427, moderationStatus: 0, sortOrder: 5 },
        { advertId: owner.id, storageKey: `pictures/${owner.id}/appeal-b`, width: 320, height: 427, moderationStatus: 0, sortOrder: 6 },
      ])
      .returning();
    const decline = await callApi(server.url, '/api/backend/declineimageitem', { cookie: first.cookie, body: { Id: declined!.id, Reason: 'Ansigtet er ikke til at se.' } });
    expect(decline.status).toBe(200);
    const remove = await callApi(server.url, '/api/backend/removeimageitem', { cookie: first.cookie, body: { Id: removed!.id, Reason: 'Viser en anden person.', Rule: 'terms.identity' } });
    expect(remove.status).toBe(200);

    const statements = await statementsOf(owner);
    expect(statements.map((s) => [s.decision, s.reason, s.rule])).toEqual([
      // Support named the rule for the removal; the decline rests on the content rule by default.
      ['picture.removed', 'Viser en anden person.', 'terms.identity'],
      ['picture.declined', 'Ansigtet er ikke til at se.', 'terms.content'],
    ]);
    const note = await latestNotification(owner);
    expect(note).toMatchObject({ title: 'Et billede blev fjernet', link: '/backend/pictures/' });
    expect(note.body).toContain('klage over afgørelsen én gang');
    const mail = (await outboxFor(server, owner.email)).at(-1)!;
    expect(mail.subject).toContain('Et billede blev fjernet');
    expect(mail.body).toContain('Viser en anden person.');
    expect(mail.body).not.toContain('Billed Birthe');

    for (const statement of statements) {
      expect((await backendApi('appealstatement', owner.cookie, { Id: statement.id, Text: 'Det er mit eget billede af mig.' })).status).toBe(204);
    }
    // Oldest appeal first: the removal was appealed first (the list of statements is newest first).
    expect((await openAppeals()).items.map((item) => item.decision)).toEqual(['picture.removed', 'picture.declined']);
    for (const statement of statements) {
      const reversed = await supportApi('decideappeal', second.cookie, { body: { Id: statement.id, Decision: 'reversed', Reason: 'Billedet er i orden.' } });
      expect(reversed.status, JSON.stringify(reversed.body)).toBe(204);
    }

    const own = await backendApi('profilepictures', owner.cookie);
    const listed = (own.body as { id: number; moderation: string }[]).map((p) => [p.id, p.moderation]);
    expect(listed).toContainEqual([declined!.id, 'approved']);
    expect(listed.map(([id]) => id)).not.toContain(removed!.id);
    const notes = (await callApi(server.url, '/api/backend/notifications', { cookie: owner.cookie })).body.items as { title: string; body: string }[];
    expect(notes.some((n) => n.body.includes('Billedet er godkendt og kan vises i din annonce.'))).toBe(true);
    expect(notes.some((n) => n.body.includes('Billedet kunne ikke gendannes, men du må gerne uploade det igen.'))).toBe(true);
  });
});

describe('backend calls: who may', () => {
  const NO_SUCH_ID = 987_654;
  const COLUMNS = ['visitor', 'advertiser', 'support cookie only'] as const;
  type Column = (typeof COLUMNS)[number];
  const rows: { call: string; path: string; body?: unknown; expected: Record<Column, number> }[] = [
    { call: 'statementsofreasons', path: 'statementsofreasons', expected: { visitor: 401, advertiser: 200, 'support cookie only': 401 } },
    {
      call: 'appealstatement (no such statement)',
      path: 'appealstatement',
      body: { Id: NO_SUCH_ID, Text: 'En klage over en afgørelse.' },
      expected: { visitor: 401, advertiser: 404, 'support cookie only': 401 },
    },
  ];

  it.each(rows)('$call', async (row) => {
    const owner = await advertiser('Tabel Tina');
    const cookies: Record<Column, string | undefined> = { visitor: undefined, advertiser: owner.cookie, 'support cookie only': second.cookie };
    const got: Partial<Record<Column, number>> = {};
    for (const column of COLUMNS) got[column] = (await backendApi(row.path, cookies[column], row.body)).status;
    expect(got).toEqual(row.expected);
  });

  it('the support calls of appeals: 401 without a session, 403 for SEO', async () => {
    expect((await supportApi('appeals', undefined)).status).toBe(401);
    expect((await supportApi('appeals', seoCookie)).status).toBe(403);
    expect((await supportApi('decideappeal', seoCookie, { body: { Id: NO_SUCH_ID, Decision: 'upheld', Reason: 'Nej.' } })).status).toBe(403);
  });
});
