/**
 * Incremental site builds: after a full build, a rebuild makes only the changed adverts' pages (and
 * every other page), keeps the rest as hard links, and the sitemap still lists every advert page.
 * These tests run real Astro builds against the test server, so they take a while.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adverts } from '#server/db/schema.ts';
import { PROFILE_STATUS } from '#server/domain/adverts/statuses.ts';
import { refreshAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import { pruneSearchIndexLog } from '#server/domain/search/search-index-log.ts';
import { buildSite, planSiteBuild, pruneBuilds, readCurrentBuildInfo, swapCurrent, type SiteBuildOptions } from '#server/jobs/site-build.ts';
import { createAdvert, regionSlugOf } from '#tests/support/fixtures.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

const BUILD_TIMEOUT = 600_000;
const SITE_URL = 'http://localhost:3000';

let server: TestServer;
/** The server's clock runs this far ahead (the front page's adverts are one answer per minute). */
let clockOffset = 0;
let options: SiteBuildOptions;
let siteDir: string;
const ids = { renamed: 0, hidden: 0, kept: 0, added: 0 };
const urls = { renamedBefore: '', hidden: '', kept: '' };

async function advertUrl(id: number): Promise<string> {
  const response = await fetch(`${server.url}/api/frontend/fullprofile?Id=${id}`);
  return ((await response.json()) as { url: string }).url;
}

/** A file of the served build. */
const served = (file: string) => path.join(siteDir, 'current', file);
const page = (url: string, locale: 'da' | 'en' = 'da') => served(path.join(locale === 'en' ? 'en' : '', url, 'index.html'));
const read = (file: string) => readFile(file, 'utf8');

/** Every <loc> of the served sitemap (all chunks). */
async function sitemapXml(): Promise<string> {
  const names = (await readdir(served('.'))).filter((name) => /^googlesitemap-\d+\.xml$/.test(name)).sort();
  return (await Promise.all(names.map((name) => read(served(name))))).join('\n');
}

async function rename(id: number, name: string): Promise<void> {
  await server.db.update(adverts).set({ name, updatedAt: new Date() }).where(eq(adverts.id, id));
  await refreshAdvertSearch(server.db, [id], new Date());
}

/**
 * A data folder on a filesystem of its own, as a deployment with its data on a mounted volume has it
 * (issue 19: Astro once renamed files from the checkout into it, which fails across filesystems, EXDEV):
 * /dev/shm where it is another filesystem than the checkout's, else the server's data folder.
 */
async function siteDirOnAnotherFilesystem(fallback: string): Promise<string> {
  const shm = await stat('/dev/shm').catch(() => null);
  if (!shm?.isDirectory() || shm.dev === (await stat(process.cwd())).dev) return fallback;
  return path.join(await mkdtemp('/dev/shm/annonce-site-'), 'site');
}

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(Date.now() + clockOffset) });
  siteDir = await siteDirOnAnotherFilesystem(path.join(server.dataDir, 'site'));
  options = { siteDir, apiUrl: server.url, siteUrl: SITE_URL, log: pino({ level: 'silent' }), db: server.db, siteBuildToken: server.siteBuildToken, precompress: true };
  ids.renamed = (await createAdvert(server.db, { name: 'Rikke Foer' })).id;
  ids.hidden = (await createAdvert(server.db, { name: 'Hanne Skjult' })).id;
  ids.kept = (await createAdvert(server.db, { name: 'Karen Uroert' })).id;
  urls.renamedBefore = await advertUrl(ids.renamed);
  urls.hidden = await advertUrl(ids.hidden);
  urls.kept = await advertUrl(ids.kept);
});
afterAll(async () => {
  await server?.close();
  if (siteDir?.startsWith('/dev/shm/')) await rm(path.dirname(siteDir), { recursive: true, force: true });
});

describe('fullprofiles with Ids (what an incremental build reads)', () => {
  it('answers only the public adverts among the ids, and validates them', async () => {
    const hiddenLater = await createAdvert(server.db, { status: PROFILE_STATUS.Deactivated });
    const get = (query: string) => fetch(`${server.url}/api/frontend/fullprofiles?${query}`, { headers: { authorization: `Bearer ${server.siteBuildToken}` } });
    const answer = (await (await get(`Ids=${ids.kept},${hiddenLater.id},${ids.renamed}&Locale=en`)).json()) as {
      items: { id: number }[];
      nextAfterId: number | null;
    };
    expect(answer.items.map((item) => item.id)).toEqual([ids.renamed, ids.kept].sort((a, b) => a - b));
    expect(answer.nextAfterId).toBeNull();
    expect(((await (await get(`Ids=${ids.kept}&Take=1`)).json()) as { nextAfterId: number }).nextAfterId).toBe(ids.kept);
    expect(((await (await get(`Ids=${ids.kept}&AfterId=${ids.kept}`)).json()) as { items: unknown[] }).items).toEqual([]);

    for (const bad of ['Ids=1,x', 'Ids=-4', 'Ids=99999999999', `Ids=${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}`]) {
      const response = await get(bad);
      expect(response.status, bad).toBe(400);
      expect(((await response.json()) as { errors: { field: string }[] }).errors[0]?.field).toBe('Ids');
    }
  });
});

describe('incremental site builds', () => {
  it(
    'the first build is full and records the index version it was made at',
    async () => {
      expect((await planSiteBuild(options)).kind).toBe('full');
      const result = await buildSite(options);
      expect(result).toMatchObject({ kind: 'full', advertPages: 6 });
      const info = await readCurrentBuildInfo(siteDir);
      expect(info).toMatchObject({ kind: 'full', advertPages: 6, pages: result.pages });
      expect(info?.searchIndexVersion).toBeGreaterThan(0);
      expect(info?.fullBuildAt).toBeTruthy();
      expect(await read(page(urls.kept))).toContain('Karen Uroert');
      // Brotli and gzip copies beside the pages for nginx in front (decision 034); they are no pages and in no sitemap.
      expect(brotliDecompressSync(await readFile(`${page(urls.kept)}.br`)).toString()).toContain('Karen Uroert');
      expect(gunzipSync(await readFile(`${page(urls.kept)}.gz`)).toString()).toContain('Karen Uroert');
      expect(result.pages).toBe((await readdir(served('.'), { recursive: true })).filter((name) => name.endsWith('.html')).length);
      expect(await sitemapXml()).not.toMatch(/\.(br|gz)</);
    },
    BUILD_TIMEOUT,
  );

  it(
    'after a few changes builds only the changed adverts, keeps the others as hard links, and lists all in the sitemap',
    async () => {
      const before = await readCurrentBuildInfo(siteDir);
      const keptInode = (await stat(page(urls.kept))).ino;
      const keptEnInode = (await stat(page(urls.kept, 'en'))).ino;
      const keptBrotliInode = (await stat(`${page(urls.kept)}.br`)).ino;
      const previousFolder = await realpath(served('.'));

      await rename(ids.renamed, 'Rikke Efter');
      await server.db.update(adverts).set({ status: PROFILE_STATUS.Deactivated }).where(eq(adverts.id, ids.hidden));
      await refreshAdvertSearch(server.db, [ids.hidden], new Date());
      ids.added = (await createAdvert(server.db, { name: 'Nina Ny' })).id;
      const renamedAfter = await advertUrl(ids.renamed);
      const added = await advertUrl(ids.added);
      expect(renamedAfter).not.toBe(urls.renamedBefore);

      clockOffset += 60_000; // a new minute: the front page's adverts are read afresh
      const result = await buildSite(options);
      expect(result).toMatchObject({ kind: 'incremental', advertPages: 4 });
      const info = await readCurrentBuildInfo(siteDir);
      expect(info).toMatchObject({ kind: 'incremental', advertPages: 4, fullBuildAt: before?.fullBuildAt });
      expect(info?.searchIndexVersion).toBeGreaterThan(before?.searchIndexVersion ?? Infinity);
      // The same number of advert pages as before: one renamed, one gone, one new.
      expect(info?.pages).toBe(before?.pages);

      // The changed advert: its new page in both languages, its old folder gone.
      expect(await read(page(renamedAfter))).toContain('Rikke Efter');
      expect(await read(page(renamedAfter, 'en'))).toContain('Rikke Efter');
      expect(existsSync(page(urls.renamedBefore))).toBe(false);
      expect(existsSync(page(urls.renamedBefore, 'en'))).toBe(false);
      // The advert that is no longer public: no page in either language. The new one has both.
      expect(existsSync(page(urls.hidden))).toBe(false);
      expect(existsSync(page(urls.hidden, 'en'))).toBe(false);
      expect(await read(page(added))).toContain('Nina Ny');
      expect(await read(page(added, 'en'))).toContain('Nina Ny');
      // The untouched advert's pages are the previous build's files, hard-linked.
      expect((await stat(page(urls.kept))).ino).toBe(keptInode);
      expect((await stat(page(urls.kept, 'en'))).ino).toBe(keptEnInode);
      // Their compressed copies too; the new pages got theirs.
      expect((await stat(`${page(urls.kept)}.br`)).ino).toBe(keptBrotliInode);
      expect(existsSync(`${page(added)}.br`)).toBe(true);
      expect(await realpath(served('.'))).not.toBe(previousFolder);

      // Pages that show many adverts are built in full: the landing page and the front page.
      const { region, city } = await regionSlugOf(server.db, 'København');
      for (const file of [served(`escort/${region}/${city}/index.html`), served(`en/escort/${region}/${city}/index.html`), served('index.html')]) {
        const html = await read(file);
        expect(html, file).toContain('Rikke Efter');
        expect(html, file).not.toContain('Rikke Foer');
        expect(html, file).not.toContain('Hanne Skjult');
      }

      // The sitemap lists the kept advert (not rebuilt) with its hreflang twins, and the new one, not the hidden one.
      const sitemap = await sitemapXml();
      const loc = (url: string, locale: 'da' | 'en' = 'da') => `<loc>${SITE_URL}${locale === 'en' ? '/en' : ''}${url}</loc>`;
      expect(sitemap).toContain(loc(urls.kept));
      expect(sitemap).toContain(loc(urls.kept, 'en'));
      expect(sitemap).toContain(`<xhtml:link rel="alternate" hreflang="en" href="${SITE_URL}/en${urls.kept}"/>`);
      expect(sitemap).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${SITE_URL}${urls.kept}"/>`);
      expect(sitemap).toContain(loc(renamedAfter, 'en'));
      expect(sitemap).toContain(loc(added));
      expect(sitemap).not.toContain(urls.hidden);
      expect(sitemap).not.toContain(urls.renamedBefore);
    },
    BUILD_TIMEOUT,
  );

  it(
    'keeps the build it links from while the site follower swaps in a fetched build and prunes (several instances)',
    async () => {
      const keptInode = (await stat(page(urls.kept))).ino;
      const buildsDir = path.join(siteDir, 'builds');
      const before = new Set(await readdir(buildsDir));
      const running = buildSite(options);
      // Astro writes the new build's folder; meanwhile the follower of docs/decisions/033 serves a newer
      // published build and prunes, as it does after every fetch (the newest folder other than the served
      // one is kept: the running build's, so without protection the build it links from went).
      await expect.poll(async () => (await readdir(buildsDir)).some((name) => /^\d{4}-/.test(name) && !before.has(name)), { timeout: 120_000, interval: 20 }).toBe(true);
      const fetched = path.join(siteDir, 'builds', '2099-01-01T00-00-00-000Z-1');
      await mkdir(fetched, { recursive: true });
      await writeFile(path.join(fetched, '.build-info.json'), JSON.stringify({ id: path.basename(fetched), pages: 0, finishedAt: new Date().toISOString(), durationMs: 1 }));
      await swapCurrent(siteDir, fetched);
      await pruneBuilds(siteDir, 2);
      // It once removed the build the running one links from: ENOENT, and the retry was a full build.
      const result = await running;
      expect(result.kind).toBe('incremental');
      expect((await stat(page(urls.kept))).ino).toBe(keptInode);
      await rm(fetched, { recursive: true, force: true });
    },
    BUILD_TIMEOUT,
  );

  it(
    'gives the same sitemap and advert pages as a full build of the same data',
    async () => {
      const incrementalSitemap = await sitemapXml();
      const keptPage = await read(page(urls.kept, 'en'));
      const result = await buildSite({ ...options, full: true });
      expect(result.kind).toBe('full');
      expect(await sitemapXml()).toBe(incrementalSitemap);
      expect(await read(page(urls.kept, 'en'))).toBe(keptPage);
    },
    BUILD_TIMEOUT,
  );

  it('builds in full when the log no longer reaches back, too many adverts changed, or the full build is old', async () => {
    await rename(ids.renamed, 'Rikke Tredje');
    await rename(ids.kept, 'Karen Igen');
    expect(await planSiteBuild(options)).toMatchObject({ kind: 'incremental', changedIds: expect.arrayContaining([ids.renamed, ids.kept]) });
    expect(await planSiteBuild({ ...options, maxIncrementalAdverts: 1 })).toMatchObject({ kind: 'full', reason: '2 adverts changed (more than 1)' });
    expect(await planSiteBuild({ ...options, fullRebuildHours: 1 }, Date.now() + 3_600_000)).toMatchObject({
      kind: 'full',
      reason: 'the last full build is older than 1 h',
    });
    expect(await planSiteBuild({ ...options, db: undefined })).toMatchObject({ kind: 'full' });

    // Pruning keeps only the newest entry: the log no longer reaches back to the served build.
    await pruneSearchIndexLog(server.db, new Date(Date.now() + 60_000));
    expect(await planSiteBuild(options)).toMatchObject({ kind: 'full', reason: 'the change log does not reach back to the served build' });
  });

  it(
    'keeps the served site when an incremental build fails, and builds the next one in full',
    async () => {
      // A full build first, so that the next one can be incremental again.
      expect((await buildSite(options)).kind).toBe('full');
      expect(await read(page(await advertUrl(ids.kept)))).toContain('Karen Igen');
      const servedFolder = await realpath(served('.'));
      await rename(ids.kept, 'Karen Fjerde');
      expect((await planSiteBuild(options)).kind).toBe('incremental');

      await expect(buildSite({ ...options, timeoutMs: 1 })).rejects.toThrow(/astro build exited/);
      expect(await realpath(served('.'))).toBe(servedFolder);
      expect(await readdir(path.join(siteDir, 'builds'))).toContain(path.basename(servedFolder));
      expect(await planSiteBuild(options)).toMatchObject({ kind: 'full', reason: 'the last incremental build failed' });
    },
    BUILD_TIMEOUT,
  );
});
