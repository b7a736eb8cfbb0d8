// Astro builds the public site as static files from the frontend API (see src/lib/api/build-data.ts).
// Env: SITE_URL (canonical origin), SITE_OUT_DIR (output folder), API_URL (where the build reads its data).
// Telemetry: our scripts set ASTRO_TELEMETRY_DISABLED=1.
// SITE_ADVERT_IDS and SITE_KEPT_PAGES_FILE: set by the server for an incremental build (see below).
// The sitemap: @astrojs/sitemap writes googlesitemap-index.xml; /googlesitemap.xml answers it.
import { readFile, rename, rm, stat } from 'node:fs/promises';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { isReportedThin } from './src/lib/thin-pages.ts';

const site = process.env.SITE_URL || 'http://localhost:3000';
const outDir = process.env.SITE_OUT_DIR || 'dist';

/**
 * Astro writes `src/pages/en/404.astro` to `en/404/index.html`; the server (like most static hosts)
 * serves `/en/404.html` for unknown paths under /en/. Move it there after the build.
 */
function englishNotFoundPage() {
  return {
    name: 'english-not-found-page',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const root = fileURLToPath(dir);
        const from = path.join(root, 'en', '404', 'index.html');
        const exists = await stat(from).then(
          () => true,
          () => false,
        );
        if (!exists) return;
        await rename(from, path.join(root, 'en', '404.html'));
        await rm(path.join(root, 'en', '404'), { recursive: true, force: true });
      },
    },
  };
}

/** Pages that must never be in the sitemap: app shells, sign-in pages, utility pages, not-found pages. */
const unlisted = [/^\/(en\/)?(backend|support|login|impersonate|search|advert-blocked|create)\//, /\/404(\.html|\/)?$/];

/**
 * An incremental build (src/server/jobs/site-build.ts) makes only the changed adverts' pages and keeps
 * the others from the previous build: their paths come in SITE_KEPT_PAGES_FILE (a JSON list) so the
 * sitemap lists every advert page, as after a full build.
 */
const keptPages = process.env.SITE_KEPT_PAGES_FILE
  ? JSON.parse(await readFile(process.env.SITE_KEPT_PAGES_FILE, 'utf8')).map((pagePath) => new URL(pagePath, site).href)
  : [];

const sitemapLocales = { da: 'da', en: 'en' };

/** A sitemap URL's locale and its path without the locale prefix (as @astrojs/sitemap reads them). */
function localeOfUrl(url) {
  const pathname = new URL(url).pathname;
  const first = pathname.split('/')[1] ?? '';
  if (Object.hasOwn(sitemapLocales, first)) return { lang: sitemapLocales[first], path: pathname.slice(1 + first.length) || '/' };
  return { lang: sitemapLocales.da, path: pathname };
}

/**
 * hreflang twins of the sitemap's URLs, found in one pass. @astrojs/sitemap's own i18n option compares
 * every URL with every other (minutes at 100,000 pages); this gives the same links: every listed URL of
 * the same path in each language, in the sitemap's URL order, when there are at least two. `filter` sees
 * every URL before `serialize` sees the first.
 */
const twins = new Map();
/** The order @astrojs/sitemap sorts URLs in (`localeCompare(b, 'en', { numeric: true })`). */
const sitemapOrder = new Intl.Collator('en', { numeric: true }).compare;

function addTwin(url) {
  const { lang, path: key } = localeOfUrl(url);
  let links = twins.get(key);
  if (!links) twins.set(key, (links = new Map()));
  links.set(url, lang);
}

function twinLinks(url) {
  const links = twins.get(localeOfUrl(url).path);
  if (!links || links.size < 2) return undefined;
  return [...links.keys()].sort(sitemapOrder).map((twin) => ({ url: twin, lang: links.get(twin) }));
}

export default defineConfig({
  site,
  outDir,
  output: 'static',
  trailingSlash: 'always',
  // Pages render 8 at a time: with one, the build waited on each page's file write (a third of the
  // rendering time idle in a CPU profile); 8 keeps the CPU busy (docs/benchmarks/2026-11-22.md, run 10).
  build: { format: 'directory', concurrency: Number(process.env.SITE_BUILD_CONCURRENCY || 8) },
  i18n: {
    locales: ['da', 'en'],
    defaultLocale: 'da',
    routing: { prefixDefaultLocale: false },
  },
  integrations: [
    react(),
    // The sitemap of every prebuilt public page, with hreflang twins. It writes googlesitemap-index.xml
    // (+ chunks); the server and netlify.toml answer the spec's /googlesitemap.xml with it.
    sitemap({
      filenameBase: 'googlesitemap',
      customPages: keptPages,
      filter(page) {
        const pathname = new URL(page).pathname;
        const listed = !unlisted.some((pattern) => pattern.test(pathname)) && !isReportedThin(pathname);
        if (listed) addTwin(page);
        return listed;
      },
      serialize(item) {
        item.links = twinLinks(item.url);
        const danish = item.links?.find((link) => link.lang === 'da');
        if (danish) item.links = [...(item.links ?? []), { lang: 'x-default', url: danish.url }];
        return item;
      },
    }),
    englishNotFoundPage(),
  ],
  vite: {
    plugins: [tailwindcss()],
  },
  devToolbar: { enabled: false },
});
