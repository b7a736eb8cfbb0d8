import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApproveVideoSchema, ModerateVideoSchema } from '#lib/schemas/videos.ts';
import { resolveSupportSession } from '../domain/accounts/sessions.ts';
import { approveVideo, declineVideo, removeVideoItem } from '../domain/media/videos.ts';
import { requirePermission } from '../domain/permissions.ts';
import { SUPPORT_COOKIE, contextFor, noStore, readInput, type ApiDeps } from './http.ts';

/**
 * /api/backend/...: support's video moderation under the spec's /api/backend names (spec §7;
 * docs/decisions/013): approvevideoitem, declinevideoitem, removevideoitem. The caller is the support
 * session (`support_sid`); the domain asks for advert:moderate:any (401 without a session, 403 without
 * the permission), writes the audit log and leaves the advertiser a notification with the reason.
 */
export function videoModerationRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    app.addHook('onRequest', async (_request, reply) => noStore(reply));

    const ctxOf = async (request: FastifyRequest) =>
      contextFor(deps, request, await resolveSupportSession(deps.db, request.cookies[SUPPORT_COOKIE], deps.now()));

    app.post('/approvevideoitem', async (request) => {
      const ctx = await ctxOf(request);
      return approveVideo(ctx, readInputAfterPermission(ctx, request, ApproveVideoSchema));
    });

    app.post('/declinevideoitem', async (request) => {
      const ctx = await ctxOf(request);
      return declineVideo(ctx, readInputAfterPermission(ctx, request, ModerateVideoSchema));
    });

    app.post('/removevideoitem', async (request, reply) => {
      const ctx = await ctxOf(request);
      await removeVideoItem(ctx, deps.storage, readInputAfterPermission(ctx, request, ModerateVideoSchema));
      return reply.code(204).send();
    });
  };
}

/**
 * A caller without the permission learns it (401/403) before anything about the input; the domain
 * checks again, this only orders the answers.
 */
function readInputAfterPermission<TSchema extends Parameters<typeof readInput>[1]>(
  ctx: ReturnType<typeof contextFor>,
  request: FastifyRequest,
  schema: TSchema,
) {
  requirePermission(ctx.actor, 'advert:moderate:any');
  return readInput(request, schema);
}
