import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './http.ts';

/** /api/backend/...: the advertiser's video calls (spec §7 media): profilevideos, profilevideouploader, updatevideostatus, reordervideos, removeimage (docs/decisions/013). */
export function backendVideoRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    void deps;
    void app;
  };
}
