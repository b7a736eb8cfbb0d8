import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { MEDIA_LIMITS, type PictureRefusal, type PictureUploadAnswer } from '#lib/schemas/media.ts';
import { AppError } from '../domain/errors.ts';
import type { UploadedPictureFile } from '../domain/media/picture-processing.ts';
import type { PictureMedia } from '../domain/media/pictures.ts';
import { sendProblem, type ApiDeps, type Problem } from './http.ts';

/**
 * Picture uploads as both doors receive them (profilepictureuploader, profilepictureuploadertemp):
 * multipart streamed to temporary files, and the per-file answer (docs/decisions/013).
 */

/** Multipart for picture uploads: files streamed to disk, at most 25 MB each and picturesPerUpload per call. */
export async function registerPictureMultipart(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: {
      fileSize: MEDIA_LIMITS.pictureBytes,
      files: MEDIA_LIMITS.picturesPerUpload,
      fields: 10,
      fieldSize: 1024,
      parts: MEDIA_LIMITS.picturesPerUpload + 10,
    },
  });
}

/**
 * Streams every file part of a multipart request to its own file in a new temporary folder (never whole
 * in memory), then runs `use` on them; the folder is removed afterwards, whatever happens.
 */
export async function withPictureFiles<T>(request: FastifyRequest, use: (files: UploadedPictureFile[]) => Promise<T>): Promise<T> {
  if (!request.isMultipart()) {
    throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Files', message: 'required' }]);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'picture-upload-'));
  try {
    const files: UploadedPictureFile[] = [];
    for await (const part of request.files()) {
      const filePath = path.join(dir, `${files.length}.upload`);
      await pipeline(part.file, createWriteStream(filePath));
      files.push({ path: filePath, fileName: part.filename, mimetype: part.mimetype, truncated: part.file.truncated });
    }
    if (files.length === 0) {
      throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Files', message: 'required' }]);
    }
    return await use(files);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const REFUSAL_TEXT: Record<PictureRefusal, string> = {
  notAnImage: 'The file is not a JPEG, PNG, WebP or HEIC picture.',
  typeMismatch: 'The file is not the type its name or type says.',
  tooLarge: `The file is larger than ${MEDIA_LIMITS.pictureBytes / 1024 / 1024} MB.`,
  tooManyPixels: `The picture has more than ${MEDIA_LIMITS.picturePixels / 1_000_000} megapixels.`,
  tooManyPictures: `An advert may have at most ${MEDIA_LIMITS.picturesPerAdvert} pictures.`,
  uploadFailed: 'Something went wrong...',
};

/** 200 with one result per file when any was accepted; else 400 problem+json carrying the same results. */
export function sendUploadAnswer(request: FastifyRequest, reply: FastifyReply, answer: PictureUploadAnswer): FastifyReply {
  if (answer.results.some((result) => result.ok)) return reply.code(200).send(answer);
  const first = answer.results.find((result) => !result.ok);
  const problem: Problem & PictureUploadAnswer = {
    type: 'about:blank',
    title: 'Bad Request',
    status: 400,
    detail: first && !first.ok ? REFUSAL_TEXT[first.reason] : REFUSAL_TEXT.uploadFailed,
    instance: request.url,
    requestId: request.id,
    results: answer.results,
  };
  return sendProblem(reply, problem);
}

export const pictureMediaOf = (deps: ApiDeps): PictureMedia => ({
  storage: deps.storage,
  work: deps.mediaWork,
  render: deps.pictureRenderer.render,
});

