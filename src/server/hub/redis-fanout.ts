/**
 * Hub messages between server instances over Redis pub/sub (REDIS_URL): one client publishes, a second
 * one subscribes (a subscribed Redis connection can do nothing else). ioredis reconnects by itself and
 * subscribes again after a reconnect.
 *
 * While Redis is unreachable a publish fails at once (no offline queue: a caller such as the encoder
 * postback must not wait for Redis) and the outage is logged once, not at every reconnect attempt.
 * The URL may hold a password: it is never logged.
 */
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

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
  const { channel, logger } = options;
  const publisher = new Redis(options.url, {
    enableOfflineQueue: false,
    // A publish caught by a dropped connection fails after this, instead of waiting for the reconnect.
    commandTimeout: PUBLISH_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    connectionName: 'notificationhub-pub',
  });
  // The subscribe command waits for the connection however long it takes.
  const subscriber = new Redis(options.url, { maxRetriesPerRequest: null, connectionName: 'notificationhub-sub' });

  for (const [name, client] of [
    ['publisher', publisher],
    ['subscriber', subscriber],
  ] as const) {
    let down = false;
    client.on('error', (error: Error) => {
      if (down) return;
      down = true;
      logger.warn({ err: error, redisClient: name }, 'Redis is unreachable: hub messages stay on this instance until it is back');
    });
    client.on('ready', () => {
      if (!down) return;
      down = false;
      logger.info({ redisClient: name }, 'Redis is reachable again');
    });
  }

  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) options.onMessage(message);
  });
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    (error: unknown) => {
      // Only when the client is closed before it ever subscribed.
      logger.debug({ err: error }, 'the hub did not subscribe to Redis');
    },
  );

  return {
    publish: async (message) => {
      await publisher.publish(channel, message);
    },
    ready: () => subscribed,
    close: async () => {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
