import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { MEDIA_LIMITS } from '#lib/schemas/media.ts';
import { ReorderVideosSchema, UpdateVideoStatusSchema, VideoIdSchema } from '#lib/schemas/media-calls.ts';
import { AppError } from '../domain/errors.ts';
import { listVideos, removeVideo, reorderVideos, requireRoomForVideo, updateVideoStatus, uploadVideo } from '../domain/media/videos.ts';
import { enqueueVideoJob } from '../jobs/video-job.ts';
import { advertiserOf } from './backend.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';

const noFile = () => new AppError('INVALID', 'Send one video file (multipart/form-data)', [{ field: 'file', message: 'required' }]);

/**
 * /api/backend/...: the advertiser's video calls (spec §7 media; docs/decisions/013): profilevideos,
 * profilevideouploader, updatevideostatus, reordervideos, removeimage. Registered inside `backendRoutes`,
 * after its session hook; a video id of another advertiser answers 404.
 */
export function backendVideoRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: Parameters<typeof advertiserOf>[0]) => contextFor(deps, request, advertiserOf(request));

    // Multipart for this plugin only: one file, streamed to a temporary file (never whole in memory).
    await app.register(fastifyMultipart, {
      limits: { fileSize: MEDIA_LIMITS.videoBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
      throwFileSizeLimit: false,
    });

    app.get('/profilevideos', async (request) => listVideos(ctxOf(request)));

    app.post('/profilevideouploader', async (request) => {
      const ctx = ctxOf(request);
      if (!request.isMultipart()) throw noFile();
      const data = await request.file();
      if (!data) throw noFile();
      try {
        await requireRoomForVideo(ctx);
      } catch (error) {
        data.file.resume();
        throw error;
      }
      const dir = await mkdtemp(path.join(os.tmpdir(), 'video-upload-'));
      try {
        const file = path.join(dir, 'upload');
        await pipeline(data.file, createWriteStream(file));
        const video = await uploadVideo(
          ctx,
          { storage: deps.storage, mediaWork: deps.mediaWork, queueTranscode: (videoId) => enqueueVideoJob(deps.db, videoId) },
          { path: file, truncated: data.file.truncated },
        );
        request.server.videoWorker.poke();
        return video;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    app.post('/updatevideostatus', async (request) => updateVideoStatus(ctxOf(request), readInput(request, UpdateVideoStatusSchema)));

    app.post('/reordervideos', async (request) => reorderVideos(ctxOf(request), readInput(request, ReorderVideosSchema)));

    /** The spec's name for the advertiser deleting one of their videos. */
    app.post('/removeimage', async (request, reply) => {
      await removeVideo(ctxOf(request), deps.storage, readInput(request, VideoIdSchema));
      return reply.code(204).send();
    });
  };
}
