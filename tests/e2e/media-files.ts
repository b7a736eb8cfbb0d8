/**
 * Media files made in the test (no fixtures on disk): a placeholder picture (a gradient with a circle and a
 * square, no people) with sharp, and a 2-second test clip with ffmpeg (lavfi). Used by backend-media.spec.ts
 * and the cluster's journey (tests/cluster/).
 */
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';

/** Writes an 800×600 placeholder picture to `file`. */
export async function writePlaceholderPicture(file: string, format: 'jpeg' | 'png', hue: number): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},70%,40%)"/>
    </linearGradient></defs>
    <rect width="800" height="600" fill="url(#g)"/>
    <circle cx="300" cy="280" r="140" fill="rgba(255,255,255,0.6)"/>
    <rect x="480" y="320" width="180" height="180" fill="rgba(0,0,0,0.35)"/>
  </svg>`;
  await sharp(Buffer.from(svg))[format]().toFile(file);
  return file;
}

/** Writes a 2-second 320×240 test clip (H.264/AAC in MP4) to `file`. */
export function writeTestClip(file: string): string {
  execFileSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=duration=2:size=320x240:rate=15',
    '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file,
  ]);
  return file;
}
