/**
 * The media storage adapter (docs/decisions/013): one suite run against the local disk and against S3
 * over the wire (s3rver on loopback, the AWS SDK v3 talking HTTP to it), and `/media/*` of the real app
 * on each: public files served with immutable caching, private files never.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaStorage } from '#server/adapters/types.ts';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { startS3StandIn } from '#tests/support/s3-stand-in.ts';

type Backend = { storage: MediaStorage; stop: () => Promise<void> };

async function localBackend(): Promise<Backend> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'storage-local-'));
  return { storage: createLocalStorage(root), stop: () => rm(root, { recursive: true, force: true }) };
}

async function s3Backend(): Promise<Backend> {
  const { storage, stop } = await startS3StandIn('media-test');
  return { storage, stop };
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A file of `megabytes` random MB, written in 1 MB chunks (never whole in memory). */
async function randomFile(file: string, megabytes: number): Promise<void> {
  const out = createWriteStream(file);
  for (let n = 0; n < megabytes; n += 1) {
    if (!out.write(randomBytes(1024 * 1024))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** A GET with the path exactly as given (no URL normalisation). */
function rawGet(baseUrl: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path: rawPath, method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

const UNSAFE_KEYS = ['../escape.webp', '/etc/passwd', 'pictures/../../x.webp', 'pictures//x.webp', '', 'pictures/./x.webp', 'a\\b.webp'];

describe.each([
  ['local disk', localBackend],
  ['S3 over HTTP (s3rver)', s3Backend],
])('media storage: %s', (_name, start) => {
  let backend: Backend;
  let storage: MediaStorage;
  let work: string;
  let server: TestServer;

  beforeAll(async () => {
    backend = await start();
    storage = backend.storage;
    work = await mkdtemp(path.join(os.tmpdir(), 'storage-work-'));
    server = await startTestServer({ app: { storage } });
  });
  afterAll(async () => {
    await server?.close();
    await backend?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('stores bytes, opens them as a stream, knows they exist and deletes them', async () => {
    const bytes = randomBytes(5000);
    await storage.putBytes('public', 'pictures/1/abc-320.webp', bytes, 'image/webp');
    expect(await storage.exists('public', 'pictures/1/abc-320.webp')).toBe(true);
    const opened = await storage.open('public', 'pictures/1/abc-320.webp');
    expect(opened).not.toBeNull();
    expect(opened!.size).toBe(5000);
    expect(opened!.contentType).toBe('image/webp');
    expect((await buffer(opened!.body)).equals(bytes)).toBe(true);

    await storage.delete('public', 'pictures/1/abc-320.webp');
    expect(await storage.exists('public', 'pictures/1/abc-320.webp')).toBe(false);
    expect(await storage.open('public', 'pictures/1/abc-320.webp')).toBeNull();
    // Deleting what is not there is not an error.
    await storage.delete('public', 'pictures/1/abc-320.webp');
  });

  it('replaces a file stored again under the same key', async () => {
    await storage.putBytes('public', 'pictures/1/same-320.webp', Buffer.from('first'), 'image/webp');
    await storage.putBytes('public', 'pictures/1/same-320.webp', Buffer.from('second'), 'image/webp');
    const opened = await storage.open('public', 'pictures/1/same-320.webp');
    expect((await buffer(opened!.body)).toString()).toBe('second');
  });

  it('streams a big file in and out (20 MB) and downloads it to disk unchanged', async () => {
    const source = path.join(work, 'big.orig');
    await randomFile(source, 20);
    await storage.putFile('private', 'videos/9/big.orig', source, 'application/octet-stream');
    const opened = await storage.open('private', 'videos/9/big.orig');
    expect(opened!.size).toBe(20 * 1024 * 1024);
    opened!.body.destroy();

    const copy = path.join(work, 'nested', 'copy.orig');
    await storage.download('private', 'videos/9/big.orig', copy);
    expect((await stat(copy)).size).toBe(20 * 1024 * 1024);
    expect(await sha256OfFile(copy)).toBe(await sha256OfFile(source));
  });

  it('deletes every file under a prefix, and only those', async () => {
    for (const suffix of ['-320.avif', '-320.webp', '-640.avif', '-640.webp']) {
      await storage.putBytes('public', `pictures/7/f00d${suffix}`, Buffer.from(suffix), 'image/webp');
    }
    await storage.putBytes('public', 'pictures/7/beef-320.webp', Buffer.from('other'), 'image/webp');
    await storage.putBytes('private', 'pictures/7/f00d.orig', Buffer.from('original'), 'application/octet-stream');

    expect(await storage.deletePrefix('public', 'pictures/7/f00d')).toBe(4);
    expect(await storage.exists('public', 'pictures/7/f00d-320.avif')).toBe(false);
    expect(await storage.exists('public', 'pictures/7/f00d-640.webp')).toBe(false);
    expect(await storage.exists('public', 'pictures/7/beef-320.webp')).toBe(true);
    // Another area is another place.
    expect(await storage.exists('private', 'pictures/7/f00d.orig')).toBe(true);
    expect(await storage.deletePrefix('public', 'pictures/404/none')).toBe(0);
  });

  it('keeps the public and private areas apart', async () => {
    await storage.putBytes('private', 'pictures/3/secret.orig', Buffer.from('private bytes'), 'application/octet-stream');
    expect(await storage.exists('public', 'pictures/3/secret.orig')).toBe(false);
    expect(await storage.open('public', 'pictures/3/secret.orig')).toBeNull();
    expect(await storage.exists('private', 'pictures/3/secret.orig')).toBe(true);
  });

  it('copies a private file to a new public key, leaving the source; a missing source fails', async () => {
    await storage.putBytes('private', 'pictures/4/master-320.webp', Buffer.from('master bytes'), 'image/webp');
    await storage.copy('private', 'pictures/4/master-320.webp', 'public', 'pictures/4/published-320.webp');
    const opened = await storage.open('public', 'pictures/4/published-320.webp');
    expect(opened!.contentType).toBe('image/webp');
    expect((await buffer(opened!.body)).toString()).toBe('master bytes');
    expect(await storage.exists('private', 'pictures/4/master-320.webp')).toBe(true);
    expect(await storage.exists('public', 'pictures/4/master-320.webp')).toBe(false);
    await expect(storage.copy('private', 'pictures/4/none-320.webp', 'public', 'pictures/4/x-320.webp')).rejects.toThrow();
  });

  it('answers null for a missing file, and download of one fails', async () => {
    expect(await storage.open('public', 'pictures/1/missing-320.webp')).toBeNull();
    expect(await storage.exists('private', 'pictures/1/missing.orig')).toBe(false);
    await expect(storage.download('public', 'pictures/1/missing-320.webp', path.join(work, 'missing'))).rejects.toThrow();
  });

  it('refuses unsafe keys in every call', async () => {
    const file = path.join(work, 'small');
    await randomFile(file, 1);
    for (const key of UNSAFE_KEYS) {
      await expect(storage.putBytes('public', key, Buffer.from('x'), 'image/webp'), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.putFile('public', key, file, 'image/webp'), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.open('public', key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.delete('public', key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.deletePrefix('public', key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.download('public', key, path.join(work, 'out')), key).rejects.toThrow(/unsafe storage key/);
    }
  });

  it('serves public files at /media/ with immutable caching; private files are not reachable', async () => {
    const bytes = randomBytes(3000);
    await storage.putBytes('public', 'pictures/5/c0ffee-320.avif', bytes, 'image/avif');
    await storage.putBytes('private', 'pictures/5/c0ffee.orig', Buffer.from('the original'), 'application/octet-stream');

    const served = await fetch(`${server.url}/media/pictures/5/c0ffee-320.avif`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('content-type')).toBe('image/avif');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    for (const url of ['/media/pictures/5/c0ffee.orig', '/media/private/pictures/5/c0ffee.orig', '/media/pictures/5/missing-320.avif']) {
      const response = await fetch(`${server.url}${url}`);
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).not.toContain('the original');
    }
    // Paths that try to climb out of the public area, sent as written (fetch would normalise them).
    for (const url of [
      '/media/../private/pictures/5/c0ffee.orig',
      '/media/%2e%2e/private/pictures/5/c0ffee.orig',
      '/media/..%2fprivate%2fpictures%2f5%2fc0ffee.orig',
      '/media/pictures/5/..%2f..%2f..%2fprivate%2fpictures%2f5%2fc0ffee.orig',
    ]) {
      const { status, body } = await rawGet(server.url, url);
      expect([400, 403, 404], url).toContain(status);
      expect(body, url).not.toContain('the original');
    }
  });
});
