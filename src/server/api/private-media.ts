import * as v from 'valibot';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../domain/context.ts';
import { openPrivateMedia } from '../domain/media/private-media.ts';
import type { MediaViewer } from '../domain/media/publication.ts';
import { AppError } from '../domain/errors.ts';
import { contextFor, type ApiDeps } from './http.ts';

const ParamsSchema = v.object({
  kind: v.picklist(['picture', 'video']),
  id: v.pipe(v.string(), v.regex(/^\d{1,10}$/), v.transform(Number)),
  file: v.pipe(v.string(), v.maxLength(40)),
});

/**
 * `GET {door}/{picture|video}/{id}/{file}`: a media file from private storage for this door's viewer
 * (domain/media/private-media.ts; docs/decisions/013), answered `Cache-Control: private, no-store` so no
 * shared cache keeps it. The door's own hook has authenticated the request.
 */
export function privateMediaRoute(
  deps: ApiDeps,
  viewer: MediaViewer,
  actorOf: (request: FastifyRequest) => Actor,
  uploadTokenOf?: (request: FastifyRequest) => string | undefined,
) {
  return (app: FastifyInstance, path: string): void => {
    app.get(`${path}/:kind/:id/:file`, async (request, reply) => {
      const params = v.safeParse(ParamsSchema, request.params);
      if (!params.success) throw new AppError('NOT_FOUND', 'File was not found');
      const stored = await openPrivateMedia(contextFor(deps, request, actorOf(request)), deps.storage, viewer, params.output, uploadTokenOf?.(request));
      return reply
        .header('Cache-Control', 'private, no-store')
        .header('Content-Type', stored.contentType)
        .header('Content-Length', stored.size)
        .send(stored.body);
    });
  };
}
