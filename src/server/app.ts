import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import fastifyEtag from '@fastify/etag';
import fastifyStatic from '@fastify/static';
import type { Logger } from 'pino';
import { SearchTermCounter } from './domain/search/search-terms.ts';
import { InsightTally } from './domain/insights/tally.ts';
import { createBeaconDoor, type BeaconDoor } from './api/beacon.ts';
import { withLogRules } from './logger.ts';
import { PERMISSIONS_POLICY, connectSources } from './security-headers.ts';
import type { DatabaseHandle } from './db/client.ts';
import { isDatabaseReachable } from './db/client.ts';
import type { DomainEvents } from './domain/context.ts';
import { AppError } from './domain/errors.ts';
import { frontendRoutes } from './api/frontend.ts';
import { backendRoutes } from './api/backend.ts';
import { supportRoutes } from './api/support.ts';
import { mediaModerationRoutes } from './api/media-moderation.ts';
import { videoEncoderRoutes } from './api/video-encoder.ts';
import { backendVerificationRoutes } from './api/backend-verification.ts';
import { testAgeProviderRoutes } from './api/test-age-provider.ts';
import { createTestAgeProvider } from './adapters/age-verification/test-age-provider.ts';
import { createCardBillingProvider } from './adapters/payments/cardbilling.ts';
import { createTestCardProvider } from './adapters/payments/test-card-provider.ts';
import { createPaymentProviders } from './adapters/payments/registry.ts';
import { createConfirmoProvider } from './adapters/payments/confirmo.ts';
import { TEST_CRYPTO_PREFIX, createTestCryptoProvider, testConfirmoCredentials } from './adapters/payments/test-crypto-provider.ts';
import { createDimocoProvider } from './adapters/payments/dimoco.ts';
import { TEST_CARRIER_MERCHANT, TEST_CARRIER_ORDER, createDimocoStandIn } from './adapters/payments/test-carrier-provider.ts';
import { testCardProviderRoutes } from './api/test-card-provider.ts';
import { testCryptoProviderRoutes } from './api/test-crypto-provider.ts';
import { testCarrierProviderRoutes } from './api/test-carrier-provider.ts';
import { paymentPostbackRoutes } from './api/payment-postbacks.ts';
import { smsReportRoutes } from './api/sms-reports.ts';
import { createYotiAgeProvider } from './adapters/age-verification/yoti-age-provider.ts';
import { assertNoNulCharacters, problemFromError, sendProblem, type ApiDeps } from './api/http.ts';

import { createAfterResponse, type AfterResponse } from './api/after-response.ts';
import type { MediaStorage, Messaging, PaymentProviders } from './adapters/types.ts';
import { createLocalStorage } from './adapters/storage/local-storage.ts';
import { assertSafeKey } from './adapters/storage/keys.ts';
import { createMediaWork } from './domain/media/media-work.ts';
import { createPictureRenderer } from './domain/media/picture-renderer.ts';
import { createMessaging } from './adapters/messaging/create-messaging.ts';
import { loadConfig, type Config, type AgeProviderConfig, type CardPaymentConfig, type CryptoPaymentConfig, type CarrierPaymentConfig, type TrustProxy } from './config.ts';
import { fastifyTrustProxy, registerRateLimit } from './rate-limit.ts';
import { registerCrossSiteGuard } from './api/cross-site.ts';
import { registerStaticSite, requestIdOf, type FastPath } from './static-site.ts';
import { registerMetrics } from './metrics.ts';
import { createMovedPaths } from './moved-paths.ts';
import { forgetKeywordPages } from './domain/search/keywords.ts';
import { forgetLocations } from './domain/search/landing-path.ts';
import { readCurrentBuildInfo } from './jobs/site-build.ts';
import { registerVideoWorker, type VideoWorkerOptions } from './jobs/video-job.ts';
import { registerMigrationImportWorker, type MigrationWorkerOptions } from './jobs/migration-import-job.ts';
import { createNotificationHub, type HubTimings } from './hub/notification-hub.ts';
import { registerNotificationHub } from './hub/register-hub.ts';
import { DEFAULT_SESSION_IDLE, type SessionIdle } from './domain/accounts/sessions.ts';
import { secretKeysFrom, type SecretKeys } from './domain/secret-box.ts';
import { resealSupportSecrets } from './domain/support-users/two-factor.ts';

export type AppOptions = {
  database: DatabaseHandle;
  events: DomainEvents;
  logger: Logger;
  siteDir: string;
  mediaDir: string;
  sessionDays: number;
  /** Idle timeouts (ADVERTISER_/SUPPORT_SESSION_IDLE_MINUTES); default 7 days and 2 hours. */
  sessionIdle?: SessionIdle;
  cookieSecure: boolean;
  /** TRUST_PROXY: none (false), a number of proxy hops, or the proxies' addresses (config.ts parseTrustProxy). */
  trustProxy: TrustProxy;
  /**
   * SECRETS_KEY and previous keys (docs/security.md). Default: a random key per start, which suits tests
   * only (secrets sealed with it do not open after a restart); the main job passes the configured one.
   */
  secretKeys?: SecretKeys;
  now?: () => Date;
  /**
   * Mail and SMS. The main job makes it from its config and passes it; without one (tests) the app makes
   * its own from the environment (SMTP_URL, MAIL_FROM) and closes it with the app.
   */
  messaging?: Messaging;
  /**
   * The SMS provider (SMS_PROVIDER=gatewayapi): the app's own messaging sends through it, and its delivery
   * reports are accepted at its SMS_REPORTS_PATH when it has a webhook secret. Default: from the environment.
   */
  sms?: Config['sms'];
  /** RATE_LIMIT_SCALE: multiplies the account calls' per-address rate limits; default 1. */
  rateLimitScale?: number;
  /** Media storage; default the local disk under mediaDir (the main job passes S3 when configured). */
  storage?: MediaStorage;
  /** MEDIA_CONCURRENCY: heavy media tasks at once; default 1. */
  mediaConcurrency?: number;
  /** REDIS_URL: hub messages reach every instance through Redis pub/sub, and rate limits are shared there. */
  redisUrl?: string | undefined;
  /** RATE_LIMIT_KEY_PREFIX: the rate-limit counters' key prefix in Redis (tests use one per server). */
  rateLimitKeyPrefix?: string;
  /** Origins allowed to open the notification hub; default allowedOrigins. */
  hubAllowedOrigins?: string[];
  /** Origins whose pages may make the API's state-changing calls (./api/cross-site.ts); default the site's own. */
  allowedOrigins?: string[];
  /** The hub's ping interval and timeouts (default 15 s, 30 s, 15 s); tests shorten them. */
  hubTimings?: Partial<HubTimings>;
  /** ENCODER_SECRET; default a random one per start (one instance). */
  encoderSecret?: string | undefined;
  /** SITE_URL; default http://localhost:3000. */
  siteUrl?: string;
  /** SITE_BUILD_TOKEN: the site build's credential for fullprofiles; default a random one per start. */
  siteBuildToken?: string | undefined;
  /** AGE_PROVIDER_SECRET: signs the test age provider's callbacks; default a random one per start (one instance). */
  /** Work the doors start after their answer (after-response.ts); default one made with the app's log. */
  afterResponse?: AfterResponse;
  /**
   * NODE_ENV; default from the environment (development when unset). Production never shows the outbox's
   * links and codes, nor keeps those of undelivered messages in clear; a built-in TEST provider's result is
   * never accepted as a verification there, and the test provider's page says the installation runs one.
   */
  environment?: 'development' | 'production' | 'test';
  /** AGE_PROVIDER_SECRET: signs the age provider's callbacks; default a random one per start (one instance). */
  ageProviderSecret?: string | undefined;
  /**
   * The age-verification provider (AGE_PROVIDER, YOTI_*; src/server/config.ts); default the built-in TEST
   * provider. `none`: the online check is not offered. `timeoutMs` bounds each call to Yoti (default 10 s).
   */
  ageProvider?: AgeProviderConfig & { timeoutMs?: number };
  /** The card payment provider (PAYMENT_CARD, CARDBILLING_*; src/server/config.ts); default the built-in TEST provider. */
  paymentCard?: CardPaymentConfig;
  /** The crypto payment provider (PAYMENT_CRYPTO, CONFIRMO_*); default the built-in TEST provider. */
  paymentCrypto?: CryptoPaymentConfig;
  /** The carrier-billing provider (PAYMENT_CARRIER, DIMOCO_*); default the built-in TEST provider. */
  paymentCarrier?: CarrierPaymentConfig;
  /** PAYMENT_TEST_SECRET: signs the test payment providers' postbacks; default a random one per start (one instance). */
  paymentTestSecret?: string | undefined;
  /**
   * The worker of the `media.video` transcode jobs (src/server/jobs/video-job.ts), on by default; `false`
   * leaves queued jobs for a later start (tests simulating a crash), settings shorten its limits.
   */
  videoWorker?: false | VideoWorkerOptions;
  /** The built site's fast path (static-site.ts), on by default; `false` sends every request through Fastify (tests compare the two). */
  staticFastPath?: boolean;
  /** The worker of the `migration-import` jobs (jobs/migration-import-job.ts), on by default; `false` leaves them queued. */
  migrationWorker?: false | MigrationWorkerOptions;
  /** METRICS_TOKEN: Prometheus metrics at /metrics for this bearer token (src/server/metrics.ts); unset, no /metrics. */
  metricsToken?: string | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The payment providers by method (the main job's commerce clock reads them). */
    payments: PaymentProviders;
    /** This process's count of visitors' search terms (the main job writes it every minute). */
    searchTerms: SearchTermCounter;
    /** This process's tally of the insights beacons (the main job writes it every 15 s; docs/decisions/040). */
    insights: InsightTally;
  }
}

/** Public media files never change (a new file gets a new name): cache them for a year. */
const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Stream errors a client causes by closing its connection before the answer is complete. */
const CLIENT_GONE_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/**
 * Whether an error only means the client went away (a load generator stopping, a visitor closing the
 * tab): the connection is closed and the error is one a closed connection causes. Not a server fault,
 * so not logged as one; the same errors on a live connection still are.
 */
function clientWentAway(error: unknown, request: FastifyRequest): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_GONE_CODES.has(code) && request.raw.socket?.destroyed !== false;
}

/** A request that took this long is logged at info; quicker ones at debug. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One log record per request, when it is answered: the request (its URL as the log rules leave it), its
 * status and how long it took (Fastify writes two, one when it comes in). At debug, unless it failed (a
 * status of 500 or more: warn; not 503, the deliberate answer while the first build runs or the server stops,
 * which stays at debug) or was slow (SLOW_REQUEST_MS: info), so a terminal at the default level
 * shows what needs a look rather than every page. A route's own log level holds as for every record of the
 * request; a client that leaves mid-answer is still said (Fastify's own).
 */
class OneLinePerRequest extends Fastify.LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const record = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...record, err: error }, 'request errored');
    else if (reply.statusCode >= 500 && reply.statusCode !== 503) reply.log.warn(record, 'request');
    else if (reply.elapsedTime >= SLOW_REQUEST_MS) reply.log.info(record, 'request');
    else reply.log.debug(record, 'request');
  }
}

/** The HTTP server: /api, media, the built site, health. The same app runs in tests. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  // Authenticator secrets stored in clear or with a previous key are sealed with the current key before
  // anything else starts; a secret no configured key opens stops the start here, naming the key id.
  const secrets = options.secretKeys ?? secretKeysFrom(randomBytes(32));
  const resealed = await resealSupportSecrets(options.database.db, secrets);
  if (resealed > 0) options.logger.info({ resealed, keyId: secrets.current.id }, 'authenticator secrets encrypted with the current SECRETS_KEY');
  const app: FastifyInstance = Fastify({
    // The log rules (src/server/logger.ts: no secrets, no personal query values, no database parameters) hold
    // whatever root logger the app was given.
    loggerInstance: withLogRules(options.logger) as FastifyBaseLogger,
    trustProxy: fastifyTrustProxy(options.trustProxy),
    // One rule with the built site's fast path: the caller's X-Request-Id when it is sane, else a new one.
    genReqId: requestIdOf,
    bodyLimit: 1024 * 1024,
    logController: new OneLinePerRequest(),
    // The built site's fast path answers first (static-site.ts); everything else is Fastify's. Its
    // answers are counted here for the metrics (Fastify's own by a hook: src/server/metrics.ts).
    serverFactory: (handler) => createServer((request, response) => {
      // The insights beacon, answered 204 before anything else (api/beacon.ts).
      if (beaconDoor !== null && beaconDoor(request, response)) return;
      const started = countFastPath === null ? 0 : performance.now();
      if (fastPath !== null && fastPath(request, response)) countFastPath?.(request.method, response.statusCode, started);
      else handler(request, response);
    }),
  });
  let fastPath: FastPath | null = null;
  let beaconDoor: BeaconDoor | null = null;
  let countFastPath: ReturnType<typeof registerMetrics> = null;

  const environment = options.environment ?? loadConfig().env;
  let messaging = options.messaging;
  const sms = 'sms' in options ? options.sms : loadConfig().sms;
  if (!messaging) {
    const config = loadConfig();
    const own = createMessaging(
      options.database.db,
      { smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, gatewayApi: sms && { ...sms, siteUrl: options.siteUrl ?? config.siteUrl }, keepUndeliveredSecrets: environment !== 'production' },
      app.log,
    );
    app.addHook('onClose', async () => own.close());
    messaging = own;
  }

  // The notification hub (docs/decisions/013): `deps.hub` for the doors, `/notificationhub` below.
  const hub = createNotificationHub({ logger: app.log, redisUrl: options.redisUrl, ...options.hubTimings });

  // Payments (docs/decisions/025-commerce.md): one provider per method, chosen by config. The TEST card
  // provider is the live adapter against a stand-in of the provider on this site (decision 038), which
  // sends its postbacks over HTTP to this server's own listening address.
  const cardChoice = options.paymentCard ?? { kind: 'test' };
  const cryptoChoice = options.paymentCrypto ?? { kind: 'test' };
  const carrierChoice = options.paymentCarrier ?? { kind: 'test' };
  const siteUrl = options.siteUrl ?? 'http://localhost:3000';
  const paymentTestSecret = options.paymentTestSecret ?? randomBytes(32).toString('base64url');
  const postbackBase = () => {
    const address = app.server.address();
    return typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : siteUrl;
  };
  const testCardProvider = cardChoice.kind === 'test' ? createTestCardProvider({ siteUrl, secret: paymentTestSecret, postbackBase }) : null;
  // The TEST crypto provider is a stand-in of Confirmo on this server: the live adapter talks to it at this
  // server's own address (the buyer's invoice page is on SITE_URL).
  const testCryptoProvider = cryptoChoice.kind === 'test' ? createTestCryptoProvider({ siteUrl, secret: paymentTestSecret, ownBase: postbackBase }) : null;
  // PAYMENT_CARRIER=test runs the live DIMOCO adapter against the built-in stand-in of pay:smart on this site.
  const testCarrierContract = { merchant: TEST_CARRIER_MERCHANT, order: TEST_CARRIER_ORDER, password: paymentTestSecret };
  const dimocoStandIn = carrierChoice.kind === 'test' ? createDimocoStandIn({ ...testCarrierContract, siteUrl, postbackBase }) : null;
  const payments = createPaymentProviders({
    card: cardChoice.kind === 'cardbilling' ? createCardBillingProvider({ shopId: cardChoice.shopId, signatureKey: cardChoice.signatureKey, url: cardChoice.url }) : (testCardProvider?.provider ?? null),
    crypto:
      cryptoChoice.kind === 'confirmo'
        ? createConfirmoProvider({ apiKey: cryptoChoice.apiKey, callbackPassword: cryptoChoice.callbackPassword, url: cryptoChoice.url })
        : testCryptoProvider
          ? createConfirmoProvider({ ...testConfirmoCredentials(paymentTestSecret), url: () => `${postbackBase()}${TEST_CRYPTO_PREFIX}`, test: true })
          : null,
    carrier:
      carrierChoice.kind === 'dimoco'
        ? createDimocoProvider({ merchant: carrierChoice.merchant, order: carrierChoice.order, password: carrierChoice.password, url: carrierChoice.url })
        : dimocoStandIn
          ? createDimocoProvider({ ...testCarrierContract, url: `${siteUrl.replace(/\/$/, '')}/test-payments/carrier/start`, test: true })
          : null,
  });

  // Moved public addresses answer 301 from memory (src/server/moved-paths.ts), read again after each change.
  const movedPaths = createMovedPaths(options.database.db, (error) => app.log.error({ err: error }, 'the redirects of moved addresses could not be read'));
  await movedPaths.refresh();
  app.addHook('onClose', async () => movedPaths.stop());

  const deps: ApiDeps = {
    db: options.database.db,
    // The hub closes the connections of an account whose sessions all ended (their reconnect must pass
    // the session check again); every event still reaches the server's own listener.
    events: {
      publish: async (event) => {
        if (event.type === 'account.sessions.ended') hub.disconnectAccount(event.accountId, 'Your session has ended.');
        if (event.type === 'content.changed') {
          await movedPaths.refresh();
          // A landing page published or moved, a city added or renamed: search and the header search see
          // it at once on this instance (other instances within a minute).
          forgetKeywordPages(options.database.db);
          forgetLocations(options.database.db);
        }
        await options.events.publish(event);
      },
    },
    sessionDays: options.sessionDays,
    sessionIdle: options.sessionIdle ?? DEFAULT_SESSION_IDLE,
    cookieSecure: options.cookieSecure,
    secrets,
    now: options.now ?? (() => new Date()),
    messaging,
    rateLimitScale: options.rateLimitScale ?? 1,
    storage: options.storage ?? createLocalStorage(options.mediaDir),
    mediaWork: createMediaWork(options.mediaConcurrency ?? 1),
    pictureRenderer: createPictureRenderer(),
    hub,
    encoderSecret: options.encoderSecret ?? randomBytes(32).toString('base64url'),
    siteUrl,
    payments,
    verificationPolicy: { testResultsMayVerify: environment !== 'production' },
    followVisitorAddress: environment === 'development',
    siteBuildToken: options.siteBuildToken ?? randomBytes(32).toString('base64url'),
    environment,
    afterResponse: options.afterResponse ?? createAfterResponse(app.log),
    searchTerms: new SearchTermCounter(),
  };
  app.decorate('searchTerms', deps.searchTerms);
  const insights = new InsightTally();
  app.decorate('insights', insights);
  beaconDoor = createBeaconDoor({ db: options.database.db, tally: insights, trustProxy: fastifyTrustProxy(options.trustProxy), now: () => deps.now().getTime() });
  app.addHook('onClose', async () => deps.afterResponse.settle());
  app.addHook('onClose', async () => deps.pictureRenderer.close());

  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
  });

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        // The API and the notification hub at the site's own origin and the allowed hub origins only.
        connectSrc: connectSources(deps.siteUrl, options.hubAllowedOrigins ?? []),
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        // The carrier provider's start is a form the browser posts to DIMOCO_URL (docs/decisions/025).
        formAction: ["'self'", ...(carrierChoice.kind === 'dimoco' ? [new URL(carrierChoice.url).origin] : [])],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: options.cookieSecure,
  });
  // Answers up to 128 KiB (API JSON) are compressed in one synchronous call: on two cores the plugin's
  // default (streams above ~8 KiB) spent a third of a search's CPU time on stream plumbing. Bigger
  // bodies still stream. (Built site files are compressed once and kept: src/server/site-files.ts.)
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], syncThreshold: 128 * 1024 });
  await registerRateLimit(app, { redisUrl: options.redisUrl, keyPrefix: options.rateLimitKeyPrefix, logger: app.log });
  await app.register(fastifyEtag, { weak: true });

  app.setErrorHandler((error, request, reply) => {
    const problem = problemFromError(error, request);
    if (clientWentAway(error, request)) request.log.debug({ err: error }, 'client went away before the answer was sent');
    else if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else if (!(error instanceof AppError)) request.log.info({ err: error }, 'request refused');
    return sendProblem(reply, problem);
  });

  // No text input may hold a NUL character (PostgreSQL refuses it in text): 400 naming the field, for every call.
  app.addHook('preValidation', async (request) => assertNoNulCharacters(request));

  const allowedOrigins = options.allowedOrigins ?? [new URL(deps.siteUrl).origin];
  // Every state-changing /api call: the site's own pages only, JSON or multipart bodies only.
  registerCrossSiteGuard(app, { allowedOrigins });

  // Before every other route: @fastify/websocket must see them all (closes upgrades to non-hub routes).
  await registerNotificationHub(app, hub, {
    db: options.database.db,
    now: deps.now,
    allowedOrigins: options.hubAllowedOrigins ?? allowedOrigins,
    cookieSecure: deps.cookieSecure,
    sessionIdle: deps.sessionIdle,
    followVisitorAddress: deps.followVisitorAddress,
  });

  // Prometheus metrics (docs/decisions/035): `/metrics` with METRICS_TOKEN, and a hook counting every request.
  countFastPath = registerMetrics(app, options.metricsToken, { database: options.database, siteDir: options.siteDir, hub });

  app.get('/healthz', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'up' };
  });

  app.get('/readyz', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const [database, build] = await Promise.all([
      isDatabaseReachable(options.database.db),
      readCurrentBuildInfo(options.siteDir),
    ]);
    const ready = database && build !== null;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not ready',
      database: database ? 'reachable' : 'unreachable',
      site: build ? { builtAt: build.finishedAt, pages: build.pages } : 'not built yet',
    });
  });

  // Video transcode jobs run in every app (npm start and the test server), apart from the site build.
  registerVideoWorker(app, deps, options.videoWorker ?? {});
  // Imports of the old site's adverts (issue 18): their pictures go through the same pipeline as uploads.
  registerMigrationImportWorker(
    app,
    { db: deps.db, now: deps.now, media: { storage: deps.storage, work: deps.mediaWork, render: deps.pictureRenderer.render } },
    options.migrationWorker ?? {},
  );
  await app.register(frontendRoutes(deps), { prefix: '/api/frontend' });
  await app.register(backendRoutes(deps), { prefix: '/api/backend' });
  await app.register(supportRoutes(deps), { prefix: '/api/support' });
  // Media calls that are not the advertiser's own (support's moderation, the encoder's signed
  // postbacks) sit beside the backend's session hook, under the spec's /api/backend/ names.
  await app.register(mediaModerationRoutes(deps), { prefix: '/api/backend' });
  await app.register(videoEncoderRoutes(deps), { prefix: '/api/backend' });
  // Verification (issue 6): beside the backend's session hook, as its upload calls also take a QR hand-off
  // token. The age provider (docs/decisions/019-test-providers-and-yoti.md): the built-in TEST provider
  // (its hosted page under /test-age-provider/, never a real check), Yoti, or none.
  const ageProviderSecret = options.ageProviderSecret ?? randomBytes(32).toString('base64url');
  const choice = options.ageProvider ?? { kind: 'test' };
  const testAgeProvider = choice.kind === 'test' ? createTestAgeProvider({ siteUrl: deps.siteUrl, secret: ageProviderSecret }) : null;
  const ageProvider =
    choice.kind === 'yoti'
      ? createYotiAgeProvider({
          sdkId: choice.sdkId,
          apiKey: choice.apiKey,
          apiUrl: choice.apiUrl,
          publicKeyPem: choice.publicKeyPem,
          ageThreshold: choice.ageThreshold,
          notificationUrl: `${deps.siteUrl}/api/backend/yoticallback`,
          ...(choice.timeoutMs === undefined ? {} : { timeoutMs: choice.timeoutMs }),
        })
      : testAgeProvider;
  await app.register(backendVerificationRoutes(deps, { ageProvider }), { prefix: '/api/backend' });
  if (testAgeProvider) {
    await app.register(testAgeProviderRoutes(testAgeProvider, ageProviderSecret, { production: environment === 'production' }), {
      prefix: '/test-age-provider',
    });
  }

  app.decorate('payments', payments);
  // The payment providers' postbacks (signed, outside the advertiser's session) and the TEST card provider's page.
  await app.register(paymentPostbackRoutes(deps), { prefix: '/api/backend' });
  // The SMS provider's delivery reports (signed with the webhook's secret; refused without one).
  await app.register(smsReportRoutes(deps, { secret: sms?.webhookSecret }));
  if (testCardProvider) {
    await app.register(testCardProviderRoutes(testCardProvider, { production: environment === 'production', backUrl: `${siteUrl.replace(/\/$/, '')}/backend/advert-package/` }), { prefix: '/test-payments/card' });
  }
  if (testCryptoProvider) {
    await app.register(testCryptoProviderRoutes(testCryptoProvider, { production: environment === 'production' }), { prefix: TEST_CRYPTO_PREFIX });
  }
  if (dimocoStandIn) {
    await app.register(testCarrierProviderRoutes(dimocoStandIn, { production: environment === 'production' }), { prefix: '/test-payments/carrier' });
  }

  /** The card provider's success address (spec §2): on to the backend's payment receipt redirect. */
  app.get('/api/CardBilling/Success', async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/backend/payment/receipt/${query}`, 302);
  });

  // Public media (docs/decisions/013): from the disk by @fastify/static when the storage is local, else
  // streamed from the storage (S3). Private files are never served. Keys are generated, never guessed.
  const publicMediaRoot = deps.storage.localRoot('public');
  const storage = deps.storage;
  await app.register(
    async (media) => {
      // A missing media file is a plain 404 (not the site's 404 page).
      media.setNotFoundHandler((request, reply) =>
        sendProblem(reply, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'File was not found', instance: request.url, requestId: request.id }),
      );
      if (publicMediaRoot) {
        await mkdir(publicMediaRoot, { recursive: true });
        await media.register(fastifyStatic, {
          root: publicMediaRoot,
          prefix: '/',
          decorateReply: false,
          wildcard: true,
          index: false,
          redirect: false,
          serveDotFiles: false,
          setHeaders: (reply) => reply.header('Cache-Control', MEDIA_CACHE_CONTROL),
        });
        return;
      }
      media.get('/*', async (request, reply) => {
        const key = (request.params as { '*': string })['*'];
        try {
          assertSafeKey(key);
        } catch {
          throw new AppError('NOT_FOUND', 'File was not found');
        }
        const stored = await storage.open('public', key);
        if (!stored) throw new AppError('NOT_FOUND', 'File was not found');
        return reply
          .header('Content-Type', stored.contentType)
          .header('Content-Length', stored.size)
          .header('Cache-Control', MEDIA_CACHE_CONTROL)
          .send(stored.body);
      });
    },
    { prefix: '/media' },
  );

  const staticFastPath = await registerStaticSite(app, options.siteDir, {
    db: options.database.db,
    now: deps.now,
    movedPaths,
    trustProxy: fastifyTrustProxy(options.trustProxy),
  });
  if (options.staticFastPath !== false) fastPath = staticFastPath;
  return app;
}
