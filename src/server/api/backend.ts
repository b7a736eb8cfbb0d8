import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deleteSession } from '../domain/accounts/sessions.ts';
import { getUserProfile } from '../domain/accounts/get-user-profile.ts';
import { stopImpersonation } from '../domain/accounts/impersonation.ts';
import { unauthenticated } from '../domain/errors.ts';
import type { Actor } from '../domain/context.ts';
import { advertiserOfRequest, clearSessionCookie, sessionTokenOf, contextFor, noStore, type ApiDeps } from './http.ts';
import { backendAdvertRoutes } from './backend-advert.ts';
import { backendPictureRoutes } from './backend-pictures.ts';
import { backendVideoRoutes } from './backend-videos.ts';
import { accountBackendRoutes } from './account.ts';
import { backendAppealRoutes } from './backend-appeals.ts';
import { backendCommerceRoutes } from './backend-commerce.ts';
import { privateMediaRoute } from './private-media.ts';
import { backendPurchaseRoutes } from './backend-purchases.ts';

type AdvertiserActor = Extract<Actor, { type: 'advertiser' }>;

declare module 'fastify' {
  interface FastifyRequest {
    advertiser?: AdvertiserActor;
  }
}

export function advertiserOf(request: FastifyRequest): AdvertiserActor {
  if (!request.advertiser) throw unauthenticated();
  return request.advertiser;
}

/** /api/backend/...: the advertiser's own calls (spec §7); every call needs an advertiser session. */
export function backendRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    app.addHook('onRequest', async (request, reply) => {
      noStore(reply);
      const actor = await advertiserOfRequest(deps, request);
      if (actor.type !== 'advertiser') throw unauthenticated();
      request.advertiser = actor;
    });

    await app.register(backendAdvertRoutes(deps));
    await app.register(backendPictureRoutes(deps));
    await app.register(backendVideoRoutes(deps));
    await app.register(backendAppealRoutes(deps));
    await app.register(backendPurchaseRoutes(deps));
    await app.register(backendCommerceRoutes(deps));
    /** Our call: the advertiser's own picture and video files, in any state (docs/decisions/013). */
    privateMediaRoute(deps, 'advertiser', advertiserOf)(app, '/mediafile');

    app.get('/userprofile', async (request) => {
      const actor = advertiserOf(request);
      return getUserProfile(deps.db, actor.accountId, deps.now(), actor);
    });

    /** Ends the session; while support is signed in as the advertiser, that is the audited stop of impersonation. */
    app.post('/logout', async (request, reply) => {
      const token = sessionTokenOf(request, deps, 'advertiser');
      const stopped = await stopImpersonation(contextFor(deps, request, advertiserOf(request)));
      if (token && !stopped) await deleteSession(deps.db, token);
      clearSessionCookie(reply, deps, 'advertiser');
      return reply.code(204).send();
    });
    await app.register(accountBackendRoutes(deps));
  };
}
