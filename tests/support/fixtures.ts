import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { hashPassword } from '#server/domain/accounts/passwords.ts';
import { createSession } from '#server/domain/accounts/sessions.ts';
import { sessionCookieName } from '#server/api/http.ts';
import { refreshAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import {
  accounts,
  advertLanguages,
  advertServices,
  adverts,
  cities,
  languages,
  nationalities,
  pictures,
  regions,
  reviews,
  services,
  videos,
  type NewAdvert,
} from '#server/db/schema.ts';

const DAY = 86_400_000;

export type AdvertFixture = Partial<NewAdvert> & {
  city?: string;
  languageCodes?: string[];
  serviceSlugs?: string[];
  nationalityCode?: string;
  pictureCount?: number;
  approvedReviews?: number;
  video?: boolean;
};

/** A public advert (unless overridden) with its own account; unique values each call. */
export async function createAdvert(db: Db, fixture: AdvertFixture = {}): Promise<{ id: number; accountId: number; name: string }> {
  const unique = randomUUID().slice(0, 8);
  const [account] = await db
    .insert(accounts)
    .values({ email: `advertiser-${unique}@example.test`, passwordHash: '!not-a-hash', activatedAt: new Date(Date.now() - DAY) })
    .returning();
  const [city] = await db
    .select({ id: cities.id, regionId: cities.regionId })
    .from(cities)
    .where(eq(cities.name, fixture.city ?? 'København'));
  const [nationality] = fixture.nationalityCode
    ? await db.select().from(nationalities).where(eq(nationalities.code, fixture.nationalityCode))
    : [];
  const past = new Date(Date.now() - DAY);
  const { city: _city, languageCodes, serviceSlugs, nationalityCode: _n, pictureCount, approvedReviews, video, ...columns } = fixture;
  const name = columns.name ?? `Testannonce ${unique}`;
  const [advert] = await db
    .insert(adverts)
    .values({
      accountId: account!.id,
      kind: 0,
      gender: 1,
      status: 1,
      approvedAt: past,
      ageVerifiedAt: past,
      expirationDate: new Date(Date.now() + 30 * DAY),
      slug: unique,
      title: 'En rolig aften',
      introduction: 'Venlig og diskret.',
      description: 'Ring for en aftale.',
      regionId: city!.regionId,
      cityId: city!.id,
      age: 30,
      height: 170,
      weight: 60,
      nationalityId: nationality?.id ?? null,
      phone: '20304050',
      ...columns,
      name,
    })
    .returning();
  for (const code of languageCodes ?? []) {
    const [language] = await db.select().from(languages).where(eq(languages.code, code));
    await db.insert(advertLanguages).values({ advertId: advert!.id, languageId: language!.id });
  }
  for (const slug of serviceSlugs ?? []) {
    const [service] = await db.select().from(services).where(eq(services.slug, slug));
    await db.insert(advertServices).values({ advertId: advert!.id, serviceId: service!.id });
  }
  for (let n = 0; n < (pictureCount ?? 1); n += 1) {
    const key = `pictures/${advert!.id}/${randomUUID()}`;
    await db.insert(pictures).values({
      advertId: advert!.id,
      storageKey: key,
      variants: [{ width: 320, height: 427, format: 'webp', key: `${key}-320.webp` }],
      // Rows only (no files): an approved picture as if published (docs/decisions/013).
      publicKey: `pictures/${advert!.id}/${randomUUID()}`,
      width: 320,
      height: 427,
      isPrimary: n === 0,
      moderationStatus: 1,
      sortOrder: n,
    });
  }
  for (let n = 0; n < (approvedReviews ?? 0); n += 1) {
    await db.insert(reviews).values({ advertId: advert!.id, authorName: 'Anna', rating: 5, text: 'Meget punktlig.', status: 1 });
  }
  if (video) {
    await db.insert(videos).values({ advertId: advert!.id, storageKey: `videos/${advert!.id}/v`, videoKey: `videos/${advert!.id}/v.mp4`, posterKey: `videos/${advert!.id}/v-poster.webp`, publicKey: `videos/${advert!.id}/${randomUUID()}`, status: 2, moderationStatus: 1 });
  }
  await refreshAdvertSearch(db, [advert!.id], new Date());
  return { id: advert!.id, accountId: account!.id, name };
}

export async function regionSlugOf(db: Db, cityName: string): Promise<{ region: string; city: string }> {
  const [row] = await db
    .select({ region: regions.slug, city: cities.slug })
    .from(cities)
    .innerJoin(regions, eq(regions.id, cities.regionId))
    .where(eq(cities.name, cityName));
  return row!;
}

export type AdvertiserFixture = AdvertFixture & { password?: string; emailVerified?: boolean; phoneVerified?: boolean };

/**
 * An advertiser who can sign in: an advert (public unless overridden, see createAdvert) whose account
 * has a real password (argon2id) and, unless told otherwise, a verified email and phone.
 */
export async function createAdvertiser(
  db: Db,
  fixture: AdvertiserFixture = {},
): Promise<{ id: number; accountId: number; name: string; email: string; password: string }> {
  const { password = `pw-${randomUUID()}`, emailVerified = true, phoneVerified = true, ...advertFixture } = fixture;
  const advert = await createAdvert(db, advertFixture);
  const [account] = await db
    .update(accounts)
    .set({
      passwordHash: await hashPassword(password),
      emailVerifiedAt: emailVerified ? new Date(Date.now() - DAY) : null,
      phoneVerifiedAt: phoneVerified ? new Date(Date.now() - DAY) : null,
    })
    .where(eq(accounts.id, advert.accountId))
    .returning();
  return { ...advert, email: account!.email, password };
}

/**
 * A session for an advertiser without going through login (whose rate limit allows 10 sign-ins a
 * minute): the Cookie header value to send, as the browser would after signing in.
 */
export async function advertiserSessionCookie(db: Db, accountId: number): Promise<string> {
  const session = await createSession(db, { accountId }, { days: 1, now: new Date() });
  return `${sessionCookieName('advertiser', false)}=${session.token}`;
}

/** A parsed JSON answer; tests read it field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes, checked by the tests' expectations
export type ApiBody = any;

/** One API call over HTTP: JSON in, the status and the parsed body (JSON or problem+json) out. */
export async function callApi(
  baseUrl: string,
  path: string,
  options: { method?: 'GET' | 'POST'; body?: unknown; query?: Record<string, string | number>; cookie?: string } = {},
): Promise<{ status: number; body: ApiBody; headers: Headers }> {
  const url = new URL(path, baseUrl);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const response = await fetch(url, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: ApiBody = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, body, headers: response.headers };
}
