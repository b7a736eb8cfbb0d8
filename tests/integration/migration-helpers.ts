/**
 * Export archives of the old site made inside the tests (docs/migration-format.md): a ZIP writer
 * (deflate and CRC-32 from node:zlib) and abstract pictures (coloured blocks from a seed; never a photo).
 */
import { crc32, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';

export type ZipEntry = { name: string; bytes: Uint8Array | string };

/** A ZIP archive of the entries (deflated, UTF-8 names), as any zip tool writes one. */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.bytes === 'string' ? Buffer.from(entry.bytes, 'utf8') : Buffer.from(entry.bytes);
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x5b21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x5b21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
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
