/**
 * Helpers for the notification hub tests: the official SignalR client made by the browser's own
 * `createHub` (src/lib/hub.ts), a raw WebSocket speaking the protocol by hand, and a bare upgrade
 * request to read the status of a refusal.
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import { atom } from 'nanostores';
import { LogLevel } from '@microsoft/signalr';
import { createHub, type Hub, type HubState } from '#lib/hub.ts';
import { signIn, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, createAdvertiser } from '#tests/support/fixtures.ts';

export const RS = '\u001e';
/** The Origin a browser sends from the test site (the app's default SITE_URL in tests). */
export const SITE_ORIGIN = 'http://localhost:3000';

/** An advertiser signed in through the real login call: the account and its Cookie header ("sid=…"). */
export async function signedInAdvertiser(server: TestServer, signInAt: TestServer = server) {
  const created = await createAdvertiser(server.db);
  const cookie = await signIn(signInAt, 'frontend', { email: created.email, password: created.password });
  return { accountId: created.accountId, cookie };
}

/**
 * An advertiser with a session made directly in the database (the login call allows 10 sign-ins a
 * minute per address): for the protocol tests; the session check itself runs as for any cookie.
 */
export async function advertiserWithSession(server: TestServer) {
  const created = await createAdvertiser(server.db);
  return { accountId: created.accountId, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

/**
 * Node's WebSocket (undici) sending what a browser adds by itself: the site's cookie and its Origin.
 * The SignalR client calls `new WebSocket(url, undefined, { headers })` in Node; undici takes the
 * headers in its init object.
 */
function browserLikeWebSocket(extraHeaders: Record<string, string>): typeof WebSocket {
  return class BrowserLikeWebSocket extends WebSocket {
    constructor(url: string | URL, _protocols?: string | string[], options?: { headers?: Record<string, string> }) {
      super(url, { headers: { ...options?.headers, ...extraHeaders } } as unknown as string[]);
    }
  };
}

export type OfficialClient = Hub & {
  videoUploaded: unknown[];
  thumbnailUploaded: unknown[];
  states: HubState[];
};

/**
 * The browser's hub client (`createHub`, configured as the spec says), whose WebSocket carries the
 * given cookie and Origin. Its log is kept quiet: refusals and drops are what some tests make happen.
 */
export function officialClient(server: TestServer, options: { cookie?: string; origin?: string | null } = {}): OfficialClient {
  const headers: Record<string, string> = {};
  if (options.cookie) headers['cookie'] = options.cookie;
  if (options.origin !== null) headers['origin'] = options.origin ?? SITE_ORIGIN;
  const videoUploaded: unknown[] = [];
  const thumbnailUploaded: unknown[] = [];
  const state = atom<HubState>('disconnected');
  const states: HubState[] = [];
  state.listen((value) => void states.push(value));
  vi.stubGlobal('WebSocket', browserLikeWebSocket(headers));
  try {
    const hub = createHub(server.url, {
      state,
      logLevel: LogLevel.None,
      onVideoUploaded: (payload) => void videoUploaded.push(payload),
      onVideoThumbnailUploaded: (payload) => void thumbnailUploaded.push(payload),
    });
    return Object.assign(hub, { videoUploaded, thumbnailUploaded, states });
  } finally {
    vi.unstubAllGlobals();
  }
}

export type RawHubSocket = {
  socket: WebSocket;
  /** Every record received so far, parsed. */
  records: Record<string, unknown>[];
  sendText: (text: string) => void;
  waitForRecord: (check: (record: Record<string, unknown>) => boolean, timeoutMs?: number) => Promise<Record<string, unknown>>;
  /** Resolves with the close code when the server closes the socket. */
  closed: Promise<number>;
};

/** A WebSocket on /notificationhub that speaks the protocol by hand; resolves once it is open. */
export async function rawHubSocket(server: TestServer, headers: Record<string, string>): Promise<RawHubSocket> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/notificationhub`, { headers } as unknown as string[]);
  const records: Record<string, unknown>[] = [];
  let pending = '';
  socket.addEventListener('message', (event) => {
    const parts = (pending + String(event.data)).split(RS);
    pending = parts.pop() ?? '';
    for (const part of parts) records.push(JSON.parse(part) as Record<string, unknown>);
  });
  const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)));
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error('the hub socket did not open')));
  });
  return {
    socket,
    records,
    closed,
    sendText: (text) => socket.send(text),
    waitForRecord: (check, timeoutMs = 5_000) =>
      vi.waitFor(
        () => {
          const found = records.find(check);
          if (!found) throw new Error(`no such record yet; received ${JSON.stringify(records)}`);
          return found;
        },
        { timeout: timeoutMs, interval: 20 },
      ),
  };
}

/** The hub's WebSocket upgrade request as lines of raw HTTP, with extra headers, and where to send it. */
function upgradeLines(server: TestServer, headers: Record<string, string>): { hostname: string; port: string; lines: string[] } {
  const { hostname, port } = new URL(server.url);
  const lines = [
    'GET /notificationhub HTTP/1.1',
    // The address the request names (a test may name another of the server's addresses, or a foreign one).
    `Host: ${headers['Host'] ?? `${hostname}:${port}`}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    ...Object.entries(headers)
      .filter(([name]) => name !== 'Host')
      .map(([name, value]) => `${name}: ${value}`),
  ];
  return { hostname, port, lines };
}

/**
 * A bare WebSocket upgrade request over a plain TCP socket (Node's HTTP client does not report a refused
 * upgrade reliably): the status it gets (101 when upgraded), the Content-Type and body of a refusal.
 */
export function upgradeRequest(
  server: TestServer,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; contentType: string | undefined }> {
  const { hostname, port, lines } = upgradeLines(server, headers);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    const finish = () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const contentType = /^content-type: *(.+)$/im.exec(head)?.[1]?.trim();
      resolve({ status, body, contentType });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      // An upgraded socket stays open: the status line is all we need.
      if (received.startsWith('HTTP/1.1 101') && received.includes('\r\n\r\n')) {
        socket.destroy();
        finish();
      }
    });
    socket.on('close', finish);
    socket.on('error', reject);
  });
}

/**
 * An upgraded hub socket over plain TCP that then says nothing and never answers a close (as a client
 * holding sockets open on purpose would): resolves once upgraded, with when the server cut it off.
 */
export function silentUpgradedSocket(server: TestServer, headers: Record<string, string>): Promise<{ gone: Promise<void>; destroy: () => void }> {
  const { hostname, port, lines } = upgradeLines(server, headers);
  return new Promise((resolve, reject) => {
    let received = '';
    let upgraded = false;
    const socket = net.connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    const gone = new Promise<void>((done) => socket.on('close', () => done()));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (upgraded || !received.includes('\r\n\r\n')) return;
      upgraded = true;
      if (received.startsWith('HTTP/1.1 101')) resolve({ gone, destroy: () => socket.destroy() });
      else reject(new Error(`not upgraded: ${received.split('\r\n')[0]}`));
    });
    socket.on('error', () => {});
  });
}
