/**
 * A deleted account's personal data is erased after the 30-day restore window, by the durable job
 * `account.erasure`, which also removes sign-ups never confirmed (docs/decisions/024), and the advertiser
 * can download their data (issue 15 item 7; docs/decisions/023-erasure-and-data-export.md). The server's
 * clock is moved to pass the window.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  accounts,
  adverts,
  auditLog,
  jobs,
  loginEvents,
  migratedAdverts,
  news,
  newsReads,
  notifications,
  outboxMessages,
  pictures,
  priceListItems,
  statementsOfReasons,
} from '#server/db/schema.ts';
import type { PictureUploadAnswer } from '#lib/schemas/media.ts';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { createSession } from '#server/domain/accounts/sessions.ts';
import { sessionCookieName } from '#server/api/http.ts';
import { enqueueJob, startWorker } from '#server/jobs/queue.ts';
import { ACCOUNT_ERASURE_QUEUE, accountErasureHandler } from '#server/jobs/account-erasure-job.ts';
import { findLegacyRoute, listLegacyRedirects } from '#server/domain/search/advert-route.ts';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { twoTone, uploadFiles } from './pictures-helpers.ts';
import { GOOD_PASSWORD, createProfileOverHttp, profileInput, signUpOverHttp } from './accounts-helpers.ts';

const DAY = 86_400_000;
let clock = new Date();
let server: TestServer;
let supportCookie: string;

type Owner = { id: number; accountId: number; email: string; password: string; cookie: string };

async function advertiser(name: string, phone: string): Promise<Owner> {
  const created = await createAdvertiser(server.db, { name, pictureCount: 0, phone });
  await server.db.update(accounts).set({ phone }).where(eq(accounts.id, created.accountId));
  return { ...created, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

async function uploadAndApprove(owner: Owner): Promise<number> {
  const bytes = await (await twoTone(600, 400)).jpeg().toBuffer();
  const response = await uploadFiles(server.url, '/api/backend/profilepictureuploader', [{ name: 'p.jpg', type: 'image/jpeg', bytes }], owner.cookie);
  const [result] = ((await response.json()) as PictureUploadAnswer).results;
  if (!result?.ok) throw new Error('upload refused');
  expect((await callApi(server.url, '/api/backend/approveimageitem', { cookie: supportCookie, body: { Id: result.picture.id } })).status).toBe(200);
  return result.picture.id;
}

/** Runs the erasure job as the server's worker does: queued in the database, claimed and run by a worker. */
async function runErasureJob(): Promise<void> {
  const log = pino({ level: 'silent' });
  const storage = createLocalStorage(path.join(server.dataDir, 'media'));
  await server.db.delete(jobs).where(eq(jobs.queue, ACCOUNT_ERASURE_QUEUE));
  await enqueueJob(server.db, ACCOUNT_ERASURE_QUEUE, {}, { singletonKey: ACCOUNT_ERASURE_QUEUE });
  const worker = startWorker({
    db: server.db,
    log,
    pollMs: 50,
    handlers: { [ACCOUNT_ERASURE_QUEUE]: accountErasureHandler({ db: server.db, storage, events: { publish: () => {} }, log, now: () => clock }) },
  });
  worker.poke();
  try {
    await vi.waitFor(
      async () => {
        const rows = await server.db.select().from(jobs).where(eq(jobs.queue, ACCOUNT_ERASURE_QUEUE));
        if (!rows.some((row) => row.status === 'done')) throw new Error('not done yet');
        expect(rows.some((row) => row.status === 'failed')).toBe(false);
        // The next run is queued a day later.
        expect(rows.some((row) => row.status === 'queued' && row.runAt.getTime() > clock.getTime())).toBe(true);
      },
      { timeout: 30_000, interval: 100 },
    );
  } finally {
    await worker.stop();
  }
}

async function filesNamed(part: string): Promise<string[]> {
  const found: string[] = [];
  for (const area of ['public', 'private']) {
    try {
      const files = await readdir(path.join(server.dataDir, 'media', area), { recursive: true });
      found.push(...files.map(String).filter((file) => file.includes(part)).map((file) => `${area}/${file}`));
    } catch {
      // no such area yet
    }
  }
  return found;
}

beforeAll(async () => {
  server = await startTestServer({ now: () => clock, app: { rateLimitScale: 20 } });
  supportCookie = await signIn(server, 'support', server.admin);
});
afterAll(async () => {
  await server?.close();
});

describe('erasure after the restore window', () => {
  it('within the 30 days the job erases nothing and the owner can still restore', async () => {
    clock = new Date();
    const owner = await advertiser('Stays', '+4520000001');
    expect((await callApi(server.url, '/api/backend/deleteuser', { cookie: owner.cookie, body: { Password: owner.password } })).status).toBe(204);
    clock = new Date(Date.now() + 29 * DAY);
    await runErasureJob();
    const [row] = await server.db.select().from(accounts).where(eq(accounts.id, owner.accountId));
    expect(row).toMatchObject({ email: owner.email, erasedAt: null });
    const restored = await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: owner.email, Password: owner.password } });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
  });

  it('after the 30 days the job leaves no personal data: rows, files, sign-ins, outbox, audit entries', async () => {
    clock = new Date();
    const owner = await advertiser('Mette Erasure', '+4520000002');
    const pictureId = await uploadAndApprove(owner);
    const [pictureRow] = await server.db.select().from(pictures).where(eq(pictures.id, pictureId));
    const uuid = pictureRow!.storageKey.split('/').at(-1)!;
    expect((await filesNamed(uuid)).length).toBeGreaterThan(0);
    await server.db.insert(priceListItems).values({ advertId: owner.id, durationMinutes: 60, incallPriceOre: 150_000 });
    // A sign-in, a reset email, a notification and a statement of reasons (a declined picture) to remember them by.
    expect((await callApi(server.url, '/api/frontend/login', { body: { email: owner.email, password: owner.password } })).status).toBe(200);
    expect((await callApi(server.url, '/api/frontend/resetpassword', { body: { Email: owner.email } })).status).toBe(204);
    const second = await uploadAndApprove(owner);
    expect((await callApi(server.url, '/api/backend/declineimageitem', { cookie: supportCookie, body: { Id: second, Reason: 'Utydeligt billede.' } })).status).toBe(200);
    expect((await server.db.select().from(loginEvents).where(eq(loginEvents.accountId, owner.accountId))).length).toBeGreaterThan(0);
    // A news item read on the dashboard (which news they read is theirs too).
    const [item] = await server.db.insert(news).values({ locale: 'da', title: 'Nyhed til sletning', body: 'Tekst.', publishedAt: new Date(Date.now() - DAY) }).returning();
    expect((await callApi(server.url, '/api/backend/readnews', { cookie: owner.cookie, body: { Id: item!.id } })).status).toBe(200);
    expect(await server.db.select().from(newsReads).where(eq(newsReads.accountId, owner.accountId))).toHaveLength(1);

    expect((await callApi(server.url, '/api/backend/deleteuser', { cookie: owner.cookie, body: { Password: owner.password } })).status).toBe(204);
    // A failed restore is audited with the email it was tried with.
    expect((await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: owner.email, Password: 'wrong-password-1' } })).status).toBe(401);
    const mentions = sql`position(${owner.email} in coalesce(${auditLog.before}::text, '') || coalesce(${auditLog.after}::text, '')) > 0`;
    expect((await server.db.select().from(auditLog).where(mentions)).length).toBeGreaterThan(0);

    clock = new Date(Date.now() + 31 * DAY);
    await runErasureJob();

    const [account] = await server.db.select().from(accounts).where(eq(accounts.id, owner.accountId));
    expect(account!.erasedAt).not.toBeNull();
    expect(account!.email).not.toBe(owner.email);
    expect(account!.phone).toBeNull();
    expect(account!.dateOfBirth).toBeNull();
    const [advert] = await server.db.select().from(adverts).where(eq(adverts.id, owner.id));
    expect(advert).toMatchObject({ phone: null, title: '', description: '', website: null });
    expect(advert!.name).not.toContain('Mette');

    // No row anywhere names the email, the phone or the name.
    for (const needle of [owner.email, '+4520000002', 'Mette Erasure']) {
      const hits = await server.db.execute(sql`
        select 'accounts' from accounts where email = ${needle} or phone = ${needle}
        union all select 'adverts' from adverts where name = ${needle} or phone = ${needle}
        union all select 'login_events' from login_events where email = ${needle}
        union all select 'outbox' from outbox_messages where recipient = ${needle} or position(${needle} in body) > 0
        union all select 'audit' from audit_log where position(${needle} in coalesce(before::text, '') || coalesce(after::text, '') || coalesce(reason, '')) > 0
        union all select 'statements' from statements_of_reasons where position(${needle} in what) > 0`);
      const rows = (hits as { rows?: unknown[] }).rows ?? (hits as unknown as unknown[]);
      expect(rows, needle).toEqual([]);
    }
    expect(await server.db.select().from(loginEvents).where(eq(loginEvents.accountId, owner.accountId))).toEqual([]);
    expect(await server.db.select().from(newsReads).where(eq(newsReads.accountId, owner.accountId))).toEqual([]);
    expect(await server.db.select().from(pictures).where(eq(pictures.advertId, owner.id))).toEqual([]);
    expect(await server.db.select().from(priceListItems).where(eq(priceListItems.advertId, owner.id))).toEqual([]);
    expect(await server.db.select().from(notifications).where(eq(notifications.accountId, owner.accountId))).toEqual([]);
    // Files, private and public, originals included.
    expect(await filesNamed(uuid)).toEqual([]);

    // The audit entries stay (who did what, when), without their personal content.
    const about = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'account'), eq(auditLog.targetId, String(owner.accountId))));
    expect(about.some((entry) => entry.action === 'account.delete')).toBe(true);
    expect(about.some((entry) => entry.action === 'account.erased' && entry.actorType === 'system')).toBe(true);
    for (const entry of about.filter((e) => e.action !== 'account.erased')) {
      expect([null, JSON.stringify({ erased: true })]).toContain(entry.after === null ? null : JSON.stringify(entry.after));
      expect(entry.ip).toBeNull();
    }
    // The statement of reasons is kept for the DSA, anonymised.
    const statements = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.accountId, owner.accountId));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ decision: 'picture.declined', reason: 'Utydeligt billede.', what: '' });

    // The account cannot be signed in to or restored any more.
    expect((await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: owner.email, Password: owner.password } })).status).toBe(401);

    // Repeating the job changes nothing and fails nothing.
    await runErasureJob();
    const erasedEntries = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'account.erased'), inArray(auditLog.targetId, [String(owner.accountId)])));
    expect(erasedEntries).toHaveLength(1);
  });

  it("forgets the old site's advert the account claimed too: its import keeps only its old id and state (issue 30)", async () => {
    clock = new Date();
    const owner = await advertiser('Lærke Import', '+4520000003');
    const oldId = 700_000 + Math.floor(Math.random() * 100_000);
    const [imported] = await server.db
      .insert(migratedAdverts)
      .values({
        oldId,
        state: 'claimed',
        kind: 0,
        name: 'Lærke Import',
        oldSlug: 'laerke-import-aalborg',
        email: owner.email,
        phone: '+4520000003',
        data: { title: 'Lærkes gamle annonce', description: 'En neutral tekst fra den gamle side.' },
        accountId: owner.accountId,
        advertId: owner.id,
        claimedAt: clock,
      })
      .returning();
    await server.db.insert(auditLog).values({ actorType: 'support', action: 'migration.invite', targetType: 'migrated_advert', targetId: String(imported!.id), after: { email: owner.email } });

    expect((await callApi(server.url, '/api/backend/deleteuser', { cookie: owner.cookie, body: { Password: owner.password } })).status).toBe(204);
    clock = new Date(Date.now() + 31 * DAY);
    await runErasureJob();

    const [row] = await server.db.select().from(migratedAdverts).where(eq(migratedAdverts.id, imported!.id));
    expect(row).toMatchObject({ oldId, state: 'claimed', name: '', oldSlug: '', email: null, phone: null, data: {}, pictures: [] });
    // The old address answers Gone by its id, and the public redirect list no longer names it.
    expect(await findLegacyRoute(server.db, oldId, clock)).toEqual({ state: 'gone' });
    expect((await listLegacyRedirects(server.db, clock)).filter((entry) => entry.fromPath.includes(`--${oldId}.html`))).toEqual([]);
    const [entry] = await server.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'migrated_advert'), eq(auditLog.targetId, String(imported!.id))));
    expect(entry!.after).toEqual({ erased: true });
  });

  it('the audit log still refuses any other change, even to an erased entry', async () => {
    const [entry] = await server.db.select().from(auditLog).limit(1);
    const refusal = async (query: PromiseLike<unknown>) => {
      try {
        await query;
        return 'allowed';
      } catch (error) {
        return String((error as { cause?: unknown }).cause ?? error);
      }
    };
    expect(await refusal(server.db.update(auditLog).set({ ip: null, before: null }).where(eq(auditLog.id, entry!.id)))).toMatch(/append-only/);
    await server.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('app.audit_erasure', 'on', true)`);
      expect(await refusal(tx.update(auditLog).set({ action: 'rewritten' }).where(eq(auditLog.id, entry!.id)))).toMatch(/append-only/);
    }).catch(() => {});
    expect(await refusal(server.db.delete(auditLog).where(eq(auditLog.id, entry!.id)))).toMatch(/append-only/);
  });
});

describe('sign-ups never confirmed (docs/decisions/024)', () => {
  it('the job removes them once their last link is a week expired, files and all; confirmed, recent and re-sent sign-ups stay', async () => {
    clock = new Date();
    // A stale sign-up, with a picture uploaded during /create.
    const bytes = await (await twoTone(600, 400)).jpeg().toBuffer();
    const upload = await uploadFiles(server.url, '/api/frontend/profilepictureuploadertemp', [{ name: 'p.jpg', type: 'image/jpeg', bytes }]);
    const uploadCookie = upload.headers.getSetCookie().find((c) => c.startsWith('upload_token='))!.split(';')[0]!;
    const stale = await signUpOverHttp(server, { Name: 'Glemt Tilmelding', Phone: '20000005' }, { cookie: uploadCookie });
    const [staleAccount] = await server.db.select().from(accounts).where(eq(accounts.email, stale.email));
    const [stalePicture] = await server.db.select().from(pictures).innerJoin(adverts, eq(pictures.advertId, adverts.id)).where(eq(adverts.accountId, staleAccount!.id));
    const uuid = stalePicture!.pictures.storageKey.split('/').at(-1)!;
    expect((await filesNamed(uuid)).length).toBeGreaterThan(0);
    const confirmed = await createProfileOverHttp(server);
    const resent = await signUpOverHttp(server);

    // Six days on: the re-sent one gets a fresh link (signed up again), and a new one arrives.
    clock = new Date(Date.now() + 6 * DAY);
    expect((await callApi(server.url, '/api/frontend/createprofile', { body: await profileInput(server, { Email: resent.email }) })).status).toBe(202);
    const recent = await signUpOverHttp(server);

    // Eight days and an hour after the stale sign-up: its link expired more than seven days ago.
    clock = new Date(Date.now() + 8 * DAY + 3_600_000);
    await runErasureJob();

    const [gone] = await server.db.select().from(accounts).where(eq(accounts.id, staleAccount!.id));
    expect(gone).toMatchObject({ phone: null, dateOfBirth: null, activatedAt: null });
    expect(gone!.erasedAt).toBeInstanceOf(Date);
    expect(gone!.deletedAt).toBeInstanceOf(Date);
    expect(gone!.email).not.toBe(stale.email);
    const [goneAdvert] = await server.db.select().from(adverts).where(eq(adverts.accountId, staleAccount!.id));
    expect(goneAdvert).toMatchObject({ status: 3, name: 'Slettet', phone: null });
    expect(await filesNamed(uuid)).toEqual([]);
    expect(await server.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, stale.email))).toEqual([]);
    const expired = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'account.sign_up_expired'), eq(auditLog.targetId, String(staleAccount!.id))));
    expect(expired).toEqual([expect.objectContaining({ actorType: 'system' })]);

    // Nothing else: the confirmed account, the re-sent and the recent sign-ups are as they were.
    for (const email of [confirmed.email, resent.email, recent.email]) {
      const [kept] = await server.db.select().from(accounts).where(eq(accounts.email, email));
      expect(kept, email).toMatchObject({ deletedAt: null, erasedAt: null });
    }
    expect((await callApi(server.url, '/api/frontend/login', { body: { email: confirmed.email, password: GOOD_PASSWORD } })).status).toBe(200);

    // The address is free again: signing up with it makes a new, unconfirmed account.
    await signUpOverHttp(server, { Email: stale.email });
    const [again] = await server.db.select().from(accounts).where(eq(accounts.email, stale.email));
    expect(again!.id).not.toBe(staleAccount!.id);
  });
});

describe('the data download (GDPR art. 15 and 20)', () => {
  it('answers the owner their data as a JSON file; nobody else, and not support signed in as them', async () => {
    clock = new Date();
    const owner = await advertiser('Karen Export', '+4520000003');
    const other = await advertiser('Lise Other', '+4520000004');
    await uploadAndApprove(owner);
    await server.db.insert(priceListItems).values({ advertId: owner.id, durationMinutes: 30, incallPriceOre: 90_000 });

    const response = await fetch(`${server.url}/api/backend/dataexport`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="annonce-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const data = (await response.json()) as {
      account: { email: string; phone: string };
      adverts: { id: number; name: string; prices: { durationMinutes: number }[]; pictures: { files: { url: string; publicUrl: string | null }[] }[] }[];
      signIns: unknown[];
      notifications: unknown[];
      statementsOfReasons: unknown[];
    };
    expect(data.account).toMatchObject({ email: owner.email, phone: '+4520000003' });
    expect(data.adverts[0]).toMatchObject({ id: owner.id, name: 'Karen Export' });
    expect(data.adverts[0]!.prices).toEqual([expect.objectContaining({ durationMinutes: 30 })]);
    expect(data.adverts[0]!.pictures[0]!.files[0]!.url).toMatch(/^\/api\/backend\/mediafile\/picture\//);
    expect(data.adverts[0]!.pictures[0]!.files[0]!.publicUrl).toMatch(/^\/media\/pictures\//);
    expect(Array.isArray(data.signIns)).toBe(true);
    expect(JSON.stringify(data)).not.toContain(other.email);
    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'account.export'), eq(auditLog.targetId, String(owner.accountId))));
    expect(audit).toMatchObject({ actorType: 'advertiser', actorId: owner.accountId });

    // Without a session: 401. Another advertiser gets only their own data.
    expect((await fetch(`${server.url}/api/backend/dataexport`)).status).toBe(401);
    const theirs = await (await fetch(`${server.url}/api/backend/dataexport`, { headers: { cookie: other.cookie } })).json();
    expect(JSON.stringify(theirs)).not.toContain(owner.email);
    expect(theirs.account.email).toBe(other.email);

    // Support signed in as the advertiser may not take the data.
    const [support] = await server.db.execute(sql`select id from support_users limit 1`).then((r) => ((r as { rows?: { id: number }[] }).rows ?? (r as unknown as { id: number }[])));
    const session = await createSession(server.db, { accountId: owner.accountId }, { days: 1, now: clock, impersonatedBy: support!.id });
    const impersonated = await fetch(`${server.url}/api/backend/dataexport`, { headers: { cookie: `${sessionCookieName('advertiser', false)}=${session.token}` } });
    expect(impersonated.status).toBe(403);
  });
});
