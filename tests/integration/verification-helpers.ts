/**
 * Helpers for the verification tests: an advertiser with a new (not yet live, not verified) advert, real
 * files made with sharp and ffmpeg (neutral colours and test patterns), and the multipart upload to
 * validationpictureuploader with a session cookie or a QR hand-off token.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { adverts } from '#server/db/schema.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { jpegWithGpsAndOrientation, twoTone } from './pictures-helpers.ts';
import { clipPattern, makeClip } from './videos-helpers.ts';

export type Advertiser = { advertId: number; accountId: number; name: string; email: string; cookie: string };

/** An advertiser whose advert is New: not approved, not verified, not public. */
export async function newAdvertiser(server: TestServer, name = 'Vera Verifikation'): Promise<Advertiser> {
  const created = await createAdvertiser(server.db, { name, status: 0, approvedAt: null, ageVerifiedAt: null, expirationDate: null });
  return { advertId: created.id, accountId: created.accountId, name, email: created.email, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

export type UploadOptions = {
  kind?: string;
  name: string;
  type: string;
  bytes: Uint8Array;
  cookie?: string;
  /** The hand-off token in the query string (not honoured: a POST never reads its query). */
  handoff?: string;
  /** The hand-off token as a form field (sent before the file). */
  handoffField?: string;
};

/** validationpictureuploader over HTTP: `Kind` (and `Handoff`) first, then the file, as a browser form sends them. */
export async function uploadVerification(server: TestServer, options: UploadOptions): Promise<Response> {
  const form = new FormData();
  if (options.handoffField) form.append('Handoff', options.handoffField);
  if (options.kind) form.append('Kind', options.kind);
  form.append('file', new Blob([new Uint8Array(options.bytes)], { type: options.type }), options.name);
  const url = new URL('/api/backend/validationpictureuploader', server.url);
  if (options.handoff) url.searchParams.set('Handoff', options.handoff);
  return fetch(url, { method: 'POST', body: form, headers: options.cookie ? { cookie: options.cookie } : {} });
}

/** A photo of a "document" (a two-tone JPEG) carrying EXIF orientation and GPS tags. */
export const documentJpeg = () => jpegWithGpsAndOrientation(800, 600);
/** A "selfie" as PNG. */
export const selfiePng = async () => (await twoTone(600, 800)).png().toBuffer();

/** A test-pattern clip of `seconds` as MP4 (small and quick to make). */
export async function videoClip(seconds: number): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'verification-clip-'));
  try {
    return await makeClip(path.join(dir, 'clip.mp4'), [...clipPattern('160x120', seconds, 5), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Uploads the document and the selfie: the verification is submitted (Pending). */
export async function submitDocuments(server: TestServer, who: Advertiser): Promise<void> {
  const document = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), cookie: who.cookie });
  expect(document.status, await document.clone().text()).toBe(200);
  const selfie = await uploadVerification(server, { kind: 'selfie', name: 'selfie.png', type: 'image/png', bytes: await selfiePng(), cookie: who.cookie });
  expect(selfie.status, await selfie.clone().text()).toBe(200);
  expect(((await selfie.json()) as { submitted: boolean }).submitted).toBe(true);
}

/** The advert's validation status and age verification, as stored. */
export async function advertValidation(server: TestServer, advertId: number) {
  const [row] = await server.db
    .select({ validationStatus: adverts.validationStatus, ageVerifiedAt: adverts.ageVerifiedAt, status: adverts.status })
    .from(adverts)
    .where(eq(adverts.id, advertId));
  return row!;
}

export const backendApi = (server: TestServer, route: string, cookie: string | undefined, options: { body?: unknown; query?: Record<string, string | number> } = {}) =>
  callApi(server.url, `/api/backend/${route}`, { ...(cookie ? { cookie } : {}), ...options });

export const supportApi = (server: TestServer, route: string, cookie: string | undefined, options: { body?: unknown; query?: Record<string, string | number> } = {}) =>
  callApi(server.url, `/api/support/${route}`, { ...(cookie ? { cookie } : {}), ...options });

/** ageestimation over HTTP: the provider's session id and page. */
export async function startAgeCheck(server: TestServer, who: Advertiser): Promise<{ sessionId: string; uri: string }> {
  const started = await backendApi(server, 'ageestimation', who.cookie, { body: {} });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body as { sessionId: string; uri: string };
}

/** Presses a button on the built-in test provider's page (a form post, as the browser sends it); answers the redirect. */
export function pressTestProvider(server: TestServer, uri: string, outcome: 'pass' | 'fail' | 'cancel'): Promise<Response> {
  return fetch(new URL(new URL(uri).pathname, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
}
