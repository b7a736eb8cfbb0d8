// Astro builds the public site as static files from the frontend API (see src/lib/api/build-data.ts).
// Env: SITE_URL (canonical origin), SITE_OUT_DIR (output folder), API_URL (where the build reads its data).
// Telemetry: our scripts set ASTRO_TELEMETRY_DISABLED=1.
// The sitemap: @astrojs/sitemap writes googlesitemap-index.xml; /googlesitemap.xml answers it.
import { rename, rm, stat } from 'node:fs/promises';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';

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

export default defineConfig({
  site,
  outDir,
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory' },
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
      filter: (page) => !unlisted.some((pattern) => pattern.test(new URL(page).pathname)),
      i18n: { defaultLocale: 'da', locales: { da: 'da', en: 'en' } },
      serialize(item) {
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
