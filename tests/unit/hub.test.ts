import { describe, expect, it, vi } from 'vitest';
import { LogLevel } from '@microsoft/signalr';
import { atom } from 'nanostores';
import { HUB_EVENTS, HUB_RECONNECT_DELAYS, createHub, hubUrl, type HubState } from '#lib/hub.ts';

type Internals = {
  _reconnectPolicy: { nextRetryDelayInMilliseconds(context: { previousRetryCount: number; elapsedMilliseconds: number; retryReason: Error }): number | null };
  _methods: Record<string, ((...args: unknown[]) => void)[]>;
  _reconnectingCallbacks: ((error?: Error) => void)[];
  _reconnectedCallbacks: ((id?: string) => void)[];
  _closedCallbacks: ((error?: Error) => void)[];
  connection: { _options: { skipNegotiation?: boolean; transport?: unknown } };
};

describe('notification hub client', () => {
  it('is configured as the spec says, without connecting', () => {
    const hub = createHub('https://example.test/', { state: atom<HubState>('disconnected') });
    const internals = hub.connection as unknown as Internals;
    expect(hubUrl('https://example.test/')).toBe('https://example.test/notificationhub');
    expect(hub.connection.baseUrl).toBe('https://example.test/notificationhub');
    expect(hub.connection.serverTimeoutInMilliseconds).toBe(30_000);
    expect(hub.connection.keepAliveIntervalInMilliseconds).toBe(15_000);
    expect(internals.connection._options.skipNegotiation).toBe(true);
    expect(internals.connection._options.transport).toBe(1); // HttpTransportType.WebSockets
    expect(hub.state.get()).toBe('disconnected');
  });

  it('reconnects after 0, 2, 10 and 30 seconds, then stops', () => {
    const hub = createHub('https://example.test');
    const policy = (hub.connection as unknown as Internals)._reconnectPolicy;
    const delays = [0, 1, 2, 3, 4].map((previousRetryCount) =>
      policy.nextRetryDelayInMilliseconds({ previousRetryCount, elapsedMilliseconds: 0, retryReason: new Error('x') }),
    );
    expect(HUB_RECONNECT_DELAYS).toEqual([0, 2000, 10000, 30000]);
    expect(delays).toEqual([0, 2000, 10000, 30000, null]);
  });

  it('hands the two events to their handlers', () => {
    const onVideoUploaded = vi.fn();
    const onVideoThumbnailUploaded = vi.fn();
    const hub = createHub('https://example.test', { onVideoUploaded, onVideoThumbnailUploaded });
    const methods = (hub.connection as unknown as Internals)._methods;
    expect(HUB_EVENTS).toEqual({ videoUploaded: 'VideoUploaded', videoThumbnailUploaded: 'VideoThumbnailUploaded' });
    methods['videouploaded']?.forEach((handler) => handler({ videoId: 7 }));
    methods['videothumbnailuploaded']?.forEach((handler) => handler({ videoId: 8 }));
    expect(onVideoUploaded).toHaveBeenCalledWith({ videoId: 7 });
    expect(onVideoThumbnailUploaded).toHaveBeenCalledWith({ videoId: 8 });
  });

  it('follows the connection state in its store', () => {
    const state = atom<HubState>('disconnected');
    const hub = createHub('https://example.test', { state });
    const internals = hub.connection as unknown as Internals;
    internals._reconnectingCallbacks.forEach((cb) => cb(new Error('lost')));
    expect(state.get()).toBe('reconnecting');
    internals._reconnectedCallbacks.forEach((cb) => cb('id'));
    expect(state.get()).toBe('connected');
    internals._closedCallbacks.forEach((cb) => cb());
    expect(state.get()).toBe('disconnected');
  });

  it('goes connecting → disconnected when the hub cannot be reached', async () => {
    const state = atom<HubState>('disconnected');
    const seen: HubState[] = [];
    state.listen((value) => seen.push(value));
    // Port 9 on the loopback interface: refused at once, no network involved.
    const hub = createHub('http://127.0.0.1:9', { state, logLevel: LogLevel.None });
    await expect(hub.start()).rejects.toThrow();
    expect(seen[0]).toBe('connecting');
    expect(state.get()).toBe('disconnected');
  });
});
