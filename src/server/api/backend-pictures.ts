import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './http.ts';

/** /api/backend/...: the advertiser's picture calls (spec §7 media): profilepictures, profilepictureuploader, updateimagestatus, setprimarypicture, reorderimages, deleteprofilepicture (docs/decisions/013). */
export function backendPictureRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    void deps;
    void app;
  };
}
