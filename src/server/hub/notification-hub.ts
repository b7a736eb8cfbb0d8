/**
 * The notification hub (docs/decisions/013, spec §1 and §9): the advertiser's browser keeps one WebSocket
 * open on `/notificationhub` speaking the SignalR JSON hub protocol (./protocol.ts), and the server sends it
 * `VideoUploaded` and `VideoThumbnailUploaded`. This file keeps the connections of this instance, by
 * account, and runs each one: handshake (within `handshakeTimeoutMs`, 5 s), pings every `keepAliveIntervalMs`
 * (15 s), a Close after `clientTimeoutMs` (30 s) without a message from the client, a Completion with an
 * error for client invocations (the hub has no methods a client may call), and a Close with an error when a
 * client sends more than `maxInvocationsPerWindow` invocations or `maxMessagesPerWindow` messages in
 * `rateWindowMs`. A socket the server closes that does not answer the close within `closeGraceMs` is cut
 * off; sockets still in their handshake count toward the account's connection limit.
 *
 * `sendToAccount` delivers to this instance's connections of the account at once; with Redis (./redis-fanout.ts)
 * it also publishes the record, and every other instance delivers it to its own connections (an instance
 * ignores what it published itself, so a connection gets each message once). Redis being down only costs
 * the other instances' deliveries: it is logged, local delivery goes on, ioredis reconnects.
 *
 * Who may connect is decided before the upgrade (./register-hub.ts). A connection lives as long as its
 * socket: when its session ends (logout, expiry) it stays open until it closes or is dropped
 * (`disconnectAccount`, after which the client's reconnect has to pass the session check again).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { HubEventName, NotificationHub } from '../adapters/types.ts';
import {
  HANDSHAKE_OK,
  MessageType,
  PING_RECORD,
  RecordReader,
  checkHandshake,
  formatRecord,
  parseMessage,
  type HubMessage,
} from './protocol.ts';
import { createRedisFanout, type Fanout } from './redis-fanout.ts';

/** The hub's clock and limits; the defaults match the browser client (src/lib/hub.ts). Tests shorten them. */
export type HubTimings = {
  /** A Ping goes to every connection this often (the client's server timeout is 30 s). */
  keepAliveIntervalMs: number;
  /** A connection the client sent nothing on for this long is closed (the client pings every 15 s). */
  clientTimeoutMs: number;
  /** A connection whose handshake has not arrived by then is closed (the client sends it at once). */
  handshakeTimeoutMs: number;
  /** A socket the server closed is cut off if it has not answered the close by then. */
  closeGraceMs: number;
  /** The window of the per-connection message limits. */
  rateWindowMs: number;
  /** Invocations a connection may send per window (the hub has no methods: the browser sends none). */
  maxInvocationsPerWindow: number;
  /** Messages of any kind a connection may send per window (the browser pings every 15 s). */
  maxMessagesPerWindow: number;
};

export const DEFAULT_HUB_TIMINGS: HubTimings = {
  keepAliveIntervalMs: 15_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 5_000,
  closeGraceMs: 2_000,
  rateWindowMs: 10_000,
  maxInvocationsPerWindow: 10,
  maxMessagesPerWindow: 100,
};

/** The longest unfinished record a client may make us hold (a handshake or a ping is a few dozen bytes). */
const MAX_RECORD_CHARS = 32 * 1024;
/** A client that reads nothing while this much waits to be sent is dropped. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const WS_OPEN = 1;

/** The part of a `ws` WebSocket the hub uses. */
export type HubSocket = {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, callback?: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
};

export type NotificationHubOptions = Partial<HubTimings> & {
  logger: FastifyBaseLogger;
  /** REDIS_URL: fan out through Redis pub/sub to every instance. */
  redisUrl?: string | undefined;
  /** The Redis channel all instances share (default `notificationhub`). */
  channel?: string;
  /** Open connections one account may hold (default 20); more are refused before the upgrade. */
  maxConnectionsPerAccount?: number;
};

export type LiveNotificationHub = NotificationHub & {
  readonly timings: HubTimings;
  /** Whether the account may open one more connection. */
  hasRoomFor(accountId: number): boolean;
  /** Takes over an upgraded socket of a signed-in advertiser: handshake, then messages until it closes. */
  accept(socket: HubSocket, accountId: number): void;
  /** Open connections (past the handshake), of one account or of all. */
  connectionCount(accountId?: number): number;
  /**
   * Closes the account's connections with a Close message that lets the client reconnect (its reconnect
   * passes the session check again): for ended sessions. Answers how many were closed.
   */
  disconnectAccount(accountId: number, reason: string): number;
  /** Resolves when messages from other instances can arrive (at once without Redis). */
  ready(): Promise<void>;
  /** Closes every connection (Close with reconnect allowed), as the server stops. */
  closeConnections(reason: string): void;
  /** Stops the Redis clients. */
  close(): Promise<void>;
};

type Connection = {
  accountId: number;
  socket: HubSocket;
  send: (record: string) => void;
  close: (error: string | undefined, allowReconnect: boolean) => void;
};

/** Redis messages between instances: who sent it (to skip one's own), to whom, and the record. */
type FanoutMessage = { from: string; accountId: number; record: string };

function chunkOf(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export function createNotificationHub(options: NotificationHubOptions): LiveNotificationHub {
  const timings: HubTimings = {
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? DEFAULT_HUB_TIMINGS.keepAliveIntervalMs,
    clientTimeoutMs: options.clientTimeoutMs ?? DEFAULT_HUB_TIMINGS.clientTimeoutMs,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? DEFAULT_HUB_TIMINGS.handshakeTimeoutMs,
    closeGraceMs: options.closeGraceMs ?? DEFAULT_HUB_TIMINGS.closeGraceMs,
    rateWindowMs: options.rateWindowMs ?? DEFAULT_HUB_TIMINGS.rateWindowMs,
    maxInvocationsPerWindow: options.maxInvocationsPerWindow ?? DEFAULT_HUB_TIMINGS.maxInvocationsPerWindow,
    maxMessagesPerWindow: options.maxMessagesPerWindow ?? DEFAULT_HUB_TIMINGS.maxMessagesPerWindow,
  };
  const log = options.logger.child({ component: 'notificationhub' });
  const maxPerAccount = options.maxConnectionsPerAccount ?? 20;
  const instanceId = randomUUID();
  const byAccount = new Map<number, Set<Connection>>();
  /**
   * Sockets taken over but not yet past the handshake (or refused), with their account: they count toward
   * the account's connection limit and are closed with the rest at shutdown.
   */
  const pending = new Map<HubSocket, number>();
  const pendingOf = (accountId: number) => {
    let count = 0;
    for (const owner of pending.values()) if (owner === accountId) count += 1;
    return count;
  };

  const deliverLocally = (accountId: number, record: string): number => {
    const connections = byAccount.get(accountId);
    if (!connections) return 0;
    for (const connection of connections) connection.send(record);
    return connections.size;
  };

  let fanout: Fanout | null = null;
  if (options.redisUrl) {
    fanout = createRedisFanout({
      url: options.redisUrl,
      channel: options.channel ?? 'notificationhub',
      logger: log,
      onMessage: (text) => {
        let message: FanoutMessage;
        try {
          message = JSON.parse(text) as FanoutMessage;
        } catch (error) {
          log.warn({ err: error }, 'ignored a hub message from Redis that is not JSON');
          return;
        }
        if (message.from === instanceId) return;
        if (!Number.isSafeInteger(message.accountId) || typeof message.record !== 'string') {
          log.warn('ignored a hub message from Redis without an account or a record');
          return;
        }
        deliverLocally(message.accountId, message.record);
      },
    });
  }

  const register = (connection: Connection) => {
    let connections = byAccount.get(connection.accountId);
    if (!connections) {
      connections = new Set();
      byAccount.set(connection.accountId, connections);
    }
    connections.add(connection);
  };

  const unregister = (connection: Connection) => {
    const connections = byAccount.get(connection.accountId);
    if (!connections) return;
    connections.delete(connection);
    if (connections.size === 0) byAccount.delete(connection.accountId);
  };

  const accept = (socket: HubSocket, accountId: number): void => {
    const reader = new RecordReader(MAX_RECORD_CHARS);
    let handshakeDone = false;
    let closed = false;
    let pingTimer: NodeJS.Timeout | undefined;
    let silenceTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let windowStarted = Date.now();
    let invocations = 0;
    let messages = 0;
    pending.set(socket, accountId);

    /** Closes the socket; one that does not answer the close (a client gone quiet on purpose) is cut off. */
    const closeSocket = (code: number) => {
      closed = true;
      socket.close(code);
      graceTimer ??= setTimeout(() => socket.terminate(), timings.closeGraceMs);
      graceTimer.unref?.();
    };

    const send = (record: string) => {
      if (closed || socket.readyState !== WS_OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        log.info({ accountId }, 'dropped a hub connection that reads nothing');
        socket.terminate();
        return;
      }
      socket.send(record, (error) => {
        if (error) log.debug({ err: error, accountId }, 'a hub message could not be sent');
      });
    };

    const close = (error: string | undefined, allowReconnect: boolean) => {
      if (closed) return;
      if (handshakeDone) send(formatRecord({ type: MessageType.Close, ...(error ? { error } : {}), allowReconnect }));
      closeSocket(1000);
    };

    const connection: Connection = { accountId, socket, send, close };

    // A handshake error is the handshake response; a Close message would mean nothing before it.
    const refuseHandshake = (error: string) => {
      send(formatRecord({ error }));
      closeSocket(1002);
    };

    const handshakeTimer = setTimeout(() => refuseHandshake('The handshake was not received in time.'), timings.handshakeTimeoutMs);

    const onRecord = (record: string) => {
      if (!handshakeDone) {
        clearTimeout(handshakeTimer);
        const result = checkHandshake(record);
        if (!result.ok) {
          log.debug({ accountId, error: result.error }, 'hub handshake refused');
          refuseHandshake(result.error);
          return;
        }
        send(HANDSHAKE_OK);
        handshakeDone = true;
        pending.delete(socket);
        register(connection);
        pingTimer = setInterval(() => send(PING_RECORD), timings.keepAliveIntervalMs);
        silenceTimer = setTimeout(
          () => close('Server timeout elapsed without receiving a message from the client.', true),
          timings.clientTimeoutMs,
        );
        return;
      }
      const message = parseMessage(record);
      if (!message) {
        close('Connection closed with an error: the message is not valid.', false);
        return;
      }
      onMessage(message);
    };

    /** Counts a message against the connection's limits; false (and the connection closed) when over. */
    const withinLimits = (message: HubMessage): boolean => {
      const now = Date.now();
      if (now - windowStarted >= timings.rateWindowMs) {
        windowStarted = now;
        invocations = 0;
        messages = 0;
      }
      messages += 1;
      const invocation = message.type === MessageType.Invocation || message.type === MessageType.StreamInvocation;
      if (invocation) invocations += 1;
      const seconds = Math.round(timings.rateWindowMs / 1000);
      if (invocation && invocations > timings.maxInvocationsPerWindow) {
        log.info({ accountId }, 'closed a hub connection that sent too many invocations');
        close(`Connection closed with an error: too many invocations (at most ${timings.maxInvocationsPerWindow} in ${seconds} s).`, false);
        return false;
      }
      if (messages > timings.maxMessagesPerWindow) {
        log.info({ accountId }, 'closed a hub connection that sent too many messages');
        close(`Connection closed with an error: too many messages (at most ${timings.maxMessagesPerWindow} in ${seconds} s).`, false);
        return false;
      }
      return true;
    };

    const onMessage = (message: HubMessage) => {
      if (!withinLimits(message)) return;
      switch (message.type) {
        case MessageType.Invocation:
        case MessageType.StreamInvocation: {
          const target = typeof message.target === 'string' ? message.target : '';
          if (typeof message.invocationId === 'string') {
            send(
              formatRecord({
                type: MessageType.Completion,
                invocationId: message.invocationId,
                error: `Unknown hub method '${target.slice(0, 100)}'.`,
              }),
            );
          }
          return;
        }
        case MessageType.Close:
          closeSocket(1000);
          return;
        case MessageType.Ping:
        case MessageType.StreamItem:
        case MessageType.Completion:
        case MessageType.CancelInvocation:
        case MessageType.Ack:
        case MessageType.Sequence:
          // Activity only: nothing of ours streams, awaits a result or buffers for stateful reconnect.
          return;
        default:
          close(`Connection closed with an error: unknown message type ${String(message.type).slice(0, 20)}.`, false);
      }
    };

    socket.on('message', (data) => {
      if (closed) return;
      silenceTimer?.refresh();
      let records: string[];
      try {
        records = reader.push(chunkOf(data));
      } catch {
        if (handshakeDone) close('Connection closed with an error: the message is too long.', false);
        else refuseHandshake('The handshake request is too long.');
        return;
      }
      for (const record of records) {
        if (closed) return;
        onRecord(record);
      }
    });

    socket.on('close', () => {
      closed = true;
      clearTimeout(handshakeTimer);
      clearInterval(pingTimer);
      clearTimeout(silenceTimer);
      clearTimeout(graceTimer);
      pending.delete(socket);
      unregister(connection);
    });
  };

  return {
    timings,
    hasRoomFor: (accountId) => (byAccount.get(accountId)?.size ?? 0) + pendingOf(accountId) < maxPerAccount,
    accept,
    connectionCount: (accountId) => {
      if (accountId !== undefined) return byAccount.get(accountId)?.size ?? 0;
      let count = 0;
      for (const connections of byAccount.values()) count += connections.size;
      return count;
    },
    async sendToAccount(accountId: number, event: HubEventName, payload: unknown) {
      const record = formatRecord({ type: MessageType.Invocation, target: event, arguments: [payload] });
      deliverLocally(accountId, record);
      if (!fanout) return;
      try {
        await fanout.publish(JSON.stringify({ from: instanceId, accountId, record } satisfies FanoutMessage));
      } catch (error) {
        log.warn({ err: error, accountId, event }, 'a hub message did not reach the other instances (Redis)');
      }
    },
    disconnectAccount(accountId, reason) {
      const connections = [...(byAccount.get(accountId) ?? [])];
      for (const connection of connections) connection.close(reason, true);
      return connections.length;
    },
    ready: () => fanout?.ready() ?? Promise.resolve(),
    closeConnections(reason) {
      for (const connections of [...byAccount.values()]) {
        for (const connection of [...connections]) connection.close(reason, true);
      }
      for (const socket of pending.keys()) socket.close(1001);
    },
    async close() {
      await fanout?.close();
    },
  };
}
