/**
 * Built-in TEST providers never verify anyone in production (issue 15, item 1; docs/decisions/019-test-providers-and-yoti.md):
 * a server running with NODE_ENV=production and the operator's ALLOW_TEST_PROVIDERS consent (`production`)
 * shows on the test provider's page that it is a test installation, puts a passed test check in
 * support's queue marked TEST and not acceptable, refuses `acceptvalidation` (409 testProviderResult),
 * and an appeal's reversal of its decline does not verify either. Without a provider (AGE_PROVIDER=none)
 * the online check is not offered: ageestimation 409 onlineCheckNotOffered, the backend's state says so,
 * the test provider's page and the callback are not there. (The start refusal itself: main-process.test.ts
 * and tests/unit/config.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { statementsOfReasons, verifications } from '#server/db/schema.ts';
import type { ValidationItem } from '#lib/schemas/verification.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';
import { advertValidation, backendApi, newAdvertiser, pressTestProvider, startAgeCheck, supportApi } from './verification-helpers.ts';

describe('production with test providers allowed', () => {
  let server: TestServer;
  let supportCookie: string;
  beforeAll(async () => {
    server = await startTestServer({ app: { environment: 'production', ageProvider: { kind: 'test' } } });
    supportCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'], name: 'Sara Support' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a passed test check waits for support marked TEST, cannot be accepted, and its decline reversed on appeal verifies nothing', async () => {
    const who = await newAdvertiser(server, 'Prod Test');
    const { sessionId, uri } = await startAgeCheck(server, who);
    const html = await (await fetch(new URL(new URL(uri).pathname, server.url))).text();
    expect(html).toContain('data-production-test');
    expect(html).toContain('A TEST result can never verify anyone here.');
    expect(html).toContain('Et TEST-resultat kan aldrig bekræfte nogen her.');

    expect((await pressTestProvider(server, uri, 'pass')).status).toBe(303);
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 1, ageVerifiedAt: null });
    const [row] = await server.db.select().from(verifications).where(eq(verifications.providerSessionId, sessionId));

    const queue = await supportApi(server, 'validations', supportCookie, { query: { Take: 200 } });
    const item = (queue.body.items as ValidationItem[]).find((i) => i.id === row!.id);
    expect(item?.provider).toMatchObject({ name: 'test', test: true, mayVerify: false });

    const accepted = await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: row!.id } });
    expect(accepted.status).toBe(409);
    expect(accepted.body.errors).toEqual([{ field: 'Id', message: 'testProviderResult' }]);
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 1, ageVerifiedAt: null });
    // Still waiting: support declines it instead.
    const declined = await supportApi(server, 'declinevalidation', supportCookie, {
      body: { Id: row!.id, Reason: 'Et TEST-resultat er ikke et alderstjek.', Rule: 'terms.identity' },
    });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(await advertValidation(server, who.advertId)).toMatchObject({ validationStatus: 3, ageVerifiedAt: null });

    // An appeal reversed by another support user does not verify with a TEST result either.
    const [statement] = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.accountId, who.accountId));
    expect((await backendApi(server, 'appealstatement', who.cookie, { body: { Id: statement!.id, Text: 'Jeg er voksen.' } })).status).toBe(204);
    const otherCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'] }));
    const reversed = await supportApi(server, 'decideappeal', otherCookie, { body: { Id: statement!.id, Decision: 'reversed', Reason: 'Prøv igen.' } });
    expect(reversed.status).toBe(204);
    expect(await advertValidation(server, who.advertId)).toMatchObject({ ageVerifiedAt: null });
    const [after] = await server.db.select().from(verifications).where(eq(verifications.id, row!.id));
    expect(after!.status).toBe(3);
  });
});

describe('no age provider (AGE_PROVIDER=none)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ app: { environment: 'production', ageProvider: { kind: 'none' } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('does not offer the online check: ageestimation 409, the backend state says so, no test page, no callback', async () => {
    const who = await newAdvertiser(server, 'Ingen Udbyder');
    const refused = await backendApi(server, 'ageestimation', who.cookie, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([{ field: 'SessionId', message: 'onlineCheckNotOffered' }]);
    expect((await backendApi(server, 'validationpicture', who.cookie)).body).toMatchObject({ state: 'none', onlineCheck: false });
    // Not served: the request falls through to the site (here not built yet: 503), never the test page.
    const page = await fetch(`${server.url}/test-age-provider/test-0123`);
    expect(page.status).not.toBe(200);
    expect(await page.text()).not.toContain('Pass (over 18)');
    const posted = await fetch(`${server.url}/test-age-provider/test-0123`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=pass',
      redirect: 'manual',
    });
    expect(posted.status).not.toBe(303);
    expect(posted.status).toBeGreaterThanOrEqual(400);
    const callback = await fetch(`${server.url}/api/backend/yoticallback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 'x', status: 'passed', ageOver18: true }),
    });
    expect(callback.status).toBe(404);
  });
});
