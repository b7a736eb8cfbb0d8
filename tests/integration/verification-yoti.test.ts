/**
 * The Yoti age-estimation provider (AGE_PROVIDER=yoti; docs/decisions/019-test-providers-and-yoti.md)
 * over real HTTP against a local stand-in of Yoti's age verification API (tests/support/yoti-stand-in.ts),
 * in production mode: the session is created with Yoti's auth headers and body, the browser goes to
 * Yoti's user view, Yoti's signed notification is recorded (a forged or unsigned one refused, a duplicate
 * changing nothing), a lost notification is made up for by fetching the result, a failed estimation
 * counts as a failure, Yoti's errors and timeouts give the advertiser a retryable 503, and a passed check
 * waits for support, who may accept a real provider's result in production.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { generateKeyPairSync } from 'node:crypto';
import { auditLog, verifications } from '#server/db/schema.ts';
import type { ValidationItem } from '#lib/schemas/verification.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { startYotiStandIn, type YotiStandIn } from '#tests/support/yoti-stand-in.ts';
import { createYotiAgeProvider } from '#server/adapters/age-verification/yoti-age-provider.ts';
import { AgeProviderUnavailableError } from '#server/adapters/types.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';
import { advertValidation, backendApi, newAdvertiser, startAgeCheck, supportApi, type Advertiser } from './verification-helpers.ts';

let yoti: YotiStandIn;
let server: TestServer;
let supportCookie: string;

beforeAll(async () => {
  yoti = await startYotiStandIn();
  server = await startTestServer({
    app: {
      environment: 'production',
      ageProvider: { kind: 'yoti', sdkId: yoti.sdkId, apiKey: yoti.apiKey, apiUrl: yoti.apiUrl, publicKeyPem: yoti.publicKeyPem, ageThreshold: 25, timeoutMs: 1500 },
    },
  });
  supportCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'], name: 'Sara Support' }));
});
afterAll(async () => {
  await server?.close();
  await yoti?.close();
});

const callbackUrl = () => `${server.url}/api/backend/yoticallback`;
const rowOf = async (sessionId: string) => (await server.db.select().from(verifications).where(eq(verifications.providerSessionId, sessionId)))[0]!;
const check = (who: Advertiser, sessionId: string) => backendApi(server, 'checksession', who.cookie, { query: { SessionId: sessionId } });

describe('Yoti age estimation', () => {
  it('creates the session with Yoti auth headers and body, and sends the browser to Yoti’s user view', async () => {
    const who = await newAdvertiser(server, 'Yrsa Yoti');
    const before = yoti.requests.length;
    const { sessionId, uri } = await startAgeCheck(server, who);
    const [request] = yoti.requests.slice(before);
    expect(request).toMatchObject({ method: 'POST', path: '/api/v1/sessions' });
    expect(request!.headers['authorization']).toBe(`Bearer ${yoti.apiKey}`);
    expect(request!.headers['yoti-sdk-id']).toBe(yoti.sdkId);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toMatchObject({
      type: 'OVER',
      age_estimation: { allowed: true, threshold: 25, level: 'PASSIVE' },
      digital_id: { allowed: false },
      doc_scan: { allowed: false },
      callback: { auto: true, url: 'http://localhost:3000/backend/callback-age-verification/' },
      notification_url: 'http://localhost:3000/api/backend/yoticallback',
      reference_id: `account-${who.accountId}`,
    });
    expect(yoti.sessions.has(sessionId)).toBe(true);
    expect(uri).toBe(`${yoti.url}/?sessionId=${sessionId}&sdkId=${yoti.sdkId}`);
    expect(await rowOf(sessionId)).toMatchObject({ method: 'provider', provider: 'yoti', status: 0 });
    // Still running at Yoti: not valid, back to the same page.
    expect((await check(who, sessionId)).body).toEqual({ valid: false, uri });
  });

  it('records a signed notification once: the check waits for support, a duplicate changes nothing, forged or unsigned ones are refused', async () => {
    const who = await newAdvertiser(server, 'Signe Signeret');
    const { sessionId } = await startAgeCheck(server, who);
    yoti.finish(sessionId, 'COMPLETE');

    // Forged: the state changed after signing; unsigned; signed by another key.
    expect(await yoti.notify(sessionId, callbackUrl(), { tamper: { session_key: sessionId, state: 'COMPLETE', age: 99 } })).toBe(401);
    expect(await yoti.notify(sessionId, callbackUrl(), { signature: '' })).toBe(401);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { createSign, constants } = await import('node:crypto');
    const note = yoti.notification(sessionId);
    const { signature: _s, sequence_number: _n, ...payload } = note;
    const forged = createSign('sha256')
      .update(JSON.stringify(payload).replace(/\s/g, ''))
      .sign({ key: other.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING }, 'base64');
    expect(await yoti.notify(sessionId, callbackUrl(), { signature: forged })).toBe(401);
    const unsigned = await fetch(callbackUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect(unsigned.status).toBe(401);
    expect((await rowOf(sessionId)).status).toBe(0);

    expect(await yoti.notify(sessionId, callbackUrl())).toBe(200);
    const row = await rowOf(sessionId);
    expect(row).toMatchObject({ status: 1, provider: 'yoti', decidedAt: null });
    expect(row.providerResult).toMatchObject({ status: 'passed', ageOver18: true, providerStatus: 'COMPLETE', method: 'AGE_ESTIMATION', threshold: 25 });
    // A duplicate (Yoti retries until acknowledged) changes nothing.
    expect(await yoti.notify(sessionId, callbackUrl())).toBe(200);
    const passed = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'verification.provider_passed'), eq(auditLog.targetId, String(row.id))));
    expect(passed).toHaveLength(1);

    // Waiting for support, not verified by Yoti alone.
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 1, ageVerifiedAt: null });
    expect((await check(who, sessionId)).body).toEqual({ valid: true, uri: null });
    expect((await backendApi(server, 'updateidentification', who.cookie, { body: { ProfileId: who.advertId } })).body).toEqual({
      validationStatus: 1,
      ageVerifiedAt: null,
      waitingForSupport: true,
    });
    // Support sees Yoti's result (not a TEST one) and may accept it in production.
    const queue = await supportApi(server, 'validations', supportCookie, { query: { Take: 200 } });
    const item = (queue.body.items as ValidationItem[]).find((i) => i.id === row.id);
    expect(item?.provider).toMatchObject({ name: 'yoti', test: false, mayVerify: true, providerStatus: 'COMPLETE' });
    expect((await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: row.id } })).status).toBe(200);
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 2, ageVerifiedAt: expect.any(Date) });
  });

  it('a lost notification: checksession fetches the result; the late notification then changes nothing', async () => {
    const who = await newAdvertiser(server, 'Lise Langsom');
    const { sessionId } = await startAgeCheck(server, who);
    yoti.finish(sessionId, 'COMPLETE');
    const before = yoti.requests.length;
    expect((await check(who, sessionId)).body).toEqual({ valid: true, uri: null });
    const [fetched] = yoti.requests.slice(before);
    expect(fetched).toMatchObject({ method: 'GET', path: `/api/v1/sessions/${sessionId}/result` });
    expect(fetched!.headers['authorization']).toBe(`Bearer ${yoti.apiKey}`);
    expect(fetched!.headers['yoti-sdk-id']).toBe(yoti.sdkId);
    expect(await rowOf(sessionId)).toMatchObject({ status: 1 });

    expect(await yoti.notify(sessionId, callbackUrl())).toBe(200);
    const row = await rowOf(sessionId);
    expect(row.status).toBe(1);
    expect(await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'verification.provider_passed'), eq(auditLog.targetId, String(row.id))))).toHaveLength(1);
  });

  it('a failed estimation (not over the threshold) counts as a failure and offers a new session; an error does not count', async () => {
    const who = await newAdvertiser(server, 'Frida Fejl');
    const { sessionId } = await startAgeCheck(server, who);
    yoti.finish(sessionId, 'FAIL');
    expect(await yoti.notify(sessionId, callbackUrl())).toBe(200);
    expect(await rowOf(sessionId)).toMatchObject({ status: 3, reason: 'under18', decidedBy: null });
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 0, ageVerifiedAt: null });
    const retry = await check(who, sessionId);
    expect(retry.body.valid).toBe(false);
    expect(retry.body.uri).toMatch(new RegExp(`^${yoti.url}/\\?sessionId=`));

    const next = new URL(retry.body.uri as string).searchParams.get('sessionId')!;
    yoti.finish(next, 'ERROR');
    expect((await check(who, next)).body.valid).toBe(false);
    expect(await rowOf(next)).toMatchObject({ status: 3, reason: 'cancelled' });
  });

  it('the stand-in refuses a wrong SDK id (401) or API key (403), as Yoti does: the provider reports it unavailable', async () => {
    const options = { apiUrl: yoti.apiUrl, publicKeyPem: yoti.publicKeyPem, ageThreshold: 25, notificationUrl: 'http://localhost:3000/api/backend/yoticallback' };
    for (const [sdkId, apiKey, status] of [
      ['00000000-0000-4000-8000-000000000000', yoti.apiKey, 401],
      [yoti.sdkId, 'not-the-key', 403],
    ] as const) {
      const before = yoti.requests.length;
      const provider = createYotiAgeProvider({ ...options, sdkId, apiKey });
      await expect(provider.startSession({ accountId: 1, returnUrl: 'http://localhost:3000/backend/callback-age-verification/' })).rejects.toThrow(
        new AgeProviderUnavailableError(`Yoti answered ${status} to POST /sessions`),
      );
      expect(yoti.requests.length).toBe(before + 1);
    }
  });

  it('Yoti answering errors or not at all: a retryable 503 providerUnavailable, and the next try works', async () => {
    const who = await newAdvertiser(server, 'Tove Timeout');
    for (const status of [500, 502, 403]) {
      yoti.failNext(1, status);
      const refused = await backendApi(server, 'ageestimation', who.cookie, { body: {} });
      expect(refused.status).toBe(503);
      expect(refused.body.errors).toEqual([{ field: 'SessionId', message: 'providerUnavailable' }]);
    }
    yoti.hangNext(1);
    const started = Date.now();
    const timedOut = await backendApi(server, 'ageestimation', who.cookie, { body: {} });
    expect(timedOut.status).toBe(503);
    expect(timedOut.body.errors).toEqual([{ field: 'SessionId', message: 'providerUnavailable' }]);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Nothing half-made: no row for the failed tries.
    expect(await server.db.select().from(verifications).where(eq(verifications.accountId, who.accountId))).toHaveLength(0);

    const { sessionId } = await startAgeCheck(server, who);
    yoti.failNext(1, 503);
    const unavailable = await check(who, sessionId);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.errors).toEqual([{ field: 'SessionId', message: 'providerUnavailable' }]);
    expect((await check(who, sessionId)).body).toMatchObject({ valid: false });
  });
});
