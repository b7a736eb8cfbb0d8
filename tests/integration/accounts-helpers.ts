/** Helpers for the advertiser-account tests: HTTP calls, the outbox, a valid createprofile body, a whole sign-up. */
import http from 'node:http';
import { afterAll, beforeAll, expect } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { cities, outboxMessages } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { sessionCookieName } from '#server/api/http.ts';
import type { AppOptions } from '#server/app.ts';

export type Call = { method?: 'GET' | 'POST'; body?: unknown; query?: Record<string, string | number>; cookie?: string | undefined };

/** One API call over HTTP. */
export function call(server: TestServer, path: string, options: Call = {}): Promise<Response> {
  const url = new URL(`${server.url}${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  return fetch(url, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

/**
 * A JSON POST over HTTP from another loopback address (127.0.0.2, …): the server sees that client
 * address as `request.ip`, as it sees a visitor on another machine. Answers the status and the body.
 * Node's client sends no user agent unless one is given in `extraHeaders`.
 */
export function postFrom(
  server: TestServer,
  localAddress: string,
  path: string,
  body: unknown,
  /** More request headers (a browser's user agent); a header given as '' is not sent. */
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: http.IncomingHttpHeaders }> {
  const url = new URL(`${server.url}${path}`);
  const payload = JSON.stringify(body);
  const sent = Object.fromEntries(Object.entries(extraHeaders).filter(([, value]) => value !== ''));
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...sent },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: response.headers });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** The advertiser session cookie a response set ("sid=…", or "__Host-sid=…" from a server on https), or undefined. */
export function sessionCookieOf(response: Response, secure = false): string | undefined {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookieName('advertiser', secure)}=`));
  return cookie?.split(';')[0];
}

/** The problem document's field errors as { field: message }. */
export async function fieldErrors(response: Response): Promise<Record<string, string>> {
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  const problem = (await response.json()) as { errors?: { field: string; message: string }[] };
  return Object.fromEntries((problem.errors ?? []).map((e) => [e.field, e.message]));
}

/**
 * Messages in the outbox for one recipient, oldest first, once the work the doors started after their
 * answers has ended (a reset's email is sent after the 204: src/server/api/after-response.ts).
 */
export async function outboxFor(server: TestServer, recipient: string) {
  await server.settle();
  return server.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, recipient)).orderBy(asc(outboxMessages.id));
}

/** The 6-digit code of the last SMS to a Danish number (8 digits). */
export async function lastSmsCode(server: TestServer, phone: string): Promise<string> {
  const messages = await outboxFor(server, `+45${phone}`);
  const last = messages.at(-1);
  expect(last?.channel).toBe('sms');
  const code = /\b(\d{6})\b/.exec(last!.body)?.[1];
  expect(code).toBeDefined();
  return code!;
}

/** The token of the last email verification link sent to an address. */
export async function lastEmailLinkToken(server: TestServer, email: string): Promise<string> {
  const messages = (await outboxFor(server, email)).filter((m) => m.body.includes('/backend/basic/?url='));
  const token = /\/backend\/basic\/\?url=([\w-]+)/.exec(messages.at(-1)?.body ?? '')?.[1];
  expect(token).toBeDefined();
  return token!;
}

/** The token and id of the last password reset link sent to an address. */
export async function lastResetLink(server: TestServer, email: string): Promise<{ token: string; id: number; link: string }> {
  const messages = (await outboxFor(server, email)).filter((m) => m.body.includes('/login/change/'));
  const link = /(\S+\/login\/change\/\?\S+)/.exec(messages.at(-1)?.body ?? '')?.[1];
  expect(link).toBeDefined();
  const url = new URL(link!);
  return { token: url.searchParams.get('token')!, id: Number(url.searchParams.get('id')), link: link! };
}

let counter = 0;

/** A unique Danish mobile number (8 digits) per call. */
export function uniquePhone(): string {
  counter += 1;
  return `2${String((process.pid * 1000 + counter) % 10_000_000).padStart(7, '0')}`;
}

/** A unique email address per call. */
export function uniqueEmail(prefix = 'advertiser'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

/** Region and city ids by city name (seeded reference data). */
export async function placeOf(server: TestServer, cityName: string): Promise<{ RegionId: number; CityId: number }> {
  const [city] = await server.db.select({ id: cities.id, regionId: cities.regionId }).from(cities).where(eq(cities.name, cityName));
  return { RegionId: city!.regionId, CityId: city!.id };
}

export const GOOD_PASSWORD = 'a quiet harbour at dawn 42';

/** A createprofile body that passes, with unique email and phone. */
export async function profileInput(server: TestServer, overrides: Record<string, unknown> = {}) {
  return {
    Email: uniqueEmail(),
    Password: GOOD_PASSWORD,
    Kind: 0,
    Gender: 1,
    Name: 'Sofie Ærø',
    Phone: uniquePhone(),
    ...(await placeOf(server, 'København')),
    DateOfBirth: '15-04-1995',
    AcceptTerms: true,
    Locale: 'da',
    ...overrides,
  };
}

/** The token of the last sign-up confirmation link (/create/?confirm=… or /en/create/?confirm=…) sent to an address. */
export async function lastSignUpToken(server: TestServer, email: string): Promise<string> {
  const messages = (await outboxFor(server, email)).filter((m) => m.body.includes('/create/?confirm='));
  const token = /\/create\/\?confirm=([\w-]+)/.exec(messages.at(-1)?.body ?? '')?.[1];
  expect(token, `a sign-up link to ${email}`).toBeDefined();
  return token!;
}

/** The answer to a confirmed sign-up (confirmsignup): the profile, the advert draft and the first SMS code's id. */
export type ConfirmedProfile = { id: number; advertId: number; phoneVerificationId: number } & Record<string, unknown>;

/**
 * createprofile over HTTP, and nothing more: the sign-up stays unconfirmed (202, no session; the link is
 * emailed after the answer). `cookie` goes with it (the browser's upload token). Answers the input, the
 * address (lower case) and the answer.
 */
export async function signUpOverHttp(server: TestServer, overrides: Record<string, unknown> = {}, options: { cookie?: string } = {}) {
  const input = await profileInput(server, overrides);
  const answer = await call(server, '/api/frontend/createprofile', { body: input, cookie: options.cookie });
  expect(answer.status, await answer.clone().text()).toBe(202);
  return { input, email: String(input.Email).toLowerCase(), answer };
}

/**
 * A new advertiser over HTTP, as a person signs up: createprofile (signUpOverHttp), the confirmation link
 * read from the outbox (or by `signUpToken`, e.g. from an SMTP server's mail), confirmsignup with the
 * password (the session). Answers the session cookie, confirmsignup's profile and createprofile's answer.
 */
export async function createProfileOverHttp(
  server: TestServer,
  overrides: Record<string, unknown> = {},
  options: { signUpToken?: (email: string) => Promise<string>; cookie?: string } = {},
) {
  const { input, email, answer } = await signUpOverHttp(server, overrides, options);
  const token = await (options.signUpToken ?? ((to: string) => lastSignUpToken(server, to)))(email);
  const confirmed = await call(server, '/api/frontend/confirmsignup', { body: { Token: token, Password: input.Password } });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  const cookie = sessionCookieOf(confirmed)!;
  const profile = (await confirmed.json()) as ConfirmedProfile;
  return { input, cookie, profile, email, phone: String(input.Phone).replace(/\D/g, '').slice(-8), signUpAnswer: answer };
}

export const MINUTE = 60_000;

/**
 * One test server for the calling file (with the app's `options`), started before its tests and closed
 * after, whose clock can be moved on (`advance`, never back) for expiry, lockout and resend rules; with the
 * two calls most account tests make.
 */
export function clockedServer(options: { app?: Partial<AppOptions> } = {}) {
  let offsetMs = 0;
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer({ now: () => new Date(Date.now() + offsetMs), captureLogs: true, ...options });
  });
  afterAll(async () => {
    await started?.close();
  });
  const server = (): TestServer => {
    if (!started) throw new Error('the test server is not started yet');
    return started;
  };
  return {
    server,
    advance: (ms: number) => {
      offsetMs += ms;
    },
    userProfile: (cookie: string | undefined) => call(server(), '/api/backend/userprofile', { cookie }),
    login: (email: string, password: string) => call(server(), '/api/frontend/login', { body: { email, password } }),
  };
}
