import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ChangePasswordSchema,
  ClaimMigratedAdvertSchema,
  ClaimPreviewSchema,
  CodeVerificationSchema,
  ConfirmSignUpSchema,
  CreateProfileSchema,
  EmailVerificationSchema,
  ResetPasswordSchema,
  SendEmailSchema,
  SendSmsSchema,
  UpdatePasswordSchema,
} from '#lib/schemas/account.ts';
import { unauthenticated } from '../domain/errors.ts';
import type { Actor } from '../domain/context.ts';
import { createProfile } from '../domain/accounts/create-profile.ts';
import { confirmSignUp } from '../domain/accounts/confirm-sign-up.ts';
import { claimMigratedAdvert, claimPreview } from '../domain/migration/claim.ts';
import { sendPhoneCode, verifyPhoneCode } from '../domain/accounts/phone-verification.ts';
import { sendEmailVerification, verifyEmail } from '../domain/accounts/email-verification.ts';
import { changePasswordWithToken, requestPasswordReset } from '../domain/accounts/password-reset.ts';
import { updatePassword } from '../domain/accounts/update-password.ts';
import { clearUploadCookie, uploadTokenOf } from './frontend-pictures.ts';
import { advertiserOfRequest, contextFor, noStore, readInput, setSessionCookie, type ApiDeps } from './http.ts';

/**
 * The advertiser account calls (spec §7): createprofile, confirmsignup, sendsms, codeverification,
 * resetpassword and changepassword under /api/frontend; sendemail, emailverification and updatepassword under
 * /api/backend (behind its session check). Every call is rate limited per client address. Mail and SMS
 * go through `deps.messaging`, made once by the server (main.ts, or app.ts from the environment).
 */

type AdvertiserActor = Extract<Actor, { type: 'advertiser' }>;

/** Rate limits (per client address). Codes and links have their own limits in the domain as well. */
const limits = {
  createprofile: { max: 20, timeWindow: '1 hour' },
  confirmsignup: { max: 20, timeWindow: '10 minutes' },
  claimmigratedadvert: { max: 20, timeWindow: '10 minutes' },
  sendsms: { max: 10, timeWindow: '10 minutes' },
  codeverification: { max: 20, timeWindow: '10 minutes' },
  resetpassword: { max: 5, timeWindow: '15 minutes' },
  changepassword: { max: 10, timeWindow: '15 minutes' },
  sendemail: { max: 5, timeWindow: '10 minutes' },
  emailverification: { max: 20, timeWindow: '10 minutes' },
  updatepassword: { max: 10, timeWindow: '10 minutes' },
} as const;

/** A call's rate limit, scaled by RATE_LIMIT_SCALE (browser tests raise it; production keeps 1). */
function limitOf(deps: ApiDeps, call: keyof typeof limits): { max: number; timeWindow: string } {
  return { max: limits[call].max * deps.rateLimitScale, timeWindow: limits[call].timeWindow };
}

/** The advertiser behind the session cookie; 401 without one. */
async function requireSignedIn(deps: ApiDeps, request: FastifyRequest): Promise<AdvertiserActor> {
  const actor = await advertiserOfRequest(deps, request);
  if (actor.type !== 'advertiser') throw unauthenticated();
  return actor;
}

/** /api/frontend/… account calls. */
export function accountFrontendRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const { messaging } = deps;
    app.addHook('onRequest', async (_request, reply) => noStore(reply));

    // One answer for every valid sign-up (issue 15): 202 without a session, whether the address is new or
    // has an account. The email (a link that confirms the sign-up, or the owner's notice) goes after it.
    app.post('/createprofile', { config: { rateLimit: limitOf(deps, 'createprofile') } }, async (request, reply) => {
      const input = readInput(request, CreateProfileSchema);
      const ctx = contextFor(deps, request, { type: 'visitor' });
      const uploadToken = uploadTokenOf(request);
      const sendEmail = await createProfile(ctx, input, { messaging, uploadToken });
      deps.afterResponse.run('createprofile email', sendEmail);
      if (uploadToken) clearUploadCookie(reply, deps);
      return reply.code(202).send({ checkEmail: true });
    });

    // The sign-up link's token and the password (JSON body; the token never in a URL the server sees here).
    app.post('/confirmsignup', { config: { rateLimit: limitOf(deps, 'confirmsignup') } }, async (request, reply) => {
      const input = readInput(request, ConfirmSignUpSchema);
      const ctx = contextFor(deps, request, { type: 'visitor' });
      const { session, profile } = await confirmSignUp(ctx, { token: input.Token, password: input.Password }, {
        messaging,
        sessionDays: deps.sessionDays,
      });
      setSessionCookie(reply, deps, 'advertiser', session);
      return profile;
    });

    // An advert from the old site (issue 18): whose it is, then the claim; the token in a JSON body only.
    app.post('/claimpreview', { config: { rateLimit: limitOf(deps, 'claimmigratedadvert') } }, async (request, reply) => {
      noStore(reply);
      return claimPreview(contextFor(deps, request, { type: 'visitor' }), readInput(request, ClaimPreviewSchema).Token);
    });
    app.post('/claimmigratedadvert', { config: { rateLimit: limitOf(deps, 'claimmigratedadvert') } }, async (request, reply) => {
      const input = readInput(request, ClaimMigratedAdvertSchema);
      const { session, profile } = await claimMigratedAdvert(contextFor(deps, request, { type: 'visitor' }), input, {
        messaging,
        sessionDays: deps.sessionDays,
      });
      setSessionCookie(reply, deps, 'advertiser', session);
      return profile;
    });

    app.post('/sendsms', { config: { rateLimit: limitOf(deps, 'sendsms') } }, async (request) => {
      const actor = await requireSignedIn(deps, request);
      const input = readInput(request, SendSmsSchema);
      return sendPhoneCode(contextFor(deps, request, actor), { phone: input.Phone }, { messaging });
    });

    // The code travels in the query (spec: GET); the request log leaves such URLs out (logLevel).
    app.get(
      '/codeverification',
      { logLevel: 'warn', config: { rateLimit: limitOf(deps, 'codeverification') } },
      async (request, reply) => {
        const input = readInput(request, CodeVerificationSchema);
        const actor = await advertiserOfRequest(deps, request);
        await verifyPhoneCode(contextFor(deps, request, actor), { id: input.Id, code: input.Code });
        return reply.code(204).send();
      },
    );

    // 204 at once, known email or not: the lookup, the link and the email run after the answer, so its
    // time tells nothing (issue 15).
    app.post('/resetpassword', { config: { rateLimit: limitOf(deps, 'resetpassword') } }, async (request, reply) => {
      const input = readInput(request, ResetPasswordSchema);
      const ctx = contextFor(deps, request, { type: 'visitor' });
      deps.afterResponse.run('resetpassword', () => requestPasswordReset(ctx, { email: input.Email }, { messaging }));
      return reply.code(204).send();
    });

    app.post('/changepassword', { config: { rateLimit: limitOf(deps, 'changepassword') } }, async (request, reply) => {
      const input = readInput(request, ChangePasswordSchema);
      await changePasswordWithToken(
        contextFor(deps, request, { type: 'visitor' }),
        { token: input.Token, id: input.Id, password: input.Password },
        { messaging },
      );
      return reply.code(204).send();
    });
  };
}

/** /api/backend/… account calls; backend.ts has already put the signed-in advertiser on the request. */
export function accountBackendRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const { messaging } = deps;
    const advertiser = (request: FastifyRequest): AdvertiserActor => {
      if (!request.advertiser) throw unauthenticated();
      return request.advertiser;
    };

    app.post('/sendemail', { config: { rateLimit: limitOf(deps, 'sendemail') } }, async (request, reply) => {
      const input = readInput(request, SendEmailSchema);
      await sendEmailVerification(contextFor(deps, request, advertiser(request)), { email: input.Email }, { messaging });
      return reply.code(204).send();
    });

    // The link's token travels in the query (spec: GET, Url); the request log leaves such URLs out.
    app.get(
      '/emailverification',
      { logLevel: 'warn', config: { rateLimit: limitOf(deps, 'emailverification') } },
      async (request) => {
        const input = readInput(request, EmailVerificationSchema);
        return verifyEmail(contextFor(deps, request, advertiser(request)), { token: input.Url }, { messaging });
      },
    );

    app.post('/updatepassword', { config: { rateLimit: limitOf(deps, 'updatepassword') } }, async (request, reply) => {
      const input = readInput(request, UpdatePasswordSchema);
      const session = await updatePassword(
        contextFor(deps, request, advertiser(request)),
        { password: input.Password, newPassword: input.NewPassword },
        { messaging, sessionDays: deps.sessionDays },
      );
      setSessionCookie(reply, deps, 'advertiser', session);
      return reply.code(204).send();
    });
  };
}
