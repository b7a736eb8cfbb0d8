import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignInSchema } from '#lib/schemas/sign-in.ts';
import { SupportUserSchema } from '#lib/schemas/support-user.ts';
import { LandingPageSchema } from '#lib/schemas/landing-page.ts';
import { deleteSession, resolveSupportSession } from '../domain/accounts/sessions.ts';
import { signInSupportUser } from '../domain/support-users/sign-in-support-user.ts';
import { getSupportProfile } from '../domain/support-users/get-support-profile.ts';
import { createSupportUser } from '../domain/support-users/save-support-user.ts';
import { createLandingPage } from '../domain/seo/create-landing-page.ts';
import { OutboxQuerySchema } from '#lib/schemas/account.ts';
import { listOutboxMessages } from '../domain/accounts/list-outbox-messages.ts';
import { unauthenticated } from '../domain/errors.ts';
import type { Actor } from '../domain/context.ts';
import {
  SUPPORT_COOKIE,
  clearSessionCookie,
  contextFor,
  noStore,
  readInput,
  setSessionCookie,
  type ApiDeps,
} from './http.ts';

type SupportActor = Extract<Actor, { type: 'support' }>;

declare module 'fastify' {
  interface FastifyRequest {
    supportActor?: SupportActor;
  }
}

function supportOf(request: FastifyRequest): SupportActor {
  if (!request.supportActor) throw unauthenticated();
  return request.supportActor;
}

/** Calls a support user may make without a session. */
const PUBLIC_SUPPORT_CALLS = new Set(['/login', '/resetpassword', '/changepassword']);

/** /api/support/...: support staff (spec §7). Each call checks its permission in the domain. */
export function supportRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    app.addHook('onRequest', async (request, reply) => {
      noStore(reply);
      const path = request.url.slice('/api/support'.length).split('?')[0]!.toLowerCase();
      if (PUBLIC_SUPPORT_CALLS.has(path)) return;
      const actor = await resolveSupportSession(deps.db, request.cookies[SUPPORT_COOKIE], deps.now());
      if (actor.type !== 'support') throw unauthenticated();
      request.supportActor = actor;
    });

    app.post('/login', { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (request, reply) => {
      const input = readInput(request, SignInSchema);
      const ctx = contextFor(deps, request, { type: 'visitor' });
      const { session, profile } = await signInSupportUser(ctx, input, { sessionDays: 1 });
      setSessionCookie(reply, deps, SUPPORT_COOKIE, session);
      return profile;
    });

    app.post('/logout', async (request, reply) => {
      const token = request.cookies[SUPPORT_COOKIE];
      if (token) await deleteSession(deps.db, token);
      clearSessionCookie(reply, deps, SUPPORT_COOKIE);
      return reply.code(204).send();
    });

    app.get('/supportprofile', async (request) => getSupportProfile(deps.db, supportOf(request).supportUserId));

    app.post('/users', async (request, reply) => {
      const input = readInput(request, SupportUserSchema);
      const profile = await createSupportUser(contextFor(deps, request, supportOf(request)), input);
      return reply.code(201).send(profile);
    });

    /** The outbox of mail and SMS (codes, links, notices), newest first; the Support role only. */
    app.get('/outbox', async (request) =>
      listOutboxMessages(contextFor(deps, request, supportOf(request)), readInput(request, OutboxQuerySchema)),
    );

    app.post('/landingpages', async (request, reply) => {
      const input = readInput(request, LandingPageSchema);
      const created = await createLandingPage(contextFor(deps, request, supportOf(request)), input);
      return reply.code(201).send(created);
    });
  };
}
