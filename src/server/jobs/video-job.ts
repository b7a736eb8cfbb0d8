import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import sharp from 'sharp';
import type { Db } from '../db/client.ts';
import type { MediaStorage } from '../adapters/types.ts';
import { SYSTEM, type DomainContext } from '../domain/context.ts';
import type { MediaWork } from '../domain/media/media-work.ts';
import { findVideoForJob, VIDEO_STATUS } from '../domain/media/videos.ts';
import { extractFrame, probeVideo, transcodeVideo } from '../domain/media/video-processing.ts';
import { ENCODER_SIGNATURE_HEADER, signEncoderBody } from '../domain/media/video-signature.ts';
import { enqueueJob, startWorker, type JobHandler, type JobRow } from './queue.ts';

/**
 * The durable transcode job of uploaded videos (docs/decisions/013). A job in the database queue
 * `media.video` (survives restarts; retried with the queue's backoff, 30 s, 1 min, 2 min) downloads the
 * private original, transcodes it with ffmpeg (H.264/AAC MP4, +faststart, at most 1080p; no network, a
 * time limit, low priority), makes a WebP poster, stores both privately (published only once approved: domain/media/publication.ts) and reports like an external
 * encoder would: signed POSTs to the encoder postbacks of this server, which update the video and tell
 * the owner's hub connections. After the last failed try it reports the failure the same way.
 */

export const VIDEO_QUEUE = 'media.video';
/** Tries of one transcode before the video is marked failed. */
export const VIDEO_JOB_ATTEMPTS = 4;

export async function enqueueVideoJob(db: Db, videoId: number): Promise<void> {
  await enqueueJob(db, VIDEO_QUEUE, { videoId }, { maxAttempts: VIDEO_JOB_ATTEMPTS });
}

export type VideoJobDeps = {
  db: Db;
  storage: MediaStorage;
  mediaWork: MediaWork;
  encoderSecret: string;
  log: Logger;
  /** This server's own address, asked when a job reports (the server listens by then). */
  baseUrl: () => string;
  /** ffmpeg is killed after this long (default 10 minutes). */
  timeLimitMs: number;
  /** Aborted when the server closes: a running ffmpeg is stopped and the job is tried again later. */
  signal: AbortSignal;
};

type PostbackAnswer = 'ok' | 'gone';

const hasBytes = (file: string) => stat(file).then((info) => info.size > 0, () => false);

/** POSTs a signed JSON body to one of the encoder postbacks; 'gone' when the video no longer exists. */
async function postback(deps: VideoJobDeps, name: string, payload: Record<string, unknown>): Promise<PostbackAnswer> {
  const body = JSON.stringify(payload);
  const response = await fetch(`${deps.baseUrl()}/api/backend/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [ENCODER_SIGNATURE_HEADER]: signEncoderBody(body, deps.encoderSecret) },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  if (response.status === 404) return 'gone';
  if (!response.ok) throw new Error(`the ${name} postback answered ${response.status}`);
  return 'ok';
}

export function videoJobHandler(deps: VideoJobDeps): JobHandler {
  const ctx: DomainContext = { db: deps.db, actor: SYSTEM, events: { publish: () => {} }, now: () => new Date() };
  return async (job: JobRow) => {
    const videoId = Number(job.payload['videoId']);
    const video = await findVideoForJob(ctx, videoId);
    // Deleted meanwhile, or already done by an earlier try whose completion was not recorded.
    if (!video || video.status === VIDEO_STATUS.ready || !video.originalKey) return;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'video-job-'));
    const posterKey = `${video.storageKey}-poster.webp`;
    const videoKey = `${video.storageKey}.mp4`;
    const dropTranscodedFiles = () => Promise.all([deps.storage.delete('private', posterKey), deps.storage.delete('private', videoKey)]);
    try {
      const original = path.join(dir, 'original');
      const output = path.join(dir, 'video.mp4');
      const frame = path.join(dir, 'poster.png');
      await deps.storage.download('private', video.originalKey, original);
      await transcodeVideo(original, output, { timeoutMs: deps.timeLimitMs, signal: deps.signal });
      const result = await probeVideo(output);
      if (!result || !(result.durationSeconds > 0)) throw new Error('the transcoded file has no playable video');

      // The poster: a frame a second in (the very first frame of short clips), as WebP.
      const frameAt = result.durationSeconds >= 2 ? 1 : 0;
      await extractFrame(output, frame, frameAt, { timeoutMs: 60_000, signal: deps.signal });
      // Seeking past the last frame (variable frame rates) writes nothing: take the first frame then.
      if (frameAt > 0 && !(await hasBytes(frame))) await extractFrame(output, frame, 0, { timeoutMs: 60_000, signal: deps.signal });
      const poster = await deps.mediaWork.run(() => sharp(frame).webp({ quality: 80 }).toBuffer({ resolveWithObject: true }));
      await deps.storage.putBytes('private', posterKey, poster.data, 'image/webp');
      const thumbnail = await postback(deps, 'videoencoderthumbnailpostback', {
        videoId,
        posterKey,
        width: poster.info.width,
        height: poster.info.height,
      });
      if (thumbnail === 'gone') {
        await dropTranscodedFiles();
        return;
      }

      await deps.storage.putFile('private', videoKey, output, 'video/mp4');
      const done = await postback(deps, 'videoencoderpostback', {
        videoId,
        videoKey,
        durationSeconds: result.durationSeconds,
        width: result.width,
        height: result.height,
      });
      if (done === 'gone') await dropTranscodedFiles();
    } catch (error) {
      if (job.attempts >= job.max_attempts && !deps.signal.aborted) {
        deps.log.warn({ videoId, err: error }, 'video transcode failed for good');
        await postback(deps, 'videoencoderpostback', { videoId, failed: 'transcodeFailed' }).catch((postError: unknown) =>
          deps.log.error({ videoId, err: postError }, 'could not report the failed transcode'),
        );
      }
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** How the app runs the video worker: off (tests that simulate a crash), or with these settings. */
export type VideoWorkerOptions = {
  /** ffmpeg's time limit per transcode; default 10 minutes. */
  timeLimitMs?: number;
  /** How often the queue is looked at when nobody pokes it; default 2 s. */
  pollMs?: number;
};

export type VideoWorkerControl = {
  /** Looks for due video jobs now (after an upload; tests after moving a retry's run time). */
  poke: () => void;
  /** Whether a worker runs in this app. */
  running: () => boolean;
};

declare module 'fastify' {
  interface FastifyInstance {
    videoWorker: VideoWorkerControl;
  }
}

/** The address the job reports to: this server's own socket (loopback when it listens on every interface). */
function ownAddress(app: FastifyInstance, fallback: string): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') return fallback;
  const host =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Runs one worker for the `media.video` queue in this app, apart from the site-build worker (a build can
 * take minutes): started once the server listens (the job reports to its address), stopped before it
 * closes (a running ffmpeg is killed; the job is tried again after the next start).
 */
export function registerVideoWorker(
  app: FastifyInstance,
  deps: Omit<VideoJobDeps, 'log' | 'baseUrl' | 'timeLimitMs' | 'signal'> & { siteUrl: string },
  options: VideoWorkerOptions | false,
): void {
  let worker: ReturnType<typeof startWorker> | null = null;
  app.decorate('videoWorker', {
    poke: () => worker?.poke(),
    running: () => worker !== null,
  } satisfies VideoWorkerControl);
  if (options === false) return;
  const stopping = new AbortController();
  const timeLimitMs = options.timeLimitMs ?? 10 * 60_000;
  app.addHook('onListen', async () => {
    if (worker) return;
    const log = app.log.child({ worker: VIDEO_QUEUE }) as unknown as Logger;
    const handler = videoJobHandler({
      ...deps,
      log,
      baseUrl: () => ownAddress(app, deps.siteUrl),
      timeLimitMs,
      signal: stopping.signal,
    });
    worker = startWorker({
      db: deps.db,
      log,
      handlers: { [VIDEO_QUEUE]: handler },
      metrics: app.metrics.jobs,
      pollMs: options.pollMs ?? 2000,
    });
  });
  app.addHook('preClose', async () => {
    if (!worker) return;
    stopping.abort();
    await worker.stop();
    worker = null;
  });
}
