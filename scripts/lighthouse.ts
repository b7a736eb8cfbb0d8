/**
 * `npm run lighthouse` (also `BENCH_PARTS=lighthouse npm run bench`): Lighthouse's mobile performance
 * score for one page of every public page type (issue 31, item 11: 95 or more; issue 3 asked 98 of the front
 * page, a landing page and an advert page), measured against our production server on this machine.
 *
 * 1. Starts the production server (`node scripts/start.ts`) on a free port with a fresh temporary
 *    DATA_DIR and the demo seed (LIGHTHOUSE_ADVERTS, default 320), and waits for /readyz (site built).
 *    With LIGHTHOUSE_BASE_URL it measures a server that is already running instead.
 * 2. Finds the pages: the front page, a kind's, a region's and a city's landing page, an advert page (the
 *    first escort of searchpageprofiles, and its region and city), a free-text search, the services and
 *    articles (index and one page each), the ranking, sign-in, sign-up and the cookie page.
 * 3. Runs Lighthouse (its default mobile preset: Moto G Power screen, simulated slow 4G and 4x CPU
 *    slowdown; performance category only) in the system Chromium (CHROMIUM_PATH, default
 *    /usr/bin/chromium, `--headless=new --no-sandbox`), a fresh browser profile per run, twice per page:
 *    - "returning": with the age-consent cookie, as a visitor who has passed the age gate sees the page.
 *      The gate is decided in the page from `document.cookie`, so a Cookie request header alone
 *      (Lighthouse `extraHeaders`) would not hide it: the cookie is put in the browser's cookie jar over
 *      the DevTools protocol and Lighthouse is told not to clear the origin's storage (the profile is new,
 *      so the cache is cold all the same).
 *    - "first visit": no cookie, the age gate over the page.
 * 4. Prints a table (score, FCP, LCP, TBT, CLS, JavaScript transferred, load average) and writes the
 *    summary and Lighthouse's full JSON report of each page and visit (the median run) to LIGHTHOUSE_OUT
 *    (default a new temp folder), plus summary.json.
 *
 * Total Blocking Time (30% of the score) is computed from the lengths of the main thread's tasks as the
 * wall clock saw them, times four: other processes busy on the same cores make them longer. Measure on a
 * quiet machine; the table shows the load average, and each page is run LIGHTHOUSE_RUNS times.
 *
 * Options (env): LIGHTHOUSE_ADVERTS, LIGHTHOUSE_BASE_URL, LIGHTHOUSE_OUT, LIGHTHOUSE_RUNS (runs per page
 * and visit; the median by score is reported, default 3), LIGHTHOUSE_MIN (default 95: the exit code is 1
 * when a returning-visitor score is below it), LIGHTHOUSE_PAGES (page keys, comma-separated: front, kind,
 * region, city, advert, search, services, service, articles, article, ranking, login, create, cookies;
 * default all), LIGHTHOUSE_VISITS ('returning' or 'first visit'; default both), CHROMIUM_PATH.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { type Result } from 'lighthouse';
// Lighthouse's own dependency (the launcher its CLI uses), not one of ours.
import { launch } from 'chrome-launcher';
import { AGE_CONSENT_COOKIE, AGE_CONSENT_MAX_AGE } from '../src/components/age-consent.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-flags.ts';
import { TEST_PROVIDERS_CONSENT } from '#server/config.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ADVERTS = Number(process.env['LIGHTHOUSE_ADVERTS'] ?? 320);
const RUNS = Math.max(1, Number(process.env['LIGHTHOUSE_RUNS'] ?? 3));
const MIN_SCORE = Number(process.env['LIGHTHOUSE_MIN'] ?? 95);
const CHROME = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox'];

type Visit = 'returning' | 'first visit';
type Summary = {
  page: string;
  url: string;
  visit: Visit;
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsTransferredBytes: number;
  /** Performance audits that did not pass, with Lighthouse's title and display value: where to look. */
  failing: { id: string; title: string; score: number | null; displayValue?: string }[];
  lighthouseVersion: string;
  fetchTime: string;
  /** Lighthouse's measure of this machine's speed (a desktop is about 1,500-2,500; lower scores lower). */
  benchmarkIndex: number;
  /** The machine's 1-minute load average when the run ended: other work on the cores inflates TBT. */
  loadAverage: number;
};

function log(message: string): void {
  process.stdout.write(`[lighthouse] ${message}\n`);
}

/** A TCP port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until `check` holds; fails at once when `failed` has something to say (a server that stopped). */
async function waitFor(check: () => Promise<boolean>, failed: () => string | null, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    const failure = failed();
    if (failure) throw new Error(`${failure} while waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Server = { url: string; exitCode: () => number | null; stop: () => Promise<void> };

/** The production server as `npm start` runs it, on a fresh data directory with the demo seed. */
async function startServer(dataDir: string, port: number): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...SERVER_ENV,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // A test installation: production refuses the demo seed without the operator's consent (issue 30).
      SEED_DEMO: 'true',
      ALLOW_DEMO_SEED: TEST_PROVIDERS_CONSENT,
      SEED_DEMO_ADVERTS: String(ADVERTS),
      SUPPORT_ADMIN_EMAIL: 'lighthouse@example.test',
      SUPPORT_ADMIN_PASSWORD: 'lighthouse-admin-password',
      SITE_REBUILD_MINUTES: '1440',
      NODE_ENV: 'production',
      // Production refuses to start without it; a fresh one per run.
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    exitCode: () => child.exitCode,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function isReady(url: string): Promise<boolean> {
  return (await fetch(`${url}/readyz`)).ok;
}

/** The first advert the search returns: its page, region and city. */
async function firstAdvert(url: string): Promise<{ url: string; regionSlug: string; citySlug: string }> {
  const response = await fetch(`${url}/api/frontend/searchpageprofiles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Url: '/escort/' }),
  });
  const page = (await response.json()) as { items: { url: string; regionSlug: string; citySlug: string }[] };
  const first = page.items[0];
  if (!first) throw new Error('searchpageprofiles returned no advert');
  return first;
}

/** The first page of a kind of landing page (service, artikler) in Danish. */
async function firstLandingPage(url: string, kind: 'service' | 'artikler'): Promise<string> {
  const pages = (await (await fetch(`${url}/api/frontend/landingpagepages?Kind=${kind}&Locale=da`)).json()) as { url: string }[];
  if (!pages[0]) throw new Error(`no ${kind} page`);
  return `/${kind}/${pages[0].url}/`;
}

/** One page of every public page type (issue 31, item 11), by a short name LIGHTHOUSE_PAGES can pick. */
async function publicPageTypes(url: string): Promise<{ key: string; page: string; path: string }[]> {
  const advert = await firstAdvert(url);
  const paths: [string, string][] = [
    ['front', '/'],
    ['kind', '/escort/'],
    ['region', `/escort/${advert.regionSlug}/`],
    ['city', `/escort/${advert.regionSlug}/${advert.citySlug}/`],
    ['advert', advert.url],
    ['search', '/search/anna/'],
    ['services', '/service/'],
    ['service', await firstLandingPage(url, 'service')],
    ['articles', '/artikler/'],
    ['article', await firstLandingPage(url, 'artikler')],
    ['ranking', '/ranking/'],
    ['login', '/login/'],
    ['create', '/create/'],
    ['cookies', '/cookies/'],
  ];
  return paths.map(([key, path]) => ({ key, page: `${key} ${path}`, path }));
}

/** Puts the age-consent cookie in the browser's cookie jar (DevTools protocol, browser target). */
async function setConsentCookie(debuggingPort: number, siteUrl: string): Promise<void> {
  const version = (await (await fetch(`http://127.0.0.1:${debuggingPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  try {
    const answer = new Promise<{ error?: { message: string } }>((resolve) => {
      socket.addEventListener('message', (event) => resolve(JSON.parse(String(event.data)) as { error?: { message: string } }), { once: true });
    });
    const cookie = {
      name: AGE_CONSENT_COOKIE,
      value: '1',
      url: `${siteUrl}/`,
      sameSite: 'Lax',
      expires: Math.floor(Date.now() / 1000) + AGE_CONSENT_MAX_AGE,
    };
    socket.send(JSON.stringify({ id: 1, method: 'Storage.setCookies', params: { cookies: [cookie] } }));
    const { error } = await answer;
    if (error) throw new Error(`could not set the consent cookie: ${error.message}`);
  } finally {
    socket.close();
  }
}

/** JavaScript bytes over the wire, from the resource summary (or the network requests). */
function scriptBytes(lhr: Result): number {
  const summary = lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined;
  const fromSummary = summary?.items?.find((item) => item.resourceType === 'script');
  if (fromSummary) return fromSummary.transferSize;
  const requests = lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined;
  return (requests?.items ?? []).filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

function summarise(page: string, url: string, visit: Visit, lhr: Result): Summary {
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const performance = lhr.categories['performance'];
  const failing = (performance?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
    .map((audit) => ({
      id: audit!.id,
      title: audit!.title,
      score: audit!.score,
      ...(audit!.displayValue ? { displayValue: audit!.displayValue } : {}),
    }));
  return {
    page,
    url,
    visit,
    score: Math.round((performance?.score ?? 0) * 100),
    fcpMs: Math.round(metric('first-contentful-paint')),
    lcpMs: Math.round(metric('largest-contentful-paint')),
    tbtMs: Math.round(metric('total-blocking-time')),
    cls: Number(metric('cumulative-layout-shift').toFixed(3)),
    jsTransferredBytes: scriptBytes(lhr),
    failing,
    lighthouseVersion: lhr.lighthouseVersion,
    fetchTime: lhr.fetchTime,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    loadAverage: Number(os.loadavg()[0]!.toFixed(2)),
  };
}

/**
 * One Lighthouse run; a run Lighthouse itself reports as broken (e.g. NO_NAVSTART, a trace it failed to
 * record) is tried again, up to three times.
 */
async function runLighthouse(siteUrl: string, url: string, visit: Visit): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runLighthouseOnce(siteUrl, url, visit);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.startsWith('Lighthouse: ')) throw error;
      log(`${error.message.split('.')[0]}; trying again`);
    }
  }
}

/** One Lighthouse run in a new headless Chromium with a fresh profile. */
async function runLighthouseOnce(siteUrl: string, url: string, visit: Visit): Promise<Result> {
  const chrome = await launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
  try {
    if (visit === 'returning') await setConsentCookie(chrome.port, siteUrl);
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      // Keeps the consent cookie; the profile is new, so nothing else is stored or cached.
      disableStorageReset: visit === 'returning',
    });
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

function fileName(page: string, visit: Visit): string {
  const slug = page.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'front';
  return `${slug}.${visit === 'returning' ? 'returning' : 'first-visit'}`;
}

function printTable(summaries: Summary[]): void {
  const pad = (text: string, width: number) => text.padEnd(width);
  const header = `${pad('page', 46)}${pad('visit', 13)}${pad('score', 7)}${pad('FCP ms', 8)}${pad('LCP ms', 8)}${pad('TBT ms', 8)}${pad('CLS', 7)}${pad('JS KiB', 8)}load`;
  console.log(`\n${header}\n${'-'.repeat(header.length)}`);
  for (const s of summaries) {
    console.log(
      `${pad(s.page, 46)}${pad(s.visit, 13)}${pad(String(s.score), 7)}${pad(String(s.fcpMs), 8)}${pad(String(s.lcpMs), 8)}${pad(String(s.tbtMs), 8)}${pad(String(s.cls), 7)}${pad((s.jsTransferredBytes / 1024).toFixed(1), 8)}${s.loadAverage}`,
    );
  }
  for (const s of summaries.filter((summary) => summary.failing.length > 0)) {
    console.log(`\n${s.page} (${s.visit}), audits below 0.9:`);
    for (const audit of s.failing) console.log(`  - ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
  }
}

async function main(): Promise<void> {
  const out = process.env['LIGHTHOUSE_OUT'] ?? (await mkdtemp(path.join(os.tmpdir(), 'annonce-lighthouse-')));
  await mkdir(out, { recursive: true });
  const external = process.env['LIGHTHOUSE_BASE_URL']?.replace(/\/$/, '');
  const dataDir = external ? null : await mkdtemp(path.join(os.tmpdir(), 'annonce-lighthouse-data-'));
  let server: Server | null = null;
  try {
    if (dataDir) {
      server = await startServer(dataDir, await freePort());
      log(`seeding ${ADVERTS} demo adverts and building the site in ${dataDir} (a few minutes)`);
    }
    const siteUrl = external ?? server!.url;
    const stopped = () => (server && server.exitCode() !== null ? `the server stopped (exit code ${server.exitCode()})` : null);
    await waitFor(() => isReady(siteUrl), stopped, 30 * 60_000, 'the server and its first site build');
    const wanted = process.env['LIGHTHOUSE_PAGES']?.split(',').map((key) => key.trim()).filter(Boolean);
    const pages = (await publicPageTypes(siteUrl)).filter(({ key }) => !wanted || wanted.includes(key));
    const visits = (['returning', 'first visit'] as const).filter((visit) => !process.env['LIGHTHOUSE_VISITS'] || process.env['LIGHTHOUSE_VISITS'] === visit);

    const summaries: Summary[] = [];
    for (const visit of visits) {
      for (const { page, path: pagePath } of pages) {
        const url = `${siteUrl}${pagePath}`;
        const runs: { summary: Summary; lhr: Result }[] = [];
        for (let run = 1; run <= RUNS; run += 1) {
          log(`${page} (${visit})${RUNS > 1 ? ` run ${run}/${RUNS}` : ''}`);
          const lhr = await runLighthouse(siteUrl, url, visit);
          runs.push({ summary: summarise(page, pagePath, visit, lhr), lhr });
        }
        runs.sort((a, b) => a.summary.score - b.summary.score);
        const median = runs[Math.floor((runs.length - 1) / 2)]!;
        summaries.push(median.summary);
        const name = fileName(pagePath, visit);
        await writeFile(path.join(out, `${name}.summary.json`), `${JSON.stringify(median.summary, null, 2)}\n`);
        await writeFile(path.join(out, `${name}.report.json`), JSON.stringify(median.lhr));
      }
    }
    await writeFile(
      path.join(out, 'summary.json'),
      `${JSON.stringify({ siteUrl, adverts: external ? null : ADVERTS, runsPerPage: RUNS, cpus: os.cpus().length, summaries }, null, 2)}\n`,
    );
    printTable(summaries);
    console.log(`\nJSON summaries and full reports: ${out}\n`);
    const below = summaries.filter((s) => s.visit === 'returning' && s.score < MIN_SCORE);
    if (below.length > 0) {
      console.log(`Below ${MIN_SCORE}: ${below.map((s) => `${s.page} (${s.score})`).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
