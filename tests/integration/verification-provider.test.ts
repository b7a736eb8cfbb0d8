/**
 * The age-verification provider over real HTTP (issue 6, issue 15; spec §3 Age-check result, §4 callback,
 * §7 ageestimation, checksession, yoticallback, updateidentification), driven through the built-in TEST
 * provider as a browser would: start, the hosted page, Pass → the browser is sent back with the session
 * id and a signed callback is recorded → checksession valid → updateidentification says it waits for
 * support: the advert is NOT verified, not public, no badge, and the check is in support's validation
 * queue marked TEST; support accepts it (allowed in tests) → verified, public, badge. Fail → a new
 * session's page to retry (three failures close the provider check); Cancel; forged callbacks refused;
 * a repeated callback changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, verifications } from '#server/db/schema.ts';
import { signAgeProviderBody, AGE_PROVIDER_SIGNATURE_HEADER } from '#server/api/backend-verification.ts';
import type { AgeCheckResult, AgeCheckStart } from '#lib/schemas/verification.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import type { ValidationDetail, ValidationItem } from '#lib/schemas/verification.ts';
import { createAdvertiser, advertiserSessionCookie } from '#tests/support/fixtures.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';
import { advertValidation, backendApi, newAdvertiser, supportApi, type Advertiser } from './verification-helpers.ts';

const SECRET = 'test-age-provider-secret-0123456789';
let server: TestServer;
let supportCookie: string;

beforeAll(async () => {
  server = await startTestServer({ app: { ageProviderSecret: SECRET } });
  supportCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'], name: 'Sara Support' }));
});
afterAll(async () => {
  await server?.close();
});

async function start(who: Advertiser): Promise<AgeCheckStart> {
  const started = await backendApi(server, 'ageestimation', who.cookie, { body: {} });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body as AgeCheckStart;
}

/** Presses a button on the provider's page (a form post, as the browser sends it); answers the redirect. */
async function press(uri: string, outcome: 'pass' | 'fail' | 'cancel'): Promise<Response> {
  const page = new URL(new URL(uri).pathname, server.url);
  return fetch(page, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
}

async function check(who: Advertiser, sessionId: string): Promise<AgeCheckResult> {
  const checked = await backendApi(server, 'checksession', who.cookie, { query: { SessionId: sessionId } });
  expect(checked.status, JSON.stringify(checked.body)).toBe(200);
  return checked.body as AgeCheckResult;
}

/** An advertiser whose advert support has approved (Active) but who is not verified: not public yet. */
async function approvedUnverified(name: string): Promise<Advertiser> {
  const created = await createAdvertiser(server.db, { name, status: 1, ageVerifiedAt: null });
  return { advertId: created.id, accountId: created.accountId, name, email: created.email, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

/** The public profile (the site build's call): 404 while the advert is not public. */
const publicProfile = (advertId: number) => fetch(`${server.url}/api/frontend/fullprofile?Id=${advertId}`);

async function queueItemOf(advertId: number): Promise<ValidationItem | undefined> {
  const queue = await supportApi(server, 'validations', supportCookie, { query: { Take: 200 } });
  expect(queue.status).toBe(200);
  return (queue.body.items as ValidationItem[]).find((item) => item.advertId === advertId);
}

function callback(body: unknown, signature?: string): Promise<Response> {
  const text = JSON.stringify(body);
  return fetch(`${server.url}/api/backend/yoticallback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { [AGE_PROVIDER_SIGNATURE_HEADER]: signature }) },
    body: text,
  });
}

describe('the test provider', () => {
  it('passes: the hosted page, the redirect back, the signed callback, checksession valid; the advert waits for support, not public, no badge, until support accepts', async () => {
    const who = await approvedUnverified('Tina Test');
    expect((await publicProfile(who.advertId)).status).toBe(404);
    const { sessionId, uri } = await start(who);
    expect(uri).toBe(`http://localhost:3000/test-age-provider/${sessionId}`);

    const page = await fetch(new URL(new URL(uri).pathname, server.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    for (const words of ['TEST', 'Pass (over 18)', 'Fail (under 18)', 'Cancel', 'Bestået (over 18)', 'Ikke bestået (under 18)', 'Annullér', 'no age is checked here']) {
      expect(html).toContain(words);
    }
    expect(html).toContain('lang="da"');
    expect(html).toContain('lang="en"');
    // Not running in production: no production warning on the page.
    expect(html).not.toContain('data-production-test');

    const back = await press(uri, 'pass');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`http://localhost:3000/backend/callback-age-verification/?sessionId=${sessionId}`);
    // The callback has been recorded: the provider's result is on the row, which waits for support.
    const [row] = await server.db.select().from(verifications).where(eq(verifications.providerSessionId, sessionId));
    expect(row).toMatchObject({ method: 'provider', provider: 'test', status: 1, decidedBy: null, decidedAt: null });
    expect(row!.submittedAt).toBeInstanceOf(Date);
    expect(row!.providerResult).toMatchObject({ status: 'passed', ageOver18: true, providerStatus: 'TEST' });
    expect(await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'advert.age_verified'), eq(auditLog.targetId, String(who.advertId))))).toHaveLength(0);

    expect(await check(who, sessionId)).toEqual({ valid: true, uri: null });
    const identified = await backendApi(server, 'updateidentification', who.cookie, { body: { ProfileId: who.advertId } });
    expect(identified.status).toBe(200);
    expect(identified.body).toEqual({ validationStatus: 1, ageVerifiedAt: null, waitingForSupport: true });
    // Not verified by the check alone: validation Pending, no age verification, not public, no badge.
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 1, ageVerifiedAt: null });
    expect((await publicProfile(who.advertId)).status).toBe(404);
    const state = await backendApi(server, 'validationpicture', who.cookie);
    expect(state.body).toMatchObject({ state: 'pending', onlineCheck: true });

    // In support's queue, marked as the TEST provider's, with its result.
    const item = await queueItemOf(who.advertId);
    expect(item).toMatchObject({ method: 'provider', status: 1, provider: { name: 'test', test: true, mayVerify: true, status: 'passed', ageOver18: true } });
    const detail = await supportApi(server, 'validation', supportCookie, { query: { Id: item!.id } });
    expect((detail.body as ValidationDetail).provider).toMatchObject({ test: true, providerStatus: 'TEST' });

    // Support accepts (allowed outside production): verified, public, with the badge.
    const accepted = await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: item!.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 2, ageVerifiedAt: expect.any(Date) });
    const profile = await publicProfile(who.advertId);
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { validated: boolean }).validated).toBe(true);
    expect(await queueItemOf(who.advertId)).toBeUndefined();

    expect(await check(who, sessionId)).toEqual({ valid: true, uri: null });
    expect((await backendApi(server, 'updateidentification', who.cookie, { body: { ProfileId: who.advertId } })).body).toMatchObject({
      validationStatus: 2,
      waitingForSupport: false,
    });
    // Verified: nothing more to start, and the page's button cannot change it again.
    expect((await backendApi(server, 'ageestimation', who.cookie, { body: {} })).status).toBe(409);
    expect((await press(uri, 'fail')).status).toBe(303);
    expect(await check(who, sessionId)).toEqual({ valid: true, uri: null });
    // Another advert's id, or another advertiser's session: 404.
    expect((await backendApi(server, 'updateidentification', who.cookie, { body: { ProfileId: who.advertId + 100_000 } })).status).toBe(404);
    const other = await newAdvertiser(server, 'Anden Annoncør');
    expect((await backendApi(server, 'checksession', other.cookie, { query: { SessionId: sessionId } })).status).toBe(404);
    expect((await backendApi(server, 'checksession', undefined, { query: { SessionId: sessionId } })).status).toBe(401);
  });

  it('fails (under 18): nothing changes on the advert, checksession gives a new session to retry; three failures close the provider check', async () => {
    const who = await newAdvertiser(server);
    let { sessionId, uri } = await start(who);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await press(uri, 'fail')).status).toBe(303);
      const result = await check(who, sessionId);
      expect(result.valid).toBe(false);
      expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 0, ageVerifiedAt: null });
      if (attempt < 3) {
        expect(result.uri).toMatch(/^http:\/\/localhost:3000\/test-age-provider\/test-/);
        expect(result.uri).not.toBe(uri);
        // Asking again gives the same retry session, not another one.
        expect((await check(who, sessionId)).uri).toBe(result.uri);
        uri = result.uri!;
        sessionId = uri.split('/').at(-1)!;
      } else {
        expect(result.uri).toBeNull();
      }
    }
    const refused = await backendApi(server, 'ageestimation', who.cookie, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([{ field: 'SessionId', message: 'tooManyAttempts' }]);
    const failures = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'verification.provider_failed'), eq(auditLog.actorType, 'system')));
    expect(failures.filter((f) => (f.after as { advertId: number }).advertId === who.advertId)).toHaveLength(3);
    expect(
      await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'verification.provider_locked'), eq(auditLog.targetId, String(who.accountId)))),
    ).toHaveLength(1);
  });

  it('cancel: not valid, a new session to retry, and it does not count as a failure', async () => {
    const who = await newAdvertiser(server);
    const { sessionId, uri } = await start(who);
    expect((await press(uri, 'cancel')).headers.get('location')).toContain(`sessionId=${sessionId}`);
    const result = await check(who, sessionId);
    expect(result.valid).toBe(false);
    expect(result.uri).not.toBeNull();
    const [row] = await server.db.select().from(verifications).where(eq(verifications.providerSessionId, sessionId));
    expect(row).toMatchObject({ status: 3, reason: 'cancelled' });
    // Still running (nobody pressed anything): not valid, back to the same page.
    const next = result.uri!.split('/').at(-1)!;
    expect(await check(who, next)).toEqual({ valid: false, uri: result.uri });
  });

  it('with two instances (the same secret, one database), the page opens and decides on the instance that did not start the session', async () => {
    const other = await startTestServer({ shareDatabaseOf: server, app: { ageProviderSecret: SECRET } });
    const stranger = await startTestServer({ shareDatabaseOf: server, app: { ageProviderSecret: 'another-instance-secret-0123456789' } });
    try {
      const who = await newAdvertiser(server);
      const { sessionId, uri } = await start(who);
      const path = new URL(uri).pathname;
      // An instance with another secret does not know it (nor a session id changed by a character).
      expect((await fetch(new URL(path, stranger.url))).status).toBe(404);
      const changed = path.replace('/test-e', '/test-f');
      expect(changed).not.toBe(path);
      expect((await fetch(new URL(changed, other.url))).status).toBe(404);
      const page = await fetch(new URL(path, other.url));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Bestået (over 18)');
      const back = await fetch(new URL(path, other.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ outcome: 'pass' }).toString(),
        redirect: 'manual',
      });
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(`http://localhost:3000/backend/callback-age-verification/?sessionId=${sessionId}`);
      const [row] = await server.db.select().from(verifications).where(eq(verifications.providerSessionId, sessionId));
      expect(row).toMatchObject({ method: 'provider', provider: 'test', status: 1 });
      expect(row!.providerResult).toMatchObject({ status: 'passed', ageOver18: true, providerStatus: 'TEST' });
      expect(await check(who, sessionId)).toEqual({ valid: true, uri: null });
    } finally {
      await other.close();
      await stranger.close();
    }
  });
});

describe('the signed callback (yoticallback)', () => {
  it('refuses a forged or unsigned callback (401), records a signed one once, and answers 404 for an unknown session', async () => {
    const who = await newAdvertiser(server);
    const { sessionId } = await start(who);
    const body = { sessionId, status: 'passed', ageOver18: true };

    expect((await callback(body)).status).toBe(401);
    expect((await callback(body, signAgeProviderBody(JSON.stringify(body), 'not-the-secret-at-all'))).status).toBe(401);
    expect((await callback(body, 'sha256=' + '0'.repeat(64))).status).toBe(401);
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 0 });

    const signed = signAgeProviderBody(JSON.stringify(body), SECRET);
    expect((await callback(body, signed)).status).toBe(200);
    expect((await callback(body, signed)).status).toBe(200);
    // A later, different result for the same session changes nothing either.
    const failed = { sessionId, status: 'failed', ageOver18: false };
    expect((await callback(failed, signAgeProviderBody(JSON.stringify(failed), SECRET))).status).toBe(200);
    // Recorded once, waiting for support: not verified.
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 1, ageVerifiedAt: null });
    const [row] = await server.db.select().from(verifications).where(eq(verifications.providerSessionId, sessionId));
    expect(row).toMatchObject({ status: 1 });
    const recorded = await server.db.select().from(auditLog).where(eq(auditLog.action, 'verification.provider_passed'));
    expect(recorded.filter((r) => (r.after as { advertId: number }).advertId === who.advertId)).toHaveLength(1);

    const unknown = { sessionId: 'test-unknown', status: 'passed', ageOver18: true };
    expect((await callback(unknown, signAgeProviderBody(JSON.stringify(unknown), SECRET))).status).toBe(404);
  });
});
