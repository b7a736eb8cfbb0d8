import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type DatabaseHandle, type Db } from '#server/db/client.ts';
import {
  accounts,
  adverts,
  advertServices,
  cities,
  landingPages,
  orders,
  languages,
  nationalities,
  pictures,
  products,
  regions,
  salesDocuments,
  services,
  siteSettings,
  subscriptions,
  type MediaVariant,
} from '#server/db/schema.ts';
import { isSeeded, seedDemo } from '#server/db/seed/seed-demo.ts';
import { advertStatusChanges } from '#server/domain/statistics/figures.ts';
import { isoDayOf } from '#lib/format.ts';
import { issueDemoReceipts, refundDemoOrder } from '#server/domain/commerce/demo-documents.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { ageOn } from '#lib/schemas/account.ts';

const SITE_URL = 'http://localhost:4321';
const DAY = 86_400_000;

async function freshDatabase(): Promise<DatabaseHandle> {
  const handle = await openDatabase({ pgliteDir: 'memory://' });
  await migrateDatabase(handle);
  return handle;
}

async function referenceCounts(db: Db) {
  const tables = { siteSettings, regions, cities, languages, nationalities, services, products };
  const entries = await Promise.all(
    Object.entries(tables).map(async ([name, table]) => {
      const [row] = await db.select({ n: count() }).from(table);
      return [name, row?.n ?? 0] as const;
    }),
  );
  return Object.fromEntries(entries);
}

async function advertSummary(db: Db) {
  return db
    .select({ name: adverts.name, title: adverts.title, age: adverts.age, kind: adverts.kind, cityId: adverts.cityId })
    .from(adverts)
    .orderBy(asc(adverts.id));
}

describe('seeding', () => {
  let handle: DatabaseHandle;
  let mediaDir: string;
  let demoResult: { adverts: number; pictures: number };

  beforeAll(async () => {
    mediaDir = await mkdtemp(path.join(os.tmpdir(), 'seed-media-'));
    handle = await freshDatabase();
    expect(await isSeeded(handle.db)).toBe(false);
    await seedReference(handle.db, { siteUrl: SITE_URL });
    demoResult = await seedDemo(handle.db, { adverts: 40, mediaDir });
  });

  afterAll(async () => {
    await handle?.close();
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
  });

  it('stores the site settings, and isSeeded notices them', async () => {
    expect(await isSeeded(handle.db)).toBe(true);
    const [settings] = await handle.db.select().from(siteSettings);
    expect(settings).toMatchObject({ siteName: 'Annoncekatalog', siteUrl: SITE_URL, companyVat: 'DK12345678' });
  });

  it('stores the five regions, each with cities whose slugs follow the URL rules', async () => {
    const regionRows = await handle.db.select().from(regions);
    expect(regionRows).toHaveLength(5);
    const cityRows = await handle.db.select().from(cities);
    for (const region of regionRows) {
      expect(region.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(cityRows.filter((city) => city.regionId === region.id).length).toBeGreaterThan(0);
    }
    for (const city of cityRows) expect(city.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const copenhagen = cityRows.find((city) => city.name === 'København');
    expect(copenhagen?.slug).toBe('koebenhavn');
  });

  it('prices the products in øre', async () => {
    const rows = await handle.db.select().from(products).orderBy(asc(products.sortOrder));
    expect(rows.map((p) => [p.type, p.days, p.priceOre])).toEqual([
      [1, 30, 49_900],
      [1, 90, 119_900],
      [2, 7, 19_900],
      [3, 7, 14_900],
      [1, 30, 49_900],
    ]);
    expect(rows.at(-1)).toMatchObject({ code: 'membership-30-recurring', recurring: true });
  });

  it('is idempotent for reference data', async () => {
    const before = await referenceCounts(handle.db);
    await seedReference(handle.db, { siteUrl: SITE_URL });
    expect(await referenceCounts(handle.db)).toEqual(before);
  });

  it('creates the requested adverts across all three kinds, with services matching the kind', async () => {
    expect(demoResult.adverts).toBe(40);
    const rows = await handle.db.select().from(adverts);
    expect(rows).toHaveLength(40);
    expect(rows.some((a) => a.kind === 0 && a.gender === 1)).toBe(true);
    expect(rows.some((a) => a.kind === 0 && a.gender === 5)).toBe(true);
    expect(rows.some((a) => a.kind === 1)).toBe(true);
    expect(new Set(rows.map((a) => a.regionId)).size).toBe(5);
    expect(rows.filter((a) => a.status === 1).length).toBeGreaterThan(30);
    expect(rows.some((a) => a.status === 0 && a.approvedAt === null && a.pendingChanges !== null)).toBe(true);
    for (const advert of rows) {
      expect(advert.age).toBeGreaterThanOrEqual(20);
      expect(advert.age).toBeLessThanOrEqual(55);
      expect(advert.phone).toMatch(/^2\d{7}$/);
      expect(advert.titleEn).toBeTruthy();
    }

    const thaiServiceTypes = await handle.db
      .selectDistinct({ type: services.type })
      .from(advertServices)
      .innerJoin(services, eq(services.id, advertServices.serviceId))
      .innerJoin(adverts, eq(adverts.id, advertServices.advertId))
      .where(eq(adverts.kind, 1));
    expect(thaiServiceTypes.map((row) => row.type)).toEqual([4]);
  });

  it('gives every demo advertiser a date of birth that matches the advert age', async () => {
    const rows = await handle.db
      .select({ dateOfBirth: accounts.dateOfBirth, age: adverts.age })
      .from(adverts)
      .innerJoin(accounts, eq(accounts.id, adverts.accountId));
    const today = new Date();
    for (const row of rows) expect(ageOn(row.dateOfBirth!, today)).toBe(row.age);
  });

  it('writes real WebP pictures to disk, one primary per advert', async () => {
    const rows = await handle.db.select().from(pictures);
    expect(rows.length).toBe(demoResult.pictures);
    expect(rows.length).toBeGreaterThanOrEqual(40 * 3);
    const primaries = await handle.db
      .select({ advertId: pictures.advertId, n: count() })
      .from(pictures)
      .where(eq(pictures.isPrimary, true))
      .groupBy(pictures.advertId);
    expect(primaries).toHaveLength(40);
    expect(primaries.every((row) => row.n === 1)).toBe(true);

    // Every picture has files of its own under its own names (the later ones repeat a rendered one's bytes).
    expect(new Set(rows.map((row) => row.storageKey)).size).toBe(rows.length);
    expect(new Set(rows.map((row) => row.publicKey)).size).toBe(rows.length);
    for (const picture of [...rows.slice(0, 12), ...rows.slice(-12)]) {
      expect(picture.storageKey).toMatch(new RegExp(`^pictures/${picture.advertId}/[0-9a-f-]{36}$`));
      expect(picture.moderationStatus).toBe(1);
      const variants = picture.variants as MediaVariant[];
      expect(variants.map((v) => v.width)).toEqual([320, 640]);
      // Masters private, the approved picture's copies published under its public key (docs/decisions/013).
      expect(picture.publicKey).toMatch(new RegExp(`^pictures/${picture.advertId}/[0-9a-f-]{36}$`));
      expect(picture.publicKey).not.toBe(picture.storageKey);
      for (const variant of variants) {
        expect((await stat(path.join(mediaDir, 'public', `${picture.publicKey}-${variant.width}.webp`))).size).toBeGreaterThan(0);
        const file = path.join(mediaDir, 'private', variant.key);
        expect((await stat(file)).size).toBeGreaterThan(0);
        const metadata = await sharp(file).metadata();
        expect(metadata.format).toBe('webp');
        expect(metadata.width).toBe(variant.width);
        expect(metadata.height).toBe(Math.round((variant.width * 4) / 3));
      }
    }
  });

  it('adds articles, service pages and an index page in both languages', async () => {
    const rows = await handle.db
      .select({ type: landingPages.type, locale: landingPages.locale, n: count() })
      .from(landingPages)
      .groupBy(landingPages.type, landingPages.locale);
    const [serviceCount] = await handle.db.select({ n: count() }).from(services);
    const n = (type: string, locale: string) => rows.find((r) => r.type === type && r.locale === locale)?.n;
    for (const locale of ['da', 'en']) {
      expect(n('article', locale)).toBe(4);
      expect(n('service', locale)).toBe(serviceCount?.n);
      expect(n('index', locale)).toBe(1);
    }
    const words = await handle.db
      .select({ words: sql<number>`array_length(regexp_split_to_array(trim(${landingPages.body}), '\\s+'), 1)` })
      .from(landingPages)
      .where(eq(landingPages.type, 'article'));
    for (const row of words) {
      expect(row.words).toBeGreaterThanOrEqual(300);
      expect(row.words).toBeLessThanOrEqual(600);
    }
  });

  it('gives the oldest demo orders a receipt each, numbered without gaps, once', async () => {
    expect(await issueDemoReceipts(handle.db, { limit: 5 })).toBe(5);
    const receipts = await handle.db.select().from(salesDocuments).orderBy(asc(salesDocuments.number));
    expect(receipts.map((r) => [r.kind, r.number])).toEqual([1, 2, 3, 4, 5].map((n) => ['receipt', n]));
    expect(new Set(receipts.map((r) => r.orderId)).size).toBe(5);
    expect(receipts[0]!.lines[0]!.periodStart).not.toBeNull();
    expect(receipts[0]!.totalOre).toBe(receipts[0]!.netOre + receipts[0]!.vatOre);
    expect(await issueDemoReceipts(handle.db, { limit: 2 })).toBe(2);
    const [after] = await handle.db.select({ n: count() }).from(salesDocuments);
    expect(after?.n).toBe(7);
  });

  it('shows packages running out within 3 days and run out, a renewing membership, and a refund with its credit note', async () => {
    const now = Date.now();
    const approved = await handle.db.select({ id: adverts.id, expirationDate: adverts.expirationDate, status: adverts.status }).from(adverts).where(isNotNull(adverts.approvedAt));
    const soon = approved.filter((a) => a.expirationDate && a.expirationDate.getTime() > now && a.expirationDate.getTime() <= now + 3 * DAY);
    const expired = approved.filter((a) => a.expirationDate && a.expirationDate.getTime() < now);
    expect(soon.length).toBeGreaterThanOrEqual(1);
    expect(expired.length).toBeGreaterThanOrEqual(1);

    const renewing = await handle.db
      .select({ subscription: subscriptions, order: orders, product: products })
      .from(subscriptions)
      .innerJoin(orders, eq(orders.subscriptionId, subscriptions.id))
      .innerJoin(products, eq(products.id, subscriptions.productId));
    expect(renewing).toHaveLength(1);
    const [{ subscription, order, product }] = renewing as [(typeof renewing)[number]];
    expect(subscription.status).toBe(0);
    expect(product).toMatchObject({ code: 'membership-30-recurring', recurring: true });
    expect(subscription.nextChargeOn!.getTime()).toBeGreaterThan(now + 3 * DAY);
    expect(subscription.nextChargeOn!.getTime()).toBeLessThan(now + 5 * DAY);
    expect(order).toMatchObject({ status: 1, advertId: subscription.advertId });

    expect(await refundDemoOrder(handle.db)).toBe(true);
    expect(await refundDemoOrder(handle.db)).toBe(false);
    const [refunded] = await handle.db.select().from(orders).where(eq(orders.status, 4));
    expect(refunded!.referenceId).toMatch(/^TEST-PAY-DEMO-\d+-R$/);
    const documents = await handle.db.select().from(salesDocuments).where(eq(salesDocuments.orderId, refunded!.id)).orderBy(asc(salesDocuments.number));
    expect(documents.map((d) => d.kind)).toEqual(['receipt', 'credit_note']);
    expect(documents[1]).toMatchObject({ refersTo: documents[0]!.id, totalOre: documents[0]!.totalOre });
  });

  it('records each approved demo advert going live, which support\'s statistics count (issue 31, item 8)', async () => {
    const approved = await handle.db.select({ id: adverts.id, approvedAt: adverts.approvedAt }).from(adverts).where(isNotNull(adverts.approvedAt));
    expect(approved.length).toBeGreaterThan(0);
    const start = new Date(Math.min(...approved.map((a) => a.approvedAt!.getTime())) - DAY);
    const end = new Date(Date.now() + DAY);
    const range = { from: isoDayOf(start), to: isoDayOf(end), start, end };
    const live = await advertStatusChanges(handle.db, 'all', range);
    expect(live.reduce((sum, figure) => sum + figure.live, 0)).toBe(approved.length);
  });

  it('does nothing when run a second time', async () => {
    const again = await seedDemo(handle.db, { adverts: 40, mediaDir });
    expect(again).toEqual({ adverts: 0, pictures: 0 });
    const [row] = await handle.db.select({ n: count() }).from(adverts);
    expect(row?.n).toBe(40);
  });

  it('is deterministic: the same seed gives the same adverts', async () => {
    const other = await freshDatabase();
    const otherMedia = await mkdtemp(path.join(os.tmpdir(), 'seed-media-'));
    try {
      await seedReference(other.db, { siteUrl: SITE_URL });
      await seedDemo(other.db, { adverts: 40, mediaDir: otherMedia });
      expect(await advertSummary(other.db)).toEqual(await advertSummary(handle.db));
    } finally {
      await other.close();
      await rm(otherMedia, { recursive: true, force: true });
    }
  });
});
