/**
 * `/notificationhub` on the Fastify app (@fastify/websocket; docs/decisions/013). Who may connect is
 * decided before the upgrade, so a refused client gets a plain HTTP answer (problem+json) and no socket:
 *
 * - Origin: when the request carries one, it must be an allowed origin (`hubAllowedOrigins`, by default
 *   the site's own), else 403. Browsers always send Origin on a WebSocket handshake, and this check is
 *   what stops another site's page from opening the hub with the visitor's cookie (cross-site WebSocket
 *   hijacking; SameSite=Lax does not cover it). A request without Origin comes from a non-browser
 *   client, which has to hold the session token itself, so it is allowed, with the session check below.
 * - Session: the advertiser session cookie (`sid`, `__Host-sid` over HTTPS: `sessionCookieName`) must be
 *   valid and not idle (`resolveAdvertiserSession`, as every door checks it), else 401.
 *   The check is made once, at the upgrade: a connection whose session ends later (logout, expiry)
 *   stays open until it closes or is dropped (`notificationHub.disconnectAccount`).
 * - At most `maxConnectionsPerAccount` open connections per account, else 429.
 *
 * Negotiation (`/notificationhub/negotiate`) is not offered: the client skips it (src/lib/hub.ts).
 * The hub is reachable as `app.notificationHub` (tests, jobs) and is `deps.hub` for the doors.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { resolveAdvertiserSession } from '../domain/accounts/sessions.ts';
import { AppError, forbidden, unauthenticated } from '../domain/errors.ts';
import type { Db } from '../db/client.ts';
import { sessionTokenOf } from '../api/http.ts';
import type { SessionIdle } from '../domain/accounts/sessions.ts';
import type { HubSocket, LiveNotificationHub } from './notification-hub.ts';
import { ownAddressOf } from '../api/own-address.ts';

export const HUB_ROUTE = '/notificationhub';

/** The largest WebSocket message a client may send (its messages are a handshake, pings and a close). */
const MAX_PAYLOAD_BYTES = 64 * 1024;
/** How long open sockets get at shutdown to finish their closing handshake before they are cut. */
const SHUTDOWN_GRACE_MS = 2_000;

declare module 'fastify' {
  interface FastifyInstance {
    notificationHub: LiveNotificationHub;
  }
}

/** The origin of an Origin header or a configured address, or null when it is not an http(s) one. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export async function registerNotificationHub(
  app: FastifyInstance,
  hub: LiveNotificationHub,
  options: {
    db: Db;
    now: () => Date;
    allowedOrigins: string[];
    cookieSecure: boolean;
    sessionIdle: SessionIdle;
    /** Development: a page of the address the request came to (one of this machine's) may open it too (api/own-address.ts). */
    followVisitorAddress?: boolean;
  },
): Promise<void> {
  const allowedOrigins = new Set(options.allowedOrigins.map(originOf).filter((origin): origin is string => origin !== null));
  app.decorate('notificationHub', hub);

  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_PAYLOAD_BYTES },
    // A socket error (a client gone without closing, a frame over the limit) ends that connection only.
    errorHandler: (error, socket, request) => {
      request.log.info({ err: error }, 'notification hub connection failed');
      (socket as HubSocket).terminate();
    },
    // Tell every client to reconnect (to another instance, or to this one once it is back), then close.
    preClose: async () => {
      hub.closeConnections('Server is shutting down.');
      const server = app.websocketServer as { clients: Set<HubSocket>; close: () => void };
      const deadline = Date.now() + SHUTDOWN_GRACE_MS;
      while (server.clients.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const socket of server.clients) socket.terminate();
      server.close();
    },
  });
  app.addHook('onClose', async () => hub.close());

  const accountOfRequest = new WeakMap<FastifyRequest, number>();

  app.get(
    HUB_ROUTE,
    {
      websocket: true,
      onRequest: async (request) => {
        const origin = request.headers.origin;
        if (origin !== undefined) {
          const normalized = originOf(origin);
          const ownPage = options.followVisitorAddress === true && normalized !== null && normalized === ownAddressOf(request);
          if (normalized === null || (!allowedOrigins.has(normalized) && !ownPage)) {
            throw forbidden('This site may not open the notification hub');
          }
        }
        const actor = await resolveAdvertiserSession(options.db, sessionTokenOf(request, options, 'advertiser'), options.now(), options.sessionIdle);
        if (actor.type !== 'advertiser') throw unauthenticated();
        if (!hub.hasRoomFor(actor.accountId)) {
          throw new AppError('RATE_LIMITED', 'Too many open notification hub connections');
        }
        accountOfRequest.set(request, actor.accountId);
      },
    },
    (socket, request) => {
      const accountId = accountOfRequest.get(request);
      if (accountId === undefined) {
        (socket as HubSocket).close(1008);
        return;
      }
      hub.accept(socket as HubSocket, accountId);
    },
  );
}
