/**
 * The build's compressed copies for a web server in front (decision 034): Brotli and gzip beside every
 * compressible file over 1 KiB, with its time; none for small files, other types or dot-files; a copy
 * already there (hard-linked from the served build) is neither compressed again nor written into; a file
 * with the same bytes as in the served build gets the served build's copies.
 */
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writePrecompressed } from '#server/jobs/precompress.ts';

let dir: string;
const big = (word: string) => `<p>${word}</p>\n`.repeat(200);

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'annonce-precompress-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(file: string, content: string | Buffer): Promise<string> {
  const full = path.join(dir, file);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, content);
  return full;
}

describe('writePrecompressed', () => {
  it('writes Brotli and gzip copies of compressible files over 1 KiB, with the original time', async () => {
    const pageFile = await put('escort/index.html', big('Escort'));
    const script = await put('_astro/app.js', `const a = ${JSON.stringify(big('x'))};`);
    const sitemap = await put('googlesitemap-0.xml', big('<url/>'));
    const small = await put('robots.txt', 'User-agent: *\n');
    const picture = await put('logo.png', Buffer.alloc(4096, 7));
    const hidden = await put('.build-info.json', JSON.stringify({ pages: big('x') }));

    const result = await writePrecompressed(dir);
    expect(result.files).toBe(3);
    for (const file of [pageFile, script, sitemap]) {
      const original = await readFile(file);
      expect(brotliDecompressSync(await readFile(`${file}.br`)).equals(original), file).toBe(true);
      expect(gunzipSync(await readFile(`${file}.gz`)).equals(original), file).toBe(true);
      const time = Math.floor((await stat(file)).mtimeMs);
      expect(Math.floor((await stat(`${file}.br`)).mtimeMs), file).toBe(time);
      expect(Math.floor((await stat(`${file}.gz`)).mtimeMs), file).toBe(time);
    }
    for (const file of [small, picture, hidden]) {
      expect(existsSync(`${file}.br`), file).toBe(false);
      expect(existsSync(`${file}.gz`), file).toBe(false);
    }
  });

  it('leaves copies that are there already (hard-linked from the served build) as they are, and compresses only new files', async () => {
    const served = await mkdtemp(path.join(os.tmpdir(), 'annonce-precompress-served-'));
    try {
      await mkdir(path.join(served, 'annonce/kept-1'), { recursive: true });
      await writeFile(path.join(served, 'annonce/kept-1/index.html'), big('Kept'));
      await writePrecompressed(served);
      for (const name of ['index.html', 'index.html.br', 'index.html.gz']) {
        await mkdir(path.join(dir, 'annonce/kept-1'), { recursive: true });
        await link(path.join(served, 'annonce/kept-1', name), path.join(dir, 'annonce/kept-1', name));
      }
      const keptBrotli = await stat(path.join(served, 'annonce/kept-1/index.html.br'));
      await put('annonce/new-2/index.html', big('New'));

      const result = await writePrecompressed(dir);
      expect(result.files).toBe(1);
      expect(existsSync(path.join(dir, 'annonce/new-2/index.html.br'))).toBe(true);
      const linked = await stat(path.join(dir, 'annonce/kept-1/index.html.br'));
      expect(linked.ino).toBe(keptBrotli.ino);
      expect(linked.mtimeMs).toBe(keptBrotli.mtimeMs);
    } finally {
      await rm(served, { recursive: true, force: true });
    }
  });

  it('links the served build\'s copies for a file Astro wrote again with the same bytes, and compresses a changed one', async () => {
    const served = await mkdtemp(path.join(os.tmpdir(), 'annonce-precompress-served-'));
    try {
      await mkdir(path.join(served, 'escort'), { recursive: true });
      await writeFile(path.join(served, 'escort/index.html'), big('Escort'));
      await writeFile(path.join(served, 'index.html'), big('Forside kl. 12'));
      await writePrecompressed(served);
      const before = await stat(path.join(served, 'escort/index.html'));
      const beforeBrotli = await stat(path.join(served, 'escort/index.html.br'));
      // The new build's files are new files (Astro writes them afresh), one of them with other bytes.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const same = await put('escort/index.html', big('Escort'));
      const changed = await put('index.html', big('Forside kl. 13'));

      const result = await writePrecompressed(dir, served);
      expect(result).toMatchObject({ files: 1, reused: 1 });
      expect((await stat(`${same}.br`)).ino).toBe(beforeBrotli.ino);
      // The page keeps the served one's time, so its copies match it and its ETag stays the same.
      expect((await stat(same)).mtimeMs).toBe(before.mtimeMs);
      expect(brotliDecompressSync(await readFile(`${changed}.br`)).toString()).toContain('Forside kl. 13');
      expect(brotliDecompressSync(await readFile(path.join(served, 'index.html.br'))).toString()).toContain('Forside kl. 12');
    } finally {
      await rm(served, { recursive: true, force: true });
    }
  });
});
