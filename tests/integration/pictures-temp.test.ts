/**
 * Pictures uploaded during /create, before the account exists (spec §7 profilepictureuploadertemp,
 * removetempimage; docs/decisions/013): an HttpOnly upload token, createprofile attaching them, and the
 * cleanup of those nobody took.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { pictures } from '#server/db/schema.ts';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { deleteStaleTempPictures } from '#server/domain/media/pictures.ts';
import type { BackendPicture, PictureUploadAnswer } from '#lib/schemas/media.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createProfileOverHttp } from './accounts-helpers.ts';
import { twoTone, uploadFiles } from './pictures-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const mediaPath = (area: 'public' | 'private', key: string) => path.join(server.dataDir, 'media', area, key);

async function uploadTemp(cookie?: string): Promise<{ picture: BackendPicture; cookie: string; setCookie: string | undefined }> {
  const bytes = await (await twoTone(700, 500)).jpeg().toBuffer();
  const response = await uploadFiles(server.url, '/api/frontend/profilepictureuploadertemp', [{ name: 'me.jpg', type: 'image/jpeg', bytes }], cookie);
  expect(response.status, await response.clone().text()).toBe(200);
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('upload_token='));
  const answer = (await response.json()) as PictureUploadAnswer;
  const result = answer.results[0]!;
  if (!result.ok) throw new Error('refused');
  return { picture: result.picture, cookie: cookie ?? setCookie!.split(';')[0]!, setCookie };
}

const removeTemp = (pictureId: number, cookie?: string) =>
  fetch(`${server.url}/api/frontend/removetempimage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ PictureId: pictureId }),
  });

describe('temporary uploads', () => {
  it('needs no session, sets an HttpOnly upload token and stores the picture under pictures/temp, pending and unowned', async () => {
    const { picture, setCookie, cookie } = await uploadTemp();
    expect(setCookie).toMatch(/^upload_token=[\w-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/api/frontend');
    expect(picture.moderation).toBe('pending');
    // Private until approved (docs/decisions/013): shown to this browser only, through its upload token.
    expect(picture.variants[0]!.url).toMatch(new RegExp(`^/api/frontend/tempmediafile/picture/${picture.id}/\\d+\\.(avif|webp)$`));
    const shown = await fetch(`${server.url}${picture.variants[0]!.url}`, { headers: { cookie } });
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('private, no-store');
    expect((await fetch(`${server.url}${picture.variants[0]!.url}`)).status).toBe(404);
    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, picture.id));
    expect(row!.storageKey).toMatch(/^pictures\/temp\//);
    expect(existsSync(mediaPath('private', row!.variants[0]!.key))).toBe(true);
    expect(existsSync(mediaPath('public', row!.variants[0]!.key))).toBe(false);
    expect(row!.advertId).toBeNull();
    // Only a hash of the token is stored.
    expect(row!.tempToken).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.tempToken).not.toBe(cookie.split('=')[1]);

    // The same browser keeps its token.
    const again = await uploadTemp(cookie);
    const [second] = await server.db.select().from(pictures).where(eq(pictures.id, again.picture.id));
    expect(second!.tempToken).toBe(row!.tempToken);
  });

  it('removes only the same token\'s pictures (404 otherwise), with their files', async () => {
    const mine = await uploadTemp();
    const theirs = await uploadTemp();
    expect((await removeTemp(mine.picture.id, theirs.cookie)).status).toBe(404);
    expect((await removeTemp(mine.picture.id)).status).toBe(404);
    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, mine.picture.id));
    expect(existsSync(mediaPath('private', row!.variants[0]!.key))).toBe(true);
    expect((await fetch(`${server.url}${mine.picture.variants[0]!.url}`, { headers: { cookie: theirs.cookie } })).status).toBe(404);

    expect((await removeTemp(mine.picture.id, mine.cookie)).status).toBe(204);
    expect(await server.db.select().from(pictures).where(eq(pictures.id, mine.picture.id))).toHaveLength(0);
    expect(existsSync(mediaPath('private', row!.variants[0]!.key))).toBe(false);
    expect(existsSync(mediaPath('private', row!.originalKey!))).toBe(false);
    expect((await removeTemp(mine.picture.id, mine.cookie)).status).toBe(404);
  });

  it('createprofile attaches the browser\'s temporary pictures to the new advert (first one primary) and clears the token; the owner sees them once signed up', async () => {
    const first = await uploadTemp();
    const second = await uploadTemp(first.cookie);
    const stranger = await uploadTemp();

    const { signUpAnswer, profile, cookie: sid } = await createProfileOverHttp(server, {}, { cookie: first.cookie });
    expect(signUpAnswer.headers.getSetCookie().some((c) => c.startsWith('upload_token=;'))).toBe(true);

    const listed = await fetch(`${server.url}/api/backend/profilepictures`, { headers: { cookie: sid } });
    const own = (await listed.json()) as BackendPicture[];
    expect(own.map((p) => [p.id, p.isPrimary, p.moderation])).toEqual([
      [first.picture.id, true, 'pending'],
      [second.picture.id, false, 'pending'],
    ]);
    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, first.picture.id));
    expect(row!.advertId).toBe(profile.advertId);
    expect(row!.tempToken).toBeNull();
    // Keys stay where they were; the owner sees the files.
    expect((await fetch(`${server.url}${own[0]!.variants[0]!.url}`, { headers: { cookie: sid } })).status).toBe(200);
    const [notTaken] = await server.db.select().from(pictures).where(eq(pictures.id, stranger.picture.id));
    expect(notTaken!.advertId).toBeNull();
  });

  it('the cleanup deletes temporary pictures older than a day, rows and files, and keeps newer ones', async () => {
    const old = await uploadTemp();
    const fresh = await uploadTemp();
    await server.db
      .update(pictures)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(pictures.id, old.picture.id));
    const [oldRow] = await server.db.select().from(pictures).where(eq(pictures.id, old.picture.id));

    const storage = createLocalStorage(path.join(server.dataDir, 'media'));
    expect(await deleteStaleTempPictures(server.db, storage, new Date())).toBe(1);
    expect(await server.db.select().from(pictures).where(eq(pictures.id, old.picture.id))).toHaveLength(0);
    for (const variant of oldRow!.variants) expect(existsSync(mediaPath('private', variant.key))).toBe(false);
    expect(existsSync(mediaPath('private', oldRow!.originalKey!))).toBe(false);
    expect(await server.db.select().from(pictures).where(eq(pictures.id, fresh.picture.id))).toHaveLength(1);
  });
});
