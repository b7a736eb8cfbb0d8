import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import type { HubEventName } from '../adapters/types.ts';
import { SYSTEM } from '../domain/context.ts';
import { AppError, unauthenticated } from '../domain/errors.ts';
import { recordVideoPoster, recordVideoResult, type VideoChange } from '../domain/media/videos.ts';
import { ENCODER_SIGNATURE_HEADER, isValidEncoderSignature } from '../domain/media/video-signature.ts';
import type { VideoHubPayload } from '#lib/schemas/media.ts';
import { contextFor, noStore, type ApiDeps } from './http.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as received, for the encoder's signature (set by this plugin's JSON parser only). */
    encoderRawBody?: Buffer;
  }
}

const videoId = v.pipe(v.number('required'), v.integer('number'), v.minValue(1, 'number'));
const dimension = v.pipe(v.number('required'), v.integer('number'), v.minValue(1, 'number'), v.maxValue(8192, 'range'));
const key = v.pipe(v.string('required'), v.minLength(1, 'required'), v.maxLength(300, 'tooLong'));

const ThumbnailPostbackSchema = v.object({ videoId, posterKey: key, width: dimension, height: dimension });
const VideoPostbackSchema = v.object({
  videoId,
  videoKey: v.optional(key),
  durationSeconds: v.optional(v.pipe(v.number('number'), v.minValue(0, 'range'), v.maxValue(24 * 3600, 'range'))),
  width: v.optional(dimension),
  height: v.optional(dimension),
  failed: v.optional(v.picklist(['transcodeFailed'], 'invalid')),
});

/**
 * /api/backend/videoencoderthumbnailpostback and /videoencoderpostback: the video encoder (our own job,
 * src/server/jobs/video-job.ts, reporting as an external one would) tells the server a poster or the MP4
 * is stored, or that the transcode failed for good. JSON signed with HMAC-SHA256 of the raw body
 * (`X-Encoder-Signature: sha256=<hex>`, key ENCODER_SECRET); anything unsigned or wrongly signed is 401.
 * Each updates the video and sends the hub event to the owner's connections (docs/decisions/013).
 */
export function videoEncoderRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    // This plugin's own JSON parser keeps the raw bytes; the rest of the API keeps Fastify's default.
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (request, body, done) => {
      const raw = body as Buffer;
      request.encoderRawBody = raw;
      // Unsigned bodies are refused before they are parsed.
      if (!isValidEncoderSignature(raw, signatureOf(request), deps.encoderSecret)) return done(unauthenticated(), undefined);
      try {
        done(null, JSON.parse(raw.toString('utf8')) as unknown);
      } catch {
        done(new AppError('INVALID', 'The body is not JSON'), undefined);
      }
    });

    app.addHook('preHandler', async (request, reply) => {
      noStore(reply);
      // A request without a JSON body never reached the parser: it carries no signed body.
      const raw = request.encoderRawBody;
      if (!raw || !isValidEncoderSignature(raw, signatureOf(request), deps.encoderSecret)) throw unauthenticated();
    });

    const announce = async (request: FastifyRequest, event: HubEventName, change: VideoChange) => {
      const payload: VideoHubPayload = { video: change.video };
      try {
        await deps.hub.sendToAccount(change.accountId, event, payload);
      } catch (error) {
        request.log.error({ err: error, videoId: change.video.id }, 'could not send the hub event');
      }
    };

    app.post('/videoencoderthumbnailpostback', { config: { signedCallback: true } }, async (request) => {
      const input = signedInput(request, ThumbnailPostbackSchema);
      const change = await recordVideoPoster(contextFor(deps, request, SYSTEM), input);
      await announce(request, 'VideoThumbnailUploaded', change);
      return change.video;
    });

    app.post('/videoencoderpostback', { config: { signedCallback: true } }, async (request) => {
      const input = signedInput(request, VideoPostbackSchema);
      const ctx = contextFor(deps, request, SYSTEM);
      let change: VideoChange;
      if (input.failed) {
        change = await recordVideoResult(ctx, { videoId: input.videoId, failed: input.failed });
      } else {
        if (input.videoKey === undefined || input.durationSeconds === undefined || input.width === undefined || input.height === undefined) {
          throw new AppError('INVALID', 'videoKey, durationSeconds, width and height are required', [{ field: 'videoKey', message: 'required' }]);
        }
        change = await recordVideoResult(ctx, {
          videoId: input.videoId,
          videoKey: input.videoKey,
          durationSeconds: input.durationSeconds,
          width: input.width,
          height: input.height,
        });
      }
      await announce(request, 'VideoUploaded', change);
      return change.video;
    });
  };
}

function signatureOf(request: FastifyRequest): string | undefined {
  const header = request.headers[ENCODER_SIGNATURE_HEADER];
  return Array.isArray(header) ? header[0] : header;
}

/** The signed JSON body only (never the query string, which the signature does not cover), validated. */
function signedInput<TSchema extends v.GenericSchema>(request: FastifyRequest, schema: TSchema): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, request.body);
  if (!result.success) {
    throw new AppError(
      'INVALID',
      'Some required fields are missed',
      result.issues.map((issue) => ({ field: issue.path?.map((p) => String(p.key)).join('.') ?? '', message: issue.message })),
    );
  }
  return result.output;
}
