/**
 * Helpers for the video tests: clips made with ffmpeg's test sources (a pattern and a tone, no people),
 * the upload over HTTP (profilevideouploader), the list (profilevideos) and the wait for the durable job.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, vi } from 'vitest';
import type { BackendVideo } from '#lib/schemas/media.ts';

export const run = promisify(execFile);

/** Makes a clip at `file` with ffmpeg (`args`: inputs and codecs, e.g. clipPattern(...)); answers its bytes. */
export async function makeClip(file: string, args: string[]): Promise<Buffer> {
  await run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...args, file]);
  return readFile(file);
}

/** ffmpeg's inputs for a test pattern with a 440 Hz tone, `seconds` long. */
export const clipPattern = (size: string, seconds: number, rate = 25) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=size=${size}:rate=${rate}`,
  '-f',
  'lavfi',
  '-i',
  'sine=frequency=440',
  '-t',
  String(seconds),
];

/** Sends a file to profilevideouploader (without a cookie: as nobody). */
export function uploadVideo(baseUrl: string, cookie: string | undefined, bytes: Uint8Array, name: string, type = 'video/mp4') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return fetch(`${baseUrl}/api/backend/profilevideouploader`, { method: 'POST', headers: cookie ? { cookie } : {}, body: form });
}

export async function listVideos(baseUrl: string, cookie: string): Promise<BackendVideo[]> {
  const response = await fetch(`${baseUrl}/api/backend/profilevideos`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as BackendVideo[];
}

/** Polls profilevideos until the video reaches the state (the job runs in the server's worker). */
export async function waitForVideo(
  baseUrl: string,
  cookie: string,
  id: number,
  processing: BackendVideo['processing'],
  eachTry: () => Promise<void> = async () => {},
): Promise<BackendVideo> {
  return vi.waitFor(
    async () => {
      await eachTry();
      const video = (await listVideos(baseUrl, cookie)).find((v) => v.id === id);
      if (video?.processing !== processing) throw new Error(`video ${id} is ${video?.processing ?? 'missing'}`);
      return video;
    },
    { timeout: 50_000, interval: 200 },
  );
}
