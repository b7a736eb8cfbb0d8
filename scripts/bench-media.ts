/**
 * The media part of `npm run bench` (issue 5):
 * 1. pictures processed per second through our upload call (multipart over HTTP, checks, AVIF and WebP
 *    at every width, storage, database) against sharp on its own doing the same decode, resizes and
 *    encodes in this process (target: at least 0.8x);
 * 2. `searchpageprofiles` p99 at a steady rate while another advertiser uploads, against the same rate
 *    with nothing else running, in BENCH_MEDIA_ROUNDS (4) alternating windows on each side, each side's
 *    latencies pooled (bench-load.ts `alternatingP99`; target: at most 1.2x).
 * The pictures are generated here (gradients and shapes, as a phone photo's size), never photos.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { PICTURE_WIDTHS } from '#lib/schemas/media.ts';
import { AVIF_OPTIONS, WEBP_OPTIONS, variantWidths } from '#server/domain/media/picture-processing.ts';
import { DEMO_PASSWORD } from '#server/db/seed/seed-demo.ts';
import { sessionCookieName } from '#server/api/http.ts';
import { alternatingP99, waitForQuiet, type LoadRow, type SteadyTarget } from './bench-load.ts';

/** Alternating windows of the search comparison on each side (idle, during uploads): BENCH_MEDIA_ROUNDS, default 4. */
const ROUNDS = Math.max(1, Number(process.env['BENCH_MEDIA_ROUNDS'] ?? 4));

type Options = {
  url: string;
  workDir: string;
  /** The search whose p99 is compared idle and under uploads. */
  search: SteadyTarget;
  /** The steady rate of that comparison (searches per second). */
  searchRate: number;
  record: { row: (row: LoadRow) => void; fact: (fact: string) => void };
  /** Pictures in the throughput run (default 10). */
  pictures?: number;
  seconds: number;
};

/** A 3000×2000 JPEG of gradients and shapes, different per index (a phone photo's size and weight). */
async function makePicture(file: string, index: number): Promise<void> {
  const hue = (index * 47) % 360;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="2000">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue},70%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 140) % 360},60%,35%)"/>` +
    `</linearGradient></defs><rect width="3000" height="2000" fill="url(#g)"/>` +
    Array.from({ length: 24 }, (_, i) => {
      const x = (i * 397 + index * 131) % 3000;
      const y = (i * 263 + index * 71) % 2000;
      return `<circle cx="${x}" cy="${y}" r="${80 + ((i * 37) % 300)}" fill="hsl(${(hue + i * 29) % 360},65%,60%)" fill-opacity="0.55"/>`;
    }).join('') +
    `</svg>`;
  // Noise makes the encoders work as on a real photo rather than on flat colour.
  const base = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < base.data.length; i += 1) base.data[i] = Math.max(0, Math.min(255, base.data[i]! + ((i * 7919 + index) % 17) - 8));
  await sharp(base.data, { raw: base.info }).jpeg({ quality: 88 }).toFile(file);
}

/**
 * What our pipeline does to a picture's pixels, with sharp alone: decode once, upright and shrunk to the
 * largest width on load, then each width as AVIF and WebP with the same encoder settings.
 */
async function sharpAlone(file: string): Promise<void> {
  const largest = Math.max(...PICTURE_WIDTHS);
  const meta = await sharp(file).metadata();
  const upright = meta.autoOrient ?? { width: meta.width!, height: meta.height! };
  const decoded = await sharp(file, { autoOrient: true })
    .resize({ width: Math.min(largest, upright.width), withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels };
  for (const width of variantWidths(upright.width)) {
    const height = Math.max(1, Math.round((upright.height * width) / upright.width));
    const resized = sharp(decoded.data, { raw }).resize(width, height, { fit: 'fill' });
    await resized.clone().avif(AVIF_OPTIONS).toBuffer();
    await resized.clone().webp(WEBP_OPTIONS).toBuffer();
  }
}

async function signIn(url: string, email: string): Promise<string> {
  const response = await fetch(`${url}/api/frontend/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in as ${email}: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookieName('advertiser', false)}=`));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie.split(';')[0]!;
}

async function upload(url: string, cookie: string, file: string): Promise<void> {
  const form = new FormData();
  form.append('files', new Blob([await readFile(file)], { type: 'image/jpeg' }), path.basename(file));
  const response = await fetch(`${url}/api/backend/profilepictureuploader`, { method: 'POST', headers: { cookie }, body: form });
  const answer = (await response.json()) as { results?: { ok: boolean; reason?: string }[] };
  if (!response.ok || !answer.results?.every((r) => r.ok)) throw new Error(`upload refused: ${response.status} ${JSON.stringify(answer)}`);
}

/**
 * Deletes the pictures a previous run left pending on this advertiser's advert (a kept database reused
 * with BENCH_REUSE would otherwise reach the advert's limit of 30). Pending pictures are not public, so
 * the site does not change.
 */
async function deletePendingPictures(url: string, cookie: string): Promise<void> {
  const pictures = (await (await fetch(`${url}/api/backend/profilepictures`, { headers: { cookie } })).json()) as { id: number; moderation: string }[];
  for (const picture of pictures.filter((p) => p.moderation === 'pending')) {
    const response = await fetch(`${url}/api/backend/deleteprofilepicture`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ PictureId: picture.id }),
    });
    if (!response.ok) throw new Error(`deleting picture ${picture.id}: ${response.status} ${await response.text()}`);
  }
}

export async function benchMedia(options: Options): Promise<void> {
  const { url, record } = options;
  const count = options.pictures ?? 10;
  const dir = path.join(options.workDir, 'media-bench');
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const file = path.join(dir, `picture-${i}.jpg`);
    await makePicture(file, i);
    files.push(file);
  }
  const bytes = (await readFile(files[0]!)).length;

  // 1. Throughput: sharp alone (one picture at a time, as MEDIA_CONCURRENCY=1 runs them), then ours.
  sharp.concurrency(1);
  await sharpAlone(files[0]!);
  let started = performance.now();
  for (const file of files) await sharpAlone(file);
  const alone = count / ((performance.now() - started) / 1000);

  const owner = await signIn(url, 'demo-1@example.invalid');
  await deletePendingPictures(url, owner);
  await upload(url, owner, files[0]!);
  started = performance.now();
  for (const file of files.slice(1)) await upload(url, owner, file);
  const ours = (count - 1) / ((performance.now() - started) / 1000);
  record.fact(
    `pictures: ${ours.toFixed(2)}/s through profilepictureuploader vs ${alone.toFixed(2)}/s with sharp alone = ` +
      `${(ours / alone).toFixed(2)}x (${count} JPEGs of 3000×2000, ${(bytes / 1024 / 1024).toFixed(1)} MB each; ` +
      `AVIF and WebP at ${PICTURE_WIDTHS.join(', ')} px; target ≥ 0.8x)`,
  );

  // 2. Search p99 at a steady rate, idle against while another advertiser uploads, in alternating windows
  // judged on their pooled p99 (bench-load.ts `alternatingP99`, as the postbacks' comparison).
  const uploader = await signIn(url, 'demo-2@example.invalid');
  const result = await alternatingP99({
    target: options.search,
    rate: options.searchRate,
    seconds: options.seconds,
    windows: ROUNDS,
    // Each busy window starts under the advert's limit of 30 pictures (the last one's stay pending).
    before: async () => {
      await deletePendingPictures(url, uploader);
      const settled = await waitForQuiet();
      return settled.quiet ? '' : 'the machine did NOT fall quiet before this idle window';
    },
    background: (seconds) => {
      const until = performance.now() + seconds * 1000;
      const done = (async () => {
        let uploaded = 0;
        // Until the window ends, and at most 25 pictures (under the advert's limit of 30).
        for (let i = 0; performance.now() < until && i < 25; i += 1) {
          await upload(url, uploader, files[i % files.length]!);
          uploaded += 1;
        }
        return `${uploaded} pictures processed meanwhile`;
      })();
      return { done };
    },
  });
  const label = `${options.search.name} @ ${options.searchRate}/s`;
  result.idle.forEach((row, i) => {
    record.row({ ...row, name: `${label}, idle (${i + 1}/${ROUNDS})` });
    const { background, ...busy } = result.busy[i]!;
    record.row({ ...busy, name: `${label}, during uploads (${i + 1}/${ROUNDS})`, note: `${(busy.p99 / Math.max(row.p99, 0.01)).toFixed(2)}x this pair's idle p99; ${background}` });
  });
  const { idle, busy } = result.pooled;
  record.fact(
    `search p99 during uploads against idle, ${ROUNDS} alternating windows of ${options.seconds} s each, pooled: ` +
      `idle p50 ${idle.p50} / p99 ${idle.p99} ms (${idle.samples} requests), during uploads p50 ${busy.p50} / p99 ${busy.p99} ms (${busy.samples}); ` +
      `${result.ratio.toFixed(2)}x (target at most 1.2x: ${result.ratio <= 1.2 ? 'met' : 'NOT met'})`,
  );
  await writeFile(path.join(dir, 'done'), '');
}
