import { link, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/**
 * Compressed twins of a build's text files (`x.br`, `x.gz` beside `x`) for a web server in front that
 * serves them as they are (nginx's `brotli_static` and `gzip_static`: docs/deploy, decision 034). Our own
 * server never reads them: it compresses in memory once per file (src/server/site-files.ts).
 */

/** What is worth compressing: the types site-files.ts compresses (text, JSON, XML, SVG, the manifest). */
export const PRECOMPRESSED_FILE = /\.(html|css|js|mjs|json|xml|txt|svg|webmanifest)$/;
/** The twins' endings; a build has no other files ending so. */
export const PRECOMPRESSED_ENDINGS = ['.br', '.gz'] as const;
/** Smaller files are sent as they are (as site-files.ts does: a few bytes saved do not pay a header). */
export const PRECOMPRESS_MIN_BYTES = 1024;
/**
 * Brotli quality: 5 for pages, 11 for the hashed assets (`_astro/`). Measured on the demo site's full
 * build (1,661 files, 103.5 MB; decision 034): quality 5 took 2.4 s of CPU for 17.6 MB, 9 took 28 s for
 * 17.4 MB (1.5 % less), 11 took 118 s for 15.9 MB (10 % less). Every build makes every page but the kept
 * advert pages again, so the pages take 5. The assets (1.4 MB) take 11 for 1.8 s: 7 % fewer bytes on
 * every first visit, cached for a year.
 */
export const BROTLI_QUALITY = { pages: 5, assets: 11 } as const;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Runs `task` for every item, at most `limit` at a time. */
async function forEachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export type PrecompressResult = {
  /** Files compressed now. */
  files: number;
  /** Files whose copies were linked from the previous build (the same bytes there). */
  reused: number;
  bytesIn: number;
  durationMs: number;
};

/**
 * Links the copies of the previous build's file at the same place when it has the same bytes (a page
 * that did not change, an asset of the same hashed name), and gives the new file that file's time, so the
 * copies keep matching it and its ETag stays what browsers hold. False when there is nothing to reuse.
 */
async function reuseCopies(file: string, raw: Buffer, before: string): Promise<boolean> {
  const [original, ...copies] = await Promise.all([before, ...PRECOMPRESSED_ENDINGS.map((ending) => before + ending)].map((name) => stat(name).catch(() => null)));
  if (!original || original.size !== raw.length || copies.some((copy) => !copy?.isFile())) return false;
  if (!(await readFile(before)).equals(raw)) return false;
  for (const ending of PRECOMPRESSED_ENDINGS) await link(before + ending, file + ending);
  await utimes(file, original.atimeMs / 1000, original.mtimeMs / 1000);
  return true;
}

/**
 * Writes `x.br` (Brotli, BROTLI_QUALITY) and `x.gz` (gzip 9) beside every compressible file of a build
 * folder bigger than 1 KiB, with the original's modification time (nginx takes the twin's time for Last-Modified and
 * its ETag). A file that has both twins already is left alone: the pages and assets an incremental build
 * hard-links from the served build bring theirs. A file with the same bytes as in `previous` (the served
 * build: most pages of a rebuild, and the assets, whose names carry their hash) gets that build's copies
 * as hard links. So only pages that changed are compressed. Dot-files and
 * dot-folders (`.build-info.json`, Astro's temporary `.prerender/`) are not the site's.
 *
 * The compression runs on libuv's threads, two files at a time (the machine the server shares has few
 * cores; the event loop stays free for requests meanwhile).
 */
export async function writePrecompressed(folder: string, previous: string | null = null): Promise<PrecompressResult> {
  const started = Date.now();
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const present = new Set<string>();
  const candidates: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(folder, file);
    if (relative.split(path.sep).some((part) => part.startsWith('.'))) continue;
    present.add(file);
    if (PRECOMPRESSED_FILE.test(entry.name)) candidates.push(file);
  }
  let files = 0;
  let reused = 0;
  let bytesIn = 0;
  await forEachLimited(candidates, 2, async (file) => {
    // Only twins not there yet are written: one that is there may be a hard link shared with the served build.
    const missing = PRECOMPRESSED_ENDINGS.filter((ending) => !present.has(file + ending));
    if (missing.length === 0) return;
    const info = await stat(file);
    if (info.size <= PRECOMPRESS_MIN_BYTES) return;
    const raw = await readFile(file);
    if (previous && missing.length === PRECOMPRESSED_ENDINGS.length && (await reuseCopies(file, raw, path.join(previous, path.relative(folder, file))))) {
      reused += 1;
      return;
    }
    const quality = path.relative(folder, file).startsWith(`_astro${path.sep}`) ? BROTLI_QUALITY.assets : BROTLI_QUALITY.pages;
    for (const ending of missing) {
      const body =
        ending === '.br'
          ? await brotli(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } })
          : await gzipAsync(raw, { level: 9 });
      await writeFile(file + ending, body, { flag: 'wx' });
      await utimes(file + ending, info.atimeMs / 1000, info.mtimeMs / 1000);
    }
    files += 1;
    bytesIn += raw.length;
  });
  return { files, reused, bytesIn, durationMs: Date.now() - started };
}
