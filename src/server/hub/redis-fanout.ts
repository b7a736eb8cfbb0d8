/**
 * Hub messages between server instances over Redis pub/sub (REDIS_URL), on the server's one way to a Redis
 * channel (`../redis-channel.ts`: a connection to publish, one to subscribe, outages logged once).
 *
 * While Redis is unreachable a publish fails at once (no offline queue: a caller such as the encoder
 * postback must not wait for Redis) and the outage is logged once, not at every reconnect attempt.
 * The URL may hold a password: it is never logged.
 */
import type { FastifyBaseLogger } from 'fastify';
import { openRedisChannel } from '../redis-channel.ts';

const PUBLISH_TIMEOUT_MS = 2_000;

export type Fanout = {
  publish: (message: string) => Promise<void>;
  /** Resolves once the subscription is in place. */
  ready: () => Promise<void>;
  close: () => Promise<void>;
};

export function createRedisFanout(options: {
  url: string;
  channel: string;
  logger: FastifyBaseLogger;
  onMessage: (message: string) => void;
}): Fanout {
  const redis = openRedisChannel({
    ...options,
    name: 'notificationhub',
    publisher: {
      enableOfflineQueue: false,
      // A publish caught by a dropped connection fails after this, instead of waiting for the reconnect.
      commandTimeout: PUBLISH_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
    },
    says: {
      unreachable: 'Redis is unreachable: hub messages stay on this instance until it is back',
      reachable: 'Redis is reachable again',
      notSubscribed: 'the hub did not subscribe to Redis',
    },
  });
  return {
    publish: redis.publish,
    ready: redis.ready,
    close: async () => redis.close(),
  };
}
