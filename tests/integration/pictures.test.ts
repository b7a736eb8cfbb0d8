/**
 * Pictures over real HTTP with real files made in the test (spec §7 media calls; docs/decisions/013):
 * the upload pipeline (type by content, limits, re-encoding without metadata, AVIF and WebP widths served
 * at /media/), the advertiser's calls and their ownership, and support's moderation.
 * Temporary uploads during /create are in pictures-temp.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { auditLog, notifications, pictures, supportUsers } from '#server/db/schema.ts';
import { hashPassword } from '#server/domain/accounts/passwords.ts';
import type { BackendPicture, PictureUploadAnswer } from '#lib/schemas/media.ts';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser, type ApiBody } from '#tests/support/fixtures.ts';
import {
  colourAt,
  heicPicture,
  isBlueish,
  isRedish,
  jpegWithGpsAndOrientation,
  pngClaiming,
  twoTone,
  uploadFiles,
  type UploadFile,
} from './pictures-helpers.ts';

let server: TestServer;
let owner: { id: number; accountId: number; cookie: string };
let other: { id: number; accountId: number; cookie: string };
let supportCookie: string;
let seoCookie: string;

const api = (urlPath: string, cookie: string | undefined, body?: unknown) =>
  callApi(server.url, `/api/backend/${urlPath}`, { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { body }) });
const upload = (files: UploadFile[], cookie = owner.cookie) => uploadFiles(server.url, '/api/backend/profilepictureuploader', files, cookie);
const listOwn = async (cookie = owner.cookie): Promise<BackendPicture[]> => (await api('profilepictures', cookie)).body as BackendPicture[];
const mediaFile = async (url: string, cookie = owner.cookie) => {
  const response = await fetch(`${server.url}${url}`, { headers: { cookie } });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
};

async function jpeg(width = 800, height = 600): Promise<UploadFile> {
  return { name: 'photo.jpg', type: 'image/jpeg', bytes: await (await twoTone(width, height)).jpeg().toBuffer() };
}

/** Uploads one JPEG and answers the new picture. */
async function uploadOne(cookie = owner.cookie): Promise<BackendPicture> {
  const response = await upload([await jpeg()], cookie);
  expect(response.status, await response.clone().text()).toBe(200);
  const answer = (await response.json()) as PictureUploadAnswer;
  const [result] = answer.results;
  if (!result?.ok) throw new Error('upload refused');
  return result.picture;
}

async function advertiser(name: string) {
  const created = await createAdvertiser(server.db, { name, pictureCount: 0 });
  return { id: created.id, accountId: created.accountId, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await advertiser('Freja');
  other = await advertiser('Ida');
  supportCookie = await signIn(server, 'support', server.admin);
  const seo = { email: 'seo-pictures@example.test', password: 'seo-password-long-enough' };
  await server.db.insert(supportUsers).values({ email: seo.email, name: 'SEO', passwordHash: await hashPassword(seo.password), permissions: ['SEO'] });
  seoCookie = await signIn(server, 'support', seo);
});
afterAll(async () => {
  await server?.close();
});

describe('who may call', () => {
  it('answers 401 to a visitor for every picture call', async () => {
    for (const [call, body] of [
      ['profilepictures', undefined],
      ['updateimagestatus', { PictureId: 1, Online: false }],
      ['setprimarypicture', { PictureId: 1 }],
      ['reorderimages', { Ids: [1] }],
      ['deleteprofilepicture', { PictureId: 1 }],
    ] as const) {
      const { status, headers } = await api(call, undefined, body);
      expect(status, call).toBe(401);
      expect(headers.get('content-type')).toContain('application/problem+json');
    }
    const response = await upload([await jpeg()], '');
    expect(response.status).toBe(401);
  });
});

describe('the upload pipeline', () => {
  it('re-encodes a JPEG with GPS and orientation 6: upright, no metadata, AVIF and WebP at each width, original private', async () => {
    const bytes = await jpegWithGpsAndOrientation(1200, 900, 6);
    const input = await sharp(bytes).metadata();
    expect(input.orientation).toBe(6);
    expect(input.exif?.includes(Buffer.from('N\0'))).toBe(true);

    const response = await upload([{ name: 'IMG_0001.JPG', type: 'image/jpeg', bytes }]);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as PictureUploadAnswer;
    expect(answer.results).toHaveLength(1);
    const result = answer.results[0]!;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const picture = result.picture;
    // Shown turned: 900 wide, 1200 high.
    expect([picture.width, picture.height]).toEqual([900, 1200]);
    expect(picture.moderation).toBe('pending');
    expect(picture.isPrimary).toBe(true);
    expect(picture.isOnline).toBe(true);
    expect(picture.uploadedOn).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    expect(picture.variants.map((v) => `${v.format}@${v.width}x${v.height}`).sort()).toEqual(
      ['avif@320x427', 'avif@640x853', 'webp@320x427', 'webp@640x853'].sort(),
    );

    for (const variant of picture.variants) {
      // Pending: shown to the owner only, from private storage (docs/decisions/013).
      expect(variant.url).toBe(`/api/backend/mediafile/picture/${picture.id}/${variant.width}.${variant.format}`);
      const { response: served, bytes: file } = await mediaFile(variant.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('cache-control')).toBe('private, no-store');
      expect(served.headers.get('content-type')).toBe(`image/${variant.format}`);
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe(variant.format === 'avif' ? 'heif' : 'webp');
      expect([meta.width, meta.height]).toEqual([variant.width, variant.height]);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(Buffer.from(file).includes(Buffer.from('Exif'))).toBe(false);
      // Upright: the stored top (red) is on the right now, the stored bottom (blue) on the left.
      const middle = Math.floor(variant.height / 2);
      expect(isBlueish(await colourAt(file, 10, middle))).toBe(true);
      expect(isRedish(await colourAt(file, variant.width - 10, middle))).toBe(true);
    }

    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, picture.id));
    expect(row!.perceptualHash).toMatch(/^[0-9a-f]{16}$/);
    expect(row!.originalKey).toBe(`${row!.storageKey}.orig`);
    expect(existsSync(path.join(server.dataDir, 'media', 'private', row!.originalKey!))).toBe(true);
    // The original is never reachable by a URL.
    const original = await fetch(`${server.url}/media/${row!.originalKey}`);
    expect(original.status).toBe(404);
  });

  it('makes one variant at its own width of a picture narrower than the smallest width', async () => {
    const response = await upload([{ name: 'small.png', type: 'image/png', bytes: await (await twoTone(200, 100)).png().toBuffer() }]);
    const answer = (await response.json()) as PictureUploadAnswer;
    const result = answer.results[0]!;
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.picture.variants.map((v) => `${v.format}@${v.width}x${v.height}`).sort()).toEqual(['avif@200x100', 'webp@200x100']);
  });

  it('accepts a HEIC picture (HEVC, decoded by libheif in WASM)', async () => {
    const response = await upload([{ name: 'IMG_0002.HEIC', type: 'image/heic', bytes: await heicPicture(640, 480) }]);
    const answer = (await response.json()) as PictureUploadAnswer;
    expect(response.status, JSON.stringify(answer)).toBe(200);
    const result = answer.results[0]!;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([result.picture.width, result.picture.height]).toEqual([640, 480]);
    const webp = result.picture.variants.find((v) => v.format === 'webp' && v.width === 640)!;
    const { bytes } = await mediaFile(webp.url);
    expect(isRedish(await colourAt(bytes, 320, 40))).toBe(true);
    expect(isBlueish(await colourAt(bytes, 320, 440))).toBe(true);
  });

  it('refuses, per file and by content, what is not an acceptable picture', async () => {
    const png = await (await twoTone(300, 300)).png().toBuffer();
    const goodJpeg = await (await twoTone(400, 300)).jpeg().toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#336699' } }).gif().toBuffer();
    const files: (UploadFile & { expected: string })[] = [
      { name: 'renamed.jpg', type: 'image/jpeg', bytes: png, expected: 'typeMismatch' },
      { name: 'photo.png', type: 'image/png', bytes: goodJpeg, expected: 'typeMismatch' },
      { name: 'page.jpg', type: 'image/jpeg', bytes: Buffer.from('<!doctype html><html><body>Hej</body></html>'), expected: 'notAnImage' },
      { name: 'drawing.svg', type: 'image/svg+xml', bytes: svg, expected: 'notAnImage' },
      { name: 'anim.gif', type: 'image/gif', bytes: gif, expected: 'notAnImage' },
      { name: 'cut.jpg', type: 'image/jpeg', bytes: goodJpeg.subarray(0, Math.floor(goodJpeg.length / 2)), expected: 'notAnImage' },
      { name: 'bomb.png', type: 'image/png', bytes: await pngClaiming(20_000, 20_000), expected: 'tooManyPixels' },
    ];
    const before = (await listOwn()).length;
    const response = await upload(files);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as PictureUploadAnswer & { status: number; detail: string };
    expect(problem.status).toBe(400);
    expect(problem.results.map((r) => [r.file, r.ok ? 'ok' : r.reason])).toEqual(files.map((f) => [f.name, f.expected]));
    expect(await listOwn()).toHaveLength(before);
  });

  it('refuses a file over 25 MB as tooLarge and still takes the good file beside it (200)', async () => {
    const big = Buffer.alloc(26 * 1024 * 1024, 7);
    big.set([0xff, 0xd8, 0xff, 0xe0], 0);
    const response = await upload([{ name: 'huge.jpg', type: 'image/jpeg', bytes: big }, await jpeg(500, 400)]);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as PictureUploadAnswer;
    expect(answer.results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual(['tooLarge', 'ok']);
  });

  it('accepts a picture whose name has no extension and whose type says nothing, by its content', async () => {
    const response = await upload([{ name: 'picture', type: 'application/octet-stream', bytes: (await jpeg()).bytes }]);
    expect(response.status).toBe(200);
  });

  it('answers 400 to an upload without files', async () => {
    const response = await fetch(`${server.url}/api/backend/profilepictureuploader`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
  });
});

describe('the advertiser manages pictures', () => {
  let a: BackendPicture;
  let b: BackendPicture;
  let mine: { id: number; accountId: number; cookie: string };

  beforeAll(async () => {
    mine = await advertiser('Maja');
    a = await uploadOne(mine.cookie);
    b = await uploadOne(mine.cookie);
  });

  it('makes the first picture primary and lists them in order', async () => {
    const list = await listOwn(mine.cookie);
    expect(list.map((p) => [p.id, p.isPrimary, p.sortOrder])).toEqual([
      [a.id, true, 0],
      [b.id, false, 1],
    ]);
  });

  it('sets the primary picture, reorders, and takes a picture offline', async () => {
    const primary = await api('setprimarypicture', mine.cookie, { PictureId: b.id });
    expect(primary.status).toBe(200);
    expect((primary.body as BackendPicture[]).filter((p) => p.isPrimary).map((p) => p.id)).toEqual([b.id]);

    const reordered = await api('reorderimages', mine.cookie, { Ids: [b.id, a.id] });
    expect(reordered.status).toBe(200);
    expect((reordered.body as BackendPicture[]).map((p) => p.id)).toEqual([b.id, a.id]);
    expect((await api('reorderimages', mine.cookie, { Ids: [b.id] })).status).toBe(400);
    expect((await api('reorderimages', mine.cookie, { Ids: [b.id, b.id] })).status).toBe(400);

    const offline = await api('updateimagestatus', mine.cookie, { PictureId: a.id, Online: false });
    expect(offline.status).toBe(200);
    expect(offline.body.isOnline).toBe(false);
  });

  it('answers 404 for another advertiser picture in every call, and changes nothing', async () => {
    const theirs = await uploadOne(other.cookie);
    for (const [call, body] of [
      ['updateimagestatus', { PictureId: theirs.id, Online: false }],
      ['setprimarypicture', { PictureId: theirs.id }],
      ['reorderimages', { Ids: [b.id, a.id, theirs.id] }],
      ['deleteprofilepicture', { PictureId: theirs.id }],
    ] as const) {
      const { status } = await api(call, mine.cookie, body);
      expect(status, call).toBe(404);
    }
    expect((await api('updateimagestatus', mine.cookie, { PictureId: 999_999, Online: false })).status).toBe(404);
    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, theirs.id));
    expect(row!.deletedAt).toBeNull();
    expect(row!.isOnline).toBe(true);
    expect((await listOwn(mine.cookie)).map((p) => p.id)).not.toContain(theirs.id);
  });

  it('deletes a picture and its files; the primary role moves to the next picture', async () => {
    const [before] = await server.db.select().from(pictures).where(eq(pictures.id, b.id));
    const deleted = await api('deleteprofilepicture', mine.cookie, { PictureId: b.id });
    expect(deleted.status).toBe(200);
    expect((deleted.body as BackendPicture[]).map((p) => [p.id, p.isPrimary])).toEqual([[a.id, true]]);
    const [after] = await server.db.select().from(pictures).where(eq(pictures.id, b.id));
    expect(after!.deletedAt).not.toBeNull();
    for (const variant of before!.variants) {
      expect((await fetch(`${server.url}/media/${variant.key}`)).status).toBe(404);
      expect(existsSync(path.join(server.dataDir, 'media', 'private', variant.key))).toBe(false);
    }
    expect(existsSync(path.join(server.dataDir, 'media', 'private', before!.originalKey!))).toBe(false);
    expect((await api('deleteprofilepicture', mine.cookie, { PictureId: b.id })).status).toBe(404);
  });
});

describe('support moderates pictures', () => {
  let picture: BackendPicture;
  const moderate = (call: string, cookie: string | undefined, body: unknown) => api(call, cookie, body);
  const publicPictureIds = async () => {
    const profile = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: owner.id } });
    expect(profile.status).toBe(200);
    return (profile.body.pictures as { id: number }[]).map((p) => p.id);
  };
  const cardPictureId = async () => {
    const { body } = await callApi(server.url, '/api/frontend/searchpageprofiles', { body: { PageSize: 60 } });
    const card = (body.items as ApiBody[]).find((item) => item.id === owner.id);
    expect(card).toBeDefined();
    return (card.picture?.id as number | undefined) ?? null;
  };

  beforeAll(async () => {
    picture = await uploadOne();
  });

  it('answers 401 without a support session (also to an advertiser) and 403 without the permission', async () => {
    for (const [call, body] of [
      ['approveimageitem', { Id: picture.id }],
      ['declineimageitem', { Id: picture.id, Reason: 'Utydeligt billede.' }],
      ['removeimageitem', { Id: picture.id, Reason: 'Ikke tilladt.' }],
    ] as const) {
      expect((await moderate(call, undefined, body)).status, call).toBe(401);
      expect((await moderate(call, owner.cookie, body)).status, call).toBe(401);
      expect((await moderate(call, seoCookie, body)).status, call).toBe(403);
    }
    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, picture.id));
    expect(row!.moderationStatus).toBe(0);
  });

  it('keeps a pending picture out of public view; approval shows it on the profile and the card; offline hides it', async () => {
    expect(await publicPictureIds()).not.toContain(picture.id);

    const approved = await moderate('approveimageitem', supportCookie, { Id: picture.id });
    expect(approved.status).toBe(200);
    expect(approved.body.moderation).toBe('approved');
    expect(await publicPictureIds()).toContain(picture.id);
    expect(await cardPictureId()).not.toBeNull();
    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'picture.approve'), eq(auditLog.targetId, String(picture.id))));
    expect(audit!.actorType).toBe('support');

    expect((await api('updateimagestatus', owner.cookie, { PictureId: picture.id, Online: false })).status).toBe(200);
    expect(await publicPictureIds()).not.toContain(picture.id);
    expect((await api('updateimagestatus', owner.cookie, { PictureId: picture.id, Online: true })).status).toBe(200);
    expect(await publicPictureIds()).toContain(picture.id);
  });

  it('declines with a reason (required): hidden again, the reason shown to the advertiser and in a notification', async () => {
    expect((await moderate('declineimageitem', supportCookie, { Id: picture.id })).status).toBe(400);
    const declined = await moderate('declineimageitem', supportCookie, { Id: picture.id, Reason: 'Billedet er for utydeligt.' });
    expect(declined.status).toBe(200);
    expect(declined.body.moderation).toBe('declined');
    expect(await publicPictureIds()).not.toContain(picture.id);
    const listed = (await listOwn()).find((p) => p.id === picture.id)!;
    expect(listed.declineReason).toBe('Billedet er for utydeligt.');
    const notes = await server.db.select().from(notifications).where(eq(notifications.accountId, owner.accountId));
    expect(notes.some((n) => n.bodyDa.includes('Billedet er for utydeligt.') && n.bodyEn.includes('Billedet er for utydeligt.'))).toBe(true);
    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'picture.decline'), eq(auditLog.targetId, String(picture.id))));
    expect(audit!.reason).toBe('Billedet er for utydeligt.');
  });

  it('removes a picture with its files; the advertiser is told; another id answers 404', async () => {
    const [row] = await server.db.select().from(pictures).where(eq(pictures.id, picture.id));
    const removed = await moderate('removeimageitem', supportCookie, { Id: picture.id, Reason: 'Ikke tilladt indhold.' });
    expect(removed.status).toBe(200);
    expect((await listOwn()).map((p) => p.id)).not.toContain(picture.id);
    expect((await fetch(`${server.url}/media/${row!.variants[0]!.key}`)).status).toBe(404);
    expect(existsSync(path.join(server.dataDir, 'media', 'private', row!.variants[0]!.key))).toBe(false);
    const notes = await server.db.select().from(notifications).where(eq(notifications.accountId, owner.accountId));
    expect(notes.some((n) => n.titleEn === 'A picture was removed' && n.bodyEn.includes('Ikke tilladt indhold.'))).toBe(true);
    expect((await moderate('removeimageitem', supportCookie, { Id: picture.id, Reason: 'Ikke tilladt indhold.' })).status).toBe(404);
    expect((await moderate('approveimageitem', supportCookie, { Id: 999_999 })).status).toBe(404);
  });
});

describe('a change the public cannot see publishes nothing', () => {
  // Publishing (media sync, the search row, a site rebuild) follows what the public may see, as for videos:
  // a pending, declined or offline picture's changes ask for none.
  const published = (reason: string, since: number) =>
    server.events.slice(since).filter((event) => event.type === 'content.changed' && event.reason === reason).length;
  const publicIds = async (advertId: number) => {
    const profile = await callApi(server.url, '/api/frontend/fullprofile', { query: { Id: advertId } });
    return (profile.body.pictures as { id: number }[]).map((p) => p.id);
  };

  it('deleting or taking offline a pending picture asks for no rebuild; an approved one is published at once', async () => {
    const who = await advertiser('Signe');
    const primary = await uploadOne(who.cookie);
    const pending = await uploadOne(who.cookie);
    const shown = await uploadOne(who.cookie);
    expect((await api('approveimageitem', supportCookie, { Id: shown.id })).status).toBe(200);
    expect(await publicIds(who.id)).toEqual([shown.id]);

    let since = server.events.length;
    expect((await api('updateimagestatus', who.cookie, { PictureId: pending.id, Online: false })).status).toBe(200);
    expect((await api('updateimagestatus', who.cookie, { PictureId: pending.id, Online: true })).status).toBe(200);
    expect((await api('deleteprofilepicture', who.cookie, { PictureId: pending.id })).status).toBe(200);
    expect(published('picture.online', since) + published('picture.delete', since)).toBe(0);

    since = server.events.length;
    expect((await api('updateimagestatus', who.cookie, { PictureId: shown.id, Online: false })).status).toBe(200);
    expect(published('picture.online', since)).toBe(1);
    expect(await publicIds(who.id)).toEqual([]);
    expect((await api('updateimagestatus', who.cookie, { PictureId: shown.id, Online: true })).status).toBe(200);
    expect(await publicIds(who.id)).toEqual([shown.id]);

    // The pending primary's role moves to the first picture by order: the public order stays as it was.
    since = server.events.length;
    expect((await api('deleteprofilepicture', who.cookie, { PictureId: primary.id })).status).toBe(200);
    expect(published('picture.delete', since)).toBe(0);
    expect(await publicIds(who.id)).toEqual([shown.id]);

    since = server.events.length;
    expect((await api('deleteprofilepicture', who.cookie, { PictureId: shown.id })).status).toBe(200);
    expect(published('picture.delete', since)).toBe(1);
    expect(await publicIds(who.id)).toEqual([]);
  });

  it('a new primary or order publishes only when the public order changes', async () => {
    const who = await advertiser('Lærke');
    const firstPending = await uploadOne(who.cookie);
    const otherPending = await uploadOne(who.cookie);
    const one = await uploadOne(who.cookie);
    const two = await uploadOne(who.cookie);
    for (const shown of [one, two]) expect((await api('approveimageitem', supportCookie, { Id: shown.id })).status).toBe(200);
    expect(await publicIds(who.id)).toEqual([one.id, two.id]);
    const changes = async (call: string, body: unknown) => {
      const since = server.events.length;
      expect((await api(call, who.cookie, body)).status, call).toBe(200);
      return server.events.slice(since).filter((event) => event.type === 'content.changed').length;
    };

    // Only pending pictures move, or the primary role goes from one pending picture to another: nothing public changes.
    expect(await changes('reorderimages', { Ids: [otherPending.id, one.id, firstPending.id, two.id] })).toBe(0);
    expect(await changes('setprimarypicture', { PictureId: otherPending.id })).toBe(0);
    expect(await publicIds(who.id)).toEqual([one.id, two.id]);

    expect(await changes('reorderimages', { Ids: [two.id, otherPending.id, one.id, firstPending.id] })).toBe(1);
    expect(await publicIds(who.id)).toEqual([two.id, one.id]);
    expect(await changes('setprimarypicture', { PictureId: one.id })).toBe(1);
    expect(await publicIds(who.id)).toEqual([one.id, two.id]);
    // A pending picture taking the role from a shown one: the shown one falls back to its place.
    expect(await changes('setprimarypicture', { PictureId: firstPending.id })).toBe(1);
    expect(await publicIds(who.id)).toEqual([two.id, one.id]);
  });

  it("support's decline of a pending picture publishes nothing; its approval and the removal of a shown one do", async () => {
    const who = await advertiser('Vera');
    await uploadOne(who.cookie);
    const declined = await uploadOne(who.cookie);
    const shown = await uploadOne(who.cookie);

    let since = server.events.length;
    expect((await api('declineimageitem', supportCookie, { Id: declined.id, Reason: 'Billedet er for utydeligt.' })).status).toBe(200);
    expect(published('picture.decline', since)).toBe(0);

    since = server.events.length;
    expect((await api('approveimageitem', supportCookie, { Id: shown.id })).status).toBe(200);
    expect(published('picture.approve', since)).toBe(1);
    expect(await publicIds(who.id)).toEqual([shown.id]);

    since = server.events.length;
    expect((await api('removeimageitem', supportCookie, { Id: shown.id, Reason: 'Ikke tilladt indhold.' })).status).toBe(200);
    expect(published('picture.remove', since)).toBe(1);
    expect(await publicIds(who.id)).toEqual([]);
  });
});

describe('the limit of pictures per advert', () => {
  it('refuses files beyond picturesPerAdvert as tooManyPictures', async () => {
    const full = await advertiser('Alma');
    const rows = Array.from({ length: 29 }, (_, n) => ({
      advertId: full.id,
      storageKey: `pictures/${full.id}/filler-${n}`,
      variants: [],
      sortOrder: n,
    }));
    await server.db.insert(pictures).values(rows);
    const response = await upload([await jpeg(400, 300), await jpeg(400, 300)], full.cookie);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as PictureUploadAnswer;
    expect(answer.results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual(['ok', 'tooManyPictures']);
  });
});
