/**
 * Advertiser accounts over real HTTP (spec §7): createprofile. The other account calls are in
 * sign-up (the answers and confirmsignup), accounts-verification, accounts-passwords, accounts-limits and
 * accounts-smtp (each file its own server). Links and SMS codes are read from the outbox, as support would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { slugify } from '#lib/format.ts';
import { accounts, adverts, auditLog } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { oneCopenhagenDay, yearsAgo } from '#tests/support/days.ts';
import da from '#lib/i18n/da/common.json' with { type: 'json' };
import en from '#lib/i18n/en/common.json' with { type: 'json' };
import {
  GOOD_PASSWORD,
  call,
  createProfileOverHttp,
  fieldErrors,
  outboxFor,
  placeOf,
  profileInput,
  sessionCookieOf,
  uniqueEmail,
} from './accounts-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  // The file compares days it computes with days the server computes: both within one Copenhagen day.
  await oneCopenhagenDay(60_000);
  server = await startTestServer({ captureLogs: true });
});
afterAll(async () => {
  await server?.close();
});

const userProfile = (cookie: string | undefined) => call(server, '/api/backend/userprofile', { cookie });

/** dd-MM-yyyy of the day `years` years before today (UTC date, far enough from midnight in tests). */

describe('createprofile', () => {
  it('creates the account and a New advert draft; once confirmed it is signed in with the email confirmed and the SMS code sent', async () => {
    const created = await createProfileOverHttp(server, { Email: uniqueEmail('Mixed.Case'), Phone: '+45 21 43 65 87' });
    const { input, profile } = created;
    expect(profile).toMatchObject({
      email: String(input.Email).toLowerCase(),
      profileStatus: 0,
      escort: true,
      transEscort: false,
      thaimassage: false,
      emailVerified: true,
      phoneVerified: false,
    });

    const [account] = await server.db.select().from(accounts).where(eq(accounts.id, profile.id));
    expect(account).toMatchObject({ email: String(input.Email).toLowerCase(), phone: '21436587', dateOfBirth: '1995-04-15', locale: 'da' });
    expect(account!.termsAcceptedAt).toBeInstanceOf(Date);
    expect(account!.activatedAt).toBeInstanceOf(Date);
    expect(account!.passwordHash).toMatch(/^\$argon2id\$/);
    const [advert] = await server.db.select().from(adverts).where(eq(adverts.id, profile.advertId));
    const copenhagen = await placeOf(server, 'København');
    expect(advert).toMatchObject({
      accountId: profile.id,
      status: 0,
      kind: 0,
      gender: 1,
      name: 'Sofie Ærø',
      slug: slugify('Sofie Ærø'),
      phone: '21436587',
      regionId: copenhagen.RegionId,
      cityId: copenhagen.CityId,
    });
    expect(advert!.slug).toBe('sofie-aeroe');
    // Not public: the profile is not found until support approves it and the advertiser is verified.
    expect((await call(server, '/api/frontend/fullprofile', { query: { Id: profile.advertId } })).status).toBe(404);

    // Signed in with the new session; the advert it made is named (the verification calls need its id).
    const own = await userProfile(created.cookie);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { advertId: number }).advertId).toBe(profile.advertId);

    // The sign-up link, then the SMS code, are in the outbox, in Danish.
    const [mail] = await outboxFor(server, created.email);
    expect(mail).toMatchObject({ channel: 'email', subject: expect.stringContaining('Bekræft din tilmelding') });
    expect(mail!.body).toMatch(/http:\/\/localhost:3000\/create\/\?confirm=[\w-]{40,}/);
    const [sms] = await outboxFor(server, '+4521436587');
    expect(sms).toMatchObject({ channel: 'sms' });
    expect(sms!.body).toMatch(/Din kode til .+: \d{6}\./);

    // Audited, without secrets.
    const audit = await server.db.select().from(auditLog).where(eq(auditLog.targetId, String(profile.id)));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['account.create', 'account.sign_up_link_sent', 'account.sign_up_confirmed', 'account.phone_code_sent']),
    );
    const advertAudit = await server.db.select().from(auditLog).where(eq(auditLog.targetId, String(profile.advertId)));
    expect(advertAudit.find((a) => a.action === 'advert.create' && a.targetType === 'advert')).toMatchObject({ actorType: 'advertiser', actorId: profile.id });
    const everything = JSON.stringify([...audit, ...advertAudit]);
    expect(everything).not.toContain(GOOD_PASSWORD);
    expect(everything).not.toContain(account!.passwordHash);
    expect(everything).not.toMatch(new RegExp(`\\b${/\d{6}/.exec(sms!.body)![0]}\\b`));
  });

  it('makes a trans escort of gender 5 and a Thai massage advert of kind 1, and writes in English for Locale en', async () => {
    const trans = await createProfileOverHttp(server, { Gender: 5, Locale: 'en', DateOfBirth: '1990-06-30' });
    expect(trans.profile).toMatchObject({ escort: false, transEscort: true, thaimassage: false });
    const [mail] = await outboxFor(server, trans.email);
    expect(mail!.subject).toContain('Confirm your sign-up');
    expect(mail!.body).toContain('http://localhost:3000/en/create/?confirm=');
    const thai = await createProfileOverHttp(server, { Kind: '1', Gender: '1' });
    expect(thai.profile).toMatchObject({ escort: false, transEscort: false, thaimassage: true });
  });

  it('answers 400 problem+json naming each bad field with its message key', async () => {
    const response = await call(server, '/api/frontend/createprofile', {
      body: {
        Email: 'not-an-email',
        Password: 'short',
        Kind: 3,
        Gender: 2,
        Name: '   ',
        Phone: '1234',
        RegionId: 'x',
        DateOfBirth: '31-02-1990',
        AcceptTerms: false,
        Locale: 'de',
      },
    });
    expect(response.status).toBe(400);
    expect(await fieldErrors(response)).toEqual({
      Email: 'email',
      Password: 'passwordLength',
      Kind: 'kind',
      Gender: 'gender',
      Name: 'required',
      Phone: 'phone',
      RegionId: 'region',
      CityId: 'required',
      DateOfBirth: 'date',
      AcceptTerms: 'acceptTerms',
      Locale: 'locale',
    });
    // Every key has its text in both languages.
    for (const key of ['required', 'passwordLength', 'kind', 'gender', 'phone', 'region', 'city', 'date', 'acceptTerms', 'locale']) {
      expect(da.validation).toHaveProperty(key);
      expect(en.validation).toHaveProperty(key);
    }
  });

  it('refuses an advertiser under 18 with a clear message, and an impossible age', async () => {
    const minor = await call(server, '/api/frontend/createprofile', { body: await profileInput(server, { DateOfBirth: yearsAgo(18, 2) }) });
    expect(minor.status).toBe(400);
    expect(await fieldErrors(minor)).toEqual({ DateOfBirth: 'underAge' });
    expect(da.validation.underAge).toContain('18 år');
    expect(en.validation.underAge).toContain('18 years');
    const ancient = await call(server, '/api/frontend/createprofile', { body: await profileInput(server, { DateOfBirth: '01-01-1900' }) });
    expect(await fieldErrors(ancient)).toEqual({ DateOfBirth: 'dateOfBirthRange' });
    // Just turned 18 is old enough.
    await createProfileOverHttp(server, { DateOfBirth: yearsAgo(18, -2) });
  });

  it('refuses a common password (any case) and the email as password', async () => {
    for (const Password of ['password123', 'BasketBall', '1234567890']) {
      const response = await call(server, '/api/frontend/createprofile', { body: await profileInput(server, { Password }) });
      expect(response.status, Password).toBe(400);
      expect(await fieldErrors(response)).toEqual({ Password: 'passwordCommon' });
    }
    const email = uniqueEmail();
    const same = await call(server, '/api/frontend/createprofile', { body: await profileInput(server, { Email: email, Password: email }) });
    expect(await fieldErrors(same)).toEqual({ Password: 'passwordCommon' });
  });

  it('never says an email is taken: sign-up for an existing address (in any case) completes by email to its owner (issue 15)', async () => {
    const first = await createProfileOverHttp(server, { Locale: 'en' });
    const again = await call(server, '/api/frontend/createprofile', {
      body: await profileInput(server, { Email: first.email.toUpperCase(), Password: 'someone elses password 99' }),
    });
    // The answer every valid sign-up gets (sign-up.test.ts compares the two byte for byte).
    expect(again.status).toBe(202);
    const answer = await again.text();
    expect(JSON.parse(answer)).toEqual({ checkEmail: true });
    expect(answer).not.toMatch(/taken|exists/i);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await server.db.select().from(accounts).where(eq(accounts.email, first.email))).toHaveLength(1);

    // The owner reads, in their language, that someone tried, and how to sign in or reset the password.
    const notice = (await outboxFor(server, first.email)).at(-1)!;
    expect(notice.subject).toBe('Someone tried to sign up with your email address – Annoncekatalog');
    expect(notice.body).toContain('http://localhost:3000/en/login/');
    expect(notice.body).toContain('http://localhost:3000/en/login/forgot/');
    // The typed password did not become the owner's.
    expect((await call(server, '/api/frontend/login', { body: { email: first.email, password: 'someone elses password 99' } })).status).toBe(401);
    expect((await call(server, '/api/frontend/login', { body: { email: first.email, password: GOOD_PASSWORD } })).status).toBe(200);
  });

  it('refuses a city outside the chosen region and an unknown region', async () => {
    const aarhus = await placeOf(server, 'Aarhus');
    const copenhagen = await placeOf(server, 'København');
    const mixed = await call(server, '/api/frontend/createprofile', { body: await profileInput(server, { RegionId: copenhagen.RegionId, CityId: aarhus.CityId }) });
    expect(await fieldErrors(mixed)).toEqual({ CityId: 'city' });
    const unknown = await call(server, '/api/frontend/createprofile', { body: await profileInput(server, { RegionId: 99_999 }) });
    expect(await fieldErrors(unknown)).toEqual({ RegionId: 'region' });
  });
});

describe('signing in to a deleted account', () => {
  const login = (email: string, password: string) => call(server, '/api/frontend/login', { body: { email, password } });

  it('tells the owner (right password) that the profile is deleted and restorable, until 30 days have passed', async () => {
    const owner = await createProfileOverHttp(server);
    const deleted = await call(server, '/api/backend/deleteuser', { body: { Password: GOOD_PASSWORD }, cookie: owner.cookie });
    expect(deleted.status).toBe(204);

    const wrong = await login(owner.email, 'not the password at all');
    expect(wrong.status).toBe(401);
    expect(await fieldErrors(wrong)).toEqual({ password: 'wrongCredentials' });

    const right = await login(owner.email, GOOD_PASSWORD);
    expect(right.status).toBe(401);
    expect(await fieldErrors(right)).toEqual({ email: 'profileDeleted' });
    expect(right.headers.getSetCookie()).toEqual([]);
    expect(da.validation.profileDeleted).toBeTruthy();
    expect(en.validation.profileDeleted).toBeTruthy();

    await server.db
      .update(accounts)
      .set({ deletedAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(accounts.id, owner.profile.id));
    const late = await login(owner.email, GOOD_PASSWORD);
    expect(late.status).toBe(401);
    expect(await fieldErrors(late)).toEqual({ email: 'restoreExpired' });

    // Within the 30 days restoreprofile signs in again.
    await server.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, owner.profile.id));
    const restored = await call(server, '/api/frontend/restoreprofile', { body: { Email: owner.email, Password: GOOD_PASSWORD } });
    expect(restored.status).toBe(200);
    expect((await userProfile(sessionCookieOf(restored))).status).toBe(200);
    expect((await login(owner.email, GOOD_PASSWORD)).status).toBe(200);
  });
});

describe('login: the per-address limit', () => {
  // A new email each time: five failures for one email from one address lock it (sign-in-lock.ts).
  const attempt = (url: string) =>
    fetch(`${url}/api/frontend/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('nobody'), password: 'not-a-password-at-all' }),
    });

  it('answers 10 sign-ins a minute from one address, then 429; RATE_LIMIT_SCALE scales it', async () => {
    // Servers of their own: the other tests here sign in from the same address.
    const plain = await startTestServer();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) statuses.push((await attempt(plain.url)).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses[10]).toBe(429);
    } finally {
      await plain.close();
    }

    const scaled = await startTestServer({ app: { rateLimitScale: 3 } });
    try {
      const more: number[] = [];
      for (let i = 0; i < 30; i += 1) more.push((await attempt(scaled.url)).status);
      expect(more.every((status) => status === 401)).toBe(true);
      expect((await attempt(scaled.url)).status).toBe(429);
    } finally {
      await scaled.close();
    }
  });
});
