/**
 * Browser tests against the production build served by our own server (`node scripts/start.ts`) on a real
 * port (E2E_PORT; by default a free one, chosen once per run), with a fresh data directory, Chromium from
 * the system (or CHROMIUM_PATH). No retries.
 * E2E_BASE_URL points the tests at a server that is already running instead (no webServer is started).
 *
 * Project `public-through-nginx` (issue 19, docs/deploy): the public site's specs again, through Debian's
 * nginx running docs/deploy/nginx.conf in front of the same server (E2E_NGINX_PORT; default E2E_PORT + 1
 * when E2E_PORT is given, else a second free port),
 * serving the server's built site from its data folder. Needs nginx: apt-get install nginx
 * libnginx-mod-http-brotli-static.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { SERVER_COMMAND } from './scripts/server-flags.ts';
import { CHROMIUM_LAUNCH_OPTIONS } from './tests/support/chromium.ts';
import { NGINX, nginxArgs } from './tests/support/nginx.ts';
import { freePorts } from './tests/support/free-ports.ts';

const external = process.env['E2E_BASE_URL'];
// Playwright loads this file in the runner and in every worker: choose the ports once, in the runner, and
// pass them on (workers inherit its environment), as the data dir below. E2E_PORT (and E2E_NGINX_PORT)
// choose them instead; specs that need the server's own address read E2E_PORT.
if (!external && !process.env['E2E_PORT']) {
  const [server, nginx] = freePorts(3100, 2);
  process.env['E2E_PORT'] = String(server);
  process.env['E2E_NGINX_PORT'] ??= String(nginx);
}
const port = Number(process.env['E2E_PORT'] ?? 3100);
const baseURL = external ?? `http://127.0.0.1:${port}`;

// Likewise the data dir: created once and passed on.
process.env['E2E_DATA_DIR'] ??= mkdtempSync(path.join(tmpdir(), 'annoncekatalog-e2e-'));
const dataDir = process.env['E2E_DATA_DIR'];
process.env['E2E_NGINX_PORT'] ??= String(port + 1);
const nginxPort = Number(process.env['E2E_NGINX_PORT']);
const nginxURL = `http://127.0.0.1:${nginxPort}`;
const nginxPrefix = `${dataDir}-nginx`;
/** The visitor's side of the site: what nginx serves from files or passes on (no backend or support screens). */
const PUBLIC_SPECS = [
  'age-gate',
  'front-page',
  'search',
  'advert',
  'language',
  'mobile-menu',
  'not-found',
  'ranking',
  'content',
  'redirects',
  'routes',
  'reload',
  'console-public',
].map((name) => `${name}.spec.ts`);
// The site build's credential (fullprofiles), for the server and for tests that read adverts in bulk.
process.env['E2E_SITE_BUILD_TOKEN'] ??= randomBytes(24).toString('base64url');

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    locale: 'da-DK',
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'] } },
    ...(external ? [] : [{ name: 'public-through-nginx', testMatch: PUBLIC_SPECS, use: { ...devices['Desktop Chrome'], baseURL: nginxURL } }]),
  ],
  ...(external
    ? {}
    : {
        webServer: [
          {
            command: SERVER_COMMAND,
            url: `http://127.0.0.1:${port}/readyz`,
            timeout: 5 * 60_000,
            reuseExistingServer: false,
            stdout: 'pipe',
            stderr: 'pipe',
            env: {
              PORT: String(port),
              DATA_DIR: dataDir,
              SUPPORT_ADMIN_EMAIL: 'admin@example.test',
              SUPPORT_ADMIN_PASSWORD: 'e2e-admin-password',
              SEED_DEMO_ADVERTS: '60',
              SITE_REBUILD_MINUTES: '15',
              SITE_REBUILD_DEBOUNCE_SECONDS: '2',
              // The project public-through-nginx serves the build's .br/.gz copies (docs/deploy).
              SITE_PRECOMPRESS: 'true',
              LOG_LEVEL: 'warn',
              ASTRO_TELEMETRY_DISABLED: '1',
              // Many accounts are created and signed in from 127.0.0.1: raise the account calls' limits.
              RATE_LIMIT_SCALE: '50',
              // The browser opens the site at 127.0.0.1 while SITE_URL defaults to localhost: the site's pages
              // are served from there too (state-changing API calls and the hub accept it).
              ALLOWED_ORIGINS: `${baseURL},${nginxURL}`,
              SITE_BUILD_TOKEN: process.env['E2E_SITE_BUILD_TOKEN'],
            },
          },
          {
            // nginx in front of the server above (docs/deploy/nginx.conf), ready once the server behind it is.
            command: `node tests/support/nginx-e2e.ts ${nginxPrefix} ${nginxPort} 127.0.0.1:${port} ${path.join(dataDir, 'site', 'current')} && exec ${NGINX} ${nginxArgs(nginxPrefix).join(' ')}`,
            url: `${nginxURL}/readyz`,
            timeout: 5 * 60_000,
            reuseExistingServer: false,
            stdout: 'pipe',
            stderr: 'pipe',
          },
        ],
      }),
});
