/**
 * Issue 5: "a short video becomes MP4 plus poster and the hub event arrives". The whole way, with real
 * parts: an upload over HTTP, the durable job running ffmpeg, the job's signed postbacks, and the
 * browser's own hub client (`createHub` from src/lib/hub.ts, @microsoft/signalr over WebSockets) of the
 * owner receiving VideoThumbnailUploaded then VideoUploaded; another advertiser's client hears nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BackendVideo, VideoHubPayload } from '#lib/schemas/media.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserWithSession, officialClient } from './hub-helpers.ts';
import { clipPattern, makeClip, uploadVideo } from './videos-helpers.ts';

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'videos-hub-'));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a video upload announced on the notification hub', () => {
  it('sends the owner VideoThumbnailUploaded and VideoUploaded with the ready video, and nobody else anything', async () => {
    const owner = await advertiserWithSession(server);
    const other = await advertiserWithSession(server);
    const ownerClient = officialClient(server, { cookie: owner.cookie });
    const otherClient = officialClient(server, { cookie: other.cookie });
    await ownerClient.start();
    await otherClient.start();
    expect(ownerClient.state.get()).toBe('connected');

    try {
      const clip = await makeClip(path.join(dir, 'clip.mp4'), [...clipPattern('480x270', 2), '-pix_fmt', 'yuv420p']);
      const response = await uploadVideo(server.url, owner.cookie, clip, 'clip.mp4');
      const uploaded = (await response.json()) as BackendVideo;
      expect(response.status, JSON.stringify(uploaded)).toBe(200);
      expect(uploaded.processing).toBe('converting');

      const done = await vi.waitFor(
        () => {
          const last = ownerClient.videoUploaded.at(-1) as VideoHubPayload | undefined;
          if (!last) throw new Error('no VideoUploaded yet');
          return last;
        },
        { timeout: 60_000, interval: 200 },
      );
      expect(done.video.id).toBe(uploaded.id);
      expect(done.video.processing).toBe('ready');
      // Pending: at the owner's authenticated address (docs/decisions/013).
      expect(done.video.videoUrl).toBe(`/api/backend/mediafile/video/${uploaded.id}/video.mp4`);
      expect(done.video.posterUrl).toBe(`/api/backend/mediafile/video/${uploaded.id}/poster.webp`);

      const thumbnail = ownerClient.thumbnailUploaded.at(-1) as VideoHubPayload | undefined;
      expect(thumbnail?.video.id).toBe(uploaded.id);
      expect(thumbnail?.video.posterUrl).toBe(done.video.posterUrl);

      // What the event announced is there: the MP4 and the poster are served.
      const mp4 = await fetch(`${server.url}${done.video.videoUrl}`, { headers: { cookie: owner.cookie } });
      expect(mp4.status).toBe(200);
      expect(mp4.headers.get('content-type')).toBe('video/mp4');
      expect((await fetch(`${server.url}${done.video.posterUrl}`, { headers: { cookie: owner.cookie } })).status).toBe(200);

      expect(otherClient.videoUploaded).toEqual([]);
      expect(otherClient.thumbnailUploaded).toEqual([]);
    } finally {
      await ownerClient.stop();
      await otherClient.stop();
    }
  });
});
