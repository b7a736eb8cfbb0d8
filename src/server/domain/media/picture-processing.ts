import { randomUUID } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import heicDecode from 'heic-decode';
import { MEDIA_LIMITS, PICTURE_WIDTHS, type PictureRefusal } from '#lib/schemas/media.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import type { MediaVariant } from '../../db/schema.ts';

/**
 * One uploaded picture file → its stored files (docs/decisions/013): the type decided by content, the
 * limits checked from the header before any decoding, then one decode (auto-oriented, metadata dropped
 * because the pixels go through a raw buffer), AVIF and WebP at each of PICTURE_WIDTHS no wider than the
 * picture, the original kept privately, and a 64-bit dHash. Runs inside the media queue (the caller's
 * `mediaWork.run`); libvips uses one thread per task so a batch cannot take both cores from the API.
 */
sharp.concurrency(1);

/** A file the door has streamed to disk, with what the browser said about it. */
export type UploadedPictureFile = {
  path: string;
  /** The name the browser gave (only for the answer and the extension check; never used as a key). */
  fileName: string;
  /** The part's declared Content-Type. */
  mimetype: string;
  /** More than MEDIA_LIMITS.pictureBytes arrived: the rest was dropped. */
  truncated: boolean;
};

/** The picture types we accept, as families: HEIC, HEIF and AVIF are all HEIF containers. */
export type PictureFamily = 'jpeg' | 'png' | 'webp' | 'heif';

export type ProcessedPicture = {
  /** The prefix of its private files: `pictures/{folder}/{uuid}`. */
  storageKey: string;
  /** The original as received, in private storage. */
  originalKey: string;
  /** Upright size of the original. */
  width: number;
  height: number;
  variants: MediaVariant[];
  perceptualHash: string;
  family: PictureFamily;
};

export type PictureOutcome = { ok: true; picture: ProcessedPicture } | { ok: false; reason: PictureRefusal };

const MIME_OF_FAMILY: Record<PictureFamily, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heif: 'image/heif',
};

const FAMILY_OF_EXTENSION: Record<string, PictureFamily> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  png: 'png',
  webp: 'webp',
  heic: 'heif',
  heif: 'heif',
  hif: 'heif',
  avif: 'heif',
};

const FAMILY_OF_MIME: Record<string, PictureFamily> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heif',
  'image/heif': 'heif',
  'image/heic-sequence': 'heif',
  'image/heif-sequence': 'heif',
  'image/avif': 'heif',
};

/** HEIF major brands (HEVC and generic); AVIF (AV1 in HEIF) is decoded by sharp itself. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);

/** The family the file's bytes say it is, or null when it is none of ours (HTML, SVG, GIF, …). */
export function sniffFamily(head: Uint8Array): PictureFamily | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (head.length >= 12 && ascii(4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(8, 12))) return 'heif';
  return null;
}

/**
 * What the browser claims: the name's extension and the part's Content-Type, each only when it names an
 * image type (a name without extension or `application/octet-stream` claims nothing). An image type
 * we do not accept (`image/gif`) is a claim that can only mismatch.
 */
export function claimedFamilies(fileName: string, mimetype: string): (PictureFamily | 'other')[] {
  const claims: (PictureFamily | 'other')[] = [];
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  const byName = extension ? FAMILY_OF_EXTENSION[extension] : undefined;
  if (byName) claims.push(byName);
  else if (['gif', 'svg', 'bmp', 'tif', 'tiff', 'ico', 'html', 'htm'].includes(extension)) claims.push('other');
  const mime = (mimetype.split(';')[0] ?? '').trim().toLowerCase();
  const byType = FAMILY_OF_MIME[mime];
  if (byType) claims.push(byType);
  else if (mime.startsWith('image/')) claims.push('other');
  return claims;
}

async function readHead(filePath: string, bytes = 64): Promise<Uint8Array> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

type Decoded = { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4; sourceWidth: number; sourceHeight: number };

class Refused extends Error {
  readonly reason: PictureRefusal;
  constructor(reason: PictureRefusal) {
    super(reason);
    this.reason = reason;
  }
}

const LARGEST = Math.max(...PICTURE_WIDTHS);

/** The encoders' settings (also used by the benchmark's sharp-alone baseline). */
export const AVIF_OPTIONS = { quality: 50, effort: 2 } as const;
export const WEBP_OPTIONS = { quality: 78, effort: 4 } as const;

/** Decodes JPEG, PNG, WebP and AVIF with sharp: header first (pixel limit), then pixels, upright, at most LARGEST wide. */
async function decodeWithSharp(filePath: string): Promise<Decoded> {
  let meta: Metadata;
  try {
    // Only the header is read here: no pixel limit yet, so a bomb is named for what it is below.
    meta = await sharp(filePath, { limitInputPixels: false }).metadata();
  } catch {
    throw new Refused('notAnImage');
  }
  if (!meta.width || !meta.height) throw new Refused('notAnImage');
  if (meta.width * meta.height > MEDIA_LIMITS.picturePixels) throw new Refused('tooManyPixels');
  const upright = meta.autoOrient ?? { width: meta.width, height: meta.height };
  try {
    const { data, info } = await sharp(filePath, { failOn: 'error', limitInputPixels: MEDIA_LIMITS.picturePixels, autoOrient: true })
      .resize({ width: Math.min(LARGEST, upright.width), withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels, sourceWidth: upright.width, sourceHeight: upright.height };
  } catch {
    throw new Refused('notAnImage');
  }
}

/** HEIC/HEIF with HEVC inside: sharp's prebuilt libvips cannot decode it, libheif (WASM) can. */
async function decodeHeic(filePath: string): Promise<Decoded> {
  const buffer = await readFile(filePath);
  let images: Awaited<ReturnType<typeof heicDecode.all>>;
  try {
    images = await heicDecode.all({ buffer });
  } catch {
    throw new Refused('notAnImage');
  }
  try {
    const first = images[0];
    if (!first || !first.width || !first.height) throw new Refused('notAnImage');
    if (first.width * first.height > MEDIA_LIMITS.picturePixels) throw new Refused('tooManyPixels');
    let pixels: { width: number; height: number; data: Uint8ClampedArray };
    try {
      pixels = await first.decode();
    } catch {
      throw new Refused('notAnImage');
    }
    // libheif applies the container's rotation and mirroring itself: the pixels are upright.
    const { data, info } = await sharp(Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength), {
      raw: { width: pixels.width, height: pixels.height, channels: 4 },
    })
      .resize({ width: Math.min(LARGEST, pixels.width), withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels, sourceWidth: pixels.width, sourceHeight: pixels.height };
  } finally {
    images.dispose();
  }
}

/** 64-bit difference hash (9×8 greyscale, each pixel brighter than its right neighbour), as 16 hex digits. */
async function dHash(decoded: Decoded): Promise<string> {
  const grey = await sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: decoded.channels } })
    .removeAlpha()
    .greyscale()
    .resize(9, 8, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  let bits = 0n;
  for (let y = 0; y < 8; y += 1) {
    for (let x = 0; x < 8; x += 1) {
      bits = (bits << 1n) | (grey[y * 9 + x]! > grey[y * 9 + x + 1]! ? 1n : 0n);
    }
  }
  return bits.toString(16).padStart(16, '0');
}

/** The widths made of a picture this wide: each of PICTURE_WIDTHS it reaches, or its own width when it is narrower. */
export function variantWidths(width: number): number[] {
  const widths = PICTURE_WIDTHS.filter((w) => w <= width);
  return widths.length > 0 ? widths : [width];
}

/** A picture's pixels made into every public file, still in memory (what the render worker answers). */
export type RenderedPicture = {
  family: PictureFamily;
  /** Upright size of the original. */
  width: number;
  height: number;
  files: { width: number; height: number; format: 'avif' | 'webp'; bytes: Uint8Array }[];
  perceptualHash: string;
};

export type RenderOutcome = { ok: true; picture: RenderedPicture } | { ok: false; reason: PictureRefusal };

/**
 * Checks one uploaded file and makes its files: the type by content, the limits from the header,
 * one decode, then AVIF and WebP at each width, one encoder at a time. No storage: the render worker
 * (picture-render-worker.ts) runs this off the server's main thread.
 */
export async function renderPicture(file: UploadedPictureFile): Promise<RenderOutcome> {
  if (file.truncated) return { ok: false, reason: 'tooLarge' };
  const family = sniffFamily(await readHead(file.path));
  if (!family) return { ok: false, reason: 'notAnImage' };
  if (claimedFamilies(path.basename(file.fileName), file.mimetype).some((claim) => claim !== family)) {
    return { ok: false, reason: 'typeMismatch' };
  }

  let decoded: Decoded;
  try {
    decoded = family === 'heif' && !(await isAv1(file.path)) ? await decodeHeic(file.path) : await decodeWithSharp(file.path);
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason };
    throw error;
  }

  const raw = { width: decoded.width, height: decoded.height, channels: decoded.channels };
  const files: RenderedPicture['files'] = [];
  for (const width of variantWidths(decoded.sourceWidth)) {
    const height = Math.max(1, Math.round((decoded.sourceHeight * width) / decoded.sourceWidth));
    const resized = sharp(decoded.data, { raw }).resize(width, height, { fit: 'fill' });
    // One encoder at a time: media work keeps to one core, so searches keep the other (decision 013).
    files.push({ width, height, format: 'avif', bytes: await resized.clone().avif(AVIF_OPTIONS).toBuffer() });
    files.push({ width, height, format: 'webp', bytes: await resized.clone().webp(WEBP_OPTIONS).toBuffer() });
  }
  return {
    ok: true,
    picture: { family, width: decoded.sourceWidth, height: decoded.sourceHeight, files, perceptualHash: await dHash(decoded) },
  };
}

/**
 * Checks and stores one uploaded picture under `pictures/{folder}/{uuid}…`: rendered by `render` (the
 * render worker in the server; `renderPicture` itself by default), then stored. A refusal names its
 * reason; files written before a failure are deleted again. Call inside the media queue.
 */
export async function processPicture(
  storage: MediaStorage,
  file: UploadedPictureFile,
  folder: string,
  render: (file: UploadedPictureFile) => Promise<RenderOutcome> = renderPicture,
): Promise<PictureOutcome> {
  const rendered = await render(file);
  if (!rendered.ok) return rendered;
  const { picture } = rendered;
  const storageKey = `pictures/${folder}/${randomUUID()}`;
  const originalKey = `${storageKey}.orig`;
  const variants: MediaVariant[] = [];
  try {
    for (const made of picture.files) {
      const key = `${storageKey}-${made.width}.${made.format}`;
      // Private until published (publication.ts): a pending or declined picture has no public URL.
      await storage.putBytes('private', key, made.bytes, `image/${made.format}`);
      variants.push({ width: made.width, height: made.height, format: made.format, key });
    }
    await storage.putFile('private', originalKey, file.path, MIME_OF_FAMILY[picture.family]);
    return {
      ok: true,
      picture: {
        storageKey,
        originalKey,
        width: picture.width,
        height: picture.height,
        variants,
        perceptualHash: picture.perceptualHash,
        family: picture.family,
      },
    };
  } catch (error) {
    await removePictureFiles(storage, { storageKey, originalKey }).catch(() => {});
    throw error;
  }
}

/** AVIF (AV1 in a HEIF container), which sharp decodes itself. */
async function isAv1(filePath: string): Promise<boolean> {
  try {
    return (await sharp(filePath).metadata()).compression === 'av1';
  } catch {
    return false;
  }
}

/** Deletes a picture's files: its private variants and original, and its published copies if any. */
export async function removePictureFiles(
  storage: MediaStorage,
  picture: { storageKey: string; originalKey: string | null; publicKey?: string | null },
): Promise<void> {
  await storage.deletePrefix('private', picture.storageKey);
  if (picture.originalKey) await storage.delete('private', picture.originalKey);
  if (picture.publicKey) await storage.deletePrefix('public', picture.publicKey);
}
