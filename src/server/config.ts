import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import * as v from 'valibot';
import { parseSecretKey } from './domain/secret-box.ts';
import { FLEXPAY_BRANDS } from './adapters/payments/flexpay.ts';
import { GATEWAYAPI_EU_URL, SMS_SENDER_PATTERN } from './adapters/messaging/gatewayapi-sms.ts';

/** Every environment variable the server reads, with its default. `.env.example` mirrors this list. */
const YES_NO = v.pipe(
  v.picklist(['true', 'false', '1', '0', 'yes', 'no']),
  v.transform((value) => ['true', '1', 'yes'].includes(value)),
);

const boolean = (fallback: boolean) => v.optional(YES_NO, fallback ? 'true' : 'false');

/** A yes/no setting without a default (its default depends on other settings). */
const optionalBoolean = () => v.optional(YES_NO);

const integer = (fallback: number, min: number, max: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

const url = (protocols: string[]) =>
  v.pipe(
    v.string(),
    v.url('must be a URL'),
    v.check((value) => protocols.includes(new URL(value).protocol), `must start with ${protocols.join(' or ')}//`),
  );

/**
 * The one value of ALLOW_TEST_PROVIDERS that lets built-in TEST providers run with NODE_ENV=production
 * (docs/decisions/019-test-providers-and-yoti.md). Anything else is a configuration error.
 */
export const TEST_PROVIDERS_CONSENT = 'i-understand-this-is-not-production';

/**
 * Which proxies in front of the server are trusted to name the client (X-Forwarded-For): none (`false`),
 * the number of proxy hops in front of the server, or the proxies' addresses (IPs and CIDR ranges).
 */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges, allowed in TRUST_PROXY's list. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(value: string): boolean {
  if (NAMED_RANGES.has(value)) return true;
  const [address = '', prefix, extra] = value.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `false` (default; also `0`/`no`), a number of hops (`1`: one load balancer) or a
 * comma-separated list of the proxies' addresses/ranges (`10.0.0.0/8,127.0.0.1`). `true` is refused: it
 * trusts every address in X-Forwarded-For, so a client picks its own address (and escapes every per-address limit).
 */
export function parseTrustProxy(value: string): TrustProxy | { error: string } {
  const text = value.trim().toLowerCase();
  if (['false', 'no', '0'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) {
    return {
      error:
        'trusts every X-Forwarded-For address, so any client could choose its own: give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)',
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : { error: 'must be at most 10 proxy hops' };
  }
  const list = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  const bad = list.filter((part) => !isAddressOrRange(part));
  if (list.length === 0 || bad.length > 0) {
    return { error: `must be false, a number of proxy hops, or IP addresses/CIDR ranges (not ${bad.join(', ') || 'empty'})` };
  }
  return list;
}

const trustProxy = v.pipe(
  v.optional(v.string(), 'false'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseTrustProxy(dataset.value);
    if (typeof parsed === 'object' && !Array.isArray(parsed)) {
      addIssue({ message: parsed.error });
      return NEVER;
    }
    return parsed;
  }),
);

const originList = v.pipe(
  v.optional(v.string(), ''),
  v.transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim().replace(/\/$/, ''))
      .filter((origin) => origin.length > 0),
  ),
  v.check((origins) => origins.every((origin) => URL.canParse(origin) && new URL(origin).origin === origin), 'must be origins such as https://example.dk, comma-separated'),
);

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  HOST: v.optional(v.pipe(v.string(), v.nonEmpty()), '0.0.0.0'),
  PORT: integer(3000, 0, 65535),
  DATA_DIR: v.optional(v.pipe(v.string(), v.nonEmpty()), './data'),
  DATABASE_URL: v.optional(url(['postgres:', 'postgresql:'])),
  REDIS_URL: v.optional(url(['redis:', 'rediss:'])),
  SITE_URL: v.optional(url(['http:', 'https:'])),
  SITE_REBUILD_MINUTES: integer(15, 1, 24 * 60),
  SITE_REBUILD_DEBOUNCE_SECONDS: integer(30, 0, 3600),
  SITE_BUILD_ON_START: boolean(true),
  /** Brotli and gzip copies beside the built files, for nginx in front (docs/deploy, decision 034). */
  SITE_PRECOMPRESS: boolean(false),
  SITE_FULL_REBUILD_HOURS: integer(24, 1, 24 * 30),
  SUPPORT_ADMIN_EMAIL: v.optional(v.pipe(v.string(), v.email('must be an email address')), 'admin@example.com'),
  SUPPORT_ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'))),
  /** Demo content on the first start: on by default in development and tests, off in production (issue 30). */
  SEED_DEMO: optionalBoolean(),
  /** The operator's explicit consent to seed demo content with NODE_ENV=production (TEST_PROVIDERS_CONSENT). */
  ALLOW_DEMO_SEED: v.optional(v.literal(TEST_PROVIDERS_CONSENT, `must be exactly ${TEST_PROVIDERS_CONSENT} (or unset)`)),
  SEED_DEMO_ADVERTS: integer(320, 0, 100_000),
  SESSION_DAYS: integer(30, 1, 365),
  /** A session unused this long ends (advertisers: 7 days; support and impersonation: 2 hours). */
  ADVERTISER_SESSION_IDLE_MINUTES: integer(7 * 24 * 60, 5, 365 * 24 * 60),
  SUPPORT_SESSION_IDLE_MINUTES: integer(120, 5, 24 * 60),
  /** Encrypts secrets at rest (authenticator secrets): 32 bytes as base64 or hex; required in production. */
  SECRETS_KEY: v.optional(v.pipe(v.string(), v.check((value) => parseSecretKey(value) !== null, 'must be 32 bytes as base64 (44 characters) or hex (64 digits)'))),
  /** Earlier SECRETS_KEYs (comma-separated) that still decrypt while values are encrypted again with the current one. */
  SECRETS_KEY_PREVIOUS: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => value.split(',').every((part) => part.trim() === '' || parseSecretKey(part) !== null),
        'must be keys of 32 bytes as base64 or hex, comma-separated',
      ),
    ),
  ),
  TRUST_PROXY: trustProxy,
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  LOG_FORMAT: v.optional(v.picklist(['auto', 'json', 'pretty']), 'auto'),
  SMTP_URL: v.optional(url(['smtp:', 'smtps:'])),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200, 'must be at most 200 characters'))),
  /** SMS through a real provider (docs/decisions/039): `gatewayapi`, or unset (the outbox only). */
  SMS_PROVIDER: v.optional(v.picklist(['gatewayapi'], 'must be gatewayapi, or unset')),
  GATEWAYAPI_TOKEN: v.optional(v.pipe(v.string(), v.nonEmpty())),
  GATEWAYAPI_URL: v.optional(url(['http:', 'https:']), GATEWAYAPI_EU_URL),
  /** The secret chosen for the webhook of delivery reports in GatewayAPI's dashboard (it signs each report). */
  GATEWAYAPI_WEBHOOK_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  SMS_SENDER: v.optional(v.pipe(v.string(), v.regex(SMS_SENDER_PATTERN, 'must be up to 11 letters and digits, or up to 15 digits'))),
  RATE_LIMIT_SCALE: integer(1, 1, 1000),
  /** The prefix of the rate limits' counters in Redis (with REDIS_URL): one per deployment sharing a Redis. */
  RATE_LIMIT_KEY_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[\w:.-]{1,64}$/, 'must be 1 to 64 letters, digits, or _ : . -')), 'annoncekatalog:ratelimit:'),
  // Media storage: S3-compatible object storage when S3_BUCKET is set, else DATA_DIR/media.
  S3_BUCKET: v.optional(v.pipe(v.string(), v.nonEmpty())),
  S3_ENDPOINT: v.optional(url(['http:', 'https:'])),
  S3_REGION: v.optional(v.pipe(v.string(), v.nonEmpty()), 'eu-north-1'),
  S3_ACCESS_KEY_ID: v.optional(v.pipe(v.string(), v.nonEmpty())),
  S3_SECRET_ACCESS_KEY: v.optional(v.pipe(v.string(), v.nonEmpty())),
  S3_FORCE_PATH_STYLE: boolean(false),
  /**
   * Other origins the site's pages are served from (comma-separated); the site's own always is. The API's
   * state-changing calls and the notification hub accept requests from them.
   */
  ALLOWED_ORIGINS: originList,
  /** The older name of ALLOWED_ORIGINS (it first applied to the notification hub only); both are read. */
  HUB_ALLOWED_ORIGINS: originList,
  /** Signs the video encoder's postbacks; generated per start when unset (one instance). */
  ENCODER_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  /** How many pictures or videos are processed at once (bounded so searches stay fast). */
  MEDIA_CONCURRENCY: integer(1, 1, 16),
  /** Signs the age-verification provider's callbacks (yoticallback); generated per start when unset (one instance). */
  AGE_PROVIDER_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  /**
   * The age-verification provider: `test` (the built-in TEST provider), `yoti` (Yoti's age estimation) or
   * `none` (no online check: ID document and video only). Default: `test` in development and tests; in
   * production `yoti` when YOTI_SDK_ID and YOTI_API_KEY are set, else `none`.
   */
  AGE_PROVIDER: v.optional(v.picklist(['test', 'yoti', 'none'], 'must be test, yoti or none')),
  /** The operator's explicit consent to run built-in TEST providers with NODE_ENV=production (TEST_PROVIDERS_CONSENT). */
  ALLOW_TEST_PROVIDERS: v.optional(v.literal(TEST_PROVIDERS_CONSENT, `must be exactly ${TEST_PROVIDERS_CONSENT} (or unset)`)),
  YOTI_SDK_ID: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty())),
  YOTI_API_KEY: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty())),
  YOTI_API_URL: v.optional(url(['https:', 'http:']), 'https://age.yoti.com/api/v1'),
  /** A file with the public key (PEM) Yoti signs its notifications with; without it no notification is asked for or accepted. */
  YOTI_PUBLIC_KEY_FILE: v.optional(v.pipe(v.string(), v.nonEmpty())),
  /** The age the estimation must reach (Yoti recommends a buffer above 18). */
  YOTI_AGE_THRESHOLD: integer(25, 18, 40),
  /**
   * Card payments (docs/decisions/025-commerce.md): `test` (the built-in TEST card provider and its hosted
   * page), `cardbilling` (the card provider in the manner of Verotel FlexPay) or `off`. Default: `test` in
   * development and tests; in production `cardbilling` when its shop id and signature key are set, else `off`.
   */
  PAYMENT_CARD: v.optional(v.picklist(['test', 'cardbilling', 'off'], 'must be test, cardbilling or off')),
  CARDBILLING_SHOP_ID: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^\d{1,12}$/, 'must be the numeric shop id'))),
  CARDBILLING_SIGNATURE_KEY: v.optional(v.pipe(v.string(), v.trim(), v.minLength(8, 'must be at least 8 characters'))),
  /**
   * The FlexPay brand of the merchant account (docs/payments/cardbilling.md): `cardbilling`
   * (https://secure.billing.creditcard, the default) or `verotel` (https://secure.verotel.com), as the
   * merchant id's brand says. CARDBILLING_URL, when set, replaces the brand's host (a provider's test host).
   */
  CARDBILLING_BRAND: v.optional(v.picklist(['cardbilling', 'verotel'], 'must be cardbilling or verotel'), 'cardbilling'),
  CARDBILLING_URL: v.optional(url(['https:', 'http:'])),
  /**
   * Crypto payments (docs/decisions/025-commerce.md): `test` (the built-in TEST crypto provider), `confirmo`
   * (in the manner of Confirmo: invoices, signed notifications, the invoice read back) or `off`. Default:
   * `test` in development and tests; in production `confirmo` when its API key and callback password are set.
   */
  PAYMENT_CRYPTO: v.optional(v.picklist(['test', 'confirmo', 'off'], 'must be test, confirmo or off')),
  CONFIRMO_API_KEY: v.optional(v.pipe(v.string(), v.trim(), v.minLength(8, 'must be at least 8 characters'))),
  CONFIRMO_CALLBACK_PASSWORD: v.optional(v.pipe(v.string(), v.trim(), v.minLength(8, 'must be at least 8 characters'))),
  CONFIRMO_URL: v.optional(url(['https:', 'http:']), 'https://confirmo.net'),
  /**
   * Carrier billing (docs/payments/dimoco.md): `test` (the live DIMOCO pay:smart adapter against the built-in
   * TEST stand-in), `dimoco` (DIMOCO pay:smart) or `off`. Default: `test` in development and tests; in
   * production `dimoco` when its merchant id, order and password are set, else `off`.
   */
  PAYMENT_CARRIER: v.optional(v.picklist(['test', 'dimoco', 'off'], 'must be test, dimoco or off')),
  DIMOCO_MERCHANT_ID: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'))),
  /** The order (the service DIMOCO sets up for the merchant contract: its price currency, page language, operators). */
  DIMOCO_ORDER: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'))),
  DIMOCO_PASSWORD: v.optional(v.pipe(v.string(), v.trim(), v.minLength(8, 'must be at least 8 characters'))),
  DIMOCO_URL: v.optional(url(['https:', 'http:']), 'https://services.dimoco.at/smart/payment'),
  /** The key the built-in TEST payment providers sign their postbacks with; generated per start when unset (one instance). */
  PAYMENT_TEST_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  /**
   * The site build's credential for its bulk call (fullprofiles): the server passes it to its own builds;
   * a build elsewhere (Netlify, `npm run rebuild-site`) needs the same value. Generated per start when unset.
   */
  SITE_BUILD_TOKEN: v.optional(v.pipe(v.string(), v.minLength(24, 'must be at least 24 characters'), v.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'))),
  /** Prometheus metrics at /metrics for `Authorization: Bearer <token>`; unset, there is no /metrics (docs/decisions/035). */
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(24, 'must be at least 24 characters'), v.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'))),
});

/** The card payment provider the server uses (PAYMENT_CARD and CARDBILLING_*). */
export type CardPaymentConfig = { kind: 'test' } | { kind: 'off' } | { kind: 'cardbilling'; shopId: string; signatureKey: string; url: string };

/** The crypto payment provider the server uses (PAYMENT_CRYPTO and CONFIRMO_*). */
export type CarrierPaymentConfig = { kind: 'test' } | { kind: 'off' } | { kind: 'dimoco'; merchant: string; order: string; password: string; url: string };

/** The crypto payment provider the server uses (PAYMENT_CRYPTO and CONFIRMO_*). */
export type CryptoPaymentConfig = { kind: 'test' } | { kind: 'off' } | { kind: 'confirmo'; apiKey: string; callbackPassword: string; url: string };

/** The age-verification provider the server uses (AGE_PROVIDER and YOTI_*). */
export type AgeProviderConfig =
  | { kind: 'test' }
  | { kind: 'none' }
  | { kind: 'yoti'; sdkId: string; apiKey: string; apiUrl: string; publicKeyPem: string | undefined; ageThreshold: number };

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** The public address of the site; defaults to http://localhost:PORT. */
  siteUrl: string;
  siteRebuildMinutes: number;
  siteRebuildDebounceSeconds: number;
  siteBuildOnStart: boolean;
  /** SITE_PRECOMPRESS: the build writes `.br`/`.gz` copies for a web server in front (our server compresses in memory). */
  sitePrecompress: boolean;
  /** Rebuilds in between are incremental (only changed adverts' pages) when the last full one is this recent. */
  siteFullRebuildHours: number;
  supportAdminEmail: string;
  supportAdminPassword: string | undefined;
  /** SEED_DEMO; unset, on in development and tests and off in production (where it needs ALLOW_DEMO_SEED). */
  seedDemo: boolean;
  seedDemoAdverts: number;
  sessionDays: number;
  /** Minutes a session may go unused before it ends (ADVERTISER_/SUPPORT_SESSION_IDLE_MINUTES). */
  sessionIdle: { advertiserMinutes: number; supportMinutes: number };
  /**
   * SECRETS_KEY and SECRETS_KEY_PREVIOUS (docs/security.md, README "Rotating SECRETS_KEY"). Unset outside
   * production: main.ts then keeps a generated key in DATA_DIR/secrets.key.
   */
  secretsKey: Buffer | undefined;
  secretsKeysPrevious: Buffer[];
  /** TRUST_PROXY: which proxies may name the client's address (see parseTrustProxy). */
  trustProxy: TrustProxy;
  logLevel: string;
  /** LOG_FORMAT: one readable line per record in a terminal (`auto`, the default, or `pretty`), JSON otherwise. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** Email also goes out over SMTP when set; mail and SMS always land in the outbox. */
  smtpUrl: string | undefined;
  /** The From header of outgoing email; defaults to no-reply@ the site's host. */
  mailFrom: string;
  /** SMS_PROVIDER=gatewayapi: how SMS go out (else they stay in the outbox), and the webhook secret of its delivery reports. */
  sms: { provider: 'gatewayapi'; url: string; token: string; sender: string; webhookSecret: string | undefined } | undefined;
  /**
   * Multiplies the per-address rate limits of the account calls (default 1). Browser tests that create
   * many accounts from one address raise it; production keeps 1.
   */
  rateLimitScale: number;
  /** Prefix of the rate-limit counters in Redis; with REDIS_URL every instance shares them. */
  rateLimitKeyPrefix: string;
  cookieSecure: boolean;
  /** S3-compatible storage for media when S3_BUCKET is set; otherwise media live under paths.media. */
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      }
    | undefined;
  /**
   * The site's own origin and ALLOWED_ORIGINS (+ HUB_ALLOWED_ORIGINS): pages from these may make the API's
   * state-changing calls (the cross-site check) and open the notification hub.
   */
  allowedOrigins: string[];
  /** Origins allowed to open the notification hub: the same list as allowedOrigins. */
  hubAllowedOrigins: string[];
  encoderSecret: string | undefined;
  /** AGE_PROVIDER_SECRET: the key of the built-in test age provider's signed callbacks. */
  ageProviderSecret: string | undefined;
  /** The age-verification provider (AGE_PROVIDER, YOTI_*). */
  ageProvider: AgeProviderConfig;
  /** The card payment provider (PAYMENT_CARD, CARDBILLING_*). */
  paymentCard: CardPaymentConfig;
  /** The crypto payment provider (PAYMENT_CRYPTO, CONFIRMO_*). */
  paymentCrypto: CryptoPaymentConfig;
  /** The carrier-billing provider (PAYMENT_CARRIER, DIMOCO_*). */
  paymentCarrier: CarrierPaymentConfig;
  /** PAYMENT_TEST_SECRET: the key of the built-in test payment providers' signed postbacks. */
  paymentTestSecret: string | undefined;
  /**
   * The built-in TEST providers this configuration runs (`testProvidersOf`): with NODE_ENV=production the
   * server refuses to start while any is listed, unless ALLOW_TEST_PROVIDERS gives consent; then it warns
   * at every start.
   */
  testProviders: string[];
  /** ALLOW_TEST_PROVIDERS was given (production with test providers only). */
  testProvidersAllowed: boolean;
  /** SITE_BUILD_TOKEN: the site build's credential for fullprofiles; the main job makes one per start when unset. */
  siteBuildToken: string | undefined;
  /** METRICS_TOKEN: the bearer token of /metrics; unset, metrics are off. */
  metricsToken: string | undefined;
  mediaConcurrency: number;
  paths: { db: string; media: string; site: string };
};

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Reads and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(EnvSchema, present);
  if (!result.success) {
    throw new ConfigError(
      result.issues.map((issue) => {
        const key = issue.path?.map((p) => String(p.key)).join('.') ?? '?';
        // The encryption keys, the metrics token and the site build's token are never repeated in the message (it reaches the log).
        const shown = key.startsWith('SECRETS_KEY') || key === 'METRICS_TOKEN' || key === 'SITE_BUILD_TOKEN' ? '(hidden)' : JSON.stringify(present[key] ?? '');
        return `${key}=${shown}: ${issue.message}`;
      }),
    );
  }
  const e = result.output;
  const ageProvider = ageProviderOf(e);
  const paymentCard = paymentCardOf(e);
  const paymentCrypto = paymentCryptoOf(e);
  const paymentCarrier = paymentCarrierOf(e);
  const testProviders = testProvidersOf({ ageProvider, paymentCard, paymentCrypto, paymentCarrier });
  // Production's own refusals, all named at once.
  const productionProblems: string[] = [];
  if (e.NODE_ENV === 'production' && testProviders.length > 0 && e.ALLOW_TEST_PROVIDERS !== TEST_PROVIDERS_CONSENT) {
    productionProblems.push(
      ...testProviders.map(
        (name) =>
          `${name}: a built-in TEST provider cannot run with NODE_ENV=production (no real check happens); ` +
          `configure a real provider, or set ALLOW_TEST_PROVIDERS=${TEST_PROVIDERS_CONSENT} for a test installation`,
      ),
    );
  }
  // Demo adverts are public and age-verified, and their accounts sign in with the README's password.
  const seedDemo = e.SEED_DEMO ?? e.NODE_ENV !== 'production';
  if (e.NODE_ENV === 'production' && seedDemo && e.SEED_DEMO_ADVERTS > 0 && e.ALLOW_DEMO_SEED !== TEST_PROVIDERS_CONSENT) {
    productionProblems.push(
      'SEED_DEMO=true: demo content cannot be seeded with NODE_ENV=production (its public adverts are fictional and its ' +
        `accounts sign in with the README's password); unset SEED_DEMO, or set ALLOW_DEMO_SEED=${TEST_PROVIDERS_CONSENT} for a test installation`,
    );
  }
  if (e.NODE_ENV === 'production' && !e.SECRETS_KEY) {
    productionProblems.push(
      'SECRETS_KEY="": required in production (it encrypts authenticator secrets; make one with `openssl rand -base64 32`, the same for every instance)',
    );
  }
  if (productionProblems.length > 0) throw new ConfigError(productionProblems);
  const sms = smsOf(e);
  const dataDir = path.resolve(e.DATA_DIR);
  const siteUrl = (e.SITE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const allowedOrigins = [...new Set([new URL(siteUrl).origin, ...e.ALLOWED_ORIGINS, ...e.HUB_ALLOWED_ORIGINS])];
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    siteUrl,
    siteRebuildMinutes: e.SITE_REBUILD_MINUTES,
    siteRebuildDebounceSeconds: e.SITE_REBUILD_DEBOUNCE_SECONDS,
    siteBuildOnStart: e.SITE_BUILD_ON_START,
    sitePrecompress: e.SITE_PRECOMPRESS,
    siteFullRebuildHours: e.SITE_FULL_REBUILD_HOURS,
    supportAdminEmail: e.SUPPORT_ADMIN_EMAIL.toLowerCase(),
    supportAdminPassword: e.SUPPORT_ADMIN_PASSWORD,
    seedDemo,
    seedDemoAdverts: e.SEED_DEMO_ADVERTS,
    sessionDays: e.SESSION_DAYS,
    sessionIdle: { advertiserMinutes: e.ADVERTISER_SESSION_IDLE_MINUTES, supportMinutes: e.SUPPORT_SESSION_IDLE_MINUTES },
    secretsKey: e.SECRETS_KEY ? (parseSecretKey(e.SECRETS_KEY) ?? undefined) : undefined,
    secretsKeysPrevious: (e.SECRETS_KEY_PREVIOUS ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part) => parseSecretKey(part)!),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `no-reply@${new URL(siteUrl).hostname}`,
    sms,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    rateLimitKeyPrefix: e.RATE_LIMIT_KEY_PREFIX,
    cookieSecure: siteUrl.startsWith('https:'),
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    allowedOrigins,
    hubAllowedOrigins: allowedOrigins,
    encoderSecret: e.ENCODER_SECRET,
    ageProviderSecret: e.AGE_PROVIDER_SECRET,
    ageProvider,
    paymentCard,
    paymentCrypto,
    paymentCarrier,
    paymentTestSecret: e.PAYMENT_TEST_SECRET,
    testProviders,
    testProvidersAllowed: e.ALLOW_TEST_PROVIDERS === TEST_PROVIDERS_CONSENT,
    siteBuildToken: e.SITE_BUILD_TOKEN,
    metricsToken: e.METRICS_TOKEN,
    mediaConcurrency: e.MEDIA_CONCURRENCY,
    paths: {
      db: path.join(dataDir, 'db'),
      media: path.join(dataDir, 'media'),
      site: path.join(dataDir, 'site'),
    },
  };
}

type Env = v.InferOutput<typeof EnvSchema>;

/**
 * A provider setting (AGE_PROVIDER, PAYMENT_CARD): as chosen, else the built-in TEST provider outside
 * production, and in production the real provider when all its required settings are given, else off.
 * When the real one is chosen, each missing required setting is a problem.
 */
function providerKindOf<K extends string>(
  e: Env,
  choice: { setting: string; chosen: K | undefined; real: K; off: K },
  required: Record<string, string | undefined>,
): { kind: K | 'test'; problems: string[] } {
  const missing = Object.keys(required).filter((name) => required[name] === undefined);
  const kind = choice.chosen ?? (e.NODE_ENV === 'production' ? (missing.length === 0 ? choice.real : choice.off) : 'test');
  const problems = kind === choice.real ? missing.map((name) => `${name}="": required when ${choice.setting}=${choice.real}`) : [];
  return { kind, problems };
}

/** AGE_PROVIDER and the YOTI_* settings, checked together (yoti needs its credentials and a readable key file). */
function ageProviderOf(e: Env): AgeProviderConfig {
  const { kind, problems } = providerKindOf(e, { setting: 'AGE_PROVIDER', chosen: e.AGE_PROVIDER, real: 'yoti', off: 'none' }, { YOTI_SDK_ID: e.YOTI_SDK_ID, YOTI_API_KEY: e.YOTI_API_KEY });
  if (kind !== 'yoti') return { kind };
  let publicKeyPem: string | undefined;
  if (e.YOTI_PUBLIC_KEY_FILE !== undefined) {
    try {
      publicKeyPem = readFileSync(e.YOTI_PUBLIC_KEY_FILE, 'utf8');
      createPublicKey(publicKeyPem);
    } catch {
      problems.push(`YOTI_PUBLIC_KEY_FILE=${JSON.stringify(e.YOTI_PUBLIC_KEY_FILE)}: must be a readable PEM public key`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    kind,
    sdkId: e.YOTI_SDK_ID!,
    apiKey: e.YOTI_API_KEY!,
    apiUrl: e.YOTI_API_URL.replace(/\/$/, ''),
    publicKeyPem,
    ageThreshold: e.YOTI_AGE_THRESHOLD,
  };
}

/** PAYMENT_CARD and the CARDBILLING_* settings, checked together (cardbilling needs its shop id and key). */
function paymentCardOf(e: Env): CardPaymentConfig {
  const required = { CARDBILLING_SHOP_ID: e.CARDBILLING_SHOP_ID, CARDBILLING_SIGNATURE_KEY: e.CARDBILLING_SIGNATURE_KEY };
  const { kind, problems } = providerKindOf(e, { setting: 'PAYMENT_CARD', chosen: e.PAYMENT_CARD, real: 'cardbilling', off: 'off' }, required);
  if (kind !== 'cardbilling') return { kind };
  if (problems.length > 0) throw new ConfigError(problems);
  const url = e.CARDBILLING_URL ?? FLEXPAY_BRANDS[e.CARDBILLING_BRAND];
  return { kind, shopId: e.CARDBILLING_SHOP_ID!, signatureKey: e.CARDBILLING_SIGNATURE_KEY!, url: url.replace(/\/$/, '') };
}

/** PAYMENT_CRYPTO and the CONFIRMO_* settings, checked together (confirmo needs its API key and callback password). */
function paymentCryptoOf(e: Env): CryptoPaymentConfig {
  const required = { CONFIRMO_API_KEY: e.CONFIRMO_API_KEY, CONFIRMO_CALLBACK_PASSWORD: e.CONFIRMO_CALLBACK_PASSWORD };
  const { kind, problems } = providerKindOf(e, { setting: 'PAYMENT_CRYPTO', chosen: e.PAYMENT_CRYPTO, real: 'confirmo', off: 'off' }, required);
  if (kind !== 'confirmo') return { kind };
  if (problems.length > 0) throw new ConfigError(problems);
  return { kind, apiKey: e.CONFIRMO_API_KEY!, callbackPassword: e.CONFIRMO_CALLBACK_PASSWORD!, url: e.CONFIRMO_URL.replace(/\/$/, '') };
}

/** PAYMENT_CARRIER and the DIMOCO_* settings, checked together (dimoco needs its merchant id, order and password). */
function paymentCarrierOf(e: Env): CarrierPaymentConfig {
  const required = { DIMOCO_MERCHANT_ID: e.DIMOCO_MERCHANT_ID, DIMOCO_ORDER: e.DIMOCO_ORDER, DIMOCO_PASSWORD: e.DIMOCO_PASSWORD };
  const { kind, problems } = providerKindOf(e, { setting: 'PAYMENT_CARRIER', chosen: e.PAYMENT_CARRIER, real: 'dimoco', off: 'off' }, required);
  if (kind !== 'dimoco') return { kind };
  if (problems.length > 0) throw new ConfigError(problems);
  return { kind, merchant: e.DIMOCO_MERCHANT_ID!, order: e.DIMOCO_ORDER!, password: e.DIMOCO_PASSWORD!, url: e.DIMOCO_URL };
}

/**
 * Every built-in TEST provider a configuration runs, named by the setting that chose it. The one list the
 * production rule reads: each provider added later adds its line here.
 */
export function testProvidersOf(config: { ageProvider: AgeProviderConfig; paymentCard?: CardPaymentConfig; paymentCrypto?: CryptoPaymentConfig; paymentCarrier?: CarrierPaymentConfig }): string[] {
  const names: string[] = [];
  if (config.ageProvider.kind === 'test') names.push('AGE_PROVIDER=test (age verification)');
  if (config.paymentCard?.kind === 'test') names.push('PAYMENT_CARD=test (card payments)');
  if (config.paymentCrypto?.kind === 'test') names.push('PAYMENT_CRYPTO=test (crypto payments)');
  if (config.paymentCarrier?.kind === 'test') names.push('PAYMENT_CARRIER=test (carrier billing)');
  return names;
}

/** SMS_PROVIDER=gatewayapi needs its token and the sender the phones show; unset, SMS stay in the outbox. */
function smsOf(e: Env): Config['sms'] {
  if (e.SMS_PROVIDER !== 'gatewayapi') return undefined;
  const missing = Object.entries({ GATEWAYAPI_TOKEN: e.GATEWAYAPI_TOKEN, SMS_SENDER: e.SMS_SENDER }).filter(([, value]) => !value);
  if (missing.length > 0) throw new ConfigError(missing.map(([name]) => `${name}="": required when SMS_PROVIDER=gatewayapi`));
  return { provider: 'gatewayapi', url: e.GATEWAYAPI_URL, token: e.GATEWAYAPI_TOKEN!, sender: e.SMS_SENDER!, webhookSecret: e.GATEWAYAPI_WEBHOOK_SECRET };
}
