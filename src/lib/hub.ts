/**
 * The real-time notification hub client (spec sections 1 and 9): `${siteUrl}/notificationhub`, WebSockets
 * only without negotiation, automatic reconnect after 0, 2, 10 and 30 s (then it stops), server timeout
 * 30 s, keep-alive 15 s. It listens for `VideoUploaded` and `VideoThumbnailUploaded`. The connection
 * state is kept in a nanostore. Creating the hub does not connect; call `start()`.
 */
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { atom, type WritableAtom } from 'nanostores';

export type HubState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'disconnecting';

export const HUB_PATH = '/notificationhub';
export const HUB_RECONNECT_DELAYS: readonly number[] = [0, 2000, 10000, 30000];
export const HUB_SERVER_TIMEOUT_MS = 30_000;
export const HUB_KEEP_ALIVE_MS = 15_000;
export const HUB_EVENTS = {
  videoUploaded: 'VideoUploaded',
  videoThumbnailUploaded: 'VideoThumbnailUploaded',
} as const;

/** The shared connection state of the page's hub. */
export const $hubState = atom<HubState>('disconnected');

export type HubHandlers = {
  onVideoUploaded?: (...args: unknown[]) => void;
  onVideoThumbnailUploaded?: (...args: unknown[]) => void;
};

export type HubOptions = HubHandlers & {
  /** The store that follows the connection state (default $hubState). */
  state?: WritableAtom<HubState>;
  logLevel?: LogLevel;
};

export type Hub = {
  connection: HubConnection;
  state: WritableAtom<HubState>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

export function hubUrl(siteUrl: string): string {
  return `${siteUrl.replace(/\/+$/, '')}${HUB_PATH}`;
}

export function createHub(siteUrl: string, options: HubOptions = {}): Hub {
  const state = options.state ?? $hubState;
  const connection = new HubConnectionBuilder()
    .withUrl(hubUrl(siteUrl), {
      skipNegotiation: true,
      transport: HttpTransportType.WebSockets,
      ...(typeof WebSocket !== 'undefined' ? { WebSocket } : {}),
    })
    .withAutomaticReconnect([...HUB_RECONNECT_DELAYS])
    .withServerTimeout(HUB_SERVER_TIMEOUT_MS)
    .withKeepAliveInterval(HUB_KEEP_ALIVE_MS)
    .configureLogging(options.logLevel ?? LogLevel.Warning)
    .build();

  connection.on(HUB_EVENTS.videoUploaded, (...args: unknown[]) => options.onVideoUploaded?.(...args));
  connection.on(HUB_EVENTS.videoThumbnailUploaded, (...args: unknown[]) => options.onVideoThumbnailUploaded?.(...args));
  connection.onreconnecting(() => state.set('reconnecting'));
  connection.onreconnected(() => state.set('connected'));
  connection.onclose(() => state.set('disconnected'));

  return {
    connection,
    state,
    async start() {
      state.set('connecting');
      try {
        await connection.start();
        state.set('connected');
      } catch (error) {
        state.set('disconnected');
        throw error;
      }
    },
    async stop() {
      state.set('disconnecting');
      await connection.stop();
      state.set('disconnected');
    },
  };
}
