import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  SaveSupportUserSchema,
  SupportChangePasswordSchema,
  SupportSignInSchema,
  SupportUserIdSchema,
  SupportUsersQuerySchema,
  TwoFactorCodeSchema,
  TwoFactorSetupSchema,
} from '#lib/schemas/support-user.ts';
import { OutboxQuerySchema, ResetPasswordSchema } from '#lib/schemas/account.ts';
import { deleteSession } from '../domain/accounts/sessions.ts';
import { signInSupportUser } from '../domain/support-users/sign-in-support-user.ts';
import { getSupportProfile } from '../domain/support-users/get-support-profile.ts';
import { saveSupportUser } from '../domain/support-users/save-support-user.ts';
import { getSupportUser, listSupportUsers } from '../domain/support-users/list-support-users.ts';
import { removeSupportUser } from '../domain/support-users/remove-support-user.ts';
import { changeSupportPasswordWithToken, requestSupportPasswordReset } from '../domain/support-users/support-password.ts';
import { confirmTwoFactor, disableTwoFactor, setUpTwoFactor } from '../domain/support-users/two-factor.ts';
import { listOutboxMessages } from '../domain/accounts/list-outbox-messages.ts';
import { getPendingCounts } from '../domain/moderation/pending-counts.ts';
import { ReviewAdvertIdSchema, ReviewQueueQuerySchema, RiskWordIdSchema, RiskWordSchema, SaveReviewSchema } from '#lib/schemas/review.ts';
import { listReviewQueue } from '../domain/moderation/review-queue.ts';
import { getReviewAdvert, saveReview } from '../domain/moderation/review-advert.ts';
import { addRiskWord, listRiskWords, removeRiskWord } from '../domain/moderation/risk-signals.ts';
import {
  AppealsQuerySchema,
  ContentReportsQuerySchema,
  DecideAppealSchema,
  DecideContentReportSchema,
  ModerationIdSchema,
} from '#lib/schemas/moderation.ts';
import { getContentReport, listContentReports } from '../domain/reports/content-reports.ts';
import { decideContentReport } from '../domain/reports/decide-content-report.ts';
import { decideAppeal, getAppeal, listAppeals } from '../domain/moderation/appeals.ts';
import { DecideReviewSchema, PendingReviewIdSchema, PendingReviewsQuerySchema } from '#lib/schemas/reviews.ts';
import { decideReview, getPendingReview, listPendingReviews } from '../domain/reviews/pending-reviews.ts';
import { unauthenticated } from '../domain/errors.ts';
import { DecideValidationSchema, ValidationFileSchema, ValidationIdSchema, ValidationsQuerySchema } from '#lib/schemas/verification.ts';
import {
  acceptValidation,
  declineValidation,
  getValidation,
  listValidations,
  openValidationFile,
  rejectValidation,
} from '../domain/verification/support-validation.ts';
import { sendPrivateFile } from './backend-verification.ts';
import { issueImpersonationLink, stopImpersonationsOf } from '../domain/accounts/impersonation.ts';
import { supportUserActor } from '../domain/support-users/support-roles.ts';
import { ImpersonationLinkSchema } from '#lib/schemas/impersonation.ts';
import {
  AdvertProfileIdSchema,
  AdvertProfilePageSchema,
  AdvertProfilesQuerySchema,
  AdvertStatusChangeSchema,
  SendAdvertMessageSchema,
} from '#lib/schemas/support-adverts.ts';
import { searchAdvertProfiles } from '../domain/support-adverts/search-profiles.ts';
import { getAdvertProfile } from '../domain/support-adverts/advert-profile.ts';
import { changeAdvertStatusBySupport } from '../domain/support-adverts/advert-status.ts';
import { listLoginHistory } from '../domain/support-adverts/login-history.ts';
import { listActionHistory } from '../domain/support-adverts/action-history.ts';
import { listAdvertMedia } from '../domain/support-adverts/advert-media.ts';
import { listAdvertMessages, sendAdvertMessage } from '../domain/support-adverts/advert-messages.ts';
import { listAdvertReports, listAdvertReviews } from '../domain/support-adverts/advert-reviews-reports.ts';
import type { Actor } from '../domain/context.ts';
import {
  sessionTokenOf,
  supportOfRequest,
  clearSessionCookie,
  contextFor,
  noStore,
  readInput,
  setSessionCookie,
  type ApiDeps,
} from './http.ts';
import { privateMediaRoute } from './private-media.ts';
import { supportOrderRoutes } from './support-orders.ts';
import { supportNewsRoutes } from './support-news.ts';
import { supportSeoPageRoutes } from './support-seo-pages.ts';
import { supportKeywordRoutes } from './support-keywords.ts';
import { supportStatisticsRoutes } from './support-statistics.ts';
import { supportPlacesRoutes } from './support-places.ts';
import { supportMigrationRoutes } from './support-migration.ts';

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

/**
 * Calls a support user may make without a session. `logout` ends whatever session its cookie names
 * (also one past its idle timeout or expiry) with the impersonations of its user, and always clears it.
 */
const PUBLIC_SUPPORT_CALLS = new Set(['/login', '/logout', '/resetpassword', '/changepassword', '/session']);

/** Rate limits (per client address), as the advertiser account calls have them (account.ts). */
const limits = {
  login: { max: 10, timeWindow: '1 minute' },
  resetpassword: { max: 5, timeWindow: '15 minutes' },
  changepassword: { max: 10, timeWindow: '15 minutes' },
  twofactor: { max: 10, timeWindow: '10 minutes' },
} as const;

/** A call's rate limit, scaled by RATE_LIMIT_SCALE (tests raise it; production keeps 1). */
function limitOf(deps: ApiDeps, call: keyof typeof limits): { rateLimit: { max: number; timeWindow: string } } {
  return { rateLimit: { max: limits[call].max * deps.rateLimitScale, timeWindow: limits[call].timeWindow } };
}

/** /api/support/...: support staff (spec §7). Each call checks its permission in the domain. */
export function supportRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const { messaging } = deps;
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, supportOf(request));

    app.addHook('onRequest', async (request, reply) => {
      noStore(reply);
      const path = request.url.slice('/api/support'.length).split('?')[0]!.toLowerCase();
      if (PUBLIC_SUPPORT_CALLS.has(path)) return;
      const actor = await supportOfRequest(deps, request);
      if (actor.type !== 'support') throw unauthenticated();
      request.supportActor = actor;
    });

    // ---- Sign-in, passwords -------------------------------------------------------------------

    /** Whether the browser has a support session (the sign-in screens ask before the profile: never a 401). */
    app.get('/session', async (request) => {
      const actor = await supportOfRequest(deps, request);
      return { signedIn: actor.type === 'support' };
    });

    app.post('/login', { config: limitOf(deps, 'login') }, async (request, reply) => {
      const input = readInput(request, SupportSignInSchema);
      const ctx = contextFor(deps, request, { type: 'visitor' });
      const { session, profile } = await signInSupportUser(ctx, input, { sessionDays: 1, secrets: deps.secrets });
      setSessionCookie(reply, deps, 'support', session);
      return profile;
    });

    /** Ends the session, and with it the impersonation sessions (and unused links) the user started. */
    app.post('/logout', async (request, reply) => {
      const token = sessionTokenOf(request, deps, 'support');
      const ended = token ? await deleteSession(deps.db, token) : null;
      if (ended?.supportUserId) {
        await stopImpersonationsOf(contextFor(deps, request, supportUserActor(ended.supportUserId)), ended.supportUserId, 'support_signed_out');
      }
      clearSessionCookie(reply, deps, 'support');
      return reply.code(204).send();
    });

    // 204 at once, known email or not: the work runs after the answer, so its time tells nothing (issue 15).
    app.post('/resetpassword', { config: limitOf(deps, 'resetpassword') }, async (request, reply) => {
      const input = readInput(request, ResetPasswordSchema);
      const ctx = contextFor(deps, request, { type: 'visitor' });
      deps.afterResponse.run('support resetpassword', () => requestSupportPasswordReset(ctx, { email: input.Email }, { messaging }));
      return reply.code(204).send();
    });

    app.post('/changepassword', { config: limitOf(deps, 'changepassword') }, async (request, reply) => {
      const input = readInput(request, SupportChangePasswordSchema);
      await changeSupportPasswordWithToken(
        contextFor(deps, request, { type: 'visitor' }),
        { token: input.Token, id: input.Id, password: input.Password },
        { messaging },
      );
      return reply.code(204).send();
    });

    // ---- Profile and two-step sign-in ---------------------------------------------------------

    app.get('/supportprofile', async (request) => getSupportProfile(deps.db, supportOf(request).supportUserId));

    /** A new secret, only against the password (none yet) or a current code (one is on): issue 15 item 5. */
    app.post('/twofactorsetup', { config: limitOf(deps, 'twofactor') }, async (request) => {
      const input = readInput(request, TwoFactorSetupSchema);
      return setUpTwoFactor(ctxOf(request), { password: input.Password, code: input.Code }, { secrets: deps.secrets });
    });

    app.post('/twofactorconfirm', { config: limitOf(deps, 'twofactor') }, async (request, reply) => {
      const input = readInput(request, TwoFactorCodeSchema);
      await confirmTwoFactor(ctxOf(request), { code: input.Code }, { secrets: deps.secrets });
      return reply.code(204).send();
    });

    app.post('/twofactordisable', { config: limitOf(deps, 'twofactor') }, async (request, reply) => {
      const input = readInput(request, TwoFactorCodeSchema);
      await disableTwoFactor(ctxOf(request), { code: input.Code }, { secrets: deps.secrets });
      return reply.code(204).send();
    });

    // ---- Support users (Administration) -------------------------------------------------------

    app.get('/users', async (request) => {
      const input = readInput(request, SupportUsersQuerySchema);
      return listSupportUsers(ctxOf(request), { skip: input.Skip, take: input.Take, text: input.Text });
    });

    app.get('/user', async (request) => getSupportUser(ctxOf(request), readInput(request, SupportUserIdSchema).Id));

    /** Creates (no Id: 201) or updates (Id: 200) a support user. */
    app.post('/users', async (request, reply) => {
      const input = readInput(request, SaveSupportUserSchema);
      const { created, user } = await saveSupportUser(ctxOf(request), input);
      return reply.code(created ? 201 : 200).send(user);
    });

    app.post('/removeuser', async (request, reply) => {
      await removeSupportUser(ctxOf(request), readInput(request, SupportUserIdSchema).Id);
      return reply.code(204).send();
    });

    // ---- Moderation (Support) ------------------------------------------------------------------

    /** The dashboard: what waits in each moderation queue, and since when. */
    app.get('/pendingcounts', async (request) => getPendingCounts(ctxOf(request)));

    // ---- Review of new adverts and pending changes (Support) ----------------------------------

    /** New adverts, pending changes or pending media; risk signals first, then the longest waiting. */
    app.get('/reviewqueue', async (request) => {
      const input = readInput(request, ReviewQueueQuerySchema);
      return listReviewQueue(ctxOf(request), { skip: input.Skip, take: input.Take, kind: input.Kind });
    });

    /** One advert for review: each field's approved and proposed value, pending media, risk signals. */
    app.get('/reviewadvert', async (request) => getReviewAdvert(ctxOf(request), readInput(request, ReviewAdvertIdSchema).Id));

    /** The review saved once: approve, modify or refuse each field; approve or decline a new advert. */
    app.post('/reviewadvert', async (request) => saveReview(ctxOf(request), readInput(request, SaveReviewSchema), { messaging }));

    /** Words that suggest a minor: they block advertisers' texts and flag adverts in the queues. */
    app.get('/riskwords', async (request) => listRiskWords(ctxOf(request)));

    app.post('/riskwords', async (request, reply) => reply.code(201).send(await addRiskWord(ctxOf(request), readInput(request, RiskWordSchema))));

    app.post('/removeriskword', async (request) => removeRiskWord(ctxOf(request), readInput(request, RiskWordIdSchema).Id));

    // ---- Reports and appeals (Support) --------------------------------------------------------

    /** Reports from the public profiles (notice and action): open ones urgent first, then oldest. */
    app.get('/contentreports', async (request) => {
      const input = readInput(request, ContentReportsQuerySchema);
      return listContentReports(ctxOf(request), { skip: input.Skip, take: input.Take, status: input.Status });
    });

    /** One report; opening a new one marks it in progress. */
    app.get('/contentreport', async (request) => getContentReport(ctxOf(request), readInput(request, ModerationIdSchema).Id));

    /** No action, or lock the advert (a statement of reasons to the advertiser); the reporter is told. */
    app.post('/decidecontentreport', async (request) =>
      decideContentReport(ctxOf(request), readInput(request, DecideContentReportSchema), { messaging }),
    );

    /** Advertisers' appeals against statements of reasons, oldest first. */
    app.get('/appeals', async (request) => {
      const input = readInput(request, AppealsQuerySchema);
      return listAppeals(ctxOf(request), { skip: input.Skip, take: input.Take, status: input.Status });
    });

    /** One appeal (the statement's id), open or decided. */
    app.get('/appeal', async (request) => getAppeal(ctxOf(request), readInput(request, ModerationIdSchema).Id));

    /** Upheld or reversed, by another support user than the one who decided; the advertiser is told. */
    app.post('/decideappeal', async (request, reply) => {
      await decideAppeal(ctxOf(request), readInput(request, DecideAppealSchema), { messaging, storage: deps.storage, policy: deps.verificationPolicy });
      return reply.code(204).send();
    });

    // ---- Visitors' reviews (Support: reviews:moderate:any) --------------------------------------

    /** Pending reviews and reviews the advertiser asked to remove, oldest first. */
    app.get('/pendingreviews', async (request) => {
      const input = readInput(request, PendingReviewsQuerySchema);
      return listPendingReviews(ctxOf(request), { skip: input.Skip, take: input.Take });
    });

    /** One review with its advert and its last decision. */
    app.get('/pendingreview', async (request) => getPendingReview(ctxOf(request), readInput(request, PendingReviewIdSchema).Id));

    /** Approve or reject a pending review (reason required to reject); remove or keep one asked to be removed. */
    app.post('/decidereview', async (request) => decideReview(ctxOf(request), readInput(request, DecideReviewSchema), { messaging }));

    // ---- Verification (Support: validation:decide:any) ----------------------------------------

    /** Verifications waiting for a decision (oldest first), or decided ones (latest first). */
    app.get('/validations', async (request) => {
      const input = readInput(request, ValidationsQuerySchema);
      return listValidations(ctxOf(request), { skip: input.Skip, take: input.Take, status: input.Status }, deps.verificationPolicy);
    });

    /** One verification, with the advert's data to compare and the files to open. */
    app.get('/validation', async (request) => getValidation(ctxOf(request), readInput(request, ValidationIdSchema).Id, deps.verificationPolicy));

    /** One private file of a verification; every opening is audited. */
    app.get('/validationfile', async (request, reply) => {
      const input = readInput(request, ValidationFileSchema);
      return sendPrivateFile(reply, await openValidationFile(ctxOf(request), deps.storage, { id: input.Id, kind: input.Kind }));
    });

    app.post('/acceptvalidation', async (request) => acceptValidation(ctxOf(request), readInput(request, ValidationIdSchema).Id, { messaging, policy: deps.verificationPolicy }));

    app.post('/declinevalidation', async (request) => declineValidation(ctxOf(request), readInput(request, DecideValidationSchema), { messaging, policy: deps.verificationPolicy }));

    app.post('/rejectvalidation', async (request) => rejectValidation(ctxOf(request), readInput(request, DecideValidationSchema), { messaging, policy: deps.verificationPolicy }));

    // ---- Adverts (Support: advert:moderate:any; spec §7 profiles … reports) ------------------------

    /** Adverts by id, name, email or phone (every key given must match), newest first, paged. */
    app.get('/profiles', async (request) => searchAdvertProfiles(ctxOf(request), readInput(request, AdvertProfilesQuerySchema)));

    /** One advert with its account, names of its places and choices, lock, verification and counts. */
    app.get('/profile', async (request) => getAdvertProfile(ctxOf(request), readInput(request, AdvertProfileIdSchema).Id));

    /** Status change with a reason; a lock names a rule and issues a statement of reasons. */
    app.post('/profilestatus', async (request) => changeAdvertStatusBySupport(ctxOf(request), readInput(request, AdvertStatusChangeSchema), { messaging }));

    /** The account's sign-in attempts, newest first. */
    app.get('/loginhistories', async (request) => listLoginHistory(ctxOf(request), readInput(request, AdvertProfilePageSchema)));

    /** The audit entries about the advert (read only), newest first. */
    app.get('/actionhistories', async (request) => listActionHistory(ctxOf(request), readInput(request, AdvertProfilePageSchema)));

    app.get('/currentmedia', async (request) => listAdvertMedia(ctxOf(request), deps.storage, readInput(request, AdvertProfileIdSchema).Id, 'current'));

    /** Our call: any advert's picture and video files, in any state (advert:moderate:any; docs/decisions/013). */
    privateMediaRoute(deps, 'support', supportOf)(app, '/mediafile');

    app.get('/deletedmedia', async (request) => listAdvertMedia(ctxOf(request), deps.storage, readInput(request, AdvertProfileIdSchema).Id, 'deleted'));

    /** Messages to the advertiser (their backend's notifications); POST sends one. */
    app.get('/advertmessages', async (request) => listAdvertMessages(ctxOf(request), readInput(request, AdvertProfilePageSchema)));

    app.post('/advertmessages', async (request, reply) =>
      reply.code(201).send(await sendAdvertMessage(ctxOf(request), readInput(request, SendAdvertMessageSchema), { messaging })),
    );

    app.get('/advertreviews', async (request) => listAdvertReviews(ctxOf(request), readInput(request, AdvertProfileIdSchema).Id));

    app.get('/advertreports', async (request) => listAdvertReports(ctxOf(request), readInput(request, AdvertProfileIdSchema).Id));

    // ---- Impersonation (Support) ---------------------------------------------------------------

    /** A one-time link (2 minutes, this support user only) into the advert's backend as the advertiser. */
    app.post('/impersonation', async (request, reply) => {
      const link = await issueImpersonationLink(ctxOf(request), { advertId: readInput(request, ImpersonationLinkSchema).ProfileId });
      return reply.code(201).send(link);
    });

    // ---- Orders (Support) and products (Administration): support-orders.ts -------------------

    await app.register(supportOrderRoutes(deps, supportOf));

    // ---- News for advertisers (Administration): support-news.ts ---------------------------------

    await app.register(supportNewsRoutes(deps, supportOf));
    await app.register(supportKeywordRoutes(deps, supportOf));

    // ---- Statistics and the transparency report (Administration): support-statistics.ts ---------

    await app.register(supportStatisticsRoutes(deps, supportOf));

    // ---- Regions and cities (SEO): support-places.ts ------------------------------------------

    await app.register(supportPlacesRoutes(deps, supportOf));

    // ---- Adverts from the old site (Support): support-migration.ts ---------------------------

    await app.register(supportMigrationRoutes(deps, supportOf));

    // ---- Outbox, SEO --------------------------------------------------------------------------

    /**
     * The outbox of mail and SMS, newest first (outbox:read:any); links and codes masked, except for
     * undelivered messages in development and tests, where the outbox is the developer's mailbox.
     */
    app.get('/outbox', async (request) =>
      listOutboxMessages(ctxOf(request), readInput(request, OutboxQuerySchema), { revealUndelivered: deps.environment !== 'production' }),
    );

    // SEO pages (landingpages, landingpage, publish, delete, images): support-seo-pages.ts.
    await app.register(supportSeoPageRoutes(deps, supportOf));
  };
}
