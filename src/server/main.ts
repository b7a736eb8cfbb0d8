import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { MediaStorage } from './adapters/types.ts';
import { migrateDatabase, openDatabase, type DatabaseHandle } from './db/client.ts';
import { createS3Storage } from './adapters/storage/s3-storage.ts';
import { createLocalStorage } from './adapters/storage/local-storage.ts';
import { seedReference } from './db/seed/seed-reference.ts';
import { isSeeded, moveDemoMediaToStorage, seedDemo } from './db/seed/seed-demo.ts';
import { issueDemoReceipts, refundDemoOrder } from './domain/commerce/demo-documents.ts';
import type { DomainEvent, DomainEvents } from './domain/context.ts';
import { SYSTEM } from './domain/context.ts';
import { ensureBootstrapAdmin, type BootstrapResult } from './domain/support-users/save-support-user.ts';
import { refreshDueAdvertSearch } from './domain/search/refresh-advert-search.ts';
import { searchMemory } from './domain/search/search-memory.ts';
import { buildApp } from './app.ts';
import { MESSAGE_RETRY_QUEUE, createMessaging } from './adapters/messaging/create-messaging.ts';
import { enqueueJob, startWorker } from './jobs/queue.ts';
import { buildSite, readCurrentBuildInfo } from './jobs/site-build.ts';
import { publishSiteBuild, startSiteFollower } from './jobs/site-share.ts';
import { HOUSEKEEPING_QUEUE, SEARCH_CLOCK_QUEUE, housekeepingHandler, scheduleHousekeeping, searchClockHandler } from './jobs/housekeeping-job.ts';
import { deleteExpiredVerificationFiles } from './domain/verification/delete-verification-files.ts';
import { newSecretKeyText, parseSecretKey, secretKeysFrom, type SecretKeys } from './domain/secret-box.ts';
import { ACCOUNT_ERASURE_QUEUE, accountErasureHandler } from './jobs/account-erasure-job.ts';
import { COMMERCE_QUEUE, commerceClockHandler } from './jobs/commerce-job.ts';
import { MIGRATION_CLEANUP_QUEUE, migrationCleanupHandler } from './jobs/migration-cleanup-job.ts';
import { PUBLIC_ADVERT_COUNT_QUEUE, publicAdvertCountHandler } from './jobs/statistics-job.ts';
import { warmStatistics } from './domain/statistics/statistics.ts';

export const SITE_REBUILD_QUEUE = 'site.rebuild';
/** Daily: verification files 30 days after the decision are deleted, the records kept. */
export const VERIFICATION_FILES_QUEUE = 'verification.files';
const DAY_MS = 86_400_000;

export type RunningServer = {
  app: FastifyInstance;
  database: DatabaseHandle;
  url: string;
  bootstrap: BootstrapResult;
  firstStart: boolean;
  close: () => Promise<void>;
};

/**
 * Loud at every start: built-in TEST providers in production (only with ALLOW_TEST_PROVIDERS; loadConfig
 * refuses them otherwise). Their results never verify anyone there (docs/decisions/019-test-providers-and-yoti.md).
 */
export function warnAboutTestProviders(config: Config, log: Logger): void {
  if (config.ageProvider.kind === 'none') log.info('no age-verification provider: the online age check is not offered');
  if (config.testProviders.length === 0) return;
  if (config.env === 'production') {
    log.warn(
      { testProviders: config.testProviders, allowTestProviders: config.testProvidersAllowed },
      `TEST PROVIDERS IN PRODUCTION (ALLOW_TEST_PROVIDERS is set): ${config.testProviders.join(', ')}. ` +
        'No real check happens; their results can never verify anyone. Do not run this installation for real users.',
    );
  } else {
    log.info({ testProviders: config.testProviders }, `built-in test providers in use (${config.env}): ${config.testProviders.join(', ')}`);
  }
}

/**
 * Loud at a production start without an SMS provider or SMTP: which features cannot work. Without SMS no
 * one can sign up (the phone code), confirm a changed phone, or review an advert; those calls refuse with a
 * clear message rather than wait for a code. Without SMTP no sign-up link or password reset reaches anyone.
 */
export function warnAboutMissingProviders(config: Config, log: Logger): void {
  if (config.env !== 'production') return;
  if (!config.sms) {
    log.warn(
      { smsProvider: null },
      'NO SMS PROVIDER (SMS_PROVIDER is unset): sign-up, claiming an advert from the old site, confirming a changed phone number and ' +
        'visitors\' reviews cannot work, because their codes reach no phone; those calls answer that SMS cannot be sent. ' +
        'Set SMS_PROVIDER=gatewayapi with GATEWAYAPI_TOKEN and SMS_SENDER (docs/security.md, "Launch checklist").',
    );
  } else if (!config.sms.webhookSecret) {
    log.warn({ smsProvider: config.sms.provider }, 'GATEWAYAPI_WEBHOOK_SECRET is unset: SMS go out, but their delivery reports are not asked for or accepted');
  }
  if (!config.smtpUrl) {
    log.warn({ smtp: null }, 'NO SMTP (SMTP_URL is unset): sign-up links, password resets and receipts by email reach no one; they stay in the outbox, masked');
  }
}

/** Media storage: S3 when S3_BUCKET is set (docs/decisions/013), else the local disk under DATA_DIR/media. */
export function mediaStorageOf(config: Config): MediaStorage {
  return config.s3 ? createS3Storage(config.s3) : createLocalStorage(config.paths.media);
}

/** How many of the demo's paid orders get a receipt (issue 16 demo content; bounded for big demo seeds). */
const DEMO_RECEIPTS = 40;

/** Applies migrations and, on the first start, seeds reference and demo data. */
export async function prepareDatabase(
  database: DatabaseHandle,
  config: Config,
  log: Logger,
): Promise<{ firstStart: boolean; bootstrap: BootstrapResult }> {
  await migrateDatabase(database);
  const firstStart = !(await isSeeded(database.db));
  if (firstStart) {
    await seedReference(database.db, { siteUrl: config.siteUrl });
    if (config.seedDemo && config.seedDemoAdverts > 0) {
      const started = Date.now();
      const result = await seedDemo(database.db, { mediaDir: config.paths.media, adverts: config.seedDemoAdverts });
      // With S3_BUCKET every instance reads media from the bucket, not from this disk.
      const uploaded = config.s3 ? await moveDemoMediaToStorage(config.paths.media, mediaStorageOf(config)) : 0;
      // Receipts and credit notes take numbers of the one series a business's books follow: in production
      // (a test installation, ALLOW_DEMO_SEED) the demo's orders stay without documents.
      const documents = config.env !== 'production';
      const receipts = documents ? await issueDemoReceipts(database.db, { limit: DEMO_RECEIPTS }) : 0;
      const refunded = documents ? await refundDemoOrder(database.db) : false;
      log.info({ ...result, uploaded, receipts, refunded, ms: Date.now() - started }, 'demo content seeded');
      if (config.env === 'production') log.warn('demo content seeded with NODE_ENV=production (ALLOW_DEMO_SEED): fictional public adverts whose accounts sign in with the README password; no demo receipts');
    }
  }
  // The search index: whatever is missing or due (all of it after a seed) is brought up to date.
  const started = Date.now();
  const refreshed = await refreshDueAdvertSearch(database.db, new Date());
  if (refreshed > 0) log.info({ adverts: refreshed, ms: Date.now() - started }, 'search index refreshed');
  const bootstrap = await ensureBootstrapAdmin(
    { db: database.db, actor: SYSTEM, events: { publish: () => {} }, now: () => new Date() },
    {
      email: config.supportAdminEmail,
      password: config.supportAdminPassword,
      generate: () => randomBytes(12).toString('base64url'),
    },
  );
  return { firstStart, bootstrap };
}

/**
 * The keys that seal secrets at rest: SECRETS_KEY (and SECRETS_KEY_PREVIOUS). Without it (development and
 * tests only; loadConfig refuses production without it) a key is generated once and kept in
 * DATA_DIR/secrets.key (readable by the owner only), which suits one instance on its own data directory.
 */
export async function loadSecretKeys(config: Config, log: Logger): Promise<SecretKeys> {
  if (config.secretsKey) return secretKeysFrom(config.secretsKey, config.secretsKeysPrevious);
  if (config.env === 'production') throw new Error('SECRETS_KEY is required in production');
  const file = path.join(config.dataDir, 'secrets.key');
  await mkdir(config.dataDir, { recursive: true });
  try {
    await writeFile(file, `${newSecretKeyText()}\n`, { flag: 'wx', mode: 0o600 });
    log.warn({ file }, 'SECRETS_KEY is not set: a key was generated for this data directory (development only)');
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
  const key = parseSecretKey(await readFile(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a key of 32 bytes (base64); remove it only if no secrets were sealed with it`);
  return secretKeysFrom(key, config.secretsKeysPrevious);
}

/** The main job: database, API, site build and its schedule, in one process. */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  warnAboutTestProviders(config, log);
  await mkdir(config.paths.site, { recursive: true });
  await mkdir(config.paths.media, { recursive: true });
  const database = await openDatabase(
    config.databaseUrl
      ? {
          databaseUrl: config.databaseUrl,
          onConnectionError: (error) => log.error({ err: error }, 'a database connection broke; the pool reconnects'),
        }
      : { pgliteDir: config.paths.db },
  );
  try {
    const { firstStart, bootstrap } = await prepareDatabase(database, config, log);

    let poke = () => {};
    const scheduleRebuild = async (delaySeconds: number) => {
      await enqueueJob(database.db, SITE_REBUILD_QUEUE, {}, {
        runAt: new Date(Date.now() + delaySeconds * 1000),
        singletonKey: SITE_REBUILD_QUEUE,
        maxAttempts: 3,
      });
      if (delaySeconds === 0) poke();
    };
    const events: DomainEvents = {
      publish: async (event: DomainEvent) => {
        if (event.type === 'content.changed') await scheduleRebuild(config.siteRebuildDebounceSeconds);
        if (event.type === 'site.rebuild.requested') await scheduleRebuild(0);
      },
    };

    const storage = mediaStorageOf(config);

    // Mail and SMS: the outbox always, SMTP for email when SMTP_URL is set (docs/decisions/010), GatewayAPI
    // for SMS when SMS_PROVIDER=gatewayapi (docs/decisions/039). A failed message is tried again by the job queue (30 s, 1, 2, 4 ... 60 min: about three hours).
    const scheduleRetry = async (outboxId: number) => {
      await enqueueJob(database.db, MESSAGE_RETRY_QUEUE, { outboxId }, {
        runAt: new Date(Date.now() + 30_000),
        singletonKey: `${MESSAGE_RETRY_QUEUE}:${outboxId}`,
        maxAttempts: 10,
      });
    };
    // The site build's credential for fullprofiles: SITE_BUILD_TOKEN, else one for this start, passed to
    // the builds this process runs (a build elsewhere needs SITE_BUILD_TOKEN set on both sides).
    const siteBuildToken = config.siteBuildToken ?? randomBytes(32).toString('base64url');
    const messaging = createMessaging(
      database.db,
      {
        smtpUrl: config.smtpUrl,
        mailFrom: config.mailFrom,
        gatewayApi: config.sms && { ...config.sms, siteUrl: config.siteUrl },
        keepUndeliveredSecrets: config.env !== 'production',
        scheduleRetry,
      },
      log,
    );
    warnAboutMissingProviders(config, log);
    const app = await buildApp({
      database,
      messaging,
      rateLimitScale: config.rateLimitScale,
      events,
      logger: log,
      siteDir: config.paths.site,
      mediaDir: config.paths.media,
      sessionDays: config.sessionDays,
      sessionIdle: config.sessionIdle,
      secretKeys: await loadSecretKeys(config, log),
      sms: config.sms,
      cookieSecure: config.cookieSecure,
      trustProxy: config.trustProxy,
      // Media: S3 when S3_BUCKET is set (docs/decisions/013); the local disk otherwise (buildApp's default).
      storage,
      mediaConcurrency: config.mediaConcurrency,
      redisUrl: config.redisUrl,
      rateLimitKeyPrefix: config.rateLimitKeyPrefix,
      allowedOrigins: config.allowedOrigins,
      hubAllowedOrigins: config.hubAllowedOrigins,
      encoderSecret: config.encoderSecret,
      ageProviderSecret: config.ageProviderSecret,
      ageProvider: config.ageProvider,
      paymentCard: config.paymentCard,
      paymentCrypto: config.paymentCrypto,
      paymentCarrier: config.paymentCarrier,
      paymentTestSecret: config.paymentTestSecret,
      siteUrl: config.siteUrl,
      siteBuildToken,
      environment: config.env,
      metricsToken: config.metricsToken,
    });
    await app.listen({ host: config.host, port: config.port });
    // Load the in-memory search index, free text included, now rather than at the first visitor's search.
    searchMemory(database.db)
      .then((memory) => memory.texts(database.db))
      .catch((error: unknown) => log.error({ err: error }, 'could not load the search index'));
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const apiUrl = `http://127.0.0.1:${port}`;

    // Several instances (REDIS_URL): the instance that builds the site publishes it to the media storage,
    // and every instance fetches the published build and serves it (docs/decisions/033).
    const hadSite = (await readCurrentBuildInfo(config.paths.site)) !== null;
    const follower = config.redisUrl ? startSiteFollower({ storage, siteDir: config.paths.site, log, redisUrl: config.redisUrl }) : null;

    const worker = startWorker({
      db: database.db,
      log,
      metrics: app.metrics.jobs,
      handlers: {
        // Incremental (only the changed adverts' pages, every other page) when it can be, else full:
        // see buildSite. A failed incremental build makes the retry a full one.
        [SITE_REBUILD_QUEUE]: async () => {
          const built = await buildSite({
            siteDir: config.paths.site,
            apiUrl,
            siteUrl: config.siteUrl,
            log,
            db: database.db,
            fullRebuildHours: config.siteFullRebuildHours,
            siteBuildToken,
            precompress: config.sitePrecompress,
            metrics: app.metrics.siteBuilds,
          });
          // Not published, the job fails and the retry builds (incrementally) and publishes again.
          if (follower) await publishSiteBuild({ storage, siteDir: config.paths.site, folder: built.folder, log, announce: follower.announce, follow: follower.sync });
        },
        [MESSAGE_RETRY_QUEUE]: async (job) => {
          await messaging.retryMessage(Number(job.payload['outboxId']));
        },
        // Runs once at start and then once a day (each run queues the next).
        [VERIFICATION_FILES_QUEUE]: async () => {
          const ctx = { db: database.db, actor: SYSTEM, events, now: () => new Date(), storage };
          const deleted = await deleteExpiredVerificationFiles(ctx, storage);
          if (deleted > 0) log.info({ verifications: deleted }, 'verification files deleted 30 days after the decision');
          await enqueueJob(database.db, VERIFICATION_FILES_QUEUE, {}, { runAt: new Date(Date.now() + DAY_MS), singletonKey: VERIFICATION_FILES_QUEUE });
        },
        // Erases accounts deleted more than 30 days ago; at start and then once a day (each run queues the next).
        [ACCOUNT_ERASURE_QUEUE]: accountErasureHandler({ db: database.db, storage, events, log }),
        // Unpaid orders expire and renewal reminders go out; every minute (each run queues the next).
        [COMMERCE_QUEUE]: commerceClockHandler({ db: database.db, events, messaging, payments: app.payments, siteUrl: config.siteUrl, storage, log }),
        // Imports of the old site nobody claimed within 90 days are deleted; at start and then once a day.
        [MIGRATION_CLEANUP_QUEUE]: migrationCleanupHandler({ db: database.db, storage, log }),
        // Public adverts by kind into public_advert_days (statistics); at start, hourly and a minute before midnight.
        [PUBLIC_ADVERT_COUNT_QUEUE]: publicAdvertCountHandler({ db: database.db, log }),
      },
    });
    // The clocks once across instances (issue 19), in a worker of their own so that a site build running
    // in the first one does not hold them up.
    const housekeepingMs = config.siteRebuildMinutes * 60_000;
    const clockWorker = startWorker({
      db: database.db,
      log,
      metrics: app.metrics.jobs,
      handlers: {
        // The scheduled rebuild and the deletion of what expired; every SITE_REBUILD_MINUTES.
        [HOUSEKEEPING_QUEUE]: housekeepingHandler({ db: database.db, storage, log, everyMs: housekeepingMs, scheduleRebuild: () => scheduleRebuild(0) }),
        // Expiry, holidays and boosts change what is public with time alone: every minute.
        [SEARCH_CLOCK_QUEUE]: searchClockHandler({ db: database.db, events, log }),
      },
    });
    await scheduleHousekeeping(database.db, housekeepingMs);
    await enqueueJob(database.db, VERIFICATION_FILES_QUEUE, {}, { singletonKey: VERIFICATION_FILES_QUEUE });
    await enqueueJob(database.db, ACCOUNT_ERASURE_QUEUE, {}, { singletonKey: ACCOUNT_ERASURE_QUEUE });
    await enqueueJob(database.db, COMMERCE_QUEUE, {}, { singletonKey: COMMERCE_QUEUE });
    await enqueueJob(database.db, MIGRATION_CLEANUP_QUEUE, {}, { singletonKey: MIGRATION_CLEANUP_QUEUE });
    await enqueueJob(database.db, PUBLIC_ADVERT_COUNT_QUEUE, {}, { singletonKey: PUBLIC_ADVERT_COUNT_QUEUE });
    worker.poke();
    poke = worker.poke;
    // Administration's figures of the settled days and months, read once now rather than at the first look.
    warmStatistics(database.db).catch((error: unknown) => log.warn({ err: error }, 'could not read the statistics ahead'));
    if (config.siteBuildOnStart) {
      // A new instance beside others that have a published site fetches it (seconds) rather than building.
      if (follower && !hadSite) {
        void follower.firstSync.then(async (outcome) => {
          if (outcome !== 'fetched' && outcome !== 'current') await scheduleRebuild(0);
        }).catch((error: unknown) => log.error({ err: error }, 'could not schedule the site rebuild'));
      } else {
        await scheduleRebuild(0);
      }
    }

    // This instance's counts of visitors' search terms (held in memory until then), every minute.
    const searchTermsClock = setInterval(() => {
      app.searchTerms.flush(database.db).catch((error: unknown) => log.error({ err: error }, 'could not write the search terms'));
    }, 60_000);

    // This instance's tally of the insights beacons, every 15 s (docs/decisions/040).
    const writeInsights = () => app.insights.flush(database.db).catch((error: unknown) => log.error({ err: error }, 'could not write the insights'));
    const insightsClock = setInterval(() => void writeInsights(), 15_000);

    let closing: Promise<void> | null = null;
    const close = () =>
      (closing ??= (async () => {
        clearInterval(searchTermsClock);
        clearInterval(insightsClock);
        await follower?.close();
        await app.close();
        await app.searchTerms.flush(database.db).catch((error: unknown) => log.error({ err: error }, 'could not write the search terms'));
        await writeInsights();
        messaging.close();
        await Promise.all([worker.stop(), clockWorker.stop()]);
        await database.close();
      })());

    return { app, database, url: config.siteUrl, bootstrap, firstStart, close };
  } catch (error) {
    await database.close();
    throw error;
  }
}
