/**
 * One Redis pub/sub channel between server instances (REDIS_URL), as the notification hub
 * (`hub/redis-fanout.ts`) and the shared site (`jobs/site-share.ts`) use it: one connection publishes, a
 * second one subscribes (a subscribed Redis connection can do nothing else). ioredis reconnects by itself
 * and subscribes again after a reconnect.
 *
 * An outage is logged once per connection, not at every reconnect attempt, and so is its end. The URL may
 * hold a password: it is never logged.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { BaseLogger } from 'pino';

export type RedisChannel = {
  publish: (message: string) => Promise<void>;
  /** Resolves once the subscription is in place. */
  ready: () => Promise<void>;
  /** Drops both connections. */
  close: () => void;
};

export function openRedisChannel(options: {
  url: string;
  channel: string;
  /** The connections' names in Redis (CLIENT LIST): `{name}-pub` and `{name}-sub`. */
  name: string;
  /** How the publishing connection waits for Redis (its command timeout, offline queue, retries). */
  publisher: RedisOptions;
  logger: Pick<BaseLogger, 'warn' | 'info' | 'debug'>;
  /** The log lines: Redis unreachable, reachable again, and the subscription never made (closed before it). */
  says: { unreachable: string; reachable: string; notSubscribed: string };
  onMessage: (message: string) => void;
  /** A connection is back after an outage (messages sent meanwhile are lost). */
  onReconnect?: () => void;
}): RedisChannel {
  const { channel, logger, says } = options;
  const publisher = new Redis(options.url, { ...options.publisher, connectionName: `${options.name}-pub` });
  // The subscribe command waits for the connection however long it takes.
  const subscriber = new Redis(options.url, { maxRetriesPerRequest: null, connectionName: `${options.name}-sub` });

  for (const [name, client] of [
    ['publisher', publisher],
    ['subscriber', subscriber],
  ] as const) {
    let down = false;
    client.on('error', (error: Error) => {
      if (down) return;
      down = true;
      logger.warn({ err: error, redisClient: name }, says.unreachable);
    });
    client.on('ready', () => {
      if (!down) return;
      down = false;
      logger.info({ redisClient: name }, says.reachable);
      options.onReconnect?.();
    });
  }

  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) options.onMessage(message);
  });
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    // Only when the client is closed before it ever subscribed.
    (error: unknown) => logger.debug({ err: error }, says.notSubscribed),
  );

  return {
    publish: async (message) => {
      await publisher.publish(channel, message);
    },
    ready: () => subscribed,
    close: () => {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
