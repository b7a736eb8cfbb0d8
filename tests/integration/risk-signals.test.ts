/**
 * Risk signals (issue 6 "Moderation"), over real HTTP: words that suggest a minor block an advertiser's
 * texts and the list is edited by Support only; the same phone and the same picture (perceptual hash)
 * on two accounts flag the adverts in support's review (they never decide alone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { adverts } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, callApi, createAdvertiser, type AdvertiserFixture } from '#tests/support/fixtures.ts';
import { call, profileInput, uniquePhone } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';
import { uploadFiles } from './pictures-helpers.ts';
import { supportApi } from './verification-helpers.ts';

let server: TestServer;
let supportCookie: string;
let seoCookie: string;

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  supportCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'] }));
  seoCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['SEO'] }));
});
afterAll(async () => {
  await server?.close();
});

async function advertiser(name: string, fixture: AdvertiserFixture = {}) {
  const created = await createAdvertiser(server.db, { name, phone: uniquePhone(), ...fixture });
  return { advertId: created.id, accountId: created.accountId, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

const fieldsOf = (body: { errors?: { field: string; message: string }[] }) => Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));
const riskOf = async (advertId: number) => {
  const { status, body } = await supportApi(server, 'reviewadvert', supportCookie, { query: { Id: advertId } });
  expect(status).toBe(200);
  return body as { risk: string[]; riskDetails: { words: string[]; samePhoneAdvertIds: number[]; samePictureAdvertIds: number[] } };
};

async function basicForm(advertId: number, overrides: Record<string, unknown>) {
  const [row] = await server.db.select().from(adverts).where(eq(adverts.id, advertId));
  return {
    Name: row!.name,
    Title: row!.title,
    Introduction: row!.introduction,
    Description: row!.description,
    Phone: row!.phone,
    HasWhatsapp: false,
    Website: '',
    RegionId: row!.regionId,
    CityId: row!.cityId,
    ...overrides,
  };
}

describe('words that suggest a minor', () => {
  it('block the advertiser’s save with forbiddenWords at each field, in Danish texts; other texts pass', async () => {
    const who = await advertiser('Lise Ord');
    const refused = await callApi(server.url, '/api/backend/basicinformation', {
      cookie: who.cookie,
      body: await basicForm(who.advertId, { Title: 'Frisk SKOLEPIGE i byen', Description: 'Ung  pige søger selskab.' }),
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(fieldsOf(refused.body)).toEqual({ Title: 'forbiddenWords', Description: 'forbiddenWords' });
    // Nothing was saved, nothing waits.
    const [row] = await server.db.select().from(adverts).where(eq(adverts.id, who.advertId));
    expect(row!.pendingChanges).toBeNull();

    // A word inside another word, or a number running on, is not the word.
    const fine = await callApi(server.url, '/api/backend/basicinformation', {
      cookie: who.cookie,
      body: await basicForm(who.advertId, { Title: 'Kaffe i kantinen (canteen)', Description: 'Jeg er under 180 cm.' }),
    });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
  });

  it('block a sign-up (createprofile) whose advert name has one, keeping nothing', async () => {
    const input = await profileInput(server, { Name: 'Skolepigen Sofie' });
    const refused = await call(server, '/api/frontend/createprofile', { body: input });
    expect(refused.status).toBe(400);
    expect(fieldsOf(await refused.json())).toEqual({ Name: 'forbiddenWords' });
    const [made] = await server.db.select().from(adverts).where(eq(adverts.name, 'Skolepigen Sofie'));
    expect(made).toBeUndefined();
  });

  it('are a list Support edits (SEO may not); a word added blocks saves and flags adverts that already have it', async () => {
    const list = await supportApi(server, 'riskwords', supportCookie);
    expect(list.status).toBe(200);
    expect(list.body.map((w: { word: string }) => w.word)).toEqual(expect.arrayContaining(['skolepige', 'ung pige', 'under 18', 'teen', 'schoolgirl', 'barely legal']));
    expect((await supportApi(server, 'riskwords', seoCookie)).status).toBe(403);
    expect((await supportApi(server, 'riskwords', undefined)).status).toBe(401);
    expect((await supportApi(server, 'riskwords', seoCookie, { body: { Word: 'lolita' } })).status).toBe(403);

    const flaggedLater = await advertiser('Annonce Lolita-stil');
    expect((await riskOf(flaggedLater.advertId)).risk).toEqual([]);
    const added = await supportApi(server, 'riskwords', supportCookie, { body: { Word: '  Lolita ' } });
    expect(added.status).toBe(201);
    const word = added.body.find((w: { word: string }) => w.word === 'lolita');
    expect(word).toMatchObject({ addedBy: { id: expect.any(Number) } });
    const again = await supportApi(server, 'riskwords', supportCookie, { body: { Word: 'lolita' } });
    expect(again.status).toBe(409);
    expect(fieldsOf(again.body)).toEqual({ Word: 'duplicate' });
    const bad = await supportApi(server, 'riskwords', supportCookie, { body: { Word: '<script>' } });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual({ Word: 'invalid' });

    expect(await riskOf(flaggedLater.advertId)).toMatchObject({ risk: ['minorWords'], riskDetails: { words: ['lolita'] } });
    const who = await advertiser('Maja Ord');
    const refused = await callApi(server.url, '/api/backend/basicinformation', {
      cookie: who.cookie,
      body: await basicForm(who.advertId, { Name: 'Lolita' }),
    });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused.body)).toEqual({ Name: 'forbiddenWords' });

    expect((await supportApi(server, 'removeriskword', seoCookie, { body: { Id: word.id } })).status).toBe(403);
    const removed = await supportApi(server, 'removeriskword', supportCookie, { body: { Id: word.id } });
    expect(removed.status).toBe(200);
    expect(removed.body.some((w: { word: string }) => w.word === 'lolita')).toBe(false);
    expect((await supportApi(server, 'removeriskword', supportCookie, { body: { Id: word.id } })).status).toBe(404);
    const allowed = await callApi(server.url, '/api/backend/basicinformation', { cookie: who.cookie, body: await basicForm(who.advertId, { Name: 'Lolita' }) });
    expect(allowed.status).toBe(200);
  });
});

describe('the same phone on several accounts', () => {
  it('flags both adverts; a phone of the same account’s own advert or nobody else’s does not', async () => {
    const phone = uniquePhone();
    const first = await advertiser('Telefon En', { phone });
    const second = await advertiser('Telefon To', { phone });
    const alone = await advertiser('Telefon Alene');
    expect(await riskOf(first.advertId)).toMatchObject({ risk: ['samePhone'], riskDetails: { samePhoneAdvertIds: [second.advertId] } });
    expect((await riskOf(second.advertId)).risk).toEqual(['samePhone']);
    expect((await riskOf(alone.advertId)).risk).toEqual([]);
  });
});

describe('the same picture on several accounts', () => {
  /** A grey gradient (darker to the right or to the left): the two directions have opposite dHashes. */
  const gradient = async (toRight: boolean, width = 900, height = 800) => {
    const data = Buffer.alloc(width * height);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) data[y * width + x] = Math.round((toRight ? width - x : x) * (255 / width));
    }
    return { name: 'billede.jpg', type: 'image/jpeg', bytes: await sharp(data, { raw: { width, height, channels: 1 } }).jpeg().toBuffer() };
  };
  const upload = async (cookie: string, file: Awaited<ReturnType<typeof gradient>>) => {
    const response = await uploadFiles(server.url, '/api/backend/profilepictureuploader', [file], cookie);
    expect(response.status, await response.clone().text()).toBe(200);
  };

  it('flags both accounts’ adverts (also a resized copy); a different picture is not flagged', async () => {
    const first = await advertiser('Billede En', { pictureCount: 0 });
    const second = await advertiser('Billede To', { pictureCount: 0 });
    const other = await advertiser('Billede Andet', { pictureCount: 0 });
    await upload(first.cookie, await gradient(true));
    await upload(second.cookie, await gradient(true, 600, 533));
    await upload(other.cookie, await gradient(false));

    expect(await riskOf(first.advertId)).toMatchObject({ risk: ['samePicture'], riskDetails: { samePictureAdvertIds: [second.advertId] } });
    expect((await riskOf(second.advertId)).risk).toEqual(['samePicture']);
    expect((await riskOf(other.advertId)).risk).toEqual([]);

    // The media queue puts them first.
    const { body } = await supportApi(server, 'reviewqueue', supportCookie, { query: { Kind: 'media', Take: 200 } });
    const ids = body.items.map((i: { advertId: number }) => i.advertId);
    expect(ids.indexOf(other.advertId)).toBeGreaterThan(ids.indexOf(first.advertId));
    expect(ids.indexOf(other.advertId)).toBeGreaterThan(ids.indexOf(second.advertId));
    expect(body.items.find((i: { advertId: number }) => i.advertId === first.advertId).pendingPictures).toBe(1);
  });
});
