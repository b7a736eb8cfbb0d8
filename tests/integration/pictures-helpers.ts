/**
 * Picture files made inside the tests (sharp, ffmpeg; never fixtures from elsewhere) and the multipart
 * upload call. Neutral content only: flat colours and gradients.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

const run = promisify(execFile);

export type UploadFile = { name: string; type: string; bytes: Uint8Array };

/** Uploads files as multipart/form-data (field `files`), as the browser's FormData does. */
export async function uploadFiles(baseUrl: string, urlPath: string, files: UploadFile[], cookie?: string): Promise<Response> {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return fetch(`${baseUrl}${urlPath}`, { method: 'POST', body: form, headers: cookie ? { cookie } : {} });
}

const RED = { r: 220, g: 30, b: 30 };
const BLUE = { r: 30, g: 30, b: 220 };

/** A picture whose top half is red and bottom half blue, as stored (before any orientation). */
export async function twoTone(width: number, height: number): Promise<Sharp> {
  const bottom = await sharp({ create: { width, height: Math.floor(height / 2), channels: 3, background: BLUE } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: RED } }).composite([{ input: bottom, top: height - Math.floor(height / 2), left: 0 }]);
}

/**
 * An EXIF block (APP1 payload after "Exif\0\0") with Orientation and a GPS position, little-endian TIFF:
 * IFD0 {Orientation, GPSInfo → GPS IFD}, GPS IFD {LatitudeRef N, Latitude 55°40'0", LongitudeRef E, Longitude 12°34'0"}.
 */
function exifWithGps(orientation: number): Buffer {
  const tiff = Buffer.alloc(140);
  tiff.write('II', 0, 'ascii');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  // IFD0 at 8: two entries.
  tiff.writeUInt16LE(2, 8);
  const entry = (at: number, tag: number, type: number, count: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
  };
  entry(10, 0x0112, 3, 1);
  tiff.writeUInt16LE(orientation, 18);
  entry(22, 0x8825, 4, 1);
  tiff.writeUInt32LE(38, 30);
  tiff.writeUInt32LE(0, 34);
  // GPS IFD at 38: four entries, rationals at 92 and 116.
  tiff.writeUInt16LE(4, 38);
  entry(40, 0x0001, 2, 2);
  tiff.write('N\0', 48, 'ascii');
  entry(52, 0x0002, 5, 3);
  tiff.writeUInt32LE(92, 60);
  entry(64, 0x0003, 2, 2);
  tiff.write('E\0', 72, 'ascii');
  entry(76, 0x0004, 5, 3);
  tiff.writeUInt32LE(116, 84);
  tiff.writeUInt32LE(0, 88);
  [55, 1, 40, 1, 0, 1, 12, 1, 34, 1, 0, 1].forEach((value, index) => tiff.writeUInt32LE(value, 92 + index * 4));
  return Buffer.concat([Buffer.from('Exif\0\0', 'binary'), tiff]);
}

/** A JPEG carrying EXIF Orientation (6: shown turned 90° clockwise) and GPS tags, inserted after SOI. */
export async function jpegWithGpsAndOrientation(width: number, height: number, orientation = 6): Promise<Buffer> {
  const plain = await (await twoTone(width, height)).jpeg({ quality: 85 }).toBuffer();
  const payload = exifWithGps(orientation);
  const app1 = Buffer.alloc(4);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([plain.subarray(0, 2), app1, payload, plain.subarray(2)]);
}

/** A small valid PNG whose IHDR claims width × height (a decompression bomb's header), CRC fixed. */
export async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await sharp({ create: { width: 64, height: 64, channels: 3, background: RED } }).png().toBuffer());
  // Signature (8), IHDR length (4), 'IHDR' (4), width at 16, height at 20, …, CRC at 29.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

// HEIC ------------------------------------------------------------------------------------------

const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8, 0);
  header.write(type, 4, 'ascii');
  return Buffer.concat([header, body]);
};
const fullBox = (type: string, version: number, flags: number, ...parts: Buffer[]) => {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return box(type, vf, ...parts);
};
const u16 = (value: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(value, 0);
  return b;
};
const u32 = (value: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value, 0);
  return b;
};

/** Top-level boxes of an ISO BMFF file, and the first box of a type found anywhere (by scanning). */
function findBox(file: Buffer, type: string): Buffer {
  const at = file.indexOf(Buffer.from(type, 'ascii'));
  if (at < 4) throw new Error(`no ${type} box`);
  return file.subarray(at - 4, at - 4 + file.readUInt32BE(at - 4));
}

function topLevelPayload(file: Buffer, type: string): Buffer {
  for (let at = 0; at + 8 <= file.length; ) {
    const size = file.readUInt32BE(at);
    if (file.toString('ascii', at + 4, at + 8) === type) return file.subarray(at + 8, at + size);
    if (size < 8) break;
    at += size;
  }
  throw new Error(`no top-level ${type} box`);
}

/**
 * A real HEIC (HEVC in HEIF): ffmpeg (libx265) encodes one frame into an MP4, whose hvcC configuration
 * and sample are then wrapped in a minimal HEIF container (ftyp heic; meta with hdlr pict, pitm, iloc,
 * iinf/infe hvc1, iprp/ipco [hvcC, ispe] and ipma; mdat). ffmpeg here cannot write HEIF itself.
 */
export async function heicPicture(width: number, height: number): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'heic-'));
  try {
    const png = path.join(dir, 'in.png');
    const mp4 = path.join(dir, 'out.mp4');
    await writeFile(png, await (await twoTone(width, height)).png().toBuffer());
    await run('ffmpeg', [
      '-v', 'error', '-nostdin', '-i', png, '-frames:v', '1', '-c:v', 'libx265', '-x265-params', 'log-level=error',
      '-pix_fmt', 'yuv420p', '-tag:v', 'hvc1', '-f', 'mp4', mp4,
    ]);
    const movie = await readFile(mp4);
    const hvcC = findBox(movie, 'hvcC');
    const sample = topLevelPayload(movie, 'mdat');

    const ftyp = box('ftyp', Buffer.from('heic', 'ascii'), u32(0), Buffer.from('mif1heic', 'ascii'));
    const hdlr = fullBox('hdlr', 0, 0, u32(0), Buffer.from('pict', 'ascii'), Buffer.alloc(12), Buffer.from([0]));
    const pitm = fullBox('pitm', 0, 0, u16(1));
    const infe = fullBox('infe', 2, 0, u16(1), u16(0), Buffer.from('hvc1', 'ascii'), Buffer.from([0]));
    const iinf = fullBox('iinf', 0, 0, u16(1), infe);
    const ispe = fullBox('ispe', 0, 0, u32(width), u32(height));
    const ipco = box('ipco', hvcC, ispe);
    const ipma = fullBox('ipma', 0, 0, u32(1), u16(1), Buffer.from([2, 0x81, 0x02]));
    const iprp = box('iprp', ipco, ipma);
    const ilocFor = (offset: number) =>
      fullBox('iloc', 0, 0, Buffer.from([0x44, 0x00]), u16(1), u16(1), u16(0), u16(1), u32(offset), u32(sample.length));
    const metaFor = (offset: number) => fullBox('meta', 0, 0, hdlr, pitm, ilocFor(offset), iinf, iprp);
    const before = ftyp.length + metaFor(0).length + 8;
    return Buffer.concat([ftyp, metaFor(before), box('mdat', sample)]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The colour at a point of an encoded picture (any format sharp reads). */
export async function colourAt(bytes: Uint8Array, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at]!, g: data[at + 1]!, b: data[at + 2]! };
}

export const isRedish = (c: { r: number; g: number; b: number }) => c.r > 150 && c.b < 100;
export const isBlueish = (c: { r: number; g: number; b: number }) => c.b > 150 && c.r < 100;
