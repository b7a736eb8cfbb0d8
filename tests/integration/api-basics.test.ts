import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, adverts, cities, regions } from '#server/db/schema.ts';
import { hashPassword } from '#server/domain/accounts/passwords.ts';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { signInAdmin } from './support-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
const postJson = (path: string, body: unknown, cookie?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

describe('health', () => {
  it('says it is up, and not ready before a site is built, with the database reachable', async () => {
    expect(await (await get('/healthz')).json()).toEqual({ status: 'up' });
    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ database: 'reachable', site: 'not built yet' });
  });
});

describe('frontend calls for the site build (spec §7)', () => {
  it('websiteconfig answers the spec fields, with name, address and zip/city URL-encoded', async () => {
    const response = await get('/api/frontend/websiteconfig');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('public');
    expect(response.headers.get('etag')).toBeTruthy();
    const config = await response.json();
    expect(Object.keys(config).sort()).toEqual(
      [
        'companyAddress',
        'companyEmail',
        'companyName',
        'companyVAT',
        'companyZipCity',
        'siteName',
        'siteUrl',
        'supportEmail',
        'supportPhone',
      ].sort(),
    );
    expect(config.companyZipCity).toBe(encodeURIComponent(decodeURIComponent(config.companyZipCity)));
    expect(decodeURIComponent(config.companyZipCity)).toMatch(/\d{4} /);
  });

  it('answers 304 to a repeated request with its ETag', async () => {
    const first = await get('/api/frontend/searchpagelocations');
    const etag = first.headers.get('etag')!;
    const second = await get('/api/frontend/searchpagelocations', { headers: { 'if-none-match': etag } });
    expect(second.status).toBe(304);
  });

  it('searchpagelocations lists the five Danish regions with their cities and spec slugs', async () => {
    const locations = await (await get('/api/frontend/searchpagelocations')).json();
    expect(locations).toHaveLength(5);
    const capital = locations.find((r: { name: string }) => r.name === 'Region Hovedstaden');
    expect(capital.slug).toBe('region-hovedstaden');
    const copenhagen = capital.cities.find((c: { city: string }) => c.city === 'København');
    expect(copenhagen.slug).toBe('koebenhavn');
    for (const region of locations) {
      expect(region.cities.length).toBeGreaterThan(0);
      for (const city of region.cities) expect(city.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });

  it('counts only public adverts per kind: e escorts, t Thai massage, te trans escorts', async () => {
    const [region] = await server.db.select().from(regions).limit(1);
    const [city] = await server.db.select().from(cities).limit(1);
    const passwordHash = await hashPassword('an-advertiser-password');
    const future = new Date(Date.now() + 10 * 86_400_000);
    const past = new Date(Date.now() - 86_400_000);
    const base = { status: 1, approvedAt: past, ageVerifiedAt: past, expirationDate: future, regionId: region!.id, cityId: city!.id };
    const variants = [
      { kind: 0, gender: 1 },
      { kind: 0, gender: 1 },
      { kind: 0, gender: 5 },
      { kind: 1, gender: 1 },
      { kind: 0, gender: 1, status: 0 }, // New: not public
      { kind: 0, gender: 1, expirationDate: past }, // expired
      { kind: 1, gender: 1, holidayUntil: future }, // on holiday
      { kind: 0, gender: 5, ageVerifiedAt: null }, // owner not verified
      { kind: 0, gender: 1, approvedAt: null }, // not approved
      { kind: 1, gender: 1, status: 2 }, // locked
    ];
    for (const [index, variant] of variants.entries()) {
      const [account] = await server.db
        .insert(accounts)
        .values({ email: `count-${index}@example.test`, passwordHash })
        .returning();
      await server.db.insert(adverts).values({ ...base, ...variant, accountId: account!.id, name: `Count ${index}`, slug: `count-${index}` });
    }
    const counts = await (await get('/api/frontend/frontpageavailablecounts')).json();
    expect(counts).toEqual({ e: 2, t: 1, te: 1 });
  });

  it('reads parameter names case-insensitively and names a bad one in problem+json', async () => {
    const lower = await get('/api/frontend/landingpagepages?kind=artikler&locale=da');
    const upper = await get('/api/frontend/landingpagepages?KIND=artikler&Locale=da');
    expect(lower.status).toBe(200);
    expect(await upper.json()).toEqual(await lower.json());

    const bad = await get('/api/frontend/landingpagepages?Kind=nonsense');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const problem = await bad.json();
    expect(problem).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'Kind' })]);
  });

  it('answers an unknown API call with a 404 problem', async () => {
    const response = await get('/api/frontend/nosuchcall');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('sessions and permissions', () => {
  it('refuses backend calls without a session (401) and answers the profile with one', async () => {
    expect((await get('/api/backend/userprofile')).status).toBe(401);
    await server.db.insert(accounts).values({ email: 'signin@example.test', passwordHash: await hashPassword('advertiser-pass-1'), activatedAt: new Date() });
    const wrong = await postJson('/api/frontend/login', { email: 'signin@example.test', password: 'nope' });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).errors[0].field).toBe('password');

    const cookie = await signIn(server, 'frontend', { email: 'SignIn@Example.test', password: 'advertiser-pass-1' });
    const profile = await (await get('/api/backend/userprofile', { headers: { cookie } })).json();
    expect(profile).toMatchObject({ email: 'signin@example.test', advertId: null, profileStatus: null, permissions: [] });

    const out = await fetch(`${server.url}/api/backend/logout`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(204);
    expect((await get('/api/backend/userprofile', { headers: { cookie } })).status).toBe(401);
  });

  it('keeps the session token out of reach of scripts (HttpOnly, SameSite) and stores it hashed', async () => {
    const response = await postJson('/api/support/login', server.admin);
    const setCookie = response.headers.getSetCookie()[0]!;
    expect(setCookie).toMatch(/^support_sid=/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    const token = setCookie.split(';')[0]!.split('=')[1]!;
    const stored = await server.db.query.sessions.findMany();
    expect(stored.some((s) => s.id === token)).toBe(false);
  });

  it('validates sign-in input with field messages', async () => {
    const response = await postJson('/api/support/login', { email: 'not-an-email', password: '' });
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'password']);
  });

  it('lets only a support user schedule a rebuild (cleancache, POST only)', async () => {
    const cleancache = (headers: Record<string, string> = {}) => fetch(`${server.url}/api/frontend/cleancache`, { method: 'POST', headers });
    expect((await cleancache()).status).toBe(401);
    const cookie = await signIn(server, 'support', server.admin);
    // A GET (a link, an <img> on another site) never rebuilds, signed in or not.
    expect((await get('/api/frontend/cleancache', { headers: { cookie } })).status).toBe(404);
    expect(server.events).not.toContainEqual(expect.objectContaining({ type: 'site.rebuild.requested' }));
    const response = await cleancache({ cookie });
    expect(response.status).toBe(204);
    expect(server.events).toContainEqual(expect.objectContaining({ type: 'site.rebuild.requested' }));
  });

  it('checks each support call against the permission it needs', async () => {
    // Administration (creating users) needs two-step sign-in: signInAdmin turns it on for the admin.
    const admin = await signInAdmin(server);
    const seo = { email: 'seo@example.test', name: 'Sanne SEO', password: 'seo-user-password', permissions: ['SEO'] };
    const created = await postJson('/api/support/users', seo, admin);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ email: 'seo@example.test', permissions: ['SEO'] });
    const seoCookie = await signIn(server, 'support', seo);

    // SEO may not manage users...
    const refused = await postJson('/api/support/users', { ...seo, email: 'x@example.test' }, seoCookie);
    expect(refused.status).toBe(403);
    // ...but may add a landing page, which schedules a (debounced) rebuild.
    const page = { type: 'article', locale: 'da', url: 'en-ny-artikel', title: 'En ny artikel', body: 'Tekst.' };
    const added = await postJson('/api/support/landingpages', page, seoCookie);
    expect(added.status).toBe(201);
    expect(server.events).toContainEqual(expect.objectContaining({ type: 'content.changed' }));
    const listed = await (await get('/api/frontend/landingpagepages?Kind=artikler&Locale=da')).json();
    expect(listed).toContainEqual({ url: 'en-ny-artikel', title: 'En ny artikel' });
    // A free page (/{url}/) may not take an address the site uses itself.
    const shadowing = await postJson('/api/support/landingpages', { ...page, type: 'free', url: 'escort' }, seoCookie);
    expect(shadowing.status).toBe(400);
    expect(await shadowing.json()).toMatchObject({ errors: [{ field: 'url', message: 'urlReserved' }] });
    expect((await postJson('/api/support/landingpages', { ...page, type: 'free', url: 'om-annoncerne' }, seoCookie)).status).toBe(201);
    const free = await (await get('/api/frontend/landingpagepages?Kind=free&Locale=da')).json();
    expect(free).toContainEqual({ url: 'om-annoncerne', title: 'En ny artikel' });

    const support = { email: 'sup@example.test', name: 'Sofus Support', password: 'support-user-pass', permissions: ['Support'] };
    await postJson('/api/support/users', support, admin);
    const supportCookie = await signIn(server, 'support', support);
    expect((await postJson('/api/support/landingpages', { ...page, url: 'anden' }, supportCookie)).status).toBe(403);
    expect((await postJson('/api/support/landingpages', page, undefined)).status).toBe(401);
  });

  it('ends a support session at logout', async () => {
    const cookie = await signInAdmin(server);
    expect((await get('/api/support/supportprofile', { headers: { cookie } })).status).toBe(200);
    await fetch(`${server.url}/api/support/logout`, { method: 'POST', headers: { cookie } });
    expect((await get('/api/support/supportprofile', { headers: { cookie } })).status).toBe(401);
  });

  it('the session calls say whether there is a session, 200 either way (the sign-in screens ask them: no 401 in a visitor’s console)', async () => {
    const session = async (path: string, cookie?: string) => {
      const answer = await get(path, cookie ? { headers: { cookie } } : {});
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toContain('no-store');
      return (await answer.json()) as { signedIn: boolean };
    };
    const support = await signInAdmin(server);
    await server.db.insert(accounts).values({ email: 'session@example.test', passwordHash: await hashPassword('advertiser-pass-2'), activatedAt: new Date() });
    const advertiser = await signIn(server, 'frontend', { email: 'session@example.test', password: 'advertiser-pass-2' });
    expect(await session('/api/support/session')).toEqual({ signedIn: false });
    expect(await session('/api/support/session', support)).toEqual({ signedIn: true });
    expect(await session('/api/support/session', advertiser)).toEqual({ signedIn: false });
    expect(await session('/api/frontend/session')).toEqual({ signedIn: false });
    expect(await session('/api/frontend/session', advertiser)).toEqual({ signedIn: true });
    // A session's kind is its own: the support session is no advertiser's.
    expect(await session('/api/frontend/session', support)).toEqual({ signedIn: false });
  });
});

describe('the first support user', () => {
  it('is created when only a disabled demo moderator exists, and not again once an Administration user exists', async () => {
    const { ensureBootstrapAdmin } = await import('#server/domain/support-users/save-support-user.ts');
    const { supportUsers } = await import('#server/db/schema.ts');
    const { openTestDatabase } = await import('#tests/support/test-server.ts');
    const { handle, drop } = await openTestDatabase();
    try {
      await handle.db.insert(supportUsers).values({ email: 'demo@example.invalid', name: 'Demo', passwordHash: '!', permissions: ['Support'], disabledAt: new Date() });
      const ctx = { db: handle.db, actor: { type: 'system' as const }, events: { publish: () => {} }, now: () => new Date() };
      const first = await ensureBootstrapAdmin(ctx, { email: 'boss@example.test', password: undefined, generate: () => 'generated-password-123' });
      expect(first).toEqual({ created: true, email: 'boss@example.test', generatedPassword: 'generated-password-123' });
      const second = await ensureBootstrapAdmin(ctx, { email: 'other@example.test', password: 'x'.repeat(12), generate: () => 'unused' });
      expect(second.created).toBe(false);
    } finally {
      await drop();
    }
  });
});

describe('footer info', () => {
  it('links services and articles by their site paths in the asked language', async () => {
    const { landingPages } = await import('#server/db/schema.ts');
    for (const locale of ['da', 'en']) {
      await server.db.insert(landingPages).values({ type: 'service', locale, url: 'thaimassage', title: 'Thaimassage', publishedAt: new Date() });
    }
    const da = await (await get('/api/frontend/frontpagefooterinfo')).json();
    const en = await (await get('/api/frontend/frontpagefooterinfo?Locale=en')).json();
    for (const link of [...da.services, ...da.articles]) expect(link.url).toMatch(/^\/(service|artikler)\/[a-z0-9-]+\/$/);
    for (const link of en.services) expect(link.url).toMatch(/^\/en\/service\/[a-z0-9-]+\/$/);
    expect(da.services.length).toBeGreaterThan(0);
  });
});
