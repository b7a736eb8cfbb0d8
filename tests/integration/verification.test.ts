/**
 * The advertiser's verification files over real HTTP (issue 6): uploads checked by content (an ID
 * document and a selfie, or a short video), kept in PRIVATE storage only (no public URL answers them),
 * re-encoded without metadata, visible to their owner only; complete files submit the verification
 * (the advert's validation status Pending, counted on support's dashboard); deletion while pending; and
 * the QR hand-off link (works for the upload, check and delete calls only, for its own advertiser only,
 * for 30 minutes).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { auditLog, verifications } from '#server/db/schema.ts';
import type { HandoffLink, ValidationPictures, ValidationVideo } from '#lib/schemas/verification.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';
import {
  advertValidation,
  backendApi,
  documentJpeg,
  newAdvertiser,
  selfiePng,
  submitDocuments,
  supportApi,
  uploadVerification,
  videoClip,
} from './verification-helpers.ts';

let server: TestServer;
let offsetMs = 0;
let supportCookie: string;

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(Date.now() + offsetMs) });
  const user = await createSupportUserOverHttp(server, { permissions: ['Support'] });
  supportCookie = await signInSupport(server, user);
});
afterAll(async () => {
  await server?.close();
});

const fieldsOf = (body: { errors?: { field: string; message: string }[] }) => Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));

/** Every file under a storage area's folder (relative paths). */
async function filesUnder(area: 'public' | 'private', folder: string): Promise<string[]> {
  const root = path.join(server.dataDir, 'media', area, folder);
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  } catch {
    return [];
  }
}

async function openRow(advertId: number) {
  const rows = await server.db.select().from(verifications).where(eq(verifications.advertId, advertId));
  return rows.at(-1)!;
}

describe('uploads by content, kept privately', () => {
  it('takes a document and a selfie, re-encodes them to JPEG without EXIF or GPS, keeps them private, and submits the verification', async () => {
    const who = await newAdvertiser(server);
    const pendingBefore = (await supportApi(server, 'pendingcounts', supportCookie)).body.verifications.count as number;

    const document = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), cookie: who.cookie });
    expect(document.status, await document.clone().text()).toBe(200);
    expect(await document.json()).toMatchObject({ kind: 'document', submitted: false, state: 'collecting' });
    // Not complete yet: not in support's queue, the advert not pending.
    expect((await advertValidation(server, who.advertId)).validationStatus).toBe(0);
    expect((await supportApi(server, 'pendingcounts', supportCookie)).body.verifications.count).toBe(pendingBefore);

    const selfie = await uploadVerification(server, { kind: 'selfie', name: 'selfie.png', type: 'image/png', bytes: await selfiePng(), cookie: who.cookie });
    expect(selfie.status).toBe(200);
    expect(await selfie.json()).toMatchObject({ kind: 'selfie', submitted: true, state: 'pending' });
    expect((await advertValidation(server, who.advertId)).validationStatus).toBe(1);
    expect((await supportApi(server, 'pendingcounts', supportCookie)).body.verifications.count).toBe(pendingBefore + 1);

    const row = await openRow(who.advertId);
    expect(row).toMatchObject({ status: 1, method: 'document' });
    expect(row.files.map((f) => f.kind).sort()).toEqual(['document', 'selfie']);
    // Private storage only: the files are on disk in the private area, none in the public one, and the
    // public media address of the key answers 404.
    const folder = `verifications/${who.accountId}`;
    expect(await filesUnder('private', folder)).toHaveLength(2);
    expect(await filesUnder('public', folder)).toEqual([]);
    for (const file of row.files) {
      expect((await fetch(`${server.url}/media/${file.key}`)).status).toBe(404);
      const stored = await readFile(path.join(server.dataDir, 'media', 'private', file.key));
      const meta = await sharp(stored).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.exif).toBeUndefined();
      expect(stored.includes(Buffer.from('Exif'))).toBe(false);
    }
    // The document (800×600 with orientation 6) was turned upright.
    const documentFile = row.files.find((f) => f.kind === 'document')!;
    const upright = await sharp(await readFile(path.join(server.dataDir, 'media', 'private', documentFile.key))).metadata();
    expect([upright.width, upright.height]).toEqual([600, 800]);

    const state = await backendApi(server, 'validationpicture', who.cookie);
    expect(state.status).toBe(200);
    const pictures = state.body as ValidationPictures;
    expect(pictures.state).toBe('pending');
    expect(pictures.document?.uploadedAt).toEqual(expect.any(String));
    expect(pictures.selfie?.uploadedAt).toEqual(expect.any(String));
    expect(state.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses what is not a picture, a PNG named .jpg, a missing Kind, and anyone not signed in', async () => {
    const who = await newAdvertiser(server);
    const text = new TextEncoder().encode('<html>not a picture</html>');
    const notPicture = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: text, cookie: who.cookie });
    expect(notPicture.status).toBe(400);
    expect(notPicture.headers.get('content-type')).toContain('application/problem+json');
    expect(fieldsOf(await notPicture.json())).toEqual({ file: 'notAnImage' });

    const mismatch = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await selfiePng(), cookie: who.cookie });
    expect(fieldsOf(await mismatch.json())).toEqual({ file: 'typeMismatch' });

    const noKind = await uploadVerification(server, { name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), cookie: who.cookie });
    expect(noKind.status).toBe(400);
    expect(fieldsOf(await noKind.json())).toEqual({ Kind: 'required' });

    const pictureAsVideo = await uploadVerification(server, { kind: 'video', name: 'clip.mp4', type: 'video/mp4', bytes: await documentJpeg(), cookie: who.cookie });
    expect(fieldsOf(await pictureAsVideo.json())).toEqual({ file: 'notAVideo' });

    const nobody = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg() });
    expect(nobody.status).toBe(401);
    // Nothing was kept of any of them.
    expect(await filesUnder('private', `verifications/${who.accountId}`)).toEqual([]);
    expect((await backendApi(server, 'validationpicture', who.cookie)).body).toMatchObject({ state: 'none', document: null, selfie: null });
  });

  it('takes a short video instead of pictures, and refuses one longer than 60 seconds', async () => {
    const who = await newAdvertiser(server);
    const long = await uploadVerification(server, { kind: 'video', name: 'lang.mp4', type: 'video/mp4', bytes: await videoClip(61), cookie: who.cookie });
    expect(long.status).toBe(400);
    expect(fieldsOf(await long.json())).toEqual({ file: 'tooLong' });

    const clip = await videoClip(2);
    const video = await uploadVerification(server, { kind: 'video', name: 'mig.mp4', type: 'video/mp4', bytes: clip, cookie: who.cookie });
    expect(video.status, await video.clone().text()).toBe(200);
    expect(await video.json()).toMatchObject({ kind: 'video', submitted: true, state: 'pending' });
    expect(await openRow(who.advertId)).toMatchObject({ method: 'video', status: 1 });
    const state = (await backendApi(server, 'validationvideo', who.cookie)).body as ValidationVideo;
    expect(state).toMatchObject({ state: 'pending', video: { uploadedAt: expect.any(String) } });

    // The owner can watch it (as uploaded, never cached).
    const file = await fetch(`${server.url}/api/backend/validationvideo?File=1`, { headers: { cookie: who.cookie } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await file.arrayBuffer()).equals(clip)).toBe(true);
  });
});

describe('owner-only access and deletion', () => {
  it('shows a file to its owner only; another advertiser sees their own (nothing)', async () => {
    const owner = await newAdvertiser(server);
    const other = await newAdvertiser(server, 'Anden Annoncør');
    await submitDocuments(server, owner);

    const own = await fetch(`${server.url}/api/backend/validationpicture?Kind=document&File=1`, { headers: { cookie: owner.cookie } });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect(own.headers.get('cache-control')).toBe('no-store');
    expect((await sharp(Buffer.from(await own.arrayBuffer())).metadata()).format).toBe('jpeg');

    const others = await fetch(`${server.url}/api/backend/validationpicture?Kind=document&File=1`, { headers: { cookie: other.cookie } });
    expect(others.status).toBe(404);
    expect((await backendApi(server, 'validationpicture', other.cookie)).body).toMatchObject({ state: 'none', document: null });
    expect((await fetch(`${server.url}/api/backend/validationpicture?Kind=document&File=1`)).status).toBe(401);
  });

  it('deletes a file while pending: the verification goes back to collecting and the advert to not validated', async () => {
    const who = await newAdvertiser(server);
    await submitDocuments(server, who);
    const before = await openRow(who.advertId);
    const selfieKey = before.files.find((f) => f.kind === 'selfie')!.key;

    const deleted = await backendApi(server, 'deletevalidationpicture', who.cookie, { body: { Kind: 'selfie' } });
    expect(deleted.status).toBe(204);
    expect(await openRow(who.advertId)).toMatchObject({ status: 0, submittedAt: null });
    expect((await advertValidation(server, who.advertId)).validationStatus).toBe(0);
    expect((await backendApi(server, 'validationpicture', who.cookie)).body).toMatchObject({ state: 'collecting', selfie: null });
    expect(await filesUnder('private', `verifications/${who.accountId}`)).toHaveLength(1);
    expect(await filesUnder('private', path.dirname(selfieKey))).not.toContain(path.basename(selfieKey));

    expect((await backendApi(server, 'deletevalidationpicture', who.cookie, { body: { Kind: 'selfie' } })).status).toBe(404);
    expect((await backendApi(server, 'deletevalidationvideo', who.cookie, { body: {} })).status).toBe(404);
    const missingKind = await backendApi(server, 'deletevalidationpicture', who.cookie, { body: {} });
    expect(missingKind.status).toBe(400);
    expect(fieldsOf(missingKind.body)).toEqual({ Kind: 'required' });
  });

  it('refuses to delete a decided verification (409 alreadyDecided)', async () => {
    const who = await newAdvertiser(server);
    await submitDocuments(server, who);
    const row = await openRow(who.advertId);
    expect((await supportApi(server, 'acceptvalidation', supportCookie, { body: { Id: row.id } })).status).toBe(200);
    const refused = await backendApi(server, 'deletevalidationpicture', who.cookie, { body: { Kind: 'document' } });
    expect(refused.status).toBe(409);
    expect(fieldsOf(refused.body)).toEqual({ Id: 'alreadyDecided' });
  });
});

describe('the QR hand-off link', () => {
  async function handoffOf(cookie: string): Promise<HandoffLink & { token: string }> {
    const made = await backendApi(server, 'ageverificationbyqrcode', cookie, { body: {} });
    expect(made.status).toBe(200);
    const link = made.body as HandoffLink;
    return { ...link, token: new URL(link.url).searchParams.get('handoff')! };
  }

  it('gives a link and a QR code that let a phone upload, check and delete without signing in, for 30 minutes', async () => {
    const who = await newAdvertiser(server);
    const link = await handoffOf(who.cookie);
    expect(link.url).toMatch(/^http:\/\/localhost:3000\/backend\/verification\/\?handoff=[\w-]{40,}$/);
    expect(link.qrSvg).toContain('<svg');
    const minutes = (Date.parse(link.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);

    // Upload with the token as a form field (before the file); check; delete; upload again. A POST never
    // takes its input from the query string (issue 15): the token there is not honoured.
    const byQuery = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), handoff: link.token });
    expect(byQuery.status).toBe(401);
    const first = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), handoffField: link.token });
    expect(first.status, await first.clone().text()).toBe(200);
    const checked = await backendApi(server, 'validationpicture', undefined, { query: { Handoff: link.token } });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ state: 'collecting', document: { uploadedAt: expect.any(String) } });
    const removed = await backendApi(server, 'deletevalidationpicture', undefined, { body: { Kind: 'document', Handoff: link.token } });
    expect(removed.status).toBe(204);
    const byField = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), handoffField: link.token });
    expect(byField.status, await byField.clone().text()).toBe(200);
    // It landed on this advertiser's verification, and its first use was audited (once).
    expect((await backendApi(server, 'validationpicture', who.cookie)).body.document).not.toBeNull();
    const uses = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'verification.handoff_use'), eq(auditLog.targetId, String(who.accountId))));
    expect(uses).toHaveLength(1);
    const uploads = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'verification.upload'), eq(auditLog.actorId, who.accountId)));
    expect(uploads.map((u) => (u.after as { via: string }).via)).toEqual(['handoff', 'handoff']);

    // Nothing else accepts it.
    for (const route of ['userprofile', 'dashboard', 'checksession']) {
      expect((await backendApi(server, route, undefined, { query: { Handoff: link.token, SessionId: 'x' } })).status, route).toBe(401);
    }
    for (const route of ['ageestimation', 'ageverificationbyqrcode', 'updateidentification']) {
      expect((await backendApi(server, route, undefined, { body: { Handoff: link.token, ProfileId: who.advertId } })).status, route).toBe(401);
    }

    // After 30 minutes it no longer works.
    offsetMs = 31 * 60_000;
    try {
      const late = await backendApi(server, 'validationpicture', undefined, { query: { Handoff: link.token } });
      expect(late.status).toBe(401);
      expect(fieldsOf(late.body)).toEqual({ Handoff: 'handoffExpired' });
    } finally {
      offsetMs = 0;
    }
  });

  it("never reaches another advertiser's data, ends when a newer link is made, and ends when the verification is submitted", async () => {
    const first = await newAdvertiser(server);
    const second = await newAdvertiser(server, 'Anden Annoncør');
    await submitDocuments(server, second);
    const old = await handoffOf(first.cookie);
    const link = await handoffOf(first.cookie);
    expect((await backendApi(server, 'validationpicture', undefined, { query: { Handoff: old.token } })).status).toBe(401);

    // The token shows the first advertiser's (empty) verification, never the second's files.
    const seen = await backendApi(server, 'validationpicture', undefined, { query: { Handoff: link.token } });
    expect(seen.body).toMatchObject({ state: 'none', document: null, selfie: null });
    const file = await fetch(`${server.url}/api/backend/validationpicture?Kind=document&File=1&Handoff=${link.token}`);
    expect(file.status).toBe(404);
    // A token of nobody, and a token with another advertiser's cookie: the cookie's owner is who acts.
    expect((await backendApi(server, 'validationpicture', undefined, { query: { Handoff: 'not-a-token' } })).status).toBe(401);
    const withCookie = await backendApi(server, 'validationpicture', second.cookie, { query: { Handoff: link.token } });
    expect(withCookie.body.state).toBe('pending');

    const document = await uploadVerification(server, { kind: 'document', name: 'pas.jpg', type: 'image/jpeg', bytes: await documentJpeg(), handoffField: link.token });
    expect(document.status).toBe(200);
    const selfie = await uploadVerification(server, { kind: 'selfie', name: 'selfie.png', type: 'image/png', bytes: await selfiePng(), handoffField: link.token });
    expect(await selfie.json()).toMatchObject({ submitted: true });
    expect((await advertValidation(server, first.advertId)).validationStatus).toBe(1);
    expect((await advertValidation(server, second.advertId)).validationStatus).toBe(1);
    // Submitted: the link has done its work.
    expect((await backendApi(server, 'validationpicture', undefined, { query: { Handoff: link.token } })).status).toBe(401);
  });
});
