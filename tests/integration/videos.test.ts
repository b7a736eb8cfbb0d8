/**
 * Videos over real HTTP (issue 5, docs/decisions/013): profilevideouploader probes with the real ffprobe,
 * the durable `media.video` job transcodes with the real ffmpeg and reports through the signed encoder
 * postbacks; profilevideos, updatevideostatus, reordervideos, removeimage; support's approvevideoitem,
 * declinevideoitem, removevideoitem; fullprofile and has_video show only ready, approved, online videos.
 * Every video is made here with ffmpeg's test sources (shapes and a tone).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { BackendVideo } from '#lib/schemas/media.ts';
import { advertSearch, auditLog, jobs, notifications, videos } from '#server/db/schema.ts';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { clipPattern, listVideos, makeClip as makeClipAt, run, uploadVideo, waitForVideo } from './videos-helpers.ts';
import { signInAdmin } from './support-helpers.ts';

let server: TestServer;
let clips: string;

/** Makes a clip in this file's folder; answers its bytes. */
const makeClip = (name: string, args: string[]) => makeClipAt(path.join(clips, name), args);

async function probe(file: string) {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  return JSON.parse(stdout) as {
    format: { format_name: string; duration: string; tags?: Record<string, string> };
    streams: { codec_type: string; codec_name: string; width?: number; height?: number; pix_fmt?: string }[];
  };
}

/** The top-level MP4 boxes in file order (ftyp, moov, free, mdat, …). */
function topLevelBoxes(bytes: Buffer): string[] {
  const names: string[] = [];
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    const name = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    names.push(name);
    if (size < 8) break;
    offset += size;
  }
  return names;
}

async function advertiser() {
  const created = await createAdvertiser(server.db, { languageCodes: ['da'] });
  return { ...created, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

const api = (route: string, cookie: string | undefined, body?: unknown) =>
  callApi(server.url, `/api/backend/${route}`, { cookie, body });

async function uploadOk(cookie: string, bytes: Uint8Array, name: string, type?: string): Promise<BackendVideo> {
  const response = await uploadVideo(server.url, cookie, bytes, name, type);
  const body = (await response.json()) as BackendVideo;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function refusalOf(response: Response): Promise<string | undefined> {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  const problem = (await response.json()) as { errors?: { field: string; message: string }[] };
  return problem.errors?.find((e) => e.field === 'file')?.message;
}

const fullProfile = async (id: number) => {
  const response = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: id } });
  expect(response.status).toBe(200);
  return response.body as unknown as { videos: { id: number; url: string; posterUrl: string | null; width: number | null }[] };
};

const hasVideo = async (advertId: number) =>
  (await server.db.select({ hasVideo: advertSearch.hasVideo }).from(advertSearch).where(eq(advertSearch.advertId, advertId)))[0]?.hasVideo;

let supportCookie: string;

beforeAll(async () => {
  clips = await mkdtemp(path.join(os.tmpdir(), 'video-clips-'));
  server = await startTestServer();
  // Administration (creating users) needs two-step sign-in: signInAdmin turns it on for the admin.
  supportCookie = await signInAdmin(server);
});
afterAll(async () => {
  await server?.close();
  await rm(clips, { recursive: true, force: true });
});

describe('profilevideouploader and the transcode job', () => {
  it('turns an MP4 into an H.264/AAC MP4 with the index first, no metadata and a WebP poster', async () => {
    const owner = await advertiser();
    // Written by ffmpeg's default muxer: the index (moov) after the data, a title and a place tag.
    const bytes = await makeClip('plain.mp4', [
      ...clipPattern('640x360', 2),
      '-metadata',
      'title=Privat titel',
      '-metadata',
      'location=+55.6761+012.5683/',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv444p',
      '-c:a',
      'aac',
    ]);
    expect(topLevelBoxes(bytes).indexOf('moov')).toBeGreaterThan(topLevelBoxes(bytes).indexOf('mdat'));

    const uploaded = await uploadOk(owner.cookie, bytes, 'ferie.mp4');
    expect(uploaded).toMatchObject({ processing: 'converting', moderation: 'pending', videoUrl: null, isOnline: true, failure: null });
    expect(uploaded.uploadedOn).toMatch(/^\d{2}-\d{2}-\d{4}$/);

    const ready = await waitForVideo(server.url, owner.cookie, uploaded.id, 'ready');
    expect(ready).toMatchObject({ width: 640, height: 360, durationSeconds: 2, moderation: 'pending' });
    // Pending: the owner sees it from private storage (docs/decisions/013); nobody else.
    expect(ready.videoUrl).toBe(`/api/backend/mediafile/video/${uploaded.id}/video.mp4`);
    expect(ready.posterUrl).toBe(`/api/backend/mediafile/video/${uploaded.id}/poster.webp`);
    expect((await fetch(`${server.url}${ready.videoUrl}`)).status).toBe(401);

    const mp4 = await fetch(`${server.url}${ready.videoUrl}`, { headers: { cookie: owner.cookie } });
    expect(mp4.status).toBe(200);
    expect(mp4.headers.get('content-type')).toContain('video/mp4');
    expect(mp4.headers.get('cache-control')).toBe('private, no-store');
    const out = Buffer.from(await mp4.arrayBuffer());
    const boxes = topLevelBoxes(out);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const outFile = path.join(clips, 'served.mp4');
    await writeFile(outFile, out);
    const info = await probe(outFile);
    expect(info.format.format_name).toContain('mp4');
    const video = info.streams.find((s) => s.codec_type === 'video');
    const audio = info.streams.find((s) => s.codec_type === 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', width: 640, height: 360, pix_fmt: 'yuv420p' });
    expect(audio?.codec_name).toBe('aac');
    expect(JSON.stringify(info.format.tags ?? {})).not.toMatch(/Privat titel|55\.67|location/i);

    const poster = await fetch(`${server.url}${ready.posterUrl}`, { headers: { cookie: owner.cookie } });
    expect(poster.status).toBe(200);
    const meta = await sharp(Buffer.from(await poster.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 640, height: 360 });

    // The original is private: not under /media.
    const [row] = await server.db.select().from(videos).where(eq(videos.id, uploaded.id));
    expect(row!.originalKey).toMatch(/\.orig$/);
    expect((await fetch(`${server.url}/media/${row!.originalKey}`)).status).toBe(404);
  });

  it('scales a large video down to at most 1080p, keeping its shape', async () => {
    const owner = await advertiser();
    const bytes = await makeClip('big.mp4', [...clipPattern('2560x1440', 1, 5), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']);
    const uploaded = await uploadOk(owner.cookie, bytes, 'stor.mp4');
    const ready = await waitForVideo(server.url, owner.cookie, uploaded.id, 'ready');
    expect(ready).toMatchObject({ width: 1920, height: 1080 });
  });

  it('accepts WebM and MOV', async () => {
    const owner = await advertiser();
    const webm = await makeClip('clip.webm', [...clipPattern('160x90', 1, 10), '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-c:a', 'libopus']);
    const mov = await makeClip('clip.mov', [...clipPattern('160x90', 1, 10), '-c:v', 'mpeg4', '-c:a', 'aac']);
    const first = await uploadOk(owner.cookie, webm, 'klip.webm', 'video/webm');
    const second = await uploadOk(owner.cookie, mov, 'klip.mov', 'video/quicktime');
    for (const uploaded of [first, second]) {
      const ready = await waitForVideo(server.url, owner.cookie, uploaded.id, 'ready');
      expect(ready).toMatchObject({ width: 160, height: 90 });
    }
    expect((await listVideos(server.url, owner.cookie)).map((v) => v.id)).toEqual([first.id, second.id]);
  });

  it('refuses what is not a video, by content: a text file and a picture named .mp4, a Matroska file', async () => {
    const owner = await advertiser();
    expect(await refusalOf(await uploadVideo(server.url, owner.cookie, Buffer.from('Dette er ikke en video.\n'.repeat(50)), 'film.mp4'))).toBe(
      'notAVideo',
    );
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7' } }).png().toBuffer();
    expect(await refusalOf(await uploadVideo(server.url, owner.cookie, png, 'film.mp4'))).toBe('notAVideo');
    const mkv = await makeClip('clip.mkv', [...clipPattern('160x90', 1, 10), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']);
    expect(await refusalOf(await uploadVideo(server.url, owner.cookie, mkv, 'film.webm', 'video/webm'))).toBe('notAVideo');
    expect(await listVideos(server.url, owner.cookie)).toEqual([]);
  });

  it('refuses a clip longer than three minutes', async () => {
    const owner = await advertiser();
    const long = await makeClip('long.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=32x32:rate=1',
      '-t',
      '240',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
    ]);
    expect(await refusalOf(await uploadVideo(server.url, owner.cookie, long, 'lang.mp4'))).toBe('tooLong');
    expect(await listVideos(server.url, owner.cookie)).toEqual([]);
  });

  it('refuses an upload without a file, without a session, and beyond the videos an advert may have', async () => {
    const owner = await advertiser();
    const notMultipart = await api('profilevideouploader', owner.cookie, { file: 'x' });
    expect(notMultipart.status).toBe(400);
    const small = await makeClip('small.mp4', [...clipPattern('64x36', 1, 5), '-c:v', 'libx264', '-preset', 'ultrafast']);
    expect((await uploadVideo(server.url, undefined, small, 'a.mp4')).status).toBe(401);
    for (let n = 0; n < 5; n += 1) {
      await server.db.insert(videos).values({ advertId: owner.id, storageKey: `videos/${owner.id}/fixture-${n}`, status: 3 });
    }
    expect(await refusalOf(await uploadVideo(server.url, owner.cookie, small, 'a.mp4'))).toBe('tooManyVideos');
  });

  it('marks a file ffmpeg cannot decode failed after the retries', async () => {
    const owner = await advertiser();
    const good = await makeClip('tobreak.mp4', [
      ...clipPattern('160x90', 2, 10),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-movflags',
      '+faststart',
    ]);
    // The index stays readable (ffprobe accepts it); every frame's data is zeroed.
    const broken = Buffer.from(good);
    let offset = 0;
    while (offset + 8 <= broken.length) {
      const size = broken.readUInt32BE(offset);
      if (broken.toString('latin1', offset + 4, offset + 8) === 'mdat') broken.fill(0, offset + 8, offset + size);
      offset += size;
    }
    const uploaded = await uploadOk(owner.cookie, broken, 'ødelagt.mp4');
    expect(uploaded.processing).toBe('converting');

    // Each failed try waits for the queue's backoff; the test moves the retry to now and pokes the worker.
    const failed = await waitForVideo(server.url, owner.cookie, uploaded.id, 'failed', async () => {
      await server.db.execute(sql`update jobs set run_at = now() where queue = 'media.video' and status = 'queued'`);
      server.app.videoWorker.poke();
    });
    expect(failed).toMatchObject({ failure: 'transcodeFailed', videoUrl: null });
    // The video is marked failed by the last try's postback, just before the queue records that try.
    const job = await vi.waitFor(
      async () => {
        const [row] = await server.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.queue, 'media.video'), sql`${jobs.payload}->>'videoId' = ${String(uploaded.id)}`));
        expect(row).toMatchObject({ status: 'failed', attempts: 4 });
        return row!;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(job.lastError).toContain('ffmpeg');
  });
});

describe('the advertiser manages their videos', () => {
  let owner: Awaited<ReturnType<typeof advertiser>>;
  let other: Awaited<ReturnType<typeof advertiser>>;
  let first: BackendVideo;
  let second: BackendVideo;

  beforeAll(async () => {
    owner = await advertiser();
    other = await advertiser();
    const bytes = await makeClip('manage.mp4', [...clipPattern('320x180', 2, 10), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']);
    first = await uploadOk(owner.cookie, bytes, 'en.mp4');
    second = await uploadOk(owner.cookie, bytes, 'to.mp4');
    first = await waitForVideo(server.url, owner.cookie, first.id, 'ready');
    second = await waitForVideo(server.url, owner.cookie, second.id, 'ready');
  });

  it('shows a video publicly only once it is ready, approved and online', async () => {
    expect((await fullProfile(owner.id)).videos).toEqual([]);
    expect(await hasVideo(owner.id)).toBe(false);

    const approved = await api('approvevideoitem', supportCookie, { Id: first.id });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: first.id, moderation: 'approved' });
    const profile = await fullProfile(owner.id);
    expect(profile.videos).toEqual([
      { id: first.id, url: expect.stringMatching(/^\/media\/videos\//), posterUrl: expect.stringMatching(/-poster\.webp$/), width: 320, height: 180, durationSeconds: 2 },
    ]);
    const published = profile.videos[0]!;
    const served = await fetch(`${server.url}${published.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.url}${published.posterUrl}`)).status).toBe(200);
    expect(await hasVideo(owner.id)).toBe(true);
    const search = await callApi(server.url, '/api/frontend/searchpageprofiles', { body: { Video: true } });
    expect((search.body as unknown as { items: { id: number }[] }).items.map((i) => i.id)).toContain(owner.id);

    const offline = await api('updatevideostatus', owner.cookie, { VideoId: first.id, Online: false });
    expect(offline.status).toBe(200);
    expect(offline.body).toMatchObject({ id: first.id, isOnline: false });
    expect((await fullProfile(owner.id)).videos).toEqual([]);
    expect(await hasVideo(owner.id)).toBe(false);
    // Taken down: the published copy is gone.
    expect((await fetch(`${server.url}${published.url}`)).status).toBe(404);

    expect((await api('updatevideostatus', owner.cookie, { VideoId: first.id, Online: true })).status).toBe(200);
    const again = (await fullProfile(owner.id)).videos;
    expect(again.map((v) => v.id)).toEqual([first.id]);
    // Published again under a new name.
    expect(again[0]!.url).not.toBe(published.url);
    expect((await fetch(`${server.url}${again[0]!.url}`)).status).toBe(200);
  });

  it('reorders the videos', async () => {
    const response = await api('reordervideos', owner.cookie, { Ids: [second.id, first.id] });
    expect(response.status).toBe(200);
    expect((response.body as unknown as BackendVideo[]).map((v) => v.id)).toEqual([second.id, first.id]);
    expect((await listVideos(server.url, owner.cookie)).map((v) => [v.id, v.sortOrder])).toEqual([
      [second.id, 0],
      [first.id, 1],
    ]);
    expect((await api('reordervideos', owner.cookie, { Ids: 'a,b' })).status).toBe(400);
  });

  it("answers 404 for another advertiser's video, like a missing one", async () => {
    for (const [route, body] of [
      ['updatevideostatus', { VideoId: first.id, Online: false }],
      ['reordervideos', { Ids: [first.id] }],
      ['removeimage', { VideoId: first.id }],
    ] as const) {
      expect((await api(route, other.cookie, body)).status, route).toBe(404);
    }
    expect(await listVideos(server.url, other.cookie)).toEqual([]);
    expect((await api('updatevideostatus', owner.cookie, { VideoId: 999_999, Online: false })).status).toBe(404);
    expect((await listVideos(server.url, owner.cookie)).find((v) => v.id === first.id)?.isOnline).toBe(true);
  });

  it('deletes a video and its files (removeimage)', async () => {
    const response = await api('removeimage', owner.cookie, { VideoId: second.id });
    expect(response.status).toBe(204);
    expect((await listVideos(server.url, owner.cookie)).map((v) => v.id)).toEqual([first.id]);
    expect((await fetch(`${server.url}${second.videoUrl}`, { headers: { cookie: owner.cookie } })).status).toBe(404);
    expect((await fetch(`${server.url}${second.posterUrl}`, { headers: { cookie: owner.cookie } })).status).toBe(404);
    const [row] = await server.db.select().from(videos).where(eq(videos.id, second.id));
    expect(existsSync(path.join(server.dataDir, 'media', 'private', row!.videoKey!))).toBe(false);
    expect((await api('removeimage', owner.cookie, { VideoId: second.id })).status).toBe(404);
  });
});

describe("support's video moderation", () => {
  let owner: Awaited<ReturnType<typeof advertiser>>;
  let video: BackendVideo;

  beforeAll(async () => {
    owner = await advertiser();
    const bytes = await makeClip('moderate.mp4', [...clipPattern('160x90', 1, 10), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']);
    video = await waitForVideo(server.url, owner.cookie, (await uploadOk(owner.cookie, bytes, 'm.mp4')).id, 'ready');
  });

  it('needs a support session with the Support role (401, 403)', async () => {
    expect((await api('approvevideoitem', undefined, { Id: video.id })).status).toBe(401);
    expect((await api('approvevideoitem', owner.cookie, { Id: video.id })).status).toBe(401);
    const seo = { email: `seo-${Date.now()}@example.test`, name: 'Sanne SEO', password: 'seo-user-password', permissions: ['SEO'] };
    expect((await callApi(server.url, '/api/support/users', { cookie: supportCookie, body: seo })).status).toBe(201);
    const seoCookie = await signIn(server, 'support', seo);
    for (const route of ['approvevideoitem', 'declinevideoitem', 'removevideoitem']) {
      expect((await api(route, seoCookie, { Id: video.id, Reason: 'Nej' })).status, route).toBe(403);
    }
    expect((await listVideos(server.url, owner.cookie))[0]?.moderation).toBe('pending');
  });

  it('declines with a reason the advertiser is told, audited', async () => {
    expect((await api('declinevideoitem', supportCookie, { Id: video.id })).status).toBe(400);
    const response = await api('declinevideoitem', supportCookie, { Id: video.id, Reason: 'Videoen er uskarp.' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ moderation: 'declined', declineReason: 'Videoen er uskarp.' });
    expect((await listVideos(server.url, owner.cookie))[0]).toMatchObject({ moderation: 'declined', declineReason: 'Videoen er uskarp.' });
    const messages = await server.db.select().from(notifications).where(eq(notifications.accountId, owner.accountId));
    expect(messages.some((m) => m.bodyDa.includes('Videoen er uskarp.') && m.bodyEn.includes('Videoen er uskarp.'))).toBe(true);
    const audit = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'video.decline'), eq(auditLog.targetId, String(video.id))));
    expect(audit[0]).toMatchObject({ actorType: 'support', reason: 'Videoen er uskarp.' });
    expect((await fullProfile(owner.id)).videos).toEqual([]);
  });

  it('removes a video with a reason: gone from the list and from storage', async () => {
    expect((await api('removevideoitem', supportCookie, { Id: 999_999, Reason: 'x' })).status).toBe(404);
    const response = await api('removevideoitem', supportCookie, { Id: video.id, Reason: 'Overtræder reglerne.' });
    expect(response.status).toBe(204);
    expect(await listVideos(server.url, owner.cookie)).toEqual([]);
    expect((await fetch(`${server.url}${video.videoUrl}`, { headers: { cookie: owner.cookie } })).status).toBe(404);
    const [row] = await server.db.select().from(videos).where(eq(videos.id, video.id));
    expect(existsSync(path.join(server.dataDir, 'media', 'private', row!.videoKey!))).toBe(false);
    const messages = await server.db.select().from(notifications).where(eq(notifications.accountId, owner.accountId));
    expect(messages.some((m) => m.bodyEn.includes('Overtræder reglerne.'))).toBe(true);
    expect(await server.db.select().from(auditLog).where(eq(auditLog.action, 'video.remove'))).toHaveLength(1);
  });
});

describe('the encoder postbacks', () => {
  it('refuse an unsigned or wrongly signed body (401)', async () => {
    const body = JSON.stringify({ videoId: 1, failed: 'transcodeFailed' });
    for (const route of ['videoencoderpostback', 'videoencoderthumbnailpostback']) {
      const unsigned = await fetch(`${server.url}/api/backend/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(unsigned.status, route).toBe(401);
      const wrong = await fetch(`${server.url}/api/backend/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-encoder-signature': `sha256=${'0'.repeat(64)}` },
        body,
      });
      expect(wrong.status, route).toBe(401);
      const empty = await fetch(`${server.url}/api/backend/${route}`, { method: 'POST', headers: { 'x-encoder-signature': `sha256=${'0'.repeat(64)}` } });
      expect(empty.status, route).toBe(401);
    }
  });
});
