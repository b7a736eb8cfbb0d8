// Astro builds the public site as static files from the frontend API (see src/lib/api/build-data.ts).
// Env: SITE_URL (canonical origin), SITE_OUT_DIR (output folder), API_URL (where the build reads its data).
// Telemetry: our scripts set ASTRO_TELEMETRY_DISABLED=1.
// The sitemap is /googlesitemap.xml (src/pages/googlesitemap.xml.ts), written from the build data.
import { rename, rm, stat } from 'node:fs/promises';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
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
    englishNotFoundPage(),
  ],
  vite: {
    plugins: [tailwindcss()],
  },
  devToolbar: { enabled: false },
});
