import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ModerationItemSchema, ModerationReasonSchema, ModerationRemoveSchema } from '#lib/schemas/pictures.ts';
import { resolveSupportSession } from '../domain/accounts/sessions.ts';
import { moderatePicture } from '../domain/media/pictures.ts';
import { requirePermission } from '../domain/permissions.ts';
import { SUPPORT_COOKIE, contextFor, noStore, readInput, type ApiDeps } from './http.ts';

/**
 * /api/backend/...: support's media moderation under /api/backend (spec §7): approveimageitem,
 * declineimageitem, removeimageitem (docs/decisions/013). Outside the backend's advertiser hook: the
 * caller is whoever the support session says (a visitor without one); the domain asks for
 * advert:moderate:any, so no session answers 401 and a support user without it 403.
 */
export function pictureModerationRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = async (request: FastifyRequest) => {
      const actor = await resolveSupportSession(deps.db, request.cookies[SUPPORT_COOKIE], deps.now());
      // Checked before the input is read, so a caller without the right learns nothing from validation.
      requirePermission(actor, 'advert:moderate:any');
      return contextFor(deps, request, actor);
    };

    app.addHook('onRequest', async (_request, reply) => {
      noStore(reply);
    });

    app.post('/approveimageitem', async (request) => {
      const ctx = await ctxOf(request);
      const input = readInput(request, ModerationItemSchema);
      return moderatePicture(ctx, deps.storage, { id: input.Id, decision: 'approve' });
    });
    app.post('/declineimageitem', async (request) => {
      const ctx = await ctxOf(request);
      const input = readInput(request, ModerationReasonSchema);
      return moderatePicture(ctx, deps.storage, { id: input.Id, decision: 'decline', reason: input.Reason });
    });
    app.post('/removeimageitem', async (request) => {
      const ctx = await ctxOf(request);
      const input = readInput(request, ModerationRemoveSchema);
      return moderatePicture(ctx, deps.storage, { id: input.Id, decision: 'remove', reason: input.Reason });
    });
  };
}
