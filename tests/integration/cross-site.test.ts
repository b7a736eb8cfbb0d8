/**
 * Cross-site requests (issue 15, item 8): every state-changing API call checks where it comes from, reads
 * JSON or multipart bodies only, and never takes its input from the query string. The attacks are those
 * a page on another site (or another port of the same host) can make with the advertiser's cookie:
 * a form (text/plain, urlencoded), a form action with the input in the query, a fetch with credentials.
 * Each is aimed at closing the advertiser's advert; it stays open. Non-browser clients (no Origin, no
 * Sec-Fetch-Site) and the signed server-to-server callbacks keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adverts } from '#server/db/schema.ts';
import { signEncoderBody, ENCODER_SIGNATURE_HEADER } from '#server/domain/media/video-signature.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, createAdvertiser } from '#tests/support/fixtures.ts';

const ENCODER_SECRET = 'cross-site-test-encoder-secret';
const SITE = 'https://annonce.example.dk';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ app: { siteUrl: SITE, encoderSecret: ENCODER_SECRET } });
});
afterAll(async () => {
  await server?.close();
});

async function advertiser() {
  const created = await createAdvertiser(server.db, {});
  return { ...created, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}
const statusOf = async (id: number) => (await server.db.select().from(adverts).where(eq(adverts.id, id)))[0]!.status;

/** "Close my advert" (changeprofilestatus, Status 5) as the attacker's page would send it. */
function closeAdvert(cookie: string, init: { headers?: Record<string, string>; body?: BodyInit; query?: string } = {}) {
  return fetch(`${server.url}/api/backend/changeprofilestatus${init.query ?? ''}`, {
    method: 'POST',
    headers: { cookie, ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}
const json = { 'content-type': 'application/json' };

async function expectProblem(response: Response, status: number, field: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  const problem = (await response.json()) as { status: number; errors?: { field: string }[] };
  expect(problem.status).toBe(status);
  expect(problem.errors?.map((e) => e.field)).toContain(field);
}

describe('state changes from other sites are refused (403), the advert stays open', () => {
  it('refuses a foreign Origin, another port of the same host, and a sandboxed page (Origin: null)', async () => {
    const a = await advertiser();
    for (const origin of ['https://evil.example', 'https://annonce.example.dk:8443', 'http://annonce.example.dk', 'null']) {
      const response = await closeAdvert(a.cookie, { headers: { ...json, origin }, body: JSON.stringify({ Status: 5 }) });
      await expectProblem(response, 403, 'Origin');
    }
    // Nor through an encoded path to the same call.
    const encoded = await fetch(`${server.url}/%61pi/backend/changeprofilestatus`, {
      method: 'POST',
      headers: { cookie: a.cookie, ...json, origin: 'https://evil.example' },
      body: JSON.stringify({ Status: 5 }),
    });
    expect([403, 404]).toContain(encoded.status);
    expect(await statusOf(a.id)).toBe(1);
  });

  it('refuses Sec-Fetch-Site cross-site and same-site (another port) without an allowed Origin', async () => {
    const a = await advertiser();
    for (const site of ['cross-site', 'same-site']) {
      const response = await closeAdvert(a.cookie, { headers: { ...json, 'sec-fetch-site': site }, body: JSON.stringify({ Status: 5 }) });
      await expectProblem(response, 403, 'Origin');
      const withOrigin = await closeAdvert(a.cookie, {
        headers: { ...json, 'sec-fetch-site': site, origin: 'http://127.0.0.1:1' },
        body: JSON.stringify({ Status: 5 }),
      });
      await expectProblem(withOrigin, 403, 'Origin');
    }
    expect(await statusOf(a.id)).toBe(1);
  });

  it('refuses a cross-site sign-in too (login CSRF)', async () => {
    const response = await fetch(`${server.url}/api/frontend/login`, {
      method: 'POST',
      headers: { ...json, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ email: 'someone@example.test', password: 'whatever password' }),
    });
    await expectProblem(response, 403, 'Origin');
  });
});

describe('bodies: JSON or multipart only (415), input never from the query string', () => {
  it('refuses text/plain and form-urlencoded bodies, and a body without a type', async () => {
    const a = await advertiser();
    const plain = await closeAdvert(a.cookie, { headers: { 'content-type': 'text/plain' }, body: '{"Status":5}' });
    await expectProblem(plain, 415, 'Content-Type');
    const form = await closeAdvert(a.cookie, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'Status=5' });
    await expectProblem(form, 415, 'Content-Type');
    const untyped = await closeAdvert(a.cookie, { body: new Uint8Array(Buffer.from('{"Status":5}')) });
    await expectProblem(untyped, 415, 'Content-Type');
    expect(await statusOf(a.id)).toBe(1);
  });

  it('does not read a POST\'s input from the query string (400 naming the field)', async () => {
    const a = await advertiser();
    await expectProblem(await closeAdvert(a.cookie, { query: '?Status=5' }), 400, 'Status');
    await expectProblem(await closeAdvert(a.cookie, { query: '?Status=5', headers: json, body: '{}' }), 400, 'Status');
    expect(await statusOf(a.id)).toBe(1);
    // GET calls still read their query.
    const profile = await fetch(`${server.url}/api/frontend/fullprofile?Id=${a.id}`);
    expect(profile.status).toBe(200);
  });
});

describe('what keeps working', () => {
  it('the site\'s own pages (its Origin, or Sec-Fetch-Site: same-origin) and clients that are not browsers', async () => {
    const a = await advertiser();
    const own = await closeAdvert(a.cookie, { headers: { ...json, origin: SITE, 'sec-fetch-site': 'same-origin' }, body: JSON.stringify({ Status: 5 }) });
    expect(own.status).toBe(200);
    expect(await statusOf(a.id)).toBe(5);
    // Reached at another address of this same server (the browser vouches for it).
    const sameOrigin = await closeAdvert(a.cookie, {
      headers: { ...json, origin: server.url, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ Status: 1 }),
    });
    expect(sameOrigin.status).toBe(200);
    // curl, scripts: neither header.
    const script = await closeAdvert(a.cookie, { headers: json, body: JSON.stringify({ Status: 5 }) });
    expect(script.status).toBe(200);
    expect(await statusOf(a.id)).toBe(5);
    // A POST without a body (logout, resetting a holiday) needs no type.
    const logout = await fetch(`${server.url}/api/backend/logout`, { method: 'POST', headers: { cookie: a.cookie, origin: SITE } });
    expect(logout.status).toBeLessThan(300);
  });

  it('multipart uploads reach their call', async () => {
    const a = await advertiser();
    const body = new FormData();
    body.append('Kind', 'nothing-known');
    const response = await fetch(`${server.url}/api/backend/validationpictureuploader`, {
      method: 'POST',
      headers: { cookie: a.cookie, origin: SITE, 'sec-fetch-site': 'same-origin' },
      body,
    });
    await expectProblem(response, 400, 'Kind');
  });

  it('the signed server-to-server callbacks, whatever Origin they carry: the signature decides', async () => {
    const foreign = { ...json, origin: 'https://encoder.example', 'sec-fetch-site': 'cross-site' };
    const payload = JSON.stringify({ videoId: 999_999, failed: 'transcodeFailed' });
    const unsigned = await fetch(`${server.url}/api/backend/videoencoderpostback`, { method: 'POST', headers: foreign, body: payload });
    expect(unsigned.status).toBe(401);
    const signed = await fetch(`${server.url}/api/backend/videoencoderpostback`, {
      method: 'POST',
      headers: { ...foreign, [ENCODER_SIGNATURE_HEADER]: signEncoderBody(payload, ENCODER_SECRET) },
      body: payload,
    });
    expect(signed.status).toBe(404);
    const age = await fetch(`${server.url}/api/backend/yoticallback`, { method: 'POST', headers: foreign, body: JSON.stringify({ sessionId: 'x', status: 'passed' }) });
    expect(age.status).toBe(401);
  });
});
