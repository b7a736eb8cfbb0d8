/**
 * `npm run bench`: the public site's speed budgets (issue 3), measured on this machine.
 *
 * 1. Generates BENCH_ADVERTS (default 50,000) demo adverts into a fresh PGlite data directory
 *    (pictures from a shared pool of generated images).
 * 2. Starts the production server on it (`node scripts/start.ts`), which builds the site; reports the
 *    build's pages/s. At the end (step 5) it renames one advert in the database as the domain does
 *    (row + refreshAdvertSearch, with the server stopped: PGlite has one process), starts the server
 *    again and times the rebuild it makes at start (the same job as after any change): full or
 *    incremental, advert pages built, build time and time until the new build is served.
 * 3. Prebuilt pages (issue 19): the front page, two landing pages and an advert page, Brotli and
 *    uncompressed, with wrk (one thread, BENCH_PAGE_CONNECTIONS connections, 2 s of unrecorded warm-up),
 *    against our server and against a plain node:http server in a process of its own answering the same
 *    headers and bytes (the reference, scripts/bench-load.ts), in alternating rounds (`sideBySide`): the
 *    ratio of the median rounds, and the reference's own rate beside it, which shows that the generator
 *    drives far more than our server's rate. Then the same pages from
 *    nginx in front (docs/deploy/nginx.conf, Debian's nginx), serving the files itself.
 * 4. searchpageprofiles (kind only; kind+region+city; five filters) and the free-text search with a typo
 *    (issue 17: p99 under 50 ms): the maximum rate with wrk, then p50/p97.5/p99 at half of it from an open
 *    loop of evenly spaced requests in a process of its own (scripts/bench-steady.ts); their cost at
 *    BENCH_SMALL_ADVERTS (5,000) vs 50,000 adverts.
 * 4b. Two instances (BENCH_DATABASE_URL only): kind+region+city through nginx in front of one instance,
 *    then of two on the same PostgreSQL (`benchTwoInstances`).
 * 5. The server's peak RSS (VmHWM) over the run (first build and load), PGlite included; then the
 *    rebuild after one advert changed (step 2).
 *
 * 6. Media (issue 5, scripts/bench-media.ts): pictures per second through the upload call against sharp
 *    alone, and search p99 at a fixed rate idle against during a batch of uploads.
 * 0. First start (issue 19, scripts/bench-first-start.ts): `npm start` on an empty data folder with the
 *    demo content, until it answers and until it serves the site (target under 20 s).
 * 0. Lighthouse (issue 31, item 11, scripts/lighthouse.ts): mobile performance of every public page type,
 *    first, on a quiet machine, against its own production server on the demo seed.
 * 0. Search terms (issue 17, scripts/bench-terms.ts): what counting a visitor's search term costs a search.
 * 7. Postbacks (issue 16, scripts/bench-postbacks.ts): the card provider's signed postbacks per second,
 *    each paying an order of its own (wrk in its own process, shown against a reference in another), their
 *    p99 at half that rate, and search p99 at a fixed rate idle against while postbacks arrive.
 * 8. Statistics (issue 18, scripts/bench-statistics.ts): two years of history added to the seeded database
 *    before the server starts, then Administration's statistics calls (their domain functions, in this
 *    process; and over HTTP with Administration's session once the server runs): p50 and p99 of each (target p99 under 300 ms).
 *
 * Options (env): BENCH_ADVERTS, BENCH_SMALL_ADVERTS (0 skips the scaling run), BENCH_SECONDS (per
 * measurement, default 10), BENCH_CONNECTIONS (searches and postbacks, default 10), BENCH_PAGE_CONNECTIONS (pages, default 50), BENCH_PAGE_ROUNDS (alternating rounds of a page against its reference, 5), BENCH_DIR (default a temp dir), BENCH_KEEP=1,
 * BENCH_PARTS (lighthouse,start,terms,pages,search,instances,postbacks,media,rebuild,scaling,statistics,import: all by default), BENCH_IMPORT_ADVERTS (40), BENCH_IMPORT_PICTURES (3), BENCH_STATISTICS_RUNS (40), BENCH_MEDIA_SEARCH_RATE (200/s), BENCH_MEDIA_ROUNDS (alternating idle/during-uploads search windows, 4),
 * BENCH_POSTBACK_ORDERS (unpaid orders made for the postbacks, default 80,000), BENCH_POSTBACK_SEARCH_RATE (200/s), BENCH_POSTBACK_ROUNDS (alternating idle/with-postbacks search windows, 6), BENCH_POSTBACK_DURING_RATES (postbacks a second during them: `half` of their maximum and fixed rates, default `half,20`), BENCH_POSTBACK_HALF_SECONDS (the paced run at half their maximum, default 3 x BENCH_SECONDS),
 * BENCH_DATABASE_URL (a PostgreSQL database for the 50,000-advert run instead of PGlite, as operators run the
 * server: it is EMPTIED first unless BENCH_REUSE=1; the scaling run then seeds it again, after the big run),
 * BENCH_REUSE=1 (with BENCH_DIR and BENCH_KEEP: use the database a kept run seeded instead of seeding again;
 * the server then rebuilds incrementally at start), BENCH_SERVER_FLAGS (extra V8 flags for the server, space-separated, after SERVER_NODE_FLAGS: to compare
 * flags on the same machine state, e.g. `--liftoff-only`).
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { migrateDatabase, openDatabase, type OpenDatabaseOptions } from '#server/db/client.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-flags.ts';
import { benchMedia } from './bench-media.ts';
import { benchSearchTerms } from './bench-terms.ts';
import { BENCH_CARD, benchPostbacks, createBenchOrders } from './bench-postbacks.ts';
import { benchStatistics, benchStatisticsHttp, resetAdminTwoFactor } from './bench-statistics.ts';
import { benchImport } from './bench-import.ts';
import { benchFirstStart } from './bench-first-start.ts';
import { startReference, steadyLoad, wrk, wrkInstalled, wrkRow, type LoadRow, type RecordedAnswer, type WrkResult } from './bench-load.ts';
import { adverts } from '#server/db/schema.ts';
import { refreshAdvertSearch, refreshDueAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { seedDemo } from '#server/db/seed/seed-demo.ts';
import { builtFilePath } from '#server/static-site.ts';
import { PRECOMPRESSED_ENDINGS, writePrecompressed } from '#server/jobs/precompress.ts';
import { BROTLI_STATIC_MODULE, NGINX, startNginx } from '../tests/support/nginx.ts';

const ADVERTS = Number(process.env['BENCH_ADVERTS'] ?? 50_000);
const SMALL = Number(process.env['BENCH_SMALL_ADVERTS'] ?? 5_000);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const PAGE_CONNECTIONS = Number(process.env['BENCH_PAGE_CONNECTIONS'] ?? 50);
/** Which parts run (comma-separated): lighthouse, start, terms, pages, search, instances, postbacks, media, rebuild, scaling, statistics, import; default all. */
const PARTS = new Set((process.env['BENCH_PARTS'] ?? 'lighthouse,start,terms,pages,search,instances,postbacks,media,rebuild,scaling,statistics,import').split(',').map((p) => p.trim()));
/** The fixed search rate of the media part's comparison (idle vs during uploads). */
const MEDIA_SEARCH_RATE = Number(process.env['BENCH_MEDIA_SEARCH_RATE'] ?? 200);
const POSTBACK_ORDERS = Number(process.env['BENCH_POSTBACK_ORDERS'] ?? 80_000);
const POSTBACK_SEARCH_RATE = Number(process.env['BENCH_POSTBACK_SEARCH_RATE'] ?? 200);
const ROOT = path.resolve(import.meta.dirname, '..');
const REUSE = process.env['BENCH_REUSE'] === '1';
/** The site build's credential the bench's servers are started with (fullprofiles needs it). */
/**
 * The secrets key of every server of one bench run (production refuses to start without one): the same for
 * all, as instances of one deployment share theirs (the second instance of the instances part opens the
 * secrets the first one sealed, e.g. the administrator's two-step secret).
 */
const BENCH_SECRETS_KEY = randomBytes(32).toString('base64');
/** Administration's user the bench's servers create (the statistics part signs in with it). */
const BENCH_ADMIN = { email: 'bench@example.test', password: 'bench-admin-password' };
const BENCH_SITE_BUILD_TOKEN = randomBytes(24).toString('base64url');
const EXTRA_SERVER_FLAGS = (process.env['BENCH_SERVER_FLAGS'] ?? '').split(/\s+/).filter(Boolean);
/** BENCH_SERVER_CPUS: the cores the servers run on (taskset's list, e.g. `0`), to give them cores of their own. */
const SERVER_CPUS = process.env['BENCH_SERVER_CPUS'] ?? '';
/** PostgreSQL instead of PGlite (emptied before it is seeded). */
const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? '';

/** The database of a bench directory: BENCH_DATABASE_URL when set, else the directory's own PGlite. */
const databaseOf = (dir: string): OpenDatabaseOptions => (DATABASE_URL ? { databaseUrl: DATABASE_URL } : { pgliteDir: path.join(dir, 'db') });

type Row = LoadRow;
const rows: Row[] = [];
const facts: string[] = [];
/** Each figure is printed as soon as it is measured, so a long run that is stopped still reports. */
const record = {
  row(row: Row): void {
    rows.push(row);
    process.stdout.write(`[bench] ${row.name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors}${row.note ? `, ${row.note}` : ''}\n`);
  },
  fact(fact: string): void {
    facts.push(fact);
    process.stdout.write(`[bench] ${fact}\n`);
  },
};

function log(message: string): void {
  process.stdout.write(`[bench] ${message}\n`);
}

async function seed(dir: string, adverts: number): Promise<number> {
  const started = Date.now();
  const handle = await openDatabase(databaseOf(dir));
  try {
    // A PostgreSQL database is emptied first (a fresh PGlite directory is empty already).
    if (handle.kind === 'postgres') await handle.db.execute(sql`drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public`);
    await migrateDatabase(handle);
    await seedReference(handle.db, { siteUrl: 'http://localhost:3000' });
    await seedDemo(handle.db, { mediaDir: path.join(dir, 'media'), adverts, pictureFiles: 'shared' });
    // Index what was seeded, as the server does after its own seed (prepareDatabase).
    await refreshDueAdvertSearch(handle.db, new Date());
  } finally {
    await handle.close();
  }
  return Date.now() - started;
}

function peakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Server = {
  child: ChildProcess;
  url: string;
  /** The peak RSS over the whole run of this process (MB). */
  peak: () => number;
  /** The peak RSS since the previous phase ended (MB); the kernel's peak is reset for the next one. */
  endPhase: () => number;
  stop: () => Promise<void>;
};

async function startServer(dir: string, port: number, extraEnv: Record<string, string> = {}): Promise<Server> {
  const command = [process.execPath, ...SERVER_NODE_FLAGS, ...EXTRA_SERVER_FLAGS, 'scripts/start.ts'];
  // taskset execs node: the child's pid is the server's.
  const [program, ...args] = SERVER_CPUS ? ['taskset', '--cpu-list', SERVER_CPUS, ...command] : command;
  const child = spawn(program!, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...SERVER_ENV,
      DATABASE_URL: DATABASE_URL,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SUPPORT_ADMIN_EMAIL: BENCH_ADMIN.email,
      SUPPORT_ADMIN_PASSWORD: BENCH_ADMIN.password,
      SITE_REBUILD_MINUTES: '1440',
      NODE_ENV: 'production',
      SITE_BUILD_TOKEN: BENCH_SITE_BUILD_TOKEN,
      SECRETS_KEY: BENCH_SECRETS_KEY,
      // The real card provider's configuration, with a key of the bench's own: the postbacks part signs with it.
      PAYMENT_CARD: 'cardbilling',
      CARDBILLING_SHOP_ID: BENCH_CARD.shopId,
      CARDBILLING_SIGNATURE_KEY: BENCH_CARD.signatureKey,
      // The per-address limits (e.g. 50 postbacks a second) would cap what one load generator measures.
      RATE_LIMIT_SCALE: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRssMb(child.pid!))), 1000);
  const url = `http://127.0.0.1:${port}`;
  return {
    child,
    url,
    peak: () => Math.max(peak, peakRssMb(child.pid!)),
    endPhase: () => {
      const phase = peakRssMb(child.pid!);
      peak = Math.max(peak, phase);
      try {
        // 5: reset the peak resident set size (VmHWM) to the current one (Linux).
        writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
      } catch {
        // Not Linux, or not allowed: the next phase reports the peak so far.
      }
      return phase;
    },
    stop: async () => {
      peak = Math.max(peak, peakRssMb(child.pid!));
      clearInterval(sampler);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function readyInfo(url: string): Promise<{ builtAt: string; pages: number } | null> {
  const response = await fetch(`${url}/readyz`);
  if (!response.ok) return null;
  const body = (await response.json()) as { site: { builtAt: string; pages: number } };
  return body.site;
}

type Target = { name: string; url: string; method?: 'GET' | 'POST'; body?: string };

/** Seconds of unrecorded load before each measurement (both servers: warm caches, compiled code). */
const WARM_UP_SECONDS = 2;

/** wrk at full speed on one target, after its warm-up. */
async function fullSpeed(target: Target, headers: Record<string, string>, connections: number, seconds = SECONDS) {
  const options = { url: target.url, connections, method: target.method ?? 'GET', headers, ...(target.body ? { body: target.body } : {}) } as const;
  await wrk({ ...options, seconds: WARM_UP_SECONDS });
  return wrk({ ...options, seconds });
}

/**
 * Rounds of a page against its reference, alternating (ours, the reference, ours, ...): this machine's speed
 * drifts by a third within a minute (seen: the same server at 37,000 and then 60,000 pages a second), so
 * a ratio of two runs taken one after the other measured the drift as much as the servers. Each side
 * gets its warm-up, then BENCH_PAGE_ROUNDS (5) rounds of BENCH_SECONDS × 2 / rounds (at least 2 s); each
 * side's figures are those of its median round by rate.
 */
const PAGE_ROUNDS = Math.max(1, Number(process.env['BENCH_PAGE_ROUNDS'] ?? 5));

async function sideBySide(ours: Target, reference: Target, headers: Record<string, string>) {
  const seconds = Math.max(2, Math.round((SECONDS * 2) / PAGE_ROUNDS));
  const options = (target: Target) => ({ url: target.url, connections: PAGE_CONNECTIONS, method: target.method ?? 'GET', headers }) as const;
  await wrk({ ...options(ours), seconds: WARM_UP_SECONDS });
  await wrk({ ...options(reference), seconds: WARM_UP_SECONDS });
  const runs: { ours: WrkResult[]; ref: WrkResult[] } = { ours: [], ref: [] };
  for (let round = 0; round < PAGE_ROUNDS; round += 1) {
    runs.ours.push(await wrk({ ...options(ours), seconds }));
    runs.ref.push(await wrk({ ...options(reference), seconds }));
  }
  const median = (results: WrkResult[]) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)]!;
  return { ours: median(runs.ours), ref: median(runs.ref) };
}

/** Headers of an answer that are the connection's or the moment's, not the answer's. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** An answer as sent (status, headers, the bytes still compressed: fetch would decompress them). */
function recordAnswer(url: string, acceptEncoding: string | null): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) if (!PER_CONNECTION.has(name)) headers[name] = String(value);
          resolve({ path: new URL(url).pathname, status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks), ...(acceptEncoding ? { encoding: 'br' } : {}) });
        });
      })
      .on('error', reject);
  });
}

/**
 * Prebuilt pages, Brotli and uncompressed: our server, then the reference (a plain node:http server in a
 * process of its own with the same headers and bytes), each with wrk in a process of its own.
 */
async function benchPages(pages: Target[], workDir: string, siteDir: string): Promise<void> {
  const encodings = [
    { name: 'br', acceptEncoding: 'br, gzip' },
    { name: 'uncompressed', acceptEncoding: null },
  ];
  const answers: RecordedAnswer[] = [];
  for (const page of pages) for (const encoding of encodings) answers.push(await recordAnswer(page.url, encoding.acceptEncoding));
  const reference = await startReference(workDir, answers);
  try {
    for (const page of pages) {
      for (const encoding of encodings) {
        const headers: Record<string, string> = encoding.acceptEncoding ? { 'accept-encoding': encoding.acceptEncoding } : {};
        const name = `${page.name} [${encoding.name}]`;
        const { ours, ref } = await sideBySide(page, { ...page, url: `${reference.url}${new URL(page.url).pathname}` }, headers);
        const ratio = ours.rps / ref.rps;
        const rounds = `median of ${PAGE_ROUNDS} alternating rounds`;
        record.row(wrkRow(name, ours, `${ratio.toFixed(2)}x the reference's ${Math.round(ref.rps)}/s, ${rounds} (target 0.8x: ${ratio >= 0.8 ? 'met' : 'NOT met'})`));
        record.row(wrkRow(`${name} (reference: node:http, own process)`, ref, rounds));
      }
    }
    if (existsSync(NGINX) && existsSync(BROTLI_STATIC_MODULE)) await benchPagesThroughNginx(pages, siteDir);
    else record.fact('pages through nginx: not measured (apt-get install nginx libnginx-mod-http-brotli-static)');
  } finally {
    reference.stop();
  }
}

/**
 * The same pages from nginx with docs/deploy/nginx.conf in front of our server (one worker, as the
 * deployment file's tests run it), serving the build's files itself: what operators get with nginx in
 * front. The bench's build has no .br/.gz copies (SITE_PRECOMPRESS is off: minutes more at 50,000
 * adverts), so the copies of these pages are written here as the build writes them, and removed after.
 */
async function benchPagesThroughNginx(pages: Target[], siteDir: string): Promise<void> {
  const current = path.join(siteDir, 'current');
  const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-nginx-pages-'));
  const copies: string[] = [];
  for (const page of pages) {
    const relative = builtFilePath(new URL(page.url).pathname);
    if (relative === null) continue;
    const file = path.join(current, relative);
    for (const ending of PRECOMPRESSED_ENDINGS) if (!existsSync(file + ending)) copies.push(file + ending);
    await mkdir(path.dirname(path.join(folder, relative)), { recursive: true });
    await link(file, path.join(folder, relative));
  }
  // Only the copies of these pages: writePrecompressed on a folder of links to them, then linked beside them.
  await writePrecompressed(folder);
  for (const copy of copies) await link(path.join(folder, path.relative(current, copy)), copy).catch(() => {});
  const nginx = await startNginx({ port: 3960, upstreams: [new URL(pages[0]!.url).host], root: current });
  try {
    for (const page of pages) {
      for (const [encoding, acceptEncoding] of [['br', 'br, gzip'], ['uncompressed', null]] as const) {
        const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
        const result = await fullSpeed({ ...page, url: `${nginx.url}${new URL(page.url).pathname}` }, headers, PAGE_CONNECTIONS);
        record.row(wrkRow(`${page.name} [${encoding}] (nginx in front, docs/deploy)`, result));
      }
    }
  } finally {
    await nginx.stop();
    await Promise.all(copies.map((copy) => rm(copy, { force: true })));
    await rm(folder, { recursive: true, force: true });
  }
}

async function firstAdvertPath(url: string): Promise<string> {
  const headers = { authorization: `Bearer ${BENCH_SITE_BUILD_TOKEN}` };
  const page = (await (await fetch(`${url}/api/frontend/fullprofiles?Take=1`, { headers })).json()) as { items: { url: string }[] };
  return page.items[0]!.url;
}

async function advertPathOf(url: string, id: number): Promise<string> {
  return ((await (await fetch(`${url}/api/frontend/fullprofile?Id=${id}`)).json()) as { url: string }).url;
}

type BuildInfo = { finishedAt: string; pages: number; durationMs: number; kind?: string; advertPages?: number };

async function readBuildInfo(dir: string): Promise<BuildInfo> {
  return JSON.parse(await readFile(path.join(dir, 'site', 'current', '.build-info.json'), 'utf8')) as BuildInfo;
}

/**
 * Renames the advert of this page as the domain does (the row, then its search rows, which logs the
 * change for the incremental build). The server must be stopped: PGlite allows one process.
 */
async function changeOneAdvert(dir: string, advertPath: string): Promise<{ id: number; name: string }> {
  const id = Number(/-(\d+)\/$/.exec(advertPath)?.[1]);
  const name = `Bench Omdøbt ${Date.now()}`;
  const handle = await openDatabase(databaseOf(dir));
  try {
    await handle.db.update(adverts).set({ name, updatedAt: new Date() }).where(eq(adverts.id, id));
    await refreshAdvertSearch(handle.db, [id], new Date());
  } finally {
    await handle.close();
  }
  return { id, name };
}

async function searchTargets(url: string): Promise<Target[]> {
  const references = (await (await fetch(`${url}/api/frontend/profilesreferences`)).json()) as {
    languages: { id: number; code: string }[];
  };
  const english = references.languages.find((l) => l.code === 'en')!.id;
  const endpoint = `${url}/api/frontend/searchpageprofiles`;
  return [
    { name: 'search: kind only', url: endpoint, method: 'POST', body: JSON.stringify({ Escort: true }) },
    {
      name: 'search: kind+region+city',
      url: endpoint,
      method: 'POST',
      body: JSON.stringify({ Url: '/escort/region-hovedstaden/koebenhavn/' }),
    },
    {
      name: 'search: five filters',
      url: endpoint,
      method: 'POST',
      body: JSON.stringify({ Escort: true, AgeFrom: 22, AgeTo: 40, Languages: [english], Incall: true, Validated: true }),
    },
    // Issue 17: a typo finds nothing as typed, then the nearest known words are searched (spelling.ts).
    { name: 'free text with a typo ("thaimasage")', url: `${url}/api/frontend/searchpageprofileswithfreetext`, method: 'POST', body: JSON.stringify({ Text: 'thaimasage' }) },
  ];
}

/**
 * A search's maximum rate (wrk, full speed), then its latencies at half that rate from an open loop of
 * evenly spaced requests (a process of its own): what a visitor waits when the server is half busy.
 */
async function searchAtHalfRate(target: Target): Promise<Row> {
  const headers = { 'accept-encoding': 'br, gzip', 'content-type': 'application/json' };
  const max = await fullSpeed(target, headers, CONNECTIONS, Math.max(5, Math.round(SECONDS / 2)));
  const rate = Math.max(1, Math.floor(max.rps / 2));
  const half = await steadyLoad(target, rate, SECONDS);
  return { ...half, name: `${target.name} @ half max (${rate}/s of ${Math.round(max.rps)}/s)` };
}

/**
 * Search on PostgreSQL with two instances (issue 19): a second server on the same database (its own data
 * folder, no site build of its own), nginx with docs/deploy/nginx.conf in front of one and then of both;
 * the maximum rate (wrk) and p99 at half of it (open loop) through nginx for each. On this two-core
 * machine the instances, PostgreSQL, nginx and the load generators share the cores: the figure says what a
 * second instance costs or gains here, not on a machine per instance.
 */
async function benchTwoInstances(first: Server, searches: Target[], bigDir: string): Promise<void> {
  if (!DATABASE_URL) {
    record.fact('two instances: not measured (needs BENCH_DATABASE_URL: PGlite is one process)');
    return;
  }
  if (!existsSync(NGINX) || !existsSync(BROTLI_STATIC_MODULE)) {
    record.fact('two instances: not measured (apt-get install nginx libnginx-mod-http-brotli-static)');
    return;
  }
  const second = await startServer(`${bigDir}-instance-b`, 3902, { SITE_BUILD_ON_START: 'false' });
  try {
    await waitFor(async () => (await fetch(`${second.url}/healthz`)).ok, 5 * 60_000, 'the second instance');
    const target = searches[1]!;
    const pathOf = new URL(target.url).pathname;
    for (const upstreams of [[first.url], [first.url, second.url]]) {
      const nginx = await startNginx({ port: 3961, upstreams: upstreams.map((url) => new URL(url).host), root: path.join(bigDir, 'site', 'current') });
      try {
        const through = { ...target, url: `${nginx.url}${pathOf}` };
        const row = await searchAtHalfRate({ ...through, name: `${target.name} through nginx, ${upstreams.length} instance${upstreams.length > 1 ? 's' : ''} (PostgreSQL)` });
        record.row(row);
      } finally {
        await nginx.stop();
      }
    }
    record.fact(`second instance's peak RSS: ${second.peak()} MB`);
  } finally {
    await second.stop();
  }
}

/**
 * `npm run lighthouse` in a process of its own (it starts its own production server on the demo seed):
 * its table is printed as it goes; the fact says whether every public page type met its minimum.
 */
async function benchLighthouse(record: { fact: (text: string) => void }): Promise<void> {
  const child = spawn(process.execPath, ['scripts/lighthouse.ts'], { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'inherit', env: process.env });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  record.fact(`Lighthouse (mobile) on every public page type: ${code === 0 ? 'every returning-visitor score at or above LIGHTHOUSE_MIN (95)' : `below LIGHTHOUSE_MIN or failed (exit code ${code}): see its table above`}`);
}

async function main(): Promise<void> {
  const base = process.env['BENCH_DIR'] ?? (await mkdtemp(path.join(os.tmpdir(), 'annonce-bench-')));
  // `npm start` on an empty data folder, as a newcomer runs it (scripts/bench-first-start.ts).
  if (PARTS.has('start')) await benchFirstStart(record);
  // Counting visitors' search terms needs no server (scripts/bench-terms.ts).
  if (PARTS.has('terms')) benchSearchTerms(record);
  // Lighthouse on a phone for every public page type, first, while the machine is quiet (scripts/lighthouse.ts).
  if (PARTS.has('lighthouse')) await benchLighthouse(record);
  if ([...PARTS].every((part) => ['start', 'terms', 'lighthouse'].includes(part))) {
    console.log(`\n${facts.map((fact) => `- ${fact}`).join('\n')}\n`);
    return;
  }
  const bigDir = path.join(base, `adverts-${ADVERTS}`);
  log(`seeding ${ADVERTS} adverts into ${bigDir}`);
  if (EXTRA_SERVER_FLAGS.length > 0) record.fact(`server flags: ${[...SERVER_NODE_FLAGS, ...EXTRA_SERVER_FLAGS].join(' ')}`);
  if (DATABASE_URL) record.fact('database: PostgreSQL (BENCH_DATABASE_URL)');
  if (REUSE && (DATABASE_URL || existsSync(path.join(bigDir, 'db')))) {
    record.fact(`reusing the database seeded in ${bigDir}`);
  } else {
    const seedMs = await seed(bigDir, ADVERTS);
    record.fact(`seed ${ADVERTS} adverts: ${(seedMs / 1000).toFixed(0)} s`);
  }

  // Unpaid card orders for the postbacks part (the server must be stopped: PGlite has one process).
  const postbackPaths = PARTS.has('postbacks') ? await createBenchOrders(databaseOf(bigDir), POSTBACK_ORDERS) : [];
  if (postbackPaths.length > 0) log(`${postbackPaths.length} unpaid card orders made for the postbacks`);

  // Two years of history (not again on a reused database) and the statistics calls, in this process (the
  // server must be stopped: PGlite has one process).
  if (PARTS.has('statistics')) await benchStatistics(databaseOf(bigDir), record, { addHistory: !REUSE });
  // A kept database may hold the administrator's two-step secret sealed with an earlier run's key.
  await resetAdminTwoFactor(databaseOf(bigDir), BENCH_ADMIN.email);
  // The old site's adverts imported by the job's function with the server's picture worker (issue 18).
  if (PARTS.has('import')) await benchImport(databaseOf(bigDir), record, base);
  // Only parts that need no server: their facts are printed, no server is started.
  if ([...PARTS].every((part) => ['start', 'terms', 'import'].includes(part))) {
    console.log(`\n${facts.map((fact) => `- ${fact}`).join('\n')}\n`);
    if (!process.env['BENCH_KEEP']) await rm(base, { recursive: true, force: true });
    return;
  }

  const kept = REUSE ? await readBuildInfo(bigDir).catch(() => null) : null;
  let server = await startServer(bigDir, 3900);
  try {
    const startedAt = Date.now();
    await waitFor(async () => (await readyInfo(server.url)) !== null, 60 * 60_000, 'the first site build');
    // A kept site is served at once and rebuilt at start: measure after that rebuild, not during it.
    if (kept) await waitFor(async () => (await readyInfo(server.url))?.builtAt !== kept.finishedAt, 60 * 60_000, 'the rebuild at start');
    const info = await readBuildInfo(bigDir);
    record.fact(`server peak RSS during start and the first build: ${server.endPhase()} MB`);
    // An incremental build (a kept database) makes only the changed adverts' pages: no rate to report.
    const rate = info.kind === 'incremental' ? `incremental, ${info.advertPages ?? 0} advert pages made` : `${Math.round((info.pages / info.durationMs) * 1000)} pages/s`;
    record.fact(
      `first build: ${info.pages} pages in ${(info.durationMs / 1000).toFixed(1)} s = ${rate} (start to ready ${((Date.now() - startedAt) / 1000).toFixed(0)} s)`,
    );

    const advertPath = await firstAdvertPath(server.url);
    const pages: Target[] = [
      { name: 'front page /', url: `${server.url}/` },
      { name: 'landing /escort/', url: `${server.url}/escort/` },
      { name: 'landing /escort/region-hovedstaden/koebenhavn/', url: `${server.url}/escort/region-hovedstaden/koebenhavn/` },
      { name: `advert ${advertPath}`, url: `${server.url}${advertPath}` },
    ];
    if (!(await wrkInstalled())) throw new Error('npm run bench needs wrk (apt-get install wrk): every load is generated by it or in a process of its own');
    if (PARTS.has('pages')) await benchPages(pages, base, path.join(bigDir, 'site'));
    if (PARTS.has('statistics')) await benchStatisticsHttp(server.url, BENCH_ADMIN, record);

    const searches = await searchTargets(server.url);
    const bigSearch: Row[] = [];
    if (PARTS.has('search')) {
      for (const target of searches) {
        const row = await searchAtHalfRate(target);
        record.row(row);
        bigSearch.push(row);
      }
    }

    record.fact(`server peak RSS during the load measurements: ${server.endPhase()} MB`);

    if (PARTS.has('instances')) await benchTwoInstances(server, searches, bigDir);

    if (PARTS.has('postbacks')) {
      await benchPostbacks({
        url: server.url,
        workDir: base,
        paths: postbackPaths,
        search: { ...searches[1]!, rate: POSTBACK_SEARCH_RATE },
        record,
        seconds: SECONDS,
        connections: CONNECTIONS,
      });
      record.fact(`server peak RSS during the postback measurements: ${server.endPhase()} MB`);
    }

    if (PARTS.has('media')) {
      await benchMedia({
        url: server.url,
        workDir: base,
        search: searches[1]!,
        searchRate: MEDIA_SEARCH_RATE,
        record,
        seconds: SECONDS,
      });
      record.fact(`server peak RSS during the media measurements: ${server.endPhase()} MB`);
    }
    record.fact(`server peak RSS (VmHWM) over the run: ${server.peak()} MB`);

    // A rebuild after one advert changed (issue 3: within 2 minutes).
    if (PARTS.has('rebuild')) {
      await server.stop();
      const changed = await changeOneAdvert(bigDir, advertPath);
      const before = info;
      const restarted = Date.now();
      server = await startServer(bigDir, 3900);
      await waitFor(async () => (await readyInfo(server.url)) !== null, 10 * 60_000, 'the restart');
      const upMs = Date.now() - restarted;
      await waitFor(async () => (await readyInfo(server.url))?.builtAt !== before.finishedAt, 60 * 60_000, 'the rebuild');
      const servedMs = Date.now() - restarted;
      const rebuild = await readBuildInfo(bigDir);
      const shown = await (await fetch(`${server.url}${await advertPathOf(server.url, changed.id)}`)).text();
      record.fact(
        `rebuild after one advert changed: ${rebuild.kind ?? 'full'} build, ${rebuild.advertPages ?? '?'} advert pages built, ${rebuild.pages} pages served ` +
          `(${before.pages} before), build ${(rebuild.durationMs / 1000).toFixed(1)} s; restart to served ${(servedMs / 1000).toFixed(1)} s ` +
          `(server up in ${(upMs / 1000).toFixed(1)} s); the advert page ${shown.includes(changed.name) ? 'shows' : 'does NOT show'} the new name`,
      );
    }

    if (SMALL > 0 && PARTS.has('scaling') && bigSearch.length > 0) {
      await server.stop();
      const smallDir = path.join(base, `adverts-${SMALL}`);
      log(`seeding ${SMALL} adverts for the scaling run`);
      await seed(smallDir, SMALL);
      const small = await startServer(smallDir, 3901);
      try {
        await waitFor(async () => (await readyInfo(small.url)) !== null, 60 * 60_000, 'the small build');
        const smallTargets = await searchTargets(small.url);
        for (const [index, target] of smallTargets.entries()) {
          const row = await searchAtHalfRate({ ...target, name: `${target.name} [${SMALL}]` });
          record.row(row);
          const big = bigSearch[index]!;
          record.fact(`${target.name}: p50 ${row.p50} ms at ${SMALL} vs ${big.p50} ms at ${ADVERTS} = ${(big.p50 / Math.max(row.p50, 0.01)).toFixed(2)}x`);
        }
      } finally {
        await small.stop();
      }
    }
  } finally {
    if (server.child.exitCode === null) await server.stop();
    if (!process.env['BENCH_KEEP']) await rm(base, { recursive: true, force: true });
  }

  const pad = (text: string, width: number) => text.padEnd(width);
  const header = `${pad('target', 62)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p97.5 ms', 10)}${pad('p99 ms', 8)}${pad('errors', 8)}note`;
  console.log(`\n${header}\n${'-'.repeat(header.length + 12)}`);
  for (const row of rows) {
    console.log(
      `${pad(row.name, 62)}${pad(String(row.rps), 9)}${pad(String(row.p50), 8)}${pad(String(row.p95), 10)}${pad(String(row.p99), 8)}${pad(String(row.errors), 8)}${row.note ?? ''}`,
    );
  }
  console.log(`\n${facts.map((fact) => `- ${fact}`).join('\n')}\n`);
}

await main();
