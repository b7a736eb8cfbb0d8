/**
 * Support's validation queue over real HTTP (issue 6; spec §6 Support: validation, §7 validation
 * accept/decline/reject): the queue flagged first (ordered before paging), then oldest first, with risk signals, one verification with the advert's
 * data beside the files, private files opened by Support only (each opening audited), accept, decline
 * (a statement of reasons; the advertiser may upload again), reject (final; the advert locked), 409
 * alreadyDecided, and the files deleted 30 days after the decision with the record kept.
 */
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { accounts, adverts, auditLog, notifications, statementsOfReasons, verifications } from '#server/db/schema.ts';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { SYSTEM } from '#server/domain/context.ts';
import { deleteExpiredVerificationFiles } from '#server/domain/verification/delete-verification-files.ts';
import type { ValidationDetail, ValidationItem } from '#lib/schemas/verification.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';
import {
  advertValidation,
  backendApi,
  documentJpeg,
  newAdvertiser,
  submitDocuments,
  supportApi,
  uploadVerification,
  type Advertiser,
} from './verification-helpers.ts';

const DAY = 86_400_000;
let server: TestServer;
let supportCookie: string;
let seoCookie: string;

beforeAll(async () => {
  server = await startTestServer();
  supportCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'], name: 'Sara Support' }));
  seoCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['SEO'] }));
});
afterAll(async () => {
  await server?.close();
});

const fieldsOf = (body: { errors?: { field: string; message: string }[] }) => Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));

async function submittedVerification(name: string): Promise<{ who: Advertiser; id: number }> {
  const who = await newAdvertiser(server, name);
  await submitDocuments(server, who);
  const [row] = await server.db.select().from(verifications).where(eq(verifications.advertId, who.advertId)).orderBy(desc(verifications.id)).limit(1);
  return { who, id: row!.id };
}

async function pendingQueue(): Promise<{ total: number; items: ValidationItem[] }> {
  const queue = await supportApi(server, 'validations', supportCookie, { query: { Take: 200 } });
  expect(queue.status).toBe(200);
  return queue.body;
}

const reasonOf = (rule = 'terms.identity') => ({ Reason: 'Billedet af dokumentet kan ikke læses.', Rule: rule });

describe('the queue and one verification', () => {
  it('lists complete verifications flagged first (before paging), then oldest first, with risk signals, and shows one with the advert data and its files', async () => {
    const first = await submittedVerification('Første Annonce');
    const second = await submittedVerification('Anden Annonce');
    // Not complete yet: not in the queue.
    const collecting = await newAdvertiser(server, 'Kun Dokument');
    expect((await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), cookie: collecting.cookie })).status).toBe(200);
    // The second advertiser's date of birth says under 18: a risk signal (it never decides alone).
    await server.db.update(accounts).set({ dateOfBirth: `${new Date().getUTCFullYear() - 16}-01-01` }).where(eq(accounts.id, second.who.accountId));
    // The review's signals count too: the test advertisers share one phone number, except the first.
    await server.db.update(adverts).set({ phone: '29876501' }).where(eq(adverts.id, first.who.advertId));

    const queue = await pendingQueue();
    const ids = queue.items.map((item) => item.id);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    // The second is newer but flagged: it comes first, and every flagged item before any unflagged one.
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const flags = queue.items.map((i) => i.risk.length > 0);
    expect(flags).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
    // Ordered before paging: the first page of one holds a flagged item even though older unflagged ones wait.
    const [top] = (await supportApi(server, 'validations', supportCookie, { query: { Take: 1 } })).body.items as ValidationItem[];
    expect(top!.risk.length).toBeGreaterThan(0);
    expect(queue.items.some((item) => item.advertId === collecting.advertId)).toBe(false);
    expect(queue.total).toBe(queue.items.length);
    const item = queue.items.find((i) => i.id === second.id)!;
    expect(item).toMatchObject({ advertId: second.who.advertId, advertName: 'Anden Annonce', accountEmail: second.who.email, method: 'document', status: 1, decidedAt: null });
    expect(item.risk).toContain('under18ByDateOfBirth');
    expect(item.risk).toContain('samePhone');
    expect(queue.items.find((i) => i.id === first.id)!.risk).toEqual([]);

    const detail = await supportApi(server, 'validation', supportCookie, { query: { Id: first.id } });
    expect(detail.status).toBe(200);
    const shown = detail.body as ValidationDetail;
    expect(shown.advert).toMatchObject({ id: first.who.advertId, name: 'Første Annonce', age: 30, city: 'København', phone: '29876501' });
    expect(shown.files.map((f) => f.kind)).toEqual(['document', 'selfie']);
    expect(shown.files[0]!.url).toBe(`/api/support/validationfile?Id=${first.id}&Kind=document`);
    // An incomplete verification cannot be opened by support.
    const [open] = await server.db.select().from(verifications).where(eq(verifications.advertId, collecting.advertId));
    expect((await supportApi(server, 'validation', supportCookie, { query: { Id: open!.id } })).status).toBe(404);
  });

  it('opens a file for Support only, never cached, and audits every opening', async () => {
    const { id } = await submittedVerification('Fil Annonce');
    const opened = async () => {
      const response = await fetch(`${server.url}/api/support/validationfile?Id=${id}&Kind=selfie`, { headers: { cookie: supportCookie } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    };
    await opened();
    await opened();
    const audits = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'validation.file_opened'), eq(auditLog.targetId, String(id))));
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({ actorType: 'support', after: { kind: 'selfie' } });

    expect((await fetch(`${server.url}/api/support/validationfile?Id=${id}&Kind=selfie`, { headers: { cookie: seoCookie } })).status).toBe(403);
    expect((await fetch(`${server.url}/api/support/validationfile?Id=${id}&Kind=selfie`)).status).toBe(401);
    expect((await supportApi(server, 'validations', seoCookie)).status).toBe(403);
    expect((await supportApi(server, 'validations', undefined)).status).toBe(401);
    expect((await fetch(`${server.url}/api/support/validationfile?Id=${id}&Kind=video`, { headers: { cookie: supportCookie } })).status).toBe(404);
  });
});

describe('decisions', () => {
  it('accepts: the advert is verified and the advertiser told; deciding again is 409 alreadyDecided', async () => {
    const { who, id } = await submittedVerification('Godkendt Annonce');
    const accepted = await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: id } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id, status: 2, decidedBy: { name: 'Sara Support' }, decidedAt: expect.any(String) });
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 2, ageVerifiedAt: expect.any(Date) });
    const [notice] = await server.db.select().from(notifications).where(eq(notifications.accountId, who.accountId)).orderBy(desc(notifications.id)).limit(1);
    expect(notice).toMatchObject({ titleDa: 'Din identitet er bekræftet', titleEn: 'Your identity is verified' });

    for (const [route, body] of [['acceptvalidation', { Id: id }], ['declinevalidation', { Id: id, ...reasonOf() }], ['rejectvalidation', { Id: id, ...reasonOf() }]] as const) {
      const again = await supportApi(server, route, supportCookie, { body });
      expect(again.status, route).toBe(409);
      expect(fieldsOf(again.body)).toEqual({ Id: 'alreadyDecided' });
    }
    // Verified: no new uploads.
    const upload = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), cookie: who.cookie });
    expect(upload.status).toBe(409);
    expect(fieldsOf(await upload.json())).toEqual({ Kind: 'alreadyVerified' });
    expect((await backendApi(server, 'validationpicture', who.cookie)).body.state).toBe('validated');
  });

  it('declines with a reason and a rule: a statement of reasons, the advertiser sees why and may upload again', async () => {
    const { who, id } = await submittedVerification('Afvist Annonce');
    const missing = await supportApi(server, 'declinevalidation', supportCookie, { body: { Id: id } });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual({ Reason: 'required', Rule: 'required' });

    const declined = await supportApi(server, 'declinevalidation', supportCookie, { body: { Id: id, ...reasonOf() } });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: 3, reason: 'Billedet af dokumentet kan ikke læses.', rule: 'terms.identity' });
    expect((await advertValidation(server, who.advertId)).validationStatus).toBe(3);
    const [statement] = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.accountId, who.accountId));
    expect(statement).toMatchObject({ decision: 'verification.declined', what: 'Afvist Annonce', rule: 'terms.identity', targetId: id });
    const statements = await backendApi(server, 'statementsofreasons', who.cookie);
    expect(statements.body[0]).toMatchObject({ decision: 'verification.declined', reason: 'Billedet af dokumentet kan ikke læses.' });
    expect((await backendApi(server, 'validationpicture', who.cookie)).body).toMatchObject({ state: 'declined', reason: 'Billedet af dokumentet kan ikke læses.' });

    // A new attempt: a new verification, the declined one kept as it was.
    await submitDocuments(server, who);
    expect((await backendApi(server, 'validationpicture', who.cookie)).body.state).toBe('pending');
    const rows = await server.db.select().from(verifications).where(eq(verifications.advertId, who.advertId));
    expect(rows.map((r) => r.status).sort()).toEqual([1, 3]);
    expect((await pendingQueue()).items.find((i) => i.advertId === who.advertId)!.risk).toContain('declinedBefore');
  });

  it('rejects for good: the advert is locked, a statement of reasons, no new uploads', async () => {
    const { who, id } = await submittedVerification('Låst Annonce');
    const rejected = await supportApi(server, 'rejectvalidation', supportCookie, { body: { Id: id, ...reasonOf('terms.minors') } });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 4, rule: 'terms.minors' });
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 4, status: 2, ageVerifiedAt: null });
    const [statement] = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.accountId, who.accountId));
    expect(statement).toMatchObject({ decision: 'verification.rejected', rule: 'terms.minors' });
    const locks = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'advert.lock'), eq(auditLog.targetId, String(who.advertId))));
    expect(locks).toHaveLength(1);
    const upload = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), cookie: who.cookie });
    expect(fieldsOf(await upload.json())).toEqual({ Kind: 'verificationRejected' });
    expect((await backendApi(server, 'ageestimation', who.cookie, { body: {} })).status).toBe(409);
  });

  it('an appeal against a rejection, reversed by another support user: the verification counts and the advert is unlocked', async () => {
    const { who, id } = await submittedVerification('Klagende Annonce');
    expect((await supportApi(server, 'rejectvalidation', supportCookie, { body: { Id: id, ...reasonOf('terms.identity') } })).status).toBe(200);
    const [statement] = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.accountId, who.accountId));
    const appealed = await backendApi(server, 'appealstatement', who.cookie, { body: { Id: statement!.id, Text: 'Dokumentet er mit eget og gyldigt.' } });
    expect(appealed.status).toBe(204);

    const other = await createSupportUserOverHttp(server, { permissions: ['Support'] });
    const otherCookie = await signInSupport(server, other);
    const reversed = await supportApi(server, 'decideappeal', otherCookie, { body: { Id: statement!.id, Decision: 'reversed', Reason: 'Dokumentet er gyldigt.' } });
    expect(reversed.status).toBe(204);

    // Never approved by support before: unlocked to New (it waits for review), and verified.
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 2, status: 0 });
    expect((await advertValidation(server, who.advertId)).ageVerifiedAt).not.toBeNull();
    const [row] = await server.db.select().from(verifications).where(eq(verifications.id, id));
    expect(row!.status).toBe(2);
    expect((await backendApi(server, 'validationpicture', who.cookie)).body.state).toBe('validated');
    const [notice] = await server.db.select().from(notifications).where(eq(notifications.accountId, who.accountId)).orderBy(desc(notifications.id)).limit(1);
    expect(notice!.bodyDa).toContain('Din verifikation er godkendt.');
    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'validation.reverse'), eq(auditLog.targetId, String(id))));
    expect(audit).toMatchObject({ actorId: other.id, after: { status: 2, advertUnlocked: true } });
  });
});

describe('files 30 days after the decision', () => {
  it('deletes the files (the daily job) and keeps the record: who, when, outcome, method', async () => {
    const { who, id } = await submittedVerification('Gammel Annonce');
    expect((await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: id } })).status).toBe(200);
    const [decided] = await server.db.select().from(verifications).where(eq(verifications.id, id));
    const folder = path.join(server.dataDir, 'media', 'private', 'verifications', String(who.accountId), String(id));
    expect(await readdir(folder)).toHaveLength(2);
    const storage = createLocalStorage(path.join(server.dataDir, 'media'));
    const runJob = (days: number) =>
      deleteExpiredVerificationFiles({ db: server.db, actor: SYSTEM, events: { publish: () => {} }, now: () => new Date(Date.now() + days * DAY) }, storage);

    // 29 days on: nothing yet.
    await runJob(29);
    expect(await readdir(folder)).toHaveLength(2);
    expect((await server.db.select().from(verifications).where(eq(verifications.id, id)))[0]!.filesDeletedAt).toBeNull();

    // 31 days on: the files are gone, the record stays.
    expect(await runJob(31)).toBeGreaterThanOrEqual(1);
    for (const file of decided!.files) {
      await expect(access(path.join(server.dataDir, 'media', 'private', file.key))).rejects.toThrow();
    }
    const [kept] = await server.db.select().from(verifications).where(eq(verifications.id, id));
    expect(kept).toMatchObject({ status: 2, method: 'document', decidedBy: decided!.decidedBy, files: [], filesDeletedAt: expect.any(Date) });
    expect(kept!.decidedAt).toEqual(decided!.decidedAt);

    const detail = await supportApi(server, 'validation', supportCookie, { query: { Id: id } });
    expect(detail.body).toMatchObject({ status: 2, method: 'document', files: [], filesDeletedAt: expect.any(String), decidedBy: { name: 'Sara Support' } });
    expect((await fetch(`${server.url}/api/support/validationfile?Id=${id}&Kind=document`, { headers: { cookie: supportCookie } })).status).toBe(404);
    expect((await backendApi(server, 'validationpicture', who.cookie)).body).toMatchObject({ state: 'validated', document: null, selfie: null });
    const audits = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'verification.files_deleted'), eq(auditLog.targetId, String(id))));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorType).toBe('system');
  });
});
