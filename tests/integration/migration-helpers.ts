/**
 * Export archives of the old site made inside the tests (docs/migration-format.md): ZIP files written by
 * yazl and abstract pictures (coloured blocks from a seed; never a photo).
 */
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { ZipFile } from 'yazl';

export type ZipEntry = { name: string; bytes: Uint8Array | string };

/** One modification time for every entry, so the same entries make the same archive (the same SHA-256). */
const ENTRY_TIME = new Date(2025, 8, 1);

/** A ZIP archive of the entries (deflated, UTF-8 names), as any zip tool writes one. */
export async function makeZip(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    const data = typeof entry.bytes === 'string' ? Buffer.from(entry.bytes, 'utf8') : Buffer.from(entry.bytes);
    zip.addBuffer(data, entry.name, { mtime: ENTRY_TIME });
  }
  zip.end();
  return buffer(zip.outputStream);
}

/** adverts.jsonl from objects (or raw lines, as given). */
export function jsonLines(lines: (Record<string, unknown> | string)[]): string {
  return `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;
}

/** A small deterministic random generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An abstract picture: a grid of 8×6 blocks of colours drawn from `seed` (different seeds give pictures
 * far apart by the pipeline's dHash), as a JPEG; `exif` writes a description and an artist into it.
 */
export async function blocksJpeg(seed: number, options: { width?: number; height?: number; exif?: boolean } = {}): Promise<Buffer> {
  const width = options.width ?? 480;
  const height = options.height ?? 360;
  const next = random(seed);
  const columns = 8;
  const rows = 6;
  const colours = Array.from({ length: columns * rows }, () => [next() * 255, next() * 255, next() * 255].map(Math.round));
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const colour = colours[Math.floor((y * rows) / height) * columns + Math.floor((x * columns) / width)]!;
      pixels.set(colour, (y * width + x) * 3);
    }
  }
  let image = sharp(pixels, { raw: { width, height, channels: 3 } });
  if (options.exif) image = image.withExif({ IFD0: { ImageDescription: 'Old site export 55.676 12.568', Artist: 'Old Site Photographer' } });
  return image.jpeg({ quality: 85 }).toBuffer();
}
