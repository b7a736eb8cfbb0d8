import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import { writeSite } from '#tests/support/built-site.ts';
import { TRUST_MS } from '#server/site-files.ts';
import { migratedAdverts } from '#server/db/schema.ts';

const run = promisify(execFile);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ captureLogs: true });
});
afterAll(async () => {
  await server?.close();
});

const get = (p: string) => fetch(`${server.url}${p}`, { redirect: 'manual' });

describe('serving the built site', () => {
  it('answers 503 with a "being built" page before the first build, logged at debug as the README says', async () => {
    const response = await get('/');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('Siden bygges');
    // Every page asked for while the first build runs is answered so: not a record a terminal at info shows.
    await vi.waitFor(() => expect(server.logs.some((r) => r['msg'] === 'request' && (r['res'] as { statusCode?: number })?.statusCode === 503)).toBe(true));
    const answered = server.logs.filter((r) => r['msg'] === 'request' && (r['res'] as { statusCode?: number })?.statusCode === 503);
    expect(answered.map((r) => r['level'])).toEqual(answered.map(() => 20));
  });

  it('serves pages, rewrites for the client-only apps, and the 404 page in the path language', async () => {
    await writeSite(path.join(server.dataDir, 'site'), 'one', {
      'index.html': '<h1>Forside</h1>',
      'cookies/index.html': '<h1>Cookies</h1>',
      'backend/index.html': '<div id="backend-app"></div>',
      'support/index.html': '<div id="support-app"></div>',
      'search/index.html': '<div id="search"></div>',
      'en/search/index.html': '<div id="search-en"></div>',
      '404.html': '<h1>Siden findes ikke</h1>',
      'en/404.html': '<h1>Page not found</h1>',
      'advert-blocked/index.html': '<h1>Annoncen er blokeret</h1>',
      'annonce/built-page-1/index.html': '<h1>En bygget annonce</h1>',
      'escort/region-hovedstaden/koebenhavn/index.html': '<h1>Escort i København</h1>',
      'en/escort/region-hovedstaden/index.html': '<h1>Escorts in the Capital Region</h1>',
      'googlesitemap-index.xml': '<?xml version="1.0"?><sitemapindex></sitemapindex>',
      '_astro/app.abc123.js': 'console.log(1)',
      'cookies/index.html.br': 'brotli bytes for nginx',
      '.build-info.json': JSON.stringify({ id: 'one', finishedAt: new Date().toISOString(), pages: 7, durationMs: 1 }),
    });

    const home = await get('/');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Forside');
    expect(home.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');

    const asset = await get('/_astro/app.abc123.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    expect(await (await get('/backend/basic/')).text()).toContain('backend-app');
    expect(await (await get('/support/adverts/12/media/')).text()).toContain('support-app');
    expect(await (await get('/search/rolig%20massage/')).text()).toContain('id="search"');
    expect(await (await get('/en/search/calm/')).text()).toContain('search-en');

    const missing = await get('/no-such-page/');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Siden findes ikke');
    const missingEn = await get('/en/no-such-page/');
    expect(missingEn.status).toBe(404);
    expect(await missingEn.text()).toContain('Page not found');

    expect((await get('/.build-info.json')).status).toBe(404);
    // The build's precompressed copies are for nginx (docs/deploy), never answers of their own.
    expect((await get('/cookies/index.html.br')).status).toBe(404);

    const sitemap = await get('/googlesitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toContain('xml');
    expect(await sitemap.text()).toContain('sitemapindex');

    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', site: { pages: 7 } });
  });

  it('adds a trailing slash to paths without a query, permanently', async () => {
    const response = await get('/cookies');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/cookies/');
    expect((await get('/escort/region-hovedstaden')).headers.get('location')).toBe('/escort/region-hovedstaden/');
    // Not for files, queries or the API.
    expect((await get('/robots.txt')).status).not.toBe(301);
    expect((await get('/login/change?token=a&id=1')).status).not.toBe(301);
    expect((await get('/api/frontend/languages')).status).toBe(200);
  });

  it('compresses text answers', async () => {
    const response = await fetch(`${server.url}/api/frontend/searchpagelocations`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(['br', 'gzip']).toContain(response.headers.get('content-encoding'));
  });

  it("sends the card provider's success return on to the backend's payment receipt redirect (spec §2)", async () => {
    const response = await get('/api/CardBilling/Success?type=purchase&referenceID=PAY-1');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/backend/payment/receipt/?type=purchase&referenceID=PAY-1');
  });

  it('sets security headers', async () => {
    const response = await get('/');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('advert URLs (spec §2)', () => {
  it('redirects a bare id and another slug permanently to the canonical page', async () => {
    const { id } = await createAdvert(server.db, { name: 'Søs Ærlig' });
    const canonical = `/annonce/soes-aerlig-${id}/`;
    for (const from of [`/annonce/${id}/`, `/annonce/old-name-${id}/`]) {
      const response = await get(from);
      expect(response.status, from).toBe(301);
      expect(response.headers.get('location'), from).toBe(canonical);
    }
    expect((await get(`/en/annonce/${id}/`)).headers.get('location')).toBe(`/en${canonical}`);
  });

  it('lets a newly public advert be reached before its page is built, without indexing', async () => {
    const { id } = await createAdvert(server.db, { name: 'Ny Annonce' });
    const response = await get(`/annonce/ny-annonce-${id}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    expect(await response.text()).toContain('Siden findes ikke'); // the 404 page's shell renders it from the API
  });

  it('answers 404 for a hidden advert and the blocked page (404) for a locked one', async () => {
    const hidden = await createAdvert(server.db, { name: 'Skjult', status: 0, approvedAt: null });
    expect((await get(`/annonce/skjult-${hidden.id}/`)).status).toBe(404);
    const locked = await createAdvert(server.db, { name: 'Last', status: 2 });
    const response = await get(`/annonce/last-${locked.id}/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Annoncen er blokeret');
    expect((await get('/annonce/no-such-999999/')).status).toBe(404);
  });

  it('serves a built advert page as it is', async () => {
    const response = await get('/annonce/built-page-1/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('En bygget annonce');
  });
});

describe("the old site's advert addresses (issue 18: /P/{slug}--{old id}.html/)", () => {
  let nextOldId = 700_000 + Math.floor(Math.random() * 100_000);
  /** An imported advert of the old site in `state`, linked to a new advert when given. */
  async function imported(state: string, advertId: number | null = null): Promise<{ oldId: number; path: string }> {
    const oldId = (nextOldId += 1);
    await server.db.insert(migratedAdverts).values({ oldId, state, kind: 0, name: 'Gammel Annonce', oldSlug: 'gammel-annonce', advertId });
    return { oldId, path: `/P/gammel-annonce--${oldId}.html/` };
  }

  it('lead to the new advert once it is public, are gone (410) when they never will be, and are not found on the way', async () => {
    const live = await createAdvert(server.db, { name: 'Ny Plads' });
    const liveImport = await imported('live', live.id);
    for (const from of [liveImport.path, liveImport.path.slice(0, -1)]) {
      const response = await get(from);
      expect(response.status, from).toBe(301);
      expect(response.headers.get('location'), from).toBe(`/annonce/ny-plads-${live.id}/`);
    }

    // Refused by support, or deleted unclaimed after 90 days: gone for good, with the not-found page.
    for (const state of ['refused', 'deleted']) {
      const response = await get((await imported(state)).path);
      expect(response.status, state).toBe(410);
      expect(response.headers.get('x-robots-tag')).toBe('noindex');
      expect(await response.text()).toContain('Siden findes ikke');
    }
    // Claimed, then the new advert deleted by its owner: gone too.
    const deleted = await createAdvert(server.db, { name: 'Slettet', status: 3, deletedAt: new Date() });
    expect((await get((await imported('claimed', deleted.id)).path)).status).toBe(410);

    // On the way (imported, invited, claimed and waiting for approval): not found yet.
    const waiting = await createAdvert(server.db, { name: 'Venter', status: 0, approvedAt: null });
    for (const [state, advertId] of [['imported', null], ['invited', null], ['claimed', waiting.id]] as const) {
      expect((await get((await imported(state, advertId)).path)).status, state).toBe(404);
    }
  });

  it("never take an old id for one of ours: an id that was not imported is not found, even where we have that advert", async () => {
    const ours = await createAdvert(server.db, { name: 'Vores Egen' });
    expect((await get(`/P/vores-egen--${ours.id}.html/`)).status).toBe(404);
  });

  it('are written to Netlify\'s _redirects with the built adverts\' bare ids, read from the built output', async () => {
    const live = await createAdvert(server.db, { name: 'Netlify Annonce' });
    const liveImport = await imported('live', live.id);
    const refused = await imported('refused');
    const onTheWay = await imported('invited');
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'netlify-redirects-'));
    try {
      // The build's layout: a folder per advert page in both languages.
      for (const prefix of ['', 'en/']) {
        await mkdir(path.join(outDir, prefix, 'annonce', `netlify-annonce-${live.id}`), { recursive: true });
        await writeFile(path.join(outDir, prefix, 'annonce', `netlify-annonce-${live.id}`, 'index.html'), '<h1>Netlify Annonce</h1>');
      }
      await run(process.execPath, ['scripts/netlify-redirects.ts'], { env: { ...process.env, API_URL: server.url, SITE_OUT_DIR: outDir } });
      const redirects = await readFile(path.join(outDir, '_redirects'), 'utf8');
      expect(redirects).toContain(`/annonce/${live.id}/  /annonce/netlify-annonce-${live.id}/  301\n`);
      expect(redirects).toContain(`/en/annonce/${live.id}/  /en/annonce/netlify-annonce-${live.id}/  301\n`);
      expect(redirects).toContain(`${liveImport.path}  /annonce/netlify-annonce-${live.id}/  301\n`);
      expect(redirects).toContain(`${liveImport.path.slice(0, -1)}  /annonce/netlify-annonce-${live.id}/  301\n`);
      expect(redirects).toContain(`${refused.path}  /404.html  410\n`);
      expect(redirects).not.toContain(`--${onTheWay.oldId}.html`);
      expect(redirects).toContain(`/api/*  ${server.url}/api/:splat  200`);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});

describe('landing paths (spec §2: names compared normalised)', () => {
  it('redirects another spelling of a known kind, region or city to the canonical path, keeping the query', async () => {
    for (const from of ['/Escort/Region-Hovedstaden/K%C3%B8benhavn/', '/escort/region-hovedstaden/KOEBENHAVN/', '/ESCORT/region%20hovedstaden/koebenhavn/']) {
      const response = await get(from);
      expect(response.status, from).toBe(301);
      expect(response.headers.get('location'), from).toBe('/escort/region-hovedstaden/koebenhavn/');
    }
    const withQuery = await get('/escort/Region-Hovedstaden/København/?video=true');
    expect(withQuery.headers.get('location')).toBe('/escort/region-hovedstaden/koebenhavn/?video=true');
    expect((await get('/en/escort/Capital-Region-of-Denmark/')).headers.get('location')).toBe('/en/escort/region-hovedstaden/');
  });

  it('answers 404 for an unknown kind, region or city', async () => {
    expect((await get('/massage/region-hovedstaden/')).status).toBe(404);
    expect((await get('/escort/region-atlantis/')).status).toBe(404);
    expect((await get('/escort/region-hovedstaden/atlantis/')).status).toBe(404);
    expect((await get('/escort/region-hovedstaden/aarhus/')).status).toBe(404);
  });
});

/** Sends a raw HTTP request and closes the connection as soon as it is written, before any answer. */
/** Sends a request and closes the connection as soon as the first bytes of the answer arrive. */
/** A request as sent and its answer as received: status, headers, the bytes still compressed (fetch would decompress them). */
function rawRequest(url: string, method: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const received: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) received[name] = String(value);
        resolve({ status: response.statusCode ?? 0, headers: received, body: Buffer.concat(chunks) });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

async function sendAndHangUp(port: number, request: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    socket.once('data', () => {
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

describe('a client that goes away mid-answer', () => {
  it('is logged at debug, not as a server error', async () => {
    // Enough public adverts for an answer that is compressed as a stream (above 128 KiB) on its way out.
    for (let n = 0; n < 12; n += 1) {
      // Text that does not compress away: the answer stays large on the wire, and is still being sent.
      const words = Array.from({ length: 1500 }, () => randomUUID().slice(0, 8)).join(' ');
      await createAdvert(server.db, { name: `Afbrudt ${n}`, description: words });
    }
    const from = server.logs.length;
    const request = `GET /api/frontend/fullprofiles?Take=100 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${server.siteBuildToken}\r\nAccept-Encoding: br, gzip\r\n\r\n`;
    const port = Number(new URL(server.url).port);
    for (let n = 0; n < 5; n += 1) await sendAndHangUp(port, request);

    const records = () => server.logs.slice(from);
    // Every request has run to its end and was logged as a client that left (by Fastify, which sees the
    // stream closed, or by our error handler, when a write fails), never as a server error.
    const left = new Set(['client went away before the answer was sent', 'stream closed prematurely']);
    const closed = () => records().filter((r) => left.has(String(r['msg'])));
    await vi.waitFor(() => expect(new Set(closed().map((r) => r['reqId'])).size).toBe(5), { timeout: 5000 });
    expect(records().filter((r) => Number(r['level']) >= 40)).toEqual([]);
    for (const record of closed()) expect(Number(record['level'])).toBeLessThanOrEqual(30);
  });
});

describe('the fast path for built files (issue 19)', () => {
  /** Two files written alike into a site folder, with the same time, so both servers give them the same ETag. */
  const files = {
    'index.html': `<h1>Forside</h1>${'<p>Tekst der gentages. </p>'.repeat(200)}`,
    '_astro/app.abc123.js': `console.log(${'1'.repeat(2000)})`,
    'robots.txt': 'User-agent: *',
  };
  const sameTime = new Date('2026-11-01T10:00:00Z');

  it('answers a file in memory with exactly the headers and bytes Fastify answers it with', async () => {
    const slow = await startTestServer({ shareDatabaseOf: server, captureLogs: true, app: { staticFastPath: false } });
    try {
      const fast = server;
      for (const one of [fast, slow]) {
        const siteDir = path.join(one.dataDir, 'site');
        await rm(path.join(siteDir, 'current'), { force: true });
        await writeSite(siteDir, 'fast', files);
        for (const name of Object.keys(files)) await utimes(path.join(siteDir, 'builds', 'fast', name), sameTime, sameTime);
      }
      // The served folder is trusted for TRUST_MS after it was last looked up (the test before this one
      // served the build it replaced): until then either server may answer from the old one, by design.
      await new Promise((resolve) => setTimeout(resolve, TRUST_MS + 100));
      const requests: { path: string; method?: string; headers?: Record<string, string> }[] = [
        { path: '/', headers: { 'accept-encoding': 'br, gzip' } },
        { path: '/', headers: { 'accept-encoding': 'gzip' } },
        { path: '/', headers: { 'accept-encoding': 'identity' } },
        { path: '/?utm_source=x', headers: { 'accept-encoding': 'br' } },
        { path: '/', method: 'HEAD', headers: { 'accept-encoding': 'br' } },
        { path: '/_astro/app.abc123.js', headers: { 'accept-encoding': 'br' } },
        { path: '/robots.txt' },
      ];
      const answer = async (base: string, request: (typeof requests)[number], extra: Record<string, string> = {}) => {
        const response = await rawRequest(`${base}${request.path}`, request.method ?? 'GET', { ...request.headers, ...extra });
        const { date: _date, 'x-request-id': requestId, ...headers } = response.headers;
        expect(requestId).toBeTruthy();
        return { status: response.status, headers, body: response.body.toString('base64') };
      };
      for (const request of requests) {
        // Twice on each: the first fills the memory (Fastify), the second is answered from it.
        await answer(fast.url, request);
        await answer(slow.url, request);
        const ours = await answer(fast.url, request);
        expect(ours).toEqual(await answer(slow.url, request));
        if (request.method !== 'HEAD') {
          const etag = String(ours.headers['etag']);
          const notModified = await answer(fast.url, request, { 'if-none-match': etag });
          expect(notModified.status).toBe(304);
          expect(notModified).toEqual(await answer(slow.url, request, { 'if-none-match': etag }));
        }
      }
      const page = await answer(fast.url, requests[0]!);
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['permissions-policy']).toBeTruthy();
      expect(page.headers['content-encoding']).toBe('br');
      // The fast path answered on one server, never on the other; each answer logged once, as every request.
      expect(fast.logs.filter((r) => r['fastPath'] === true && r['msg'] === 'request').length).toBeGreaterThanOrEqual(requests.length);
      expect(slow.logs.filter((r) => r['fastPath'] === true)).toEqual([]);
      const id = 'fast-path-request-1';
      expect((await rawRequest(`${fast.url}/`, 'GET', { 'x-request-id': id })).headers['x-request-id']).toBe(id);
      expect(fast.logs.filter((r) => r['reqId'] === id && r['msg'] === 'request')).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

describe('a new build', () => {
  it('is served within a second of the swap, the old one until then', async () => {
    const siteDir = path.join(server.dataDir, 'site');
    const folder = path.join(siteDir, 'builds', 'two');
    await mkdir(path.join(folder, 'ny-side'), { recursive: true });
    await writeFile(path.join(folder, 'index.html'), '<h1>Ny forside</h1>');
    await writeFile(path.join(folder, '404.html'), '<h1>Siden findes ikke</h1>');
    await writeFile(path.join(folder, 'ny-side', 'index.html'), '<h1>Ny side</h1>');
    expect((await get('/ny-side/')).status).toBe(404);
    // As the build swaps it: a new link renamed over `current`.
    await symlink(path.join('builds', 'two'), path.join(siteDir, 'current.new'));
    await rename(path.join(siteDir, 'current.new'), path.join(siteDir, 'current'));
    const swapped = Date.now();
    // The served folder was last looked up before the swap, so a request made TRUST_MS (a second) after it
    // is answered from the new build, however long requests take on a busy machine (no timed bound on them).
    await new Promise((resolve) => setTimeout(resolve, swapped + TRUST_MS + 10 - Date.now()));
    expect(await (await get('/')).text()).toContain('Ny forside');
    expect(await (await get('/ny-side/')).text()).toContain('Ny side');
  });

  it('left no warning or error in the log while serving (one answer per request)', () => {
    expect(server.logs.filter((r) => r['reqId'] !== undefined && Number(r['level']) >= 40)).toEqual([]);
  });
});
