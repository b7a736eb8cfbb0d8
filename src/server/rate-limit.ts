/**
 * The per-address rate limits of the API (declared per route: `config: { rateLimit: { max, timeWindow } }`).
 * The client's address is `request.ip`, which names the client only as far as TRUST_PROXY trusts the
 * proxies in front (see `fastifyTrustProxy`).
 *
 * Counters live in this process without Redis. With REDIS_URL they live in Redis under
 * RATE_LIMIT_KEY_PREFIX, so every instance counts against one limit. While Redis is unreachable (or
 * slower than COMMAND_TIMEOUT_MS) each instance counts alone, in its own memory, and the outage is logged
 * once: the limit then holds per instance (at most the number of instances times the limit) rather than
 * failing open, and a Redis outage never stops sign-ins.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { TrustProxy } from './config.ts';

/** A Redis call slower than this counts in process instead (a sign-in never waits long for Redis). */
const COMMAND_TIMEOUT_MS = 500;
/** Keys kept by the in-process counters (LRU), per route. */
const LOCAL_KEYS = 5_000;

/**
 * Fastify's `trustProxy` from TRUST_PROXY: a list of proxies' addresses as is; a number of hops as
 * "the first N addresses from the socket's end are proxies" (Fastify's own number setting trusts none).
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') {
    if (trust === 0) return false;
    return (_address: string, hop: number) => hop < trust;
  }
  return trust;
}

type Count = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Count) => void;

/** A counter per key and window, in this process (as @fastify/rate-limit's own store), bounded in keys. */
class LocalCounters {
  private readonly windows = new Map<string, { current: number; startedAt: number }>();

  incr(key: string, timeWindow: number): Count {
    const now = Date.now();
    let entry = this.windows.get(key);
    if (!entry || entry.startedAt + timeWindow <= now) entry = { current: 0, startedAt: now };
    entry.current += 1;
    this.windows.delete(key);
    this.windows.set(key, entry);
    if (this.windows.size > LOCAL_KEYS) this.windows.delete(this.windows.keys().next().value!);
    return { current: entry.current, ttl: entry.startedAt + timeWindow - now };
  }
}

/** One INCR and the window's expiry, atomically: [count, milliseconds left]. */
const INCREMENT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

type RateLimitRedis = Redis & { rateLimitIncrement: (key: string, timeWindow: number) => Promise<[number, number]> };

/** Registers @fastify/rate-limit (limits per route only) with in-process or Redis counters. */
export async function registerRateLimit(
  app: FastifyInstance,
  options: { redisUrl?: string | undefined; keyPrefix?: string | undefined; logger: FastifyBaseLogger },
): Promise<void> {
  if (!options.redisUrl) {
    await app.register(fastifyRateLimit, { global: false });
    return;
  }
  const logger = options.logger;
  const redis = new Redis(options.redisUrl, {
    // Fail at once while disconnected (counted in process), never queue a sign-in behind a reconnect.
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    connectionName: 'rate-limit',
  }) as RateLimitRedis;
  redis.defineCommand('rateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });

  let down = false;
  const wentDown = (error: Error) => {
    if (down) return;
    down = true;
    // The URL may hold a password: never logged.
    logger.warn({ err: error }, 'rate limits: Redis is unreachable, each instance counts alone until it is back');
  };
  redis.on('error', wentDown);
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('rate limits: Redis is reachable again, every instance shares the counts');
  });
  // Before the first request: wait (briefly) for the connection, so a start does not count in process.
  app.addHook('onReady', async () => {
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, 2_000);
      redis.once('ready', done);
      redis.once('error', done);
    });
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });

  const prefix = options.keyPrefix ?? 'annoncekatalog:ratelimit:';

  /** One route's counters: `prefix` + method + URL + ':' + the client's address. */
  class SharedStore {
    private readonly local = new LocalCounters();
    private readonly keyPrefix: string;
    constructor(keyPrefix: string) {
      this.keyPrefix = keyPrefix;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      redis.rateLimitIncrement(`${this.keyPrefix}${key}`, timeWindow).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (error: unknown) => {
          wentDown(error instanceof Error ? error : new Error(String(error)));
          callback(null, this.local.incr(key, timeWindow));
        },
      );
    }

    /** Called with the route's merged limit options, which carry the route as `routeInfo`. */
    child(routeOptions: object): SharedStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
      return new SharedStore(`${prefix}${String(route.method)}${String(route.url)}:`);
    }
  }

  await app.register(fastifyRateLimit, {
    global: false,
    store: class extends SharedStore {
      constructor() {
        super(prefix);
      }
    },
  });
}
