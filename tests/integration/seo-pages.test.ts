/**
 * Support's SEO pages over real HTTP (issue 17, "Landing pages (SEO)"; spec §7 support "SEO pages": list
 * with Skip, Take, Id, Title, Url, TypeValue; add, delete, image delete; routes landing-pages/ and
 * landing-pages/{id}/; the frontend's landingpagepage, landingpagepages, landingpageindexpage):
 * landingpages (GET) lists every page by type, the index pages of every place even without a text, paged
 * and searchable, with a filter for pages without text; landingpage (POST) adds and changes a page with
 * its Danish and English twins, refusing addresses the site uses or another page has at the field;
 * publishlandingpage; a published page's address change leaves a 301 from the old address in both
 * languages; landingpageimage goes through the picture pipeline (a non-image refused, a PNG made AVIF and
 * WebP), deletelandingpageimage; deletelandingpage; every change audited. SEO staff only: a Support user
 * gets 403; an advertiser (no support session) and an anonymous caller 401.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { auditLog, cities, regions } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import type { SupportLandingListItem, SupportLandingPage } from '#lib/schemas/landing-page.ts';
import { call, fieldErrors } from './accounts-helpers.ts';
import { signedInPerRole } from './support-helpers.ts';

const run = promisify(execFile);

let server: TestServer;
let seo: string;
let supportOnly: string;
let advertiser: string;

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  ({ SEO: seo, Support: supportOnly, advertiser } = await signedInPerRole(server, ['SEO', 'Support', 'advertiser']));
});
afterAll(async () => {
  await server?.close();
});

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

type Listed = { total: number; items: SupportLandingListItem[] };
const list = async (query: Record<string, string | number>) => {
  const response = await call(server, '/api/support/landingpages', { cookie: seo, query });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Listed;
};

const texts = (locale: 'Da' | 'En', title: string, body = '') => ({ [`title${locale}`]: title, [`body${locale}`]: body });

async function save(body: Record<string, unknown>): Promise<SupportLandingPage> {
  const response = await call(server, '/api/support/landingpage', { cookie: seo, body });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as SupportLandingPage;
}

async function publish(id: number, published: boolean): Promise<SupportLandingPage> {
  const response = await call(server, '/api/support/publishlandingpage', { cookie: seo, body: { Id: id, Published: published } });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as SupportLandingPage;
}

const auditActions = async (ids: number[]) =>
  (await server.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'landing_page'), inArray(auditLog.targetId, ids.map(String))))).map((row) => row.action);

/** A GET of a public path without following a redirect. */
const visit = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });

/** An abstract picture: colour bands, made here (no fixture). */
const bandsPng = () =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 40, g: 110, b: 170 } } })
    .composite([{ input: { create: { width: 900, height: 200, channels: 3, background: { r: 230, g: 180, b: 60 } } }, top: 200, left: 0 }])
    .png()
    .toBuffer();

function uploadImage(cookie: string | undefined, fields: Record<string, string>, file: { name: string; type: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return fetch(`${server.url}/api/support/landingpageimage`, { method: 'POST', body: form, headers: cookie ? { cookie } : {} });
}

describe('landingpages (GET): the list of SEO pages', () => {
  it('lists the index page of every kind, kind × region and kind × city, “no text yet” before anyone writes one, and finds pages by Id, Title, Url, TypeValue and without text', async () => {
    const [regionRows, cityRows] = await Promise.all([server.db.select().from(regions), server.db.select().from(cities)]);
    const index = await list({ TypeValue: 'index', Take: 200 });
    expect(index.total).toBe(3 * (1 + regionRows.length + cityRows.length));
    const city = cityRows[0]!;
    const region = regionRows.find((row) => row.id === city.regionId)!;
    const placeUrl = `thaimassage/${region.slug}/${city.slug}`;
    const unwritten = (await list({ TypeValue: 'index', Url: placeUrl })).items;
    expect(unwritten).toEqual([expect.objectContaining({ id: null, type: 'index', url: placeUrl, path: `/${placeUrl}/`, hasText: false, locales: [] })]);

    // The regions and cities screen names a place by its ids.
    const byIds = await list({ TypeValue: 'index', Url: 'thaimassage', RegionId: region.id, CityId: city.id });
    expect(byIds.items.map((item) => item.url)).toEqual([placeUrl]);

    // The "no text yet" row opens a new index page for that place.
    const written = await save({ type: 'index', url: placeUrl, ...texts('Da', `Thaimassage i ${city.name}`, 'En tekst om byen.') });
    expect(written.place).toContain(city.name);
    const id = written.twins.da!.id;
    expect((await list({ TypeValue: 'index', Url: placeUrl })).items).toEqual([expect.objectContaining({ id, hasText: true })]);
    expect((await list({ TypeValue: 'index', Take: 200 })).total).toBe(index.total);
    expect((await list({ WithoutText: 'true', Url: placeUrl })).total).toBe(0);
    const withoutText = await list({ WithoutText: 'true', TypeValue: 'index', Url: 'thaimassage/', Take: 200 });
    expect(withoutText.items.length).toBeGreaterThan(0);
    expect(withoutText.items.every((item) => !item.hasText && item.url !== placeUrl)).toBe(true);

    // An unknown place is refused at the address.
    const nowhere = await call(server, '/api/support/landingpage', { cookie: seo, body: { type: 'index', url: 'escort/ingen-region', ...texts('Da', 'Ingen') } });
    expect(nowhere.status).toBe(400);
    expect(await fieldErrors(nowhere)).toEqual({ url: 'unknownPlace' });

    const url = unique('soeg');
    const free = await save({ type: 'free', url, ...texts('Da', `Søgbar ${url}`), ...texts('En', `Searchable ${url}`) });
    expect((await list({ Id: free.twins.en!.id })).items.map((item) => item.url)).toEqual([url]);
    expect((await list({ Title: `searchable ${url}` })).items.map((item) => item.id)).toEqual([free.twins.da!.id]);
    expect((await list({ Url: `/en/${url}/` })).items.map((item) => item.url)).toEqual([url]);
    expect((await list({ TypeValue: 'article', Url: url })).total).toBe(0);
    // Paged: services, articles, free pages, then the index pages.
    const first = await list({ Take: 5 });
    const second = await list({ Take: 5, Skip: 5 });
    expect(first.total).toBe(second.total);
    expect(new Set([...first.items, ...second.items].map((item) => `${item.type}/${item.url}`)).size).toBe(10);
    expect(await auditActions([id])).toEqual(['landing_page.create']);
  });
});

describe('landingpage (POST): a page and its twins', () => {
  it('refuses an address the site uses or another page has, and a language with text but no title, naming the field', async () => {
    const reserved = await call(server, '/api/support/landingpage', { cookie: seo, body: { type: 'free', url: 'escort', ...texts('Da', 'Escort') } });
    expect(reserved.status).toBe(400);
    expect(await fieldErrors(reserved)).toEqual({ url: 'urlReserved' });

    const url = unique('optaget');
    await save({ type: 'free', url, ...texts('Da', 'Først') });
    const taken = await call(server, '/api/support/landingpage', { cookie: seo, body: { type: 'free', url, ...texts('En', 'Second') } });
    expect(taken.status).toBe(409);
    expect(await fieldErrors(taken)).toEqual({ url: 'urlTaken' });

    const untitled = await call(server, '/api/support/landingpage', { cookie: seo, body: { type: 'article', url: unique('uden'), ...texts('Da', 'Titel'), bodyEn: 'Text without a title.' } });
    expect(untitled.status).toBe(400);
    expect(await fieldErrors(untitled)).toEqual({ titleEn: 'required' });

    const slash = await call(server, '/api/support/landingpage', { cookie: seo, body: { type: 'free', url: 'to/led', ...texts('Da', 'To led') } });
    expect(await fieldErrors(slash)).toEqual({ url: 'slug' });
  });

  it('publishes and unpublishes each language; a published page’s new address leaves a 301 from the old one in Danish and English', async () => {
    const oldUrl = unique('gammel');
    const page = await save({
      type: 'free',
      url: oldUrl,
      ...texts('Da', 'Tryg booking', 'Sådan booker du trygt.'),
      introDa: 'Kort fortalt.',
      ...texts('En', 'Safe booking', 'How to book safely.'),
    });
    expect(page.paths).toEqual({ da: `/${oldUrl}/`, en: `/en/${oldUrl}/` });
    expect(page.twins.da).toMatchObject({ published: false, readingMinutes: 1, intro: 'Kort fortalt.' });
    const da = page.twins.da!.id;
    const en = page.twins.en!.id;
    const publicPage = (url: string, locale: string) => call(server, '/api/frontend/landingpagepage', { query: { Kind: 'free', Url: url, Locale: locale } });
    expect((await publicPage(oldUrl, 'da')).status).toBe(404);

    server.events.length = 0;
    expect((await publish(da, true)).twins.da?.published).toBe(true);
    expect((await publish(en, true)).twins.en?.published).toBe(true);
    expect(server.events).toContainEqual(expect.objectContaining({ type: 'content.changed' }));
    expect(await (await publicPage(oldUrl, 'en')).json()).toMatchObject({ title: 'Safe booking' });
    expect((await publish(en, false)).twins.en?.published).toBe(false);
    expect((await publicPage(oldUrl, 'en')).status).toBe(404);
    await publish(en, true);

    const newUrl = unique('ny');
    const moved = await save({ id: en, type: 'free', url: newUrl, ...texts('Da', 'Tryg booking', 'Sådan booker du trygt.'), ...texts('En', 'Safe booking', 'How to book safely.') });
    expect(moved.paths.da).toBe(`/${newUrl}/`);
    expect(moved.twins.en).toMatchObject({ id: en, published: true });
    expect(await (await publicPage(newUrl, 'da')).json()).toMatchObject({ title: 'Tryg booking' });

    for (const [from, to] of [[`/${oldUrl}/`, `/${newUrl}/`], [`/en/${oldUrl}/`, `/en/${newUrl}/`]] as const) {
      const answer = await visit(from);
      expect(answer.status, from).toBe(301);
      expect(answer.headers.get('location')).toBe(to);
    }
    expect((await visit(`/${oldUrl}/?utm=x`)).headers.get('location')).toBe(`/${newUrl}/?utm=x`);

    // The Netlify deployment answers them too: its build writes them to _redirects from the API.
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'netlify-redirects-'));
    try {
      await run(process.execPath, ['scripts/netlify-redirects.ts'], { env: { ...process.env, API_URL: server.url, SITE_OUT_DIR: outDir } });
      const redirects = await readFile(path.join(outDir, '_redirects'), 'utf8');
      expect(redirects).toContain(`/${oldUrl}/  /${newUrl}/  301\n`);
      expect(redirects).toContain(`/en/${oldUrl}/  /en/${newUrl}/  301\n`);
      expect(redirects).toContain(`/api/*  ${server.url}/api/:splat  200`);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }

    // A draft's address change leaves none (nobody could have linked to it).
    const draftUrl = unique('kladde');
    const draft = await save({ type: 'article', url: draftUrl, ...texts('Da', 'Kladde') });
    await save({ id: draft.twins.da!.id, type: 'article', url: unique('kladde2'), ...texts('Da', 'Kladde') });
    expect((await visit(`/artikler/${draftUrl}/`)).status).not.toBe(301);

    const actions = await auditActions([da, en]);
    expect(actions.filter((action) => action === 'landing_page.publish')).toHaveLength(3);
    expect(actions).toContain('landing_page.unpublish');
    expect(actions.filter((action) => action === 'landing_page.change')).toHaveLength(2);
    const [change] = (await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'landing_page.change'), eq(auditLog.targetId, String(da)))));
    expect(change?.before).toMatchObject({ url: oldUrl });
    expect(change?.after).toMatchObject({ url: newUrl });

    // deletelandingpage: one language goes, its twin stays.
    expect((await call(server, '/api/support/deletelandingpage', { cookie: seo, body: { Id: en } })).status).toBe(204);
    const left = (await (await call(server, '/api/support/landingpage', { cookie: seo, query: { Id: da } })).json()) as SupportLandingPage;
    expect(left.twins).toMatchObject({ en: null, da: { id: da } });
    expect(await auditActions([en])).toContain('landing_page.delete');
  });
});

describe('landingpageimage and deletelandingpageimage: images through the picture pipeline', () => {
  it('refuses a file that is not a picture, publishes a PNG as AVIF and WebP with its alt text, and deletes it', async () => {
    const page = await save({ type: 'service', url: unique('billeder'), ...texts('Da', 'Med billeder', 'Tekst.') });
    const id = page.twins.da!.id;

    const notImage = await uploadImage(seo, { Id: String(id), Alt: 'Ikke et billede' }, { name: 'x.png', type: 'image/png', bytes: new TextEncoder().encode('not a picture at all') });
    expect(notImage.status).toBe(400);
    expect(await fieldErrors(notImage)).toEqual({ file: 'notAnImage' });

    const accepted = await uploadImage(seo, { Id: String(id), Alt: 'Blå og gule bånd' }, { name: 'baand.png', type: 'image/png', bytes: await bandsPng() });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const withImage = (await accepted.json()) as SupportLandingPage;
    const [image] = withImage.twins.da!.images;
    expect(image).toMatchObject({ alt: 'Blå og gule bånd', width: 640, widths: [320, 640] });
    const webp = await visit(`/media/${image!.key}`);
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toContain('image/webp');
    const stored = await sharp(Buffer.from(await webp.arrayBuffer())).metadata();
    expect(stored.exif).toBeUndefined();
    expect((await visit(`/media/${image!.base}-320.avif`)).status).toBe(200);
    const publicPage = await call(server, '/api/frontend/landingpagepage', { query: { Kind: 'service', Url: page.url } });
    expect(publicPage.status).toBe(404); // a draft: nothing public but the file's unguessable name

    const deleted = await call(server, '/api/support/deletelandingpageimage', { cookie: seo, body: { Id: id, Key: image!.key } });
    expect(deleted.status).toBe(200);
    expect(((await deleted.json()) as SupportLandingPage).twins.da!.images).toEqual([]);
    expect((await visit(`/media/${image!.key}`)).status).toBe(404);
    expect(await auditActions([id])).toEqual(expect.arrayContaining(['landing_page.image_add', 'landing_page.image_delete']));
  });
});

describe('SEO pages are for SEO staff', () => {
  it('refuses every call to a Support-only user (403), and asks an advertiser and an anonymous caller to sign in (401)', async () => {
    const page = await save({ type: 'free', url: unique('adgang'), ...texts('Da', 'Adgang') });
    const id = page.twins.da!.id;
    const calls: [string, { query?: Record<string, string | number>; body?: unknown }][] = [
      ['/api/support/landingpages', { query: { Take: 5 } }],
      ['/api/support/landingpages', { body: { type: 'article', url: unique('x'), title: 'X' } }],
      ['/api/support/landingpage', { query: { Id: id } }],
      ['/api/support/landingpage', { body: { id, type: 'free', url: page.url, ...texts('Da', 'Ændret') } }],
      ['/api/support/publishlandingpage', { body: { Id: id, Published: true } }],
      ['/api/support/deletelandingpageimage', { body: { Id: id, Key: 'landing-pages/x.webp' } }],
      ['/api/support/deletelandingpage', { body: { Id: id } }],
    ];
    for (const [path, options] of calls) {
      // An advertiser's session is no support session: asked to sign in, as anyone without one (support.ts).
      for (const [who, cookie, status] of [['Support', supportOnly, 403], ['advertiser', advertiser, 401], ['anonymous', undefined, 401]] as const) {
        const answer = await call(server, path, { ...options, ...(cookie ? { cookie } : {}) });
        expect(answer.status, `${who} ${path}`).toBe(status);
      }
    }
    const png = { name: 'a.png', type: 'image/png', bytes: await bandsPng() };
    expect((await uploadImage(supportOnly, { Id: String(id) }, png)).status).toBe(403);
    expect((await uploadImage(advertiser, { Id: String(id) }, png)).status).toBe(401);
    expect((await uploadImage(undefined, { Id: String(id) }, png)).status).toBe(401);
    // Nothing changed.
    expect(((await (await call(server, '/api/support/landingpage', { cookie: seo, query: { Id: id } })).json()) as SupportLandingPage).twins.da).toMatchObject({ title: 'Adgang', published: false });
  });
});
