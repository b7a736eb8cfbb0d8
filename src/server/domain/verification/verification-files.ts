import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import heicDecode from 'heic-decode';
import { MEDIA_LIMITS } from '#lib/schemas/media.ts';
import { VERIFICATION_LIMITS, type VerificationRefusal } from '#lib/schemas/verification.ts';
import { claimedFamilies, sniffFamily, type UploadedPictureFile } from '../media/picture-processing.ts';
import { probeVideo, refusalOf } from '../media/video-processing.ts';

/**
 * Checks a verification upload by its content and makes the file that is kept (privately): a picture
 * (JPEG, PNG, WebP or HEIC, the limits of pictures) is re-encoded to JPEG without any metadata (no EXIF,
 * no GPS), upright, at most LONGEST_SIDE pixels on its long side; a video (MP4, MOV or WebM, at most
 * 60 s and 100 MB) is kept as uploaded, after ffprobe has read it. Run inside the media queue.
 */

/** Enough for support to read a document; smaller than a phone camera's full size. */
const LONGEST_SIDE = 2400;

export type CheckedFile = { ok: true; contentType: string; extension: string } | { ok: false; reason: VerificationRefusal };

async function readHead(filePath: string): Promise<Uint8Array> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, 64, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const fit = { width: LONGEST_SIDE, height: LONGEST_SIDE, fit: 'inside', withoutEnlargement: true } as const;

/** HEIC with HEVC inside: libheif (WASM) decodes it, as for advert pictures; the pixels come upright. */
async function heicToJpeg(input: string, output: string): Promise<VerificationRefusal | null> {
  let images: Awaited<ReturnType<typeof heicDecode.all>>;
  try {
    images = await heicDecode.all({ buffer: await readFile(input) });
  } catch {
    return 'notAnImage';
  }
  try {
    const first = images[0];
    if (!first || !first.width || !first.height) return 'notAnImage';
    if (first.width * first.height > MEDIA_LIMITS.picturePixels) return 'tooManyPixels';
    const pixels = await first.decode().catch(() => null);
    if (!pixels) return 'notAnImage';
    await sharp(Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength), {
      raw: { width: pixels.width, height: pixels.height, channels: 4 },
    })
      .resize(fit)
      .jpeg({ quality: 90 })
      .toFile(output);
    return null;
  } finally {
    images.dispose();
  }
}

/** JPEG, PNG, WebP, AVIF: the header first (pixel limit), then one decode, upright, re-encoded (sharp keeps no metadata). */
async function sharpToJpeg(input: string, output: string): Promise<VerificationRefusal | null> {
  const meta = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height) return 'notAnImage';
  if (meta.width * meta.height > MEDIA_LIMITS.picturePixels) return 'tooManyPixels';
  try {
    await sharp(input, { failOn: 'error', limitInputPixels: MEDIA_LIMITS.picturePixels, autoOrient: true })
      .resize(fit)
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90 })
      .toFile(output);
    return null;
  } catch {
    return 'notAnImage';
  }
}

/** A picture of an ID document or a selfie → `output` (JPEG), or why it is refused. */
export async function verificationPictureToJpeg(file: UploadedPictureFile, output: string): Promise<CheckedFile> {
  if (file.truncated || (await stat(file.path)).size > MEDIA_LIMITS.pictureBytes) return { ok: false, reason: 'tooLarge' };
  const family = sniffFamily(await readHead(file.path));
  if (!family) return { ok: false, reason: 'notAnImage' };
  if (claimedFamilies(path.basename(file.fileName), file.mimetype).some((claim) => claim !== family)) {
    return { ok: false, reason: 'typeMismatch' };
  }
  const isAv1 = family === 'heif' && (await sharp(file.path).metadata().then((m) => m.compression === 'av1', () => false));
  const refusal = family === 'heif' && !isAv1 ? await heicToJpeg(file.path, output) : await sharpToJpeg(file.path, output);
  return refusal ? { ok: false, reason: refusal } : { ok: true, contentType: 'image/jpeg', extension: 'jpg' };
}

/** A verification video: a video stream in MP4, MOV or WebM (by content), at most 60 s; kept as uploaded. */
export async function checkVerificationVideo(file: { path: string; truncated: boolean }): Promise<CheckedFile> {
  if (file.truncated || (await stat(file.path)).size > VERIFICATION_LIMITS.videoBytes) return { ok: false, reason: 'tooLarge' };
  const probe = await probeVideo(file.path);
  const refusal = refusalOf(probe);
  if (refusal || !probe) return { ok: false, reason: refusal ?? 'notAVideo' };
  // A tenth of a second of slack, as for advert videos: containers round their duration.
  if (probe.durationSeconds > VERIFICATION_LIMITS.videoSeconds + 0.1) return { ok: false, reason: 'tooLong' };
  const isWebm = probe.container.split(',').includes('webm');
  return isWebm ? { ok: true, contentType: 'video/webm', extension: 'webm' } : { ok: true, contentType: 'video/mp4', extension: 'mp4' };
}
