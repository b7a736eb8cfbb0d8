import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PictureIdSchema } from '#lib/schemas/media-calls.ts';
import { removeTempPicture, TEMP_PICTURE_HOURS, uploadTempPictures } from '../domain/media/pictures.ts';
import { contextFor, noStore, readInput, type ApiDeps } from './http.ts';
import { privateMediaRoute } from './private-media.ts';
import { pictureMediaOf, registerPictureMultipart, sendUploadAnswer, withPictureFiles } from './picture-upload.ts';

/**
 * The browser's upload token during /create: pictures uploaded before the account exists carry it
 * (stored hashed in pictures.temp_token); createprofile attaches them to the new advert.
 */
export const UPLOAD_COOKIE = 'upload_token';
const UPLOAD_COOKIE_PATH = '/api/frontend';
const TOKEN_PATTERN = /^[\w-]{43}$/;

/** Rate limits per client address (scaled by RATE_LIMIT_SCALE like the account calls). */
const limits = {
  profilepictureuploadertemp: { max: 30, timeWindow: '10 minutes' },
  removetempimage: { max: 60, timeWindow: '10 minutes' },
} as const;

function limitOf(deps: ApiDeps, call: keyof typeof limits): { max: number; timeWindow: string } {
  return { max: limits[call].max * deps.rateLimitScale, timeWindow: limits[call].timeWindow };
}

/** The request's upload token, when it carries a well-formed one. */
export function uploadTokenOf(request: FastifyRequest): string | undefined {
  const token = request.cookies[UPLOAD_COOKIE];
  return token && TOKEN_PATTERN.test(token) ? token : undefined;
}

export function clearUploadCookie(reply: FastifyReply, deps: ApiDeps): void {
  reply.clearCookie(UPLOAD_COOKIE, { path: UPLOAD_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: deps.cookieSecure });
}

/** /api/frontend/...: temporary picture uploads during /create (spec §7): profilepictureuploadertemp, removetempimage. */
export function frontendPictureRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    await registerPictureMultipart(app);
    const media = pictureMediaOf(deps);
    /** Our call: the files of this browser's temporary pictures (its upload token; docs/decisions/013). */
    privateMediaRoute(deps, 'upload', () => ({ type: 'visitor' }), uploadTokenOf)(app, '/tempmediafile');

    app.post(
      '/profilepictureuploadertemp',
      { config: { rateLimit: limitOf(deps, 'profilepictureuploadertemp') } },
      async (request, reply) => {
        noStore(reply);
        let token = uploadTokenOf(request);
        if (!token) token = randomBytes(32).toString('base64url');
        reply.setCookie(UPLOAD_COOKIE, token, {
          path: UPLOAD_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure: deps.cookieSecure,
          maxAge: TEMP_PICTURE_HOURS * 3600,
        });
        const ctx = contextFor(deps, request, { type: 'visitor' });
        const answer = await withPictureFiles(request, (files) => uploadTempPictures(ctx, media, token, files));
        return sendUploadAnswer(request, reply, answer);
      },
    );

    app.post('/removetempimage', { config: { rateLimit: limitOf(deps, 'removetempimage') } }, async (request, reply) => {
      noStore(reply);
      const input = readInput(request, PictureIdSchema);
      await removeTempPicture(contextFor(deps, request, { type: 'visitor' }), deps.storage, uploadTokenOf(request), input.PictureId);
      return reply.code(204).send();
    });
  };
}
