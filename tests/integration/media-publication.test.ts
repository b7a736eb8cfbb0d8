/**
 * Which media files anyone can fetch (issue 15 item 4; docs/decisions/013): pending and declined pictures
 * have no public URL, a taken-down picture's URL dies and a picture published again gets a new one, a
 * deleted account's or locked advert's pictures are gone from /media/, and the owner and support see
 * every picture through authenticated calls (`private, no-store`) that another advertiser cannot use.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { pictures } from '#server/db/schema.ts';
import type { BackendPicture, PictureUploadAnswer } from '#lib/schemas/media.ts';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import { twoTone, uploadFiles } from './pictures-helpers.ts';

let server: TestServer;
let supportCookie: string;

type Owner = { id: number; accountId: number; cookie: string; email: string; password: string };

async function advertiser(name: string): Promise<Owner> {
  const created = await createAdvertiser(server.db, { name, pictureCount: 0 });
  return { ...created, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

async function uploadOne(owner: Owner): Promise<BackendPicture> {
  const bytes = await (await twoTone(700, 500)).jpeg().toBuffer();
  const response = await uploadFiles(server.url, '/api/backend/profilepictureuploader', [{ name: 'p.jpg', type: 'image/jpeg', bytes }], owner.cookie);
  expect(response.status).toBe(200);
  const [result] = ((await response.json()) as PictureUploadAnswer).results;
  if (!result?.ok) throw new Error('upload refused');
  return result.picture;
}

const backend = (owner: Owner, call: string, body?: unknown) =>
  callApi(server.url, `/api/backend/${call}`, { cookie: owner.cookie, ...(body === undefined ? {} : { body }) });
const support = (call: string, body: unknown) => callApi(server.url, `/api/backend/${call}`, { cookie: supportCookie, body });
const status = async (url: string, cookie?: string) => (await fetch(`${server.url}${url}`, { headers: cookie ? { cookie } : {} })).status;

/** The public URLs of the advert's picture on its public profile (none while it is not public). */
async function publicUrls(owner: Owner, pictureId: number): Promise<string[]> {
  const { body } = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: owner.id } });
  const found = ((body?.pictures ?? []) as { id: number; variants: { url: string }[] }[]).find((p) => p.id === pictureId);
  return found ? found.variants.map((v) => v.url) : [];
}

/** Every file under DATA_DIR/media/public (what /media/ can serve). */
async function publicFiles(): Promise<string[]> {
  const root = path.join(server.dataDir, 'media', 'public');
  try {
    return (await readdir(root, { recursive: true })).map(String);
  } catch {
    return [];
  }
}

beforeAll(async () => {
  server = await startTestServer();
  supportCookie = await signIn(server, 'support', server.admin);
});
afterAll(async () => {
  await server?.close();
});

describe('pending and declined pictures', () => {
  it('a pending picture has no public file: its URLs are not reachable without a session, nothing of it is under /media/', async () => {
    const owner = await advertiser('Pending');
    const picture = await uploadOne(owner);
    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, picture.id));
    for (const variant of picture.variants) {
      expect(await status(variant.url), variant.url).not.toBe(200);
    }
    for (const variant of row!.variants) {
      expect(await status(`/media/${variant.key}`), variant.key).toBe(404);
    }
    const uuid = row!.storageKey.split('/').at(-1)!;
    expect((await publicFiles()).filter((file) => file.includes(uuid))).toEqual([]);
    expect(await publicUrls(owner, picture.id)).toEqual([]);
  });

  it('the owner and support see a pending picture through the authenticated call (private, no-store); another advertiser gets 404', async () => {
    const owner = await advertiser('Owner');
    const other = await advertiser('Other');
    const picture = await uploadOne(owner);
    const url = picture.variants[0]!.url;
    expect(url).toMatch(new RegExp(`^/api/backend/mediafile/picture/${picture.id}/\\d+\\.(avif|webp)$`));

    const mine = await fetch(`${server.url}${url}`, { headers: { cookie: owner.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(mine.headers.get('content-type')).toMatch(/^image\/(avif|webp)$/);
    expect((await mine.arrayBuffer()).byteLength).toBeGreaterThan(100);

    expect(await status(url)).toBe(401);
    expect(await status(url, other.cookie)).toBe(404);
    expect(await status(url.replace(/\d+\.(avif|webp)$/, '9999.webp'), owner.cookie)).toBe(404);

    // Support's advert screen and review screen show it too, at support's own address.
    const media = await callApi(server.url, '/api/support/currentmedia', { cookie: supportCookie, query: { Id: owner.id } });
    const supportUrl = (media.body.pictures as { id: number; variants: { url: string }[] }[]).find((p) => p.id === picture.id)!.variants[0]!.url;
    expect(supportUrl).toMatch(/^\/api\/support\/mediafile\/picture\//);
    const seen = await fetch(`${server.url}${supportUrl}`, { headers: { cookie: supportCookie } });
    expect(seen.status).toBe(200);
    expect(seen.headers.get('cache-control')).toBe('private, no-store');
    expect(await status(supportUrl)).toBe(401);
    expect(await status(supportUrl, owner.cookie)).toBe(401);
  });

  it('a declined picture is no longer served at its public URL', async () => {
    const owner = await advertiser('Declined');
    const picture = await uploadOne(owner);
    expect((await support('approveimageitem', { Id: picture.id })).status).toBe(200);
    const urls = await publicUrls(owner, picture.id);
    expect(urls.length).toBeGreaterThan(0);
    const served = await fetch(`${server.url}${urls[0]}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    expect((await support('declineimageitem', { Id: picture.id, Reason: 'Utydeligt.' })).status).toBe(200);
    for (const url of urls) expect(await status(url), url).toBe(404);
    expect(await publicUrls(owner, picture.id)).toEqual([]);
    // The owner still sees it, declined.
    const listed = ((await backend(owner, 'profilepictures')).body as BackendPicture[]).find((p) => p.id === picture.id)!;
    expect(listed.moderation).toBe('declined');
    expect(await status(listed.variants[0]!.url, owner.cookie)).toBe(200);
  });
});

describe('taking down and publishing again', () => {
  it('offline kills the public URL; back online the picture has a new URL and the old one stays dead', async () => {
    const owner = await advertiser('Offline');
    const picture = await uploadOne(owner);
    expect((await support('approveimageitem', { Id: picture.id })).status).toBe(200);
    const first = await publicUrls(owner, picture.id);
    expect(first.length).toBeGreaterThan(0);

    expect((await backend(owner, 'updateimagestatus', { PictureId: picture.id, Online: false })).status).toBe(200);
    for (const url of first) expect(await status(url)).toBe(404);

    expect((await backend(owner, 'updateimagestatus', { PictureId: picture.id, Online: true })).status).toBe(200);
    const second = await publicUrls(owner, picture.id);
    expect(second.length).toBe(first.length);
    for (const url of second) {
      expect(first).not.toContain(url);
      expect(await status(url)).toBe(200);
    }
    for (const url of first) expect(await status(url)).toBe(404);
  });

  it('a declined picture approved again (an appeal, a second look) is published under a new URL', async () => {
    const owner = await advertiser('Again');
    const picture = await uploadOne(owner);
    await support('approveimageitem', { Id: picture.id });
    const first = await publicUrls(owner, picture.id);
    await support('declineimageitem', { Id: picture.id, Reason: 'Nej.' });
    await support('approveimageitem', { Id: picture.id });
    const second = await publicUrls(owner, picture.id);
    expect(second.length).toBeGreaterThan(0);
    expect(second.some((url) => first.includes(url))).toBe(false);
    for (const url of first) expect(await status(url)).toBe(404);
  });

  it('a deleted picture is gone from /media/', async () => {
    const owner = await advertiser('Deleted');
    const picture = await uploadOne(owner);
    await support('approveimageitem', { Id: picture.id });
    const urls = await publicUrls(owner, picture.id);
    expect((await backend(owner, 'deleteprofilepicture', { PictureId: picture.id })).status).toBe(200);
    for (const url of urls) expect(await status(url)).toBe(404);
  });

  it("a deleted account's pictures are gone at once; a restore publishes them under new URLs", async () => {
    const owner = await advertiser('Leaving');
    const picture = await uploadOne(owner);
    await support('approveimageitem', { Id: picture.id });
    const before = await publicUrls(owner, picture.id);
    expect(before.length).toBeGreaterThan(0);
    for (const url of before) expect(await status(url)).toBe(200);

    expect((await backend(owner, 'deleteuser', { Password: owner.password })).status).toBe(204);
    for (const url of before) expect(await status(url), url).toBe(404);

    const restored = await callApi(server.url, '/api/frontend/restoreprofile', { body: { Email: owner.email, Password: owner.password } });
    expect(restored.status).toBe(200);
    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, picture.id));
    expect(row!.publicKey).not.toBeNull();
    for (const url of before) expect(await status(url)).toBe(404);
  });

  it("a locked advert's pictures are taken down", async () => {
    const owner = await advertiser('Locked');
    const picture = await uploadOne(owner);
    await support('approveimageitem', { Id: picture.id });
    const urls = await publicUrls(owner, picture.id);
    expect(urls.length).toBeGreaterThan(0);
    const locked = await callApi(server.url, '/api/support/profilestatus', {
      cookie: supportCookie,
      body: { Id: owner.id, Status: 2, Rule: 'terms.identity', Reason: 'Billederne viser ikke annoncøren.' },
    });
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    for (const url of urls) expect(await status(url)).toBe(404);
  });
});
