import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ModerationDecisionSchema, ModerationItemSchema } from '#lib/schemas/media-calls.ts';
import { moderatePicture } from '../domain/media/pictures.ts';
import { approveVideo, declineVideo, removeVideoItem } from '../domain/media/videos.ts';
import { requirePermission } from '../domain/permissions.ts';
import type { DomainContext } from '../domain/context.ts';
import { supportOfRequest, contextFor, noStore, readInput, type ApiDeps } from './http.ts';

/**
 * /api/backend/...: support's media moderation under the spec's backend names (spec §7; decision 013):
 * approveimageitem, declineimageitem, removeimageitem, approvevideoitem, declinevideoitem,
 * removevideoitem. Outside the backend's advertiser hook: the caller is whoever the support session
 * (`support_sid`) says. advert:moderate:any is checked before the input is read, so a caller without it
 * learns nothing from validation (401 without a session, 403 without the permission); the domain checks
 * again, writes the audit log and tells the advertiser why.
 */
export function mediaModerationRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    app.addHook('onRequest', async (_request, reply) => noStore(reply));

    const moderator = async (request: FastifyRequest): Promise<DomainContext> => {
      const actor = await supportOfRequest(deps, request);
      requirePermission(actor, 'advert:moderate:any');
      return contextFor(deps, request, actor);
    };

    app.post('/approveimageitem', async (request) => {
      const ctx = await moderator(request);
      const input = readInput(request, ModerationItemSchema);
      return moderatePicture(ctx, deps.storage, { id: input.Id, decision: 'approve' }, deps);
    });
    app.post('/declineimageitem', async (request) => {
      const ctx = await moderator(request);
      const input = readInput(request, ModerationDecisionSchema);
      return moderatePicture(ctx, deps.storage, { id: input.Id, decision: 'decline', reason: input.Reason, rule: input.Rule }, deps);
    });
    app.post('/removeimageitem', async (request) => {
      const ctx = await moderator(request);
      const input = readInput(request, ModerationDecisionSchema);
      return moderatePicture(ctx, deps.storage, { id: input.Id, decision: 'remove', reason: input.Reason, rule: input.Rule }, deps);
    });

    app.post('/approvevideoitem', async (request) => {
      const ctx = await moderator(request);
      return approveVideo(ctx, readInput(request, ModerationItemSchema));
    });
    app.post('/declinevideoitem', async (request) => {
      const ctx = await moderator(request);
      return declineVideo(ctx, readInput(request, ModerationDecisionSchema), deps);
    });
    app.post('/removevideoitem', async (request, reply) => {
      const ctx = await moderator(request);
      await removeVideoItem(ctx, deps.storage, readInput(request, ModerationDecisionSchema), deps);
      return reply.code(204).send();
    });
  };
}
