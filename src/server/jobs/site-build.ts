import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readdir, readFile, readlink, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { siteBuilds } from '../db/schema.ts';
import { searchIndexChangesSince, searchIndexVersion } from '../domain/search/search-index-log.ts';
import { writePrecompressed } from './precompress.ts';
import { removeTreeQuietly } from './remove-quietly.ts';
import type { SiteBuildMetrics } from '../metrics.ts';

export const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Defaults: a full build at least once a day; more changed adverts than this build in full. */
export const FULL_REBUILD_HOURS = 24;
export const MAX_INCREMENTAL_ADVERTS = 2000;

export type SiteBuildOptions = {
  /** Where builds live: builds/<id>/ and the `current` link that is served. */
  siteDir: string;
  /** The API the build reads its data from (our own server). */
  apiUrl: string;
  siteUrl: string;
  log: Logger;
  /** Without it every build is full (the change log of the search index is read from it). */
  db?: Db;
  timeoutMs?: number;
  /** Incremental builds only while the last full build is younger than this (hours); default 24. */
  fullRebuildHours?: number;
  /** More changed adverts than this build in full; default 2,000. */
  maxIncrementalAdverts?: number;
  /** Build in full whatever changed. */
  full?: boolean;
  /** The credential the build sends to fullprofiles (SITE_BUILD_TOKEN); default the environment's. */
  siteBuildToken?: string | undefined;
  /**
   * Write `.br` and `.gz` copies beside the built files for nginx in front (SITE_PRECOMPRESS, decision 034);
   * default off: our server compresses in memory, and at 50,000 adverts the copies of a full build took
   * longer than the build itself (docs/benchmarks/2026-11-27-serving.md).
   */
  precompress?: boolean;
  /** Each build's kind, outcome and time, for the metrics (the app's `app.metrics.siteBuilds`). */
  metrics?: SiteBuildMetrics;
};

export type BuildKind = 'full' | 'incremental';

export type SiteBuildResult = { folder: string; pages: number; durationMs: number; kind: BuildKind; advertPages: number };

export type BuildInfo = {
  id: string;
  finishedAt: string;
  pages: number;
  durationMs: number;
  kind?: BuildKind;
  /** The search index version read before the build started: every change up to it is in this build. */
  searchIndexVersion?: number;
  /** When the full build this one rests on started (itself, for a full build). */
  fullBuildAt?: string;
  /** Fingerprints of what every page is made from: the site's code and the data of the page frame. */
  sourceHash?: string;
  frameHash?: string | null;
  /** Advert pages this build made (the others of an incremental build are kept from the one before). */
  advertPages?: number;
};

export function currentSiteDir(siteDir: string): string {
  return path.join(siteDir, 'current');
}

/** The info file of a build folder, or null when it has none. */
export async function readBuildInfo(folder: string): Promise<BuildInfo | null> {
  try {
    return JSON.parse(await readFile(path.join(folder, '.build-info.json'), 'utf8')) as BuildInfo;
  } catch {
    return null;
  }
}

/** The info file of the served build, or null before the first good build. */
export function readCurrentBuildInfo(siteDir: string): Promise<BuildInfo | null> {
  return readBuildInfo(currentSiteDir(siteDir));
}

async function countPages(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).length;
}

/** Where the advert pages are, in both languages: one folder per advert, `{slug}-{id}`. */
const ADVERT_DIRS = ['annonce', path.join('en', 'annonce')];

function advertIdOfFolder(name: string): number | null {
  const match = /-(\d+)$/.exec(name);
  return match ? Number(match[1]) : null;
}

async function countAdvertPages(folder: string): Promise<number> {
  const counts = await Promise.all(ADVERT_DIRS.map((dir) => countPages(path.join(folder, dir))));
  return counts.reduce((sum, n) => sum + n, 0);
}

/**
 * V8 flags of the build's own process (not the server's, whose memory has a budget): a 64 MB young
 * generation halves the scavenges of a build that allocates a page's strings by the hundred thousand
 * (a few per cent faster in docs/benchmarks/2026-11-22.md, run 10).
 */
export const SITE_BUILD_NODE_FLAGS = ['--max-semi-space-size=64'] as const;

/**
 * `builds/node_modules`: a link to the project's packages beside the build folders. Astro's temporary
 * server chunks (`.prerender/` inside the build folder) import packages by name, and Node looks for them
 * in the folders above the chunk.
 */
const BUILD_MODULES_LINK = 'node_modules';

async function linkProjectModules(buildsDir: string): Promise<void> {
  const link = path.join(buildsDir, BUILD_MODULES_LINK);
  const target = path.join(projectRoot, 'node_modules');
  if ((await readlink(link).catch(() => null)) === target) return;
  await rm(link, { force: true });
  await symlink(target, link, 'dir');
}

async function runAstroBuild(outDir: string, options: SiteBuildOptions, extraEnv: Record<string, string>): Promise<void> {
  await linkProjectModules(path.dirname(outDir));
  return new Promise((resolve, reject) => {
    const tail: string[] = [];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      API_URL: options.apiUrl,
      SITE_URL: options.siteUrl,
      SITE_OUT_DIR: outDir,
      ASTRO_TELEMETRY_DISABLED: '1',
      NODE_ENV: 'production',
      ...(options.siteBuildToken ? { SITE_BUILD_TOKEN: options.siteBuildToken } : {}),
    };
    // A full build never inherits the incremental build's variables.
    delete env['SITE_ADVERT_IDS'];
    delete env['SITE_KEPT_PAGES_FILE'];
    // Run from the folder the builds go into, the project named by --root: Astro keeps its temporary
    // output (`.prerender/`) inside the output folder when that lies under the working directory, and
    // renames files from there into place. From the checkout it used `.astro/` in the checkout instead:
    // a data folder on another filesystem failed (EXDEV), and two builds in one checkout shared it.
    // (`linkProjectModules` lets the temporary chunks find the project's packages from there.)
    const child = spawn(process.execPath, [...SITE_BUILD_NODE_FLAGS, path.join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', projectRoot], {
      cwd: path.dirname(outDir),
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (line.trim()) tail.push(line);
      }
      tail.splice(0, Math.max(0, tail.length - 60));
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20 * 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`astro build exited with ${signal ?? code}:\n${tail.join('\n')}`));
    });
  });
}

/**
 * What the pages are made from besides data: the site's code (src/ outside src/server), public/, the
 * Astro config and the locked dependencies. Pages kept from a build made of other code would differ
 * from new ones, so a change here makes the next build full.
 */
const SOURCES = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];
const NOT_SOURCES = path.join(projectRoot, 'src', 'server');

async function hashSources(): Promise<string> {
  const files: string[] = [];
  for (const source of SOURCES) {
    const full = path.join(projectRoot, source);
    const info = await stat(full).catch(() => null);
    if (info?.isFile()) files.push(full);
    if (!info?.isDirectory()) continue;
    for (const entry of await readdir(full, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && !file.startsWith(NOT_SOURCES + path.sep)) files.push(file);
    }
  }
  files.sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(path.relative(projectRoot, file)).update('\0').update(await readFile(file)).update('\0');
  return hash.digest('hex');
}

/**
 * The data every page's frame (header, footer, title) shows, as the build reads it: website config,
 * languages, the footer's service and article links, the landing page titles. A kept advert page shows
 * the frame of the build it was made in, so a change here makes the next build full. Left out on
 * purpose: the footer's top-ten cities per kind, which move with advert counts (a kept page may show
 * them in yesterday's order until the next full build). Null when the API does not answer.
 */
const FRAME_CALLS = [
  'websiteconfig',
  'languages',
  'frontpagefooterinfo?Locale=da',
  'frontpagefooterinfo?Locale=en',
  'landingpagepages?Kind=service&Locale=da',
  'landingpagepages?Kind=service&Locale=en',
  'landingpagepages?Kind=artikler&Locale=da',
  'landingpagepages?Kind=artikler&Locale=en',
];

type FooterLinks = { services?: unknown; articles?: unknown };
type LandingLink = { url?: unknown; title?: unknown };

async function hashFrame(apiUrl: string): Promise<string | null> {
  try {
    const hash = createHash('sha256');
    for (const call of FRAME_CALLS) {
      const response = await fetch(`${apiUrl}/api/frontend/${call}`, { signal: AbortSignal.timeout(60_000) });
      if (!response.ok) return null;
      let body: unknown = await response.json();
      if (call.startsWith('frontpagefooterinfo')) body = { services: (body as FooterLinks).services, articles: (body as FooterLinks).articles };
      if (call.startsWith('landingpagepages')) body = (body as LandingLink[]).map((page) => [page.url, page.title]);
      hash.update(call).update('\0').update(JSON.stringify(body)).update('\0');
    }
    return hash.digest('hex');
  } catch {
    return null;
  }
}

export type Fingerprints = { version: number | undefined; sourceHash: string; frameHash: string | null };

export type BuildPlan =
  | { kind: 'full'; reason: string }
  | {
      kind: 'incremental';
      /** The served build the kept pages are linked from. */
      from: string;
      fullBuildAt: string;
      changedIds: number[];
      /** Advert page folders of the served build to keep, relative: every one but the changed adverts'. */
      keptAdvertDirs: string[];
    };

/** Set after an incremental build failed: the next build is full. */
function incrementalFailedMarker(siteDir: string): string {
  return path.join(siteDir, '.incremental-failed');
}

/** The advert page folders of a build, both languages, except those of the given adverts. */
async function listKeptAdvertDirs(folder: string, changed: Set<number>): Promise<{ kept: string[]; missing: number[] }> {
  const found: { dir: string; id: number }[] = [];
  const missing = new Set<number>();
  for (const dir of ADVERT_DIRS) {
    const entries = await readdir(path.join(folder, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const id = entry.isDirectory() ? advertIdOfFolder(entry.name) : null;
      if (id === null || changed.has(id)) continue;
      // A folder without its page (lost, or never written) is not kept: the advert is built again.
      if (existsSync(path.join(folder, dir, entry.name, 'index.html'))) found.push({ dir: path.join(dir, entry.name), id });
      else missing.add(id);
    }
  }
  return { kept: found.filter((entry) => !missing.has(entry.id)).map((entry) => entry.dir), missing: [...missing] };
}

/**
 * Full or incremental: incremental when the served build records the index version it was made at, the
 * change log reaches back to it, few adverts changed, its full build is recent and neither the code nor
 * the frame data changed since. Otherwise full, with the reason.
 */
async function planBuild(options: SiteBuildOptions, now: number, prints: Fingerprints): Promise<BuildPlan> {
  const full = (reason: string): BuildPlan => ({ kind: 'full', reason });
  if (options.full) return full('asked for');
  if (!options.db || prints.version === undefined) return full('no database to read changes from');
  // The served folder itself, not the `current` link, so that its info and its pages belong together.
  const from = await realpath(currentSiteDir(options.siteDir)).catch(() => null);
  const current = from ? await readBuildInfo(from) : null;
  if (!from || current?.searchIndexVersion === undefined || !current.fullBuildAt) return full('no served build with an index version');
  if (existsSync(incrementalFailedMarker(options.siteDir))) return full('the last incremental build failed');
  const hours = options.fullRebuildHours ?? FULL_REBUILD_HOURS;
  if (now - Date.parse(current.fullBuildAt) >= hours * 3_600_000) return full(`the last full build is older than ${hours} h`);
  if (current.sourceHash !== prints.sourceHash) return full('the site code changed');
  if (!prints.frameHash || current.frameHash !== prints.frameHash) return full('the page frame data changed');
  const changes = await searchIndexChangesSince(options.db, current.searchIndexVersion);
  if (!changes) return full('the change log does not reach back to the served build');
  const max = options.maxIncrementalAdverts ?? MAX_INCREMENTAL_ADVERTS;
  if (changes.advertIds.length > max) return full(`${changes.advertIds.length} adverts changed (more than ${max})`);
  const { kept, missing } = await listKeptAdvertDirs(from, new Set(changes.advertIds));
  const changedIds = [...changes.advertIds, ...missing];
  return { kind: 'incremental', from, fullBuildAt: current.fullBuildAt, changedIds, keptAdvertDirs: kept };
}

export type SiteBuildPlan = BuildPlan & Fingerprints;

/**
 * How the next build would run, and the fingerprints it records (buildSite starts with this). The index
 * version is read first, before Astro reads any data.
 */
export async function planSiteBuild(options: SiteBuildOptions, now = Date.now()): Promise<SiteBuildPlan> {
  const version = options.db ? await searchIndexVersion(options.db) : undefined;
  const [sourceHash, frameHash] = await Promise.all([hashSources(), hashFrame(options.apiUrl)]);
  const prints: Fingerprints = { version, sourceHash, frameHash };
  const plan = await planBuild(options, now, prints);
  return { ...plan, ...prints };
}

/**
 * Hard-links every file under `from` to the same place under `to` (folders made as needed); a file
 * already there is left as it is. Returns how many .html files it linked. The linked files are shared
 * with the build they come from, so nothing may ever write into them (new content is a new file).
 */
async function linkTree(from: string, to: string): Promise<number> {
  await mkdir(to, { recursive: true });
  let pages = 0;
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      pages += await linkTree(source, target);
    } else if (entry.isFile()) {
      try {
        await link(source, target);
        if (entry.name.endsWith('.html')) pages += 1;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
  return pages;
}

/** Runs `task` for every item, at most `limit` at a time. */
async function forEachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Completes an incremental build: hard-links the unchanged adverts' page folders from the served build
 * into the new one (which Astro wrote with every other page and the changed adverts' pages), and the
 * served build's assets the new one lacks (kept pages load them). Returns the pages it kept.
 */
async function keepFromServedBuild(plan: Extract<BuildPlan, { kind: 'incremental' }>, folder: string): Promise<number> {
  let kept = 0;
  await forEachLimited(plan.keptAdvertDirs, 16, async (dir) => {
    const linked = await linkTree(path.join(plan.from, dir), path.join(folder, dir));
    kept += linked;
  });
  const assets = path.join(plan.from, '_astro');
  if (existsSync(assets)) await linkTree(assets, path.join(folder, '_astro'));
  return kept;
}

/** Points `current` at a build folder atomically (a new symlink renamed over the old one). */
export async function swapCurrent(siteDir: string, folder: string): Promise<void> {
  const link = currentSiteDir(siteDir);
  const tmp = `${link}.${process.pid}.${Date.now()}`;
  await symlink(path.relative(siteDir, folder), tmp);
  await rename(tmp, link);
}

/**
 * Build folders a running build of this process writes or keeps pages from, which `pruneBuilds` leaves
 * alone: with several instances, the site follower fetches a published build and prunes while a build runs
 * here (docs/decisions/033), and it removed the build an incremental one was linking its kept pages from
 * (the build failed with ENOENT, and its retry was a full build; seen in tests/cluster/).
 */
const buildsInUse = new Map<string, number>();
const useBuild = (folder: string) => buildsInUse.set(folder, (buildsInUse.get(folder) ?? 0) + 1);
const releaseBuild = (folder: string) => {
  const uses = (buildsInUse.get(folder) ?? 1) - 1;
  if (uses > 0) buildsInUse.set(folder, uses);
  else buildsInUse.delete(folder);
};

/**
 * Keeps the served build and the one before it (pages still open in a browser load their assets).
 * Builds share kept pages as hard links, so removing one never touches a file another still has. Old
 * builds go at the lowest priority (`removeTreeQuietly`), so searches answered meanwhile do not wait.
 */
export async function pruneBuilds(siteDir: string, keep: number): Promise<void> {
  const buildsDir = path.join(siteDir, 'builds');
  const current = existsSync(currentSiteDir(siteDir)) ? path.basename(await readlink(currentSiteDir(siteDir))) : '';
  const realBuildsDir = await realpath(buildsDir);
  const names = (await readdir(buildsDir)).filter((name) => name !== current && name !== BUILD_MODULES_LINK && !buildsInUse.has(path.join(realBuildsDir, name)));
  const withTimes = await Promise.all(
    names.map(async (name) => ({ name, mtime: (await stat(path.join(buildsDir, name))).mtimeMs })),
  );
  withTimes.sort((a, b) => b.mtime - a.mtime);
  for (const old of withTimes.slice(Math.max(0, keep - 1))) {
    await removeTreeQuietly(path.join(buildsDir, old.name));
  }
}

/**
 * Builds the static site into a new folder and swaps it in atomically. A failed build leaves the
 * served site as it was, is recorded and logged, and rethrows (the job retries with backoff).
 *
 * Full: Astro makes every page. Incremental (see planBuild): Astro makes every page but the advert
 * pages of adverts that did not change since the served build; those are hard-linked from it, and the
 * sitemap lists them too (SITE_KEPT_PAGES_FILE). A changed advert that is no longer public has no page
 * in the new build, and one whose slug changed has only its new folder.
 */
export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildResult> {
  const started = Date.now();
  const id = `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const folder = path.join(options.siteDir, 'builds', id);
  await mkdir(path.dirname(folder), { recursive: true });
  // Reads the index version before Astro starts: every change logged up to it is in the data the build reads.
  const plan = await planSiteBuild(options, started);
  const [record] = options.db
    ? await options.db.insert(siteBuilds).values({ status: 'running', folder }).returning({ id: siteBuilds.id })
    : [];
  const planned = plan.kind === 'full' ? { reason: plan.reason } : { changedAdverts: plan.changedIds.length };
  options.log.info({ folder, kind: plan.kind, ...planned }, 'site build started');
  const keptPagesFile = path.join(options.siteDir, `kept-pages-${id}.json`);
  const ownFolder = path.join(await realpath(path.dirname(folder)), id);
  const inUse = plan.kind === 'incremental' ? [ownFolder, plan.from] : [ownFolder];
  inUse.forEach(useBuild);
  try {
    const env: Record<string, string> = {};
    if (plan.kind === 'incremental') {
      await writeFile(keptPagesFile, JSON.stringify(plan.keptAdvertDirs.map((dir) => `/${dir.split(path.sep).join('/')}/`)));
      env['SITE_ADVERT_IDS'] = plan.changedIds.join(',');
      env['SITE_KEPT_PAGES_FILE'] = keptPagesFile;
    }
    await runAstroBuild(folder, options, env);
    const builtPages = await countPages(folder);
    if (builtPages === 0) throw new Error('astro build produced no pages');
    const advertPages = await countAdvertPages(folder);
    const keptPages = plan.kind === 'incremental' ? await keepFromServedBuild(plan, folder) : 0;
    // Brotli and gzip copies for a web server in front (decision 034): kept files brought theirs, and
    // files with the same bytes as in the served build get its copies.
    const precompressed = options.precompress
      ? await writePrecompressed(folder, await realpath(currentSiteDir(options.siteDir)).catch(() => null))
      : { files: 0, reused: 0, durationMs: 0 };
    const pages = builtPages + keptPages;
    const durationMs = Date.now() - started;
    const info: BuildInfo = {
      id,
      finishedAt: new Date().toISOString(),
      pages,
      durationMs,
      kind: plan.kind,
      searchIndexVersion: plan.version,
      fullBuildAt: plan.kind === 'full' ? new Date(started).toISOString() : plan.fullBuildAt,
      sourceHash: plan.sourceHash,
      frameHash: plan.frameHash,
      advertPages,
    };
    await writeFile(path.join(folder, '.build-info.json'), JSON.stringify(info));
    await swapCurrent(options.siteDir, folder);
    await pruneBuilds(options.siteDir, 2);
    await rm(incrementalFailedMarker(options.siteDir), { force: true });
    if (options.db && record) {
      await options.db
        .update(siteBuilds)
        .set({ status: 'succeeded', finishedAt: new Date(), pages })
        .where(eq(siteBuilds.id, record.id));
    }
    options.log.info(
      { kind: plan.kind, pages, advertPages, keptAdvertPages: keptPages, durationMs, pagesPerSecond: Math.round((pages / durationMs) * 1000), precompressedFiles: precompressed.files, precompressReused: precompressed.reused, precompressMs: precompressed.durationMs },
      `site build done (${plan.kind}, ${advertPages} advert pages built)`,
    );
    options.metrics?.buildFinished(plan.kind, 'succeeded', durationMs / 1000);
    return { folder, pages, durationMs, kind: plan.kind, advertPages };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    // The next attempt builds in full, in case what broke was the incremental build itself.
    if (plan.kind === 'incremental') await writeFile(incrementalFailedMarker(options.siteDir), String(error).slice(0, 2000)).catch(() => {});
    if (options.db && record) {
      await options.db
        .update(siteBuilds)
        .set({ status: 'failed', finishedAt: new Date(), error: String(error).slice(0, 8000) })
        .where(eq(siteBuilds.id, record.id));
    }
    options.log.error({ err: error, kind: plan.kind }, 'site build failed; the last good site stays online');
    options.metrics?.buildFinished(plan.kind, 'failed', (Date.now() - started) / 1000);
    throw error;
  } finally {
    inUse.forEach(releaseBuild);
    await rm(keptPagesFile, { force: true });
  }
}
