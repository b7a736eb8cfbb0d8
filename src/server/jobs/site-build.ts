import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { siteBuilds } from '../db/schema.ts';

export const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

export type SiteBuildOptions = {
  /** Where builds live: builds/<id>/ and the `current` link that is served. */
  siteDir: string;
  /** The API the build reads its data from (our own server). */
  apiUrl: string;
  siteUrl: string;
  log: Logger;
  db?: Db;
  timeoutMs?: number;
};

export type SiteBuildResult = { folder: string; pages: number; durationMs: number };

export type BuildInfo = { id: string; finishedAt: string; pages: number; durationMs: number };

export function currentSiteDir(siteDir: string): string {
  return path.join(siteDir, 'current');
}

/** The info file of the served build, or null before the first good build. */
export async function readCurrentBuildInfo(siteDir: string): Promise<BuildInfo | null> {
  try {
    return JSON.parse(await readFile(path.join(currentSiteDir(siteDir), '.build-info.json'), 'utf8')) as BuildInfo;
  } catch {
    return null;
  }
}

async function countPages(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).length;
}

function runAstroBuild(outDir: string, options: SiteBuildOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const tail: string[] = [];
    const child = spawn(process.execPath, [path.join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: projectRoot,
      env: {
        ...process.env,
        API_URL: options.apiUrl,
        SITE_URL: options.siteUrl,
        SITE_OUT_DIR: outDir,
        ASTRO_TELEMETRY_DISABLED: '1',
        NODE_ENV: 'production',
      },
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

/** Points `current` at a build folder atomically (a new symlink renamed over the old one). */
async function swapCurrent(siteDir: string, folder: string): Promise<void> {
  const link = currentSiteDir(siteDir);
  const tmp = `${link}.${process.pid}.${Date.now()}`;
  await symlink(path.relative(siteDir, folder), tmp);
  await rename(tmp, link);
}

/** Keeps the served build and the one before it (pages still open in a browser load their assets). */
async function pruneBuilds(siteDir: string, keep: number): Promise<void> {
  const buildsDir = path.join(siteDir, 'builds');
  const current = existsSync(currentSiteDir(siteDir)) ? path.basename(await readlink(currentSiteDir(siteDir))) : '';
  const names = (await readdir(buildsDir)).filter((name) => name !== current);
  const withTimes = await Promise.all(
    names.map(async (name) => ({ name, mtime: (await stat(path.join(buildsDir, name))).mtimeMs })),
  );
  withTimes.sort((a, b) => b.mtime - a.mtime);
  for (const old of withTimes.slice(Math.max(0, keep - 1))) {
    await rm(path.join(buildsDir, old.name), { recursive: true, force: true });
  }
}

/**
 * Builds the static site into a new folder and swaps it in atomically. A failed build leaves the
 * served site as it was, is recorded and logged, and rethrows (the job retries with backoff).
 */
export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildResult> {
  const started = Date.now();
  const id = `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const folder = path.join(options.siteDir, 'builds', id);
  await mkdir(path.dirname(folder), { recursive: true });
  const [record] = options.db
    ? await options.db.insert(siteBuilds).values({ status: 'running', folder }).returning({ id: siteBuilds.id })
    : [];
  options.log.info({ folder }, 'site build started');
  try {
    await runAstroBuild(folder, options);
    const pages = await countPages(folder);
    if (pages === 0) throw new Error('astro build produced no pages');
    const durationMs = Date.now() - started;
    const info: BuildInfo = { id, finishedAt: new Date().toISOString(), pages, durationMs };
    await writeFile(path.join(folder, '.build-info.json'), JSON.stringify(info));
    await swapCurrent(options.siteDir, folder);
    await pruneBuilds(options.siteDir, 2);
    if (options.db && record) {
      await options.db
        .update(siteBuilds)
        .set({ status: 'succeeded', finishedAt: new Date(), pages })
        .where(eq(siteBuilds.id, record.id));
    }
    options.log.info({ pages, durationMs, pagesPerSecond: Math.round((pages / durationMs) * 1000) }, 'site build done');
    return { folder, pages, durationMs };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    if (options.db && record) {
      await options.db
        .update(siteBuilds)
        .set({ status: 'failed', finishedAt: new Date(), error: String(error).slice(0, 8000) })
        .where(eq(siteBuilds.id, record.id));
    }
    options.log.error({ err: error }, 'site build failed; the last good site stays online');
    throw error;
  }
}
