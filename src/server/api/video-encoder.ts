import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './http.ts';

/** /api/backend/...: the video encoder's postbacks (thumbnail, video), signed with HMAC-SHA256 (X-Encoder-Signature) (docs/decisions/013). */
export function videoEncoderRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    void deps;
    void app;
  };
}
