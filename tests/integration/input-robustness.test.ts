/**
 * Issue 15, item 12: a NUL character in any text input answers 400 problem+json naming the field (not a
 * database error and 500), and a full disk answers 503 with Retry-After (not 500); once there is space
 * again, the same call works.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import { call, fieldErrors, profileInput } from './accounts-helpers.ts';
import { documentJpeg, newAdvertiser, uploadVerification } from './verification-helpers.ts';

let server: TestServer;
let mediaDir: string;

/**
 * A real full disk: the server's media folder is a tiny tmpfs of its own (mounted here; the tests run as
 * root in CI and in the development container, as mounting needs).
 */
beforeAll(async () => {
  mediaDir = await mkdtemp(path.join(os.tmpdir(), 'full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mediaDir], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`this test mounts a tiny tmpfs to fill it, which needs root (CI runs as root): ${String(error)}`, { cause: error });
  }
  server = await startTestServer({ app: { mediaDir } });
});

afterAll(async () => {
  await server?.close();
  try {
    execFileSync('umount', [mediaDir], { stdio: 'pipe' });
  } finally {
    await rm(mediaDir, { recursive: true, force: true });
  }
});

describe('a NUL character in text input', () => {
  it('answers 400 naming the field, in a JSON body', async () => {
    const input = await profileInput(server, { Name: 'Sofie\u0000Ærø' });
    const response = await call(server, '/api/frontend/createprofile', { body: input });
    expect(response.status).toBe(400);
    expect(await fieldErrors(response)).toEqual({ Name: 'invalid' });
  });

  it('answers 400 naming the field, in another call\'s JSON body', async () => {
    const response = await call(server, '/api/frontend/reportadvert', { body: { AdvertId: (await createAdvert(server.db)).id, Reason: 'other', Name: 'Anna', Email: 'anna@example.test', Details: 'Her er \u0000 et tegn', GoodFaith: true } });
    expect(response.status).toBe(400);
    expect(await fieldErrors(response)).toEqual({ Details: 'invalid' });
  });

  it('answers 400 naming the field, in the query', async () => {
    for (const path of ['/api/frontend/landingpagepage?Kind=0&Url=a%00b', '/api/frontend/searchpagepagefreetext?Text=a%00']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(400);
      expect(Object.keys(await fieldErrors(response)), path).toHaveLength(1);
    }
  });
});

describe('a full disk', () => {
  it('answers 503 with Retry-After, and the same upload works once there is space', async () => {
    const who = await newAdvertiser(server);
    const bytes = await documentJpeg();
    // Fill the media disk to the last byte.
    const filler = path.join(mediaDir, 'filler');
    await writeFile(filler, Buffer.alloc(512 * 1024)).catch((error: NodeJS.ErrnoException) => expect(error.code).toBe('ENOSPC'));

    const full = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes, cookie: who.cookie });
    expect(full.status, await full.clone().text()).toBe(503);
    expect(full.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await full.json()) as { detail: string }).detail).toMatch(/try again later/i);

    await rm(filler);
    const again = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes, cookie: who.cookie });
    expect(again.status, await again.clone().text()).toBe(200);
  });
});
