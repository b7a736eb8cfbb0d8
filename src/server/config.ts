import { isIP } from 'node:net';
import path from 'node:path';
import * as v from 'valibot';

/** Every environment variable the server reads, with its default. `.env.example` mirrors this list. */
const boolean = (fallback: boolean) =>
  v.pipe(
    v.optional(v.picklist(['true', 'false', '1', '0', 'yes', 'no']), fallback ? 'true' : 'false'),
    v.transform((value) => ['true', '1', 'yes'].includes(value)),
  );

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
  SITE_FULL_REBUILD_HOURS: integer(24, 1, 24 * 30),
  SUPPORT_ADMIN_EMAIL: v.optional(v.pipe(v.string(), v.email('must be an email address')), 'admin@example.com'),
  SUPPORT_ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'))),
  SEED_DEMO: boolean(true),
  SEED_DEMO_ADVERTS: integer(320, 0, 100_000),
  SESSION_DAYS: integer(30, 1, 365),
  TRUST_PROXY: trustProxy,
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  SMTP_URL: v.optional(url(['smtp:', 'smtps:'])),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200, 'must be at most 200 characters'))),
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
});

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
  /** Rebuilds in between are incremental (only changed adverts' pages) when the last full one is this recent. */
  siteFullRebuildHours: number;
  supportAdminEmail: string;
  supportAdminPassword: string | undefined;
  seedDemo: boolean;
  seedDemoAdverts: number;
  sessionDays: number;
  /** TRUST_PROXY: which proxies may name the client's address (see parseTrustProxy). */
  trustProxy: TrustProxy;
  logLevel: string;
  /** Email also goes out over SMTP when set; mail and SMS always land in the outbox. */
  smtpUrl: string | undefined;
  /** The From header of outgoing email; defaults to no-reply@ the site's host. */
  mailFrom: string;
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
  /** AGE_PROVIDER_SECRET: the key of the age provider's signed callbacks (the built-in test provider until a real one is added). */
  ageProviderSecret: string | undefined;
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
        return `${key}=${JSON.stringify(present[key] ?? '')}: ${issue.message}`;
      }),
    );
  }
  const e = result.output;
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
    siteFullRebuildHours: e.SITE_FULL_REBUILD_HOURS,
    supportAdminEmail: e.SUPPORT_ADMIN_EMAIL.toLowerCase(),
    supportAdminPassword: e.SUPPORT_ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO,
    seedDemoAdverts: e.SEED_DEMO_ADVERTS,
    sessionDays: e.SESSION_DAYS,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `no-reply@${new URL(siteUrl).hostname}`,
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
    mediaConcurrency: e.MEDIA_CONCURRENCY,
    paths: {
      db: path.join(dataDir, 'db'),
      media: path.join(dataDir, 'media'),
      site: path.join(dataDir, 'site'),
    },
  };
}
