/**
 * A sign-up completes by email (issue 15 item 9; docs/decisions/024): createprofile answers a new address
 * and one that has an account alike (202, no session, the emails after the answer); the emailed link and
 * the password chosen at sign-up confirm it (confirmsignup: session and SMS code); an unconfirmed sign-up
 * cannot sign in (answered as a wrong password) until the link or a password reset confirms it.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, adverts, auditLog, loginEvents } from '#server/db/schema.ts';
import { createAfterResponse, type AfterResponse } from '#server/api/after-response.ts';
import { UPLOAD_COOKIE } from '#server/api/frontend-pictures.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import {
  GOOD_PASSWORD,
  MINUTE,
  call,
  clockedServer,
  createProfileOverHttp,
  fieldErrors,
  lastResetLink,
  lastSignUpToken,
  lastSmsCode,
  outboxFor,
  postFrom,
  profileInput,
  sessionCookieOf,
  signUpOverHttp,
  uniqueEmail,
} from './accounts-helpers.ts';

/** The server's work after its answers, held back while a test looks at the answers alone (`hold`, then `release`). */
function holdableAfterResponse(): AfterResponse & { hold: () => void; release: () => void } {
  const inner = createAfterResponse({ error: (details, message) => console.error(message, details) });
  let held: [string, () => Promise<unknown>][] | null = null;
  return {
    run: (label, task) => (held ? held.push([label, task]) : inner.run(label, task)),
    settle: () => inner.settle(),
    hold: () => {
      held = [];
    },
    release: () => {
      const tasks = held ?? [];
      held = null;
      for (const [label, task] of tasks) inner.run(label, task);
    },
  };
}

const afterResponse = holdableAfterResponse();
// Many sign-ups and confirmations from one address: the account calls' limits raised (RATE_LIMIT_SCALE).
const clocked = clockedServer({ app: { afterResponse, rateLimitScale: 10 } });
const { advance, userProfile, login } = clocked;
let server: TestServer;
beforeAll(() => {
  server = clocked.server();
});

const createProfile = (body: unknown, cookie?: string) => call(server, '/api/frontend/createprofile', { body, cookie });
const confirmSignUp = (Token: string, Password: string) => call(server, '/api/frontend/confirmsignup', { body: { Token, Password } });

/** A sign-up left unconfirmed: createprofile only. Answers its input, address and the emailed link's token. */
async function signUpUnconfirmed(overrides: Record<string, unknown> = {}) {
  const { input, email } = await signUpOverHttp(server, overrides);
  return { input, email, token: await lastSignUpToken(server, email) };
}

/** The headers a user's browser could compare, without those that differ on every answer (time, request id, rate-limit counters). */
function comparableHeaders(response: Response): [string, string][] {
  const volatile = /^(date|x-request-id|x-ratelimit-remaining|x-ratelimit-reset|retry-after)$/;
  return [...response.headers.entries()].filter(([name]) => !volatile.test(name)).sort();
}

/** A problem document without its request id (which differs on every answer). */
async function problemOf(response: Response): Promise<Record<string, unknown>> {
  const { requestId: _id, instance: _instance, ...rest } = (await response.json()) as Record<string, unknown>;
  return rest;
}

describe('createprofile answers every valid sign-up alike', () => {
  it('a new address and one with an account get the same status, body and headers, no session; the emails go after the answer', async () => {
    const existing = await createProfileOverHttp(server, { Locale: 'en' });
    const newEmail = uniqueEmail('fresh');
    const existingMailsBefore = (await outboxFor(server, existing.email)).length;
    // Both browsers uploaded pictures during /create: each has an upload cookie, which each answer clears.
    const uploadCookie = () => `${UPLOAD_COOKIE}=${randomBytes(32).toString('base64url')}`;

    afterResponse.hold();
    const fresh = await createProfile(await profileInput(server, { Email: newEmail }), uploadCookie());
    const taken = await createProfile(await profileInput(server, { Email: existing.email.toUpperCase(), Password: 'someone elses password 99' }), uploadCookie());
    expect(fresh.status).toBe(202);
    expect(taken.status).toBe(202);
    const [freshBody, takenBody] = [await fresh.text(), await taken.text()];
    expect(freshBody).toBe('{"checkEmail":true}');
    expect(takenBody).toBe(freshBody);
    expect(comparableHeaders(taken)).toEqual(comparableHeaders(fresh));
    for (const answer of [fresh, taken]) {
      expect(sessionCookieOf(answer)).toBeUndefined();
      expect(answer.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^${UPLOAD_COOKIE}=;`))]);
    }
    // Nothing has gone out yet: the answers came first.
    expect(await outboxFor(server, newEmail)).toEqual([]);
    expect(await outboxFor(server, existing.email)).toHaveLength(existingMailsBefore);

    afterResponse.release();
    const [link] = await outboxFor(server, newEmail);
    expect(link).toMatchObject({ channel: 'email', subject: 'Bekræft din tilmelding – Annoncekatalog' });
    expect(link!.body).toMatch(/http:\/\/localhost:3000\/create\/\?confirm=[\w-]{40,}/);
    expect(link!.body).toContain('24 timer');
    const notice = (await outboxFor(server, existing.email)).at(-1)!;
    expect(notice.subject).toBe('Someone tried to sign up with your email address – Annoncekatalog');
    expect(notice.body).not.toContain('confirm=');

    // The new address has an account and its advert draft, unconfirmed; the existing one nothing new.
    const [account] = await server.db.select().from(accounts).where(eq(accounts.email, newEmail));
    expect(account).toMatchObject({ activatedAt: null, emailVerifiedAt: null, phoneVerifiedAt: null });
    expect(await server.db.select().from(adverts).where(eq(adverts.accountId, account!.id))).toEqual([expect.objectContaining({ status: 0 })]);
    expect(await server.db.select().from(accounts).where(eq(accounts.email, existing.email))).toHaveLength(1);
    // No SMS before the sign-up is confirmed.
    expect(await outboxFor(server, `+45${account!.phone}`)).toEqual([]);
  });

  it('an address whose sign-up is unconfirmed gets a fresh link; its first sign-up and password stand', async () => {
    const first = await signUpUnconfirmed({ Locale: 'en' });
    // The same sign-up sent again within a minute (a second click): the first link is still the one.
    expect((await createProfile(await profileInput(server, { Email: first.email }))).status).toBe(202);
    expect((await outboxFor(server, first.email)).filter((m) => m.body.includes('confirm='))).toHaveLength(1);

    advance(61_000);
    const again = await createProfile(await profileInput(server, { Email: first.email, Password: 'another long password 5', Name: 'Someone Else' }));
    expect(again.status).toBe(202);
    expect(await again.text()).toBe('{"checkEmail":true}');
    const mail = (await outboxFor(server, first.email)).at(-1)!;
    expect(mail.subject).toBe('Confirm your sign-up – Annoncekatalog');
    expect(mail.body).toContain('not confirmed yet');
    expect(mail.body).toContain('http://localhost:3000/en/login/forgot/');
    const token = await lastSignUpToken(server, first.email);
    expect(token).not.toBe(first.token);
    expect(await server.db.select().from(accounts).where(eq(accounts.email, first.email))).toHaveLength(1);

    // The first link no longer works; the fresh one takes the first password, not the one typed again.
    expect(await fieldErrors(await confirmSignUp(first.token, GOOD_PASSWORD))).toEqual({ Token: 'linkInvalid' });
    expect((await confirmSignUp(token, 'another long password 5')).status).toBe(401);
    const confirmed = await confirmSignUp(token, GOOD_PASSWORD);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ email: first.email, escort: true });
  });
});

describe('confirmsignup', () => {
  it('with the link and the password: signs in, confirms the email, sends the SMS code; the link works once', async () => {
    const { input, email, token } = await signUpUnconfirmed();
    const response = await confirmSignUp(token, GOOD_PASSWORD);
    expect(response.status).toBe(200);
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('sid='))!;
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    const profile = (await response.json()) as { id: number; advertId: number; phoneVerificationId: number; phone: string };
    expect(profile).toMatchObject({ email, emailVerified: true, phoneVerified: false, profileStatus: 0, phone: input.Phone });
    expect((await userProfile(sessionCookieOf(response))).status).toBe(200);

    // The SMS code, in the account's language; it confirms the phone with the id answered.
    const code = await lastSmsCode(server, String(input.Phone));
    expect((await outboxFor(server, `+45${input.Phone}`)).at(-1)!.body).toMatch(/^Din kode til/);
    expect((await call(server, '/api/frontend/codeverification', { query: { Code: code, Id: profile.phoneVerificationId } })).status).toBe(204);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(200);

    // Used: the link works once.
    const reused = await confirmSignUp(token, GOOD_PASSWORD);
    expect(reused.status).toBe(400);
    expect(await fieldErrors(reused)).toEqual({ Token: 'linkInvalid' });
    expect(reused.headers.getSetCookie()).toEqual([]);
    const audit = await server.db.select().from(auditLog).where(eq(auditLog.targetId, String(profile.id)));
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(['account.create', 'account.sign_up_link_sent', 'account.sign_up_confirmed', 'account.sign_in']));
    expect(JSON.stringify(audit)).not.toContain(token);
    // Neither the token nor the password reached the log.
    expect(JSON.stringify(server.logs)).not.toContain(token);
    expect(JSON.stringify(server.logs)).not.toContain(GOOD_PASSWORD);
  });

  it('refuses an unknown, malformed or expired link', async () => {
    expect(await fieldErrors(await confirmSignUp(randomBytes(32).toString('base64url'), GOOD_PASSWORD))).toEqual({ Token: 'linkInvalid' });
    expect(await fieldErrors(await confirmSignUp('not a token', GOOD_PASSWORD))).toEqual({ Token: 'linkInvalid' });
    expect(await fieldErrors(await call(server, '/api/frontend/confirmsignup', { body: {} }))).toEqual({ Token: 'required', Password: 'required' });
    const { token } = await signUpUnconfirmed();
    advance(24 * 60 * MINUTE + 1000);
    const late = await confirmSignUp(token, GOOD_PASSWORD);
    expect(late.status).toBe(400);
    expect(await fieldErrors(late)).toEqual({ Token: 'linkInvalid' });
  });

  it('another visitor with the link but not the password gets nothing; wrong passwords count toward the sign-in lock', async () => {
    const { email, token } = await signUpUnconfirmed();
    // A stranger (another address) who has the link, at a mistyped address, guesses.
    const stranger = await postFrom(server, '127.0.0.3', '/api/frontend/confirmsignup', { Token: token, Password: 'a guess at the password' });
    expect(stranger.status).toBe(401);
    expect(stranger.body['errors']).toEqual([{ field: 'Password', message: 'wrongCredentials' }]);
    expect(stranger.headers['set-cookie']).toBeUndefined();
    for (let attempt = 2; attempt <= 5; attempt += 1) {
      expect((await postFrom(server, '127.0.0.3', '/api/frontend/confirmsignup', { Token: token, Password: `guess ${attempt} at it` })).status).toBe(401);
    }
    // Locked out from that address, even with the right password, and for login too (the same lock).
    const locked = await postFrom(server, '127.0.0.3', '/api/frontend/confirmsignup', { Token: token, Password: GOOD_PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body['errors']).toEqual([{ field: 'Password', message: 'accountLocked' }]);
    expect((await postFrom(server, '127.0.0.3', '/api/frontend/login', { email, password: GOOD_PASSWORD })).status).toBe(429);
    const failures = await server.db.select().from(loginEvents).where(and(eq(loginEvents.email, email), eq(loginEvents.success, false)));
    expect(failures.length).toBeGreaterThanOrEqual(6);

    // The owner, elsewhere, is not locked out: the link still works with the password.
    const owner = await confirmSignUp(token, GOOD_PASSWORD);
    expect(owner.status).toBe(200);
    expect(sessionCookieOf(owner)).toBeDefined();
  });
});

describe('an unconfirmed sign-up and sign-in', () => {
  it('login with the right password is answered exactly as a wrong one (and as an unknown email)', async () => {
    const { email } = await signUpUnconfirmed();
    const right = await login(email, GOOD_PASSWORD);
    const wrong = await login(email, 'not the password at all');
    const unknown = await login(uniqueEmail('nobody'), GOOD_PASSWORD);
    for (const answer of [right, wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
    const [rightProblem, wrongProblem, unknownProblem] = [await problemOf(right), await problemOf(wrong), await problemOf(unknown)];
    expect(rightProblem).toEqual(wrongProblem);
    expect(unknownProblem).toEqual(wrongProblem);
    expect(rightProblem['errors']).toEqual([{ field: 'password', message: 'wrongCredentials' }]);
    // (A problem's ETag follows its request id.)
    const withoutEtag = (response: Response) => comparableHeaders(response).filter(([name]) => name !== 'etag');
    expect(withoutEtag(right)).toEqual(withoutEtag(wrong));
    // restoreprofile is a sign-in too.
    expect((await call(server, '/api/frontend/restoreprofile', { body: { Email: email, Password: GOOD_PASSWORD } })).status).toBe(401);
    // Both count toward the lock, like any wrong password.
    const failures = await server.db.select().from(loginEvents).where(and(eq(loginEvents.email, email), eq(loginEvents.success, false)));
    expect(failures).toHaveLength(3);
  });

  it('a completed password reset confirms the sign-up: sign-in works, and the sign-up link is spent', async () => {
    const { email, token } = await signUpUnconfirmed({ Locale: 'en' });
    expect((await call(server, '/api/frontend/resetpassword', { body: { Email: email } })).status).toBe(204);
    const reset = await lastResetLink(server, email);
    expect(reset.link).toContain('/en/login/change/');
    expect((await call(server, '/api/frontend/changepassword', { body: { Token: reset.token, Id: reset.id, Password: 'a new and long password 3' } })).status).toBe(204);
    const signedIn = await login(email, 'a new and long password 3');
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({ email, emailVerified: true });
    expect(await fieldErrors(await confirmSignUp(token, 'a new and long password 3'))).toEqual({ Token: 'linkInvalid' });
    const [account] = await server.db.select().from(accounts).where(eq(accounts.email, email));
    expect(account!.activatedAt).toBeInstanceOf(Date);
  });

});
