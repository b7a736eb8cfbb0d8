/**
 * The video transcode job is durable (issue 5, docs/decisions/013): a video uploaded while no worker runs
 * (a crash before the job started) is transcoded by the next server started on the same database and
 * storage. Also the encoder postbacks with a known ENCODER_SECRET: a correct signature is accepted, the
 * same body signed with another key is not. ffmpeg is killed at the worker's time limit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { BackendVideo } from '#lib/schemas/media.ts';
import { buildApp } from '#server/app.ts';
import { jobs } from '#server/db/schema.ts';
import type { VideoWorkerOptions } from '#server/jobs/video-job.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { signEncoderBody } from '#server/domain/media/video-signature.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, createAdvertiser } from '#tests/support/fixtures.ts';
import { clipPattern, listVideos, makeClip, uploadVideo, waitForVideo } from './videos-helpers.ts';

const SECRET = 'a-test-encoder-secret-of-some-length';

let database: { handle: DatabaseHandle; drop: () => Promise<void> };
let dataDir: string;
let app: FastifyInstance | null = null;
/** A 2-second clip (test pattern and a tone), made once. */
let clip: Buffer;

/** A server like `npm start` builds it, on the shared database and media folder. */
async function start(videoWorker: false | VideoWorkerOptions): Promise<string> {
  app = await buildApp({
    database: database.handle,
    events: { publish: () => {} },
    logger: pino({ level: process.env['TEST_LOG'] ?? 'silent' }),
    siteDir: path.join(dataDir, 'site'),
    mediaDir: path.join(dataDir, 'media'),
    sessionDays: 30,
    cookieSecure: false,
    trustProxy: false,
    encoderSecret: SECRET,
    videoWorker,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'video-restart-'));
  await seedReference(database.handle.db, { siteUrl: 'http://localhost:3000' });
  clip = await makeClip(path.join(dataDir, 'clip.mp4'), [...clipPattern('640x360', 2), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']);
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the media.video job', () => {
  it('survives a restart: queued with no worker, transcoded by the next server', async () => {
    const owner = await createAdvertiser(database.handle.db);
    const cookie = await advertiserSessionCookie(database.handle.db, owner.accountId);

    let url = await start(false);
    expect(app!.videoWorker.running()).toBe(false);
    const uploaded = await uploadVideo(url, cookie, clip, 'genstart.mp4');
    expect(uploaded.status).toBe(200);
    const video = (await uploaded.json()) as BackendVideo;
    expect(video.processing).toBe('converting');
    await app!.close();
    app = null;
    const [queued] = await database.handle.db.select().from(jobs).where(eq(jobs.queue, 'media.video'));
    expect(queued).toMatchObject({ status: 'queued', attempts: 0, maxAttempts: 4, payload: { videoId: video.id } });

    url = await start({});
    expect(app!.videoWorker.running()).toBe(true);
    const ready = await waitForVideo(url, cookie, video.id, 'ready');
    expect(ready).toMatchObject({ width: 640, height: 360, durationSeconds: 2 });
    expect((await fetch(`${url}${ready.videoUrl}`, { headers: { cookie } })).status).toBe(200);
    // The job is marked done when its handler returns, just after the postback made the video ready: on
    // PostgreSQL (another connection) that can come a moment later, so wait for it.
    await expect
      .poll(async () => (await database.handle.db.select().from(jobs).where(eq(jobs.queue, 'media.video')))[0], { timeout: 10_000 })
      .toMatchObject({ status: 'done', attempts: 1 });
  });

  it('accepts a postback signed with ENCODER_SECRET and refuses one signed with another key', async () => {
    const url = app ? `http://127.0.0.1:${(app.server.address() as { port: number }).port}` : await start({});
    const body = JSON.stringify({ videoId: 999_999, failed: 'transcodeFailed' });
    const post = (signature: string) =>
      fetch(`${url}/api/backend/videoencoderpostback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-encoder-signature': signature },
        body,
      });
    // Signed correctly: it passes the signature check and meets a video that does not exist.
    expect((await post(signEncoderBody(body, SECRET))).status).toBe(404);
    expect((await post(signEncoderBody(body, 'another-secret-of-some-length'))).status).toBe(401);
    expect((await post(signEncoderBody(`${body} `, SECRET))).status).toBe(401);
  });

  it('kills ffmpeg at the time limit and tries again later', async () => {
    await app?.close();
    const url = await start({ timeLimitMs: 1 });
    const owner = await createAdvertiser(database.handle.db);
    const cookie = await advertiserSessionCookie(database.handle.db, owner.accountId);
    const uploaded = await uploadVideo(url, cookie, clip, 'langsom.mp4');
    expect(uploaded.status).toBe(200);
    const video = (await uploaded.json()) as BackendVideo;
    const job = await vi.waitFor(
      async () => {
        const rows = await database.handle.db.select().from(jobs).where(eq(jobs.queue, 'media.video'));
        const found = rows.find((row) => (row.payload as { videoId: number }).videoId === video.id);
        if (!found?.lastError) throw new Error('not tried yet');
        return found;
      },
      { timeout: 30_000, interval: 200 },
    );
    // The first try failed; the queue retries it after its backoff (30 s), the video still converting.
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(job.lastError).toMatch(/ffmpeg failed \(timed out after 1 ms\)/);
    expect((await listVideos(url, cookie)).find((v) => v.id === video.id)?.processing).toBe('converting');
  });
});
