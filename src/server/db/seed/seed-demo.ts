/**
 * Demo content for development, demos and tests: fictional, non-explicit adverts with generated abstract
 * pictures (gradients and shapes, never people), reviews, orders, articles, service pages and news.
 *
 * Deterministic: every choice comes from a seeded PRNG (mulberry32(42) unless `random` is given), so the
 * same seed gives the same names, texts and attributes. Dates are relative to the time of seeding, and
 * picture file names are random UUIDs.
 *
 * Requires the reference seed (seedReference). Does nothing when demo data is already present.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { isoDayOf, slugify } from '#lib/format.ts';
import { vatOf } from '#lib/money.ts';
import type { Db } from '../client.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import { mulberry32 } from '../../seeded-random.ts';
import {
  accounts,
  advertLanguages,
  auditLog,
  adverts,
  advertServices,
  blacklistEntries,
  cities,
  extraPriceItems,
  landingPages,
  languages,
  nationalities,
  news,
  notifications,
  orders,
  pairedKeywords,
  pictures,
  priceListItems,
  products,
  promotions,
  regions,
  reviews,
  scheduleEntries,
  searchKeywords,
  searchTermDays,
  services,
  siteSettings,
  subscriptions,
  supportUsers,
  verifications,
  type MediaVariant,
  type NewAdvert,
  type PendingChanges,
} from '../schema.ts';
import * as reference from './reference-data.ts';

export type SeedDemoOptions = {
  /** Media root; pictures go to `${mediaDir}/public/pictures/{advertId}/{uuid}-{width}.webp`. */
  mediaDir: string;
  /** Number of adverts (default 320). */
  adverts?: number;
  /** A PRNG returning [0, 1); default mulberry32(42). */
  random?: () => number;
  /**
   * 'per-picture' (default): every picture has files of its own under its own names, as uploads have;
   * the first RENDERED_PICTURES are rendered and the others are hard links to their bytes (rendering all
   * 1,457 pictures of the demo took 44 of the 66 seconds a first `npm start` waited; a link costs nothing,
   * and deleting one picture leaves the others' files). 'shared': render a pool once and let every
   * advert's picture rows point at its files (the 50,000-advert benchmark: 200,000 files of links would
   * still take long).
   */
  pictureFiles?: 'per-picture' | 'shared';
};

const SHARED_POOL_SIZE = 48;
/** Pictures rendered for the demo; the others repeat their bytes under names of their own. */
const RENDERED_PICTURES = 120;

export const DEMO_PASSWORD = 'demo-password';
export const DEMO_SUPPORT_EMAIL = 'support@example.invalid';

const DAY = 86_400_000;
const PICTURE_WIDTHS = [320, 640] as const;
const PICTURE_CONCURRENCY = 4;
const CHUNK = 500;

/** True when the reference seed has run (the site settings row exists). */
export async function isSeeded(db: Db): Promise<boolean> {
  const rows = await db.select({ id: siteSettings.id }).from(siteSettings).limit(1);
  return rows.length > 0;
}

type Random = {
  next: () => number;
  int: (min: number, max: number) => number;
  chance: (p: number) => boolean;
  pick: <T>(items: readonly T[]) => T;
  sample: <T>(items: readonly T[], count: number) => T[];
  shuffle: <T>(items: readonly T[]) => T[];
  weighted: <T>(items: readonly (readonly [T, number])[]) => T;
};

function makeRandom(next: () => number): Random {
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  };
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    sample: (items, count) => shuffle(items).slice(0, Math.min(count, items.length)),
    shuffle,
    weighted: (items) => {
      const total = items.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [item, w] of items) {
        r -= w;
        if (r < 0) return item;
      }
      return (items[items.length - 1] as readonly [never, number])[0];
    },
  };
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function runBounded<T>(items: readonly T[], limit: number, worker: (item: T) => Promise<void>): Promise<void> {
  let index = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (index < items.length) {
      const item = items[index] as T;
      index += 1;
      await worker(item);
    }
  });
  await Promise.all(lanes);
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const hhmm = (hour: number, minute = 0) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

// ---------------------------------------------------------------------------------------------
// Pictures: abstract compositions (gradients, circles, rectangles, blobs), 3:4
// ---------------------------------------------------------------------------------------------

const SVG_WIDTH = 640;
const SVG_HEIGHT = Math.round((SVG_WIDTH * 4) / 3);

function hsl(h: number, s: number, l: number): string {
  return `hsl(${Math.round(((h % 360) + 360) % 360)},${Math.round(s)}%,${Math.round(l)}%)`;
}

function blobPath(r: Random, cx: number, cy: number, radius: number): string {
  const points = r.int(5, 8);
  const pts = Array.from({ length: points }, (_, i) => {
    const angle = (i / points) * Math.PI * 2;
    const rr = radius * (0.65 + r.next() * 0.5);
    return [cx + Math.cos(angle) * rr, cy + Math.sin(angle) * rr] as const;
  });
  const mid = (a: readonly [number, number], b: readonly [number, number]) =>
    [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] as const;
  const first = pts[0] as readonly [number, number];
  const last = pts[pts.length - 1] as readonly [number, number];
  const start = mid(last, first);
  let d = `M${start[0].toFixed(1)},${start[1].toFixed(1)}`;
  for (let i = 0; i < pts.length; i += 1) {
    const p = pts[i] as readonly [number, number];
    const n = pts[(i + 1) % pts.length] as readonly [number, number];
    const m = mid(p, n);
    d += ` Q${p[0].toFixed(1)},${p[1].toFixed(1)} ${m[0].toFixed(1)},${m[1].toFixed(1)}`;
  }
  return `${d} Z`;
}

/** An abstract, people-free composition as SVG. */
export function demoPictureSvg(r: Random): string {
  const w = SVG_WIDTH;
  const h = SVG_HEIGHT;
  const hue = r.int(0, 359);
  const hue2 = hue + r.int(30, 150) * (r.chance(0.5) ? 1 : -1);
  const angle = r.int(0, 3);
  const [x1, y1, x2, y2] = [
    ['0', '0', '1', '1'],
    ['1', '0', '0', '1'],
    ['0', '0', '0', '1'],
    ['0', '0', '1', '0'],
  ][angle] as string[];
  const parts: string[] = [];
  parts.push(
    `<defs><linearGradient id="bg" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">` +
      `<stop offset="0" stop-color="${hsl(hue, r.int(45, 75), r.int(62, 80))}"/>` +
      `<stop offset="1" stop-color="${hsl(hue2, r.int(40, 70), r.int(28, 48))}"/></linearGradient>` +
      `<radialGradient id="glow" cx="${r.int(20, 80)}%" cy="${r.int(15, 60)}%" r="60%">` +
      `<stop offset="0" stop-color="#fff" stop-opacity="0.45"/><stop offset="1" stop-color="#fff" stop-opacity="0"/>` +
      `</radialGradient></defs>`,
  );
  parts.push(`<rect width="${w}" height="${h}" fill="url(#bg)"/>`);
  parts.push(`<rect width="${w}" height="${h}" fill="url(#glow)"/>`);
  const shapes = r.int(4, 9);
  for (let i = 0; i < shapes; i += 1) {
    const shapeHue = r.chance(0.5) ? hue + r.int(-30, 30) : hue2 + r.int(-30, 30);
    const fill = hsl(shapeHue, r.int(40, 85), r.int(35, 85));
    const opacity = (0.25 + r.next() * 0.5).toFixed(2);
    const cx = r.int(-60, w + 60);
    const cy = r.int(-60, h + 60);
    const kind = r.weighted([
      ['circle', 4],
      ['rect', 3],
      ['blob', 4],
      ['ring', 2],
    ] as const);
    if (kind === 'circle') {
      parts.push(`<circle cx="${cx}" cy="${cy}" r="${r.int(40, 240)}" fill="${fill}" fill-opacity="${opacity}"/>`);
    } else if (kind === 'ring') {
      parts.push(
        `<circle cx="${cx}" cy="${cy}" r="${r.int(60, 220)}" fill="none" stroke="${fill}" ` +
          `stroke-width="${r.int(6, 28)}" stroke-opacity="${opacity}"/>`,
      );
    } else if (kind === 'rect') {
      const rw = r.int(80, 360);
      const rh = r.int(60, 300);
      parts.push(
        `<rect x="${cx - rw / 2}" y="${cy - rh / 2}" width="${rw}" height="${rh}" rx="${r.int(0, 40)}" ` +
          `fill="${fill}" fill-opacity="${opacity}" transform="rotate(${r.int(-45, 45)} ${cx} ${cy})"/>`,
      );
    } else {
      parts.push(`<path d="${blobPath(r, cx, cy, r.int(70, 260))}" fill="${fill}" fill-opacity="${opacity}"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}

/**
 * The demo's pictures into media storage that is not this disk (S3_BUCKET, docs/decisions/013): `seedDemo`
 * writes them under `mediaDir` (hard links keep a 50,000-advert seed fast), where no other instance and no
 * media answer of this one would find them. Uploads every file of both areas' `pictures/` folders under
 * the same key, then removes the local copies. Answers how many files moved.
 */
export async function moveDemoMediaToStorage(mediaDir: string, storage: MediaStorage): Promise<number> {
  let moved = 0;
  for (const area of ['private', 'public'] as const) {
    const root = path.join(mediaDir, area);
    const files = (await readdir(path.join(root, 'pictures'), { recursive: true, withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
    // A few at a time: thousands of small files, each one request.
    for (let start = 0; start < files.length; start += 8) {
      await Promise.all(
        files.slice(start, start + 8).map((file) => storage.putFile(area, path.relative(root, file).split(path.sep).join('/'), file, 'image/webp')),
      );
    }
    moved += files.length;
    await rm(path.join(root, 'pictures'), { recursive: true, force: true });
  }
  return moved;
}

type PictureJob = { advertId: number; sortOrder: number; svg: string };

/** A hard link, or a copy where the file system has none (private and public on volumes of their own). */
async function linkOrCopy(from: string, to: string): Promise<void> {
  await link(from, to).catch(() => copyFile(from, to));
}

/** A picture of its own for this job, with the bytes of a rendered one: its files hard-linked under new names. */
async function linkPicture(mediaDir: string, source: PictureRow, job: PictureJob): Promise<PictureRow> {
  const folder = String(job.advertId);
  const storageKey = `pictures/${folder}/${randomUUID()}`;
  const publicKey = `pictures/${folder}/${randomUUID()}`;
  await mkdir(path.join(mediaDir, 'private', 'pictures', folder), { recursive: true });
  await mkdir(path.join(mediaDir, 'public', 'pictures', folder), { recursive: true });
  const variants: MediaVariant[] = [];
  for (const variant of source.variants as MediaVariant[]) {
    const key = `${storageKey}-${variant.width}.webp`;
    await linkOrCopy(path.join(mediaDir, 'private', variant.key), path.join(mediaDir, 'private', key));
    await linkOrCopy(path.join(mediaDir, 'public', `${source.publicKey}-${variant.width}.webp`), path.join(mediaDir, 'public', `${publicKey}-${variant.width}.webp`));
    variants.push({ ...variant, key });
  }
  return { ...source, advertId: job.advertId, storageKey, publicKey, variants, isPrimary: job.sortOrder === 0, sortOrder: job.sortOrder };
}
type PictureRow = typeof pictures.$inferInsert;

async function writePicture(mediaDir: string, job: PictureJob, folder = String(job.advertId)): Promise<PictureRow> {
  // The master files are private and the approved picture's published copies public under another name
  // (docs/decisions/013), as the server's publication makes them.
  const storageKey = `pictures/${folder}/${randomUUID()}`;
  const publicKey = `pictures/${folder}/${randomUUID()}`;
  await mkdir(path.join(mediaDir, 'private', 'pictures', folder), { recursive: true });
  await mkdir(path.join(mediaDir, 'public', 'pictures', folder), { recursive: true });
  const raw = await sharp(Buffer.from(job.svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const variants: MediaVariant[] = [];
  for (const width of PICTURE_WIDTHS) {
    const height = Math.round((width * 4) / 3);
    const key = `${storageKey}-${width}.webp`;
    let pipeline = sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels } });
    if (width !== raw.info.width) pipeline = pipeline.resize(width, height, { fit: 'cover' });
    const bytes = await pipeline.webp({ quality: 78, effort: 0 }).toBuffer();
    await writeFile(path.join(mediaDir, 'private', key), bytes);
    await writeFile(path.join(mediaDir, 'public', `${publicKey}-${width}.webp`), bytes);
    variants.push({ width, height, format: 'webp', key });
  }
  const largest = variants[variants.length - 1] as MediaVariant;
  return {
    advertId: job.advertId,
    storageKey,
    publicKey,
    variants,
    width: largest.width,
    height: largest.height,
    isPrimary: job.sortOrder === 0,
    isOnline: true,
    sortOrder: job.sortOrder,
    moderationStatus: 1,
    moderatedAt: new Date(),
  };
}

// ---------------------------------------------------------------------------------------------
// Demo vocabulary
// ---------------------------------------------------------------------------------------------

const MASSAGE_TEXT = /massage|massør|klinik|thai/i;

const NATIONALITY_LANGUAGE: Record<string, string> = {
  DK: 'da', SE: 'sv', NO: 'no', DE: 'de', TH: 'th', PH: 'tl', VN: 'vi', PL: 'pl', RO: 'ro', LT: 'lt',
  UA: 'uk', RU: 'ru', ES: 'es', IT: 'it', FR: 'fr', GB: 'en', US: 'en', NL: 'nl', BR: 'pt', PT: 'pt',
  CO: 'es', VE: 'es', CN: 'zh', HU: 'hu',
};

const ESCORT_NATIONALITIES = [
  ['DK', 24], ['SE', 6], ['NO', 4], ['DE', 5], ['PL', 6], ['RO', 6], ['LT', 4], ['LV', 3], ['UA', 5], ['RU', 3],
  ['ES', 4], ['IT', 4], ['FR', 3], ['GB', 3], ['NL', 2], ['CZ', 3], ['HU', 3], ['BG', 2], ['BR', 3], ['CO', 2],
  ['TH', 2], ['PH', 2],
] as const;
const TRANS_NATIONALITIES = [
  ['BR', 8], ['CO', 5], ['VE', 4], ['TH', 6], ['PH', 5], ['DK', 6], ['ES', 3], ['IT', 3], ['RO', 2], ['PT', 2],
] as const;
const THAI_NATIONALITIES = [['TH', 70], ['PH', 10], ['VN', 8], ['CN', 4], ['ID', 4], ['MY', 4]] as const;

const REGION_WEIGHTS: Record<string, number> = {
  'region-hovedstaden': 35,
  'region-midtjylland': 24,
  'region-syddanmark': 20,
  'region-sjaelland': 12,
  'region-nordjylland': 9,
};

const REVIEW_AUTHORS = [
  'Anders', 'Mikkel', 'Jens', 'Peter', 'Lars', 'Søren', 'Martin', 'Thomas', 'Henrik', 'Kasper', 'Jonas',
  'Mads', 'Rasmus', 'Christian', 'Michael', 'Niels', 'Ole', 'Frederik', 'Jakob', 'Morten', 'Bo', 'Kim',
  'Erik', 'Torben', 'Simon', 'David', 'Oliver', 'Emil', 'Jesper', 'Brian',
];

const REVIEW_TEXTS: readonly (readonly [string, string])[] = [
  ['Meget punktlig og venlig.', 'Very punctual and kind.'],
  ['Rent og hyggeligt sted. Kommer gerne igen.', 'Clean and cosy place. Happy to come back.'],
  ['God kommunikation og præcis som beskrevet i annoncen.', 'Good communication and exactly as described in the advert.'],
  ['Venlig modtagelse og en rolig stemning.', 'Friendly welcome and a calm atmosphere.'],
  ['Dygtig massør med gode hænder. Anbefales.', 'Skilled masseuse with good hands. Recommended.'],
  ['Alt foregik diskret og professionelt.', 'Everything was discreet and professional.'],
  ['Billederne svarer til virkeligheden. Meget sød.', 'The pictures match reality. Very sweet.'],
  ['Svarede hurtigt og var klar til tiden.', 'Replied quickly and was ready on time.'],
  ['Fin oplevelse, men lidt svært at finde parkering.', 'Nice experience, but parking was a little hard to find.'],
  ['Hyggeligt selskab og god samtale.', 'Pleasant company and good conversation.'],
  ['Afslappende og velgørende massage.', 'Relaxing and soothing massage.'],
  ['Imødekommende og let at aftale tid med.', 'Accommodating and easy to arrange a time with.'],
];

const REVIEW_REPLIES: readonly (readonly [string, string])[] = [
  ['Tak for de pæne ord!', 'Thank you for the kind words!'],
  ['Tusind tak – du er altid velkommen.', 'Thank you so much – you are always welcome.'],
  ['Tak for besøget og din anmeldelse.', 'Thanks for visiting and for your review.'],
];

const ESCORT_EXTRAS: readonly (readonly [string, number, number])[] = [
  ['Transporttillæg uden for byen', 300, 600],
  ['Ekstra 30 minutter', 800, 1200],
  ['Overnatning (hele natten)', 8000, 14000],
  ['Middag på restaurant (pr. time)', 1200, 2000],
];
const MASSAGE_EXTRAS: readonly (readonly [string, number, number])[] = [
  ['Ekstra 30 minutter', 250, 400],
  ['Hot stone-tillæg', 100, 200],
  ['Aromaterapi-olie', 50, 150],
  ['Fodbad før behandlingen', 50, 100],
];

const BLACKLIST_NOTES = ['Udeblev fra aftale', 'Ubehagelig opførsel', 'Ringer fra mange forskellige numre', null];

// ---------------------------------------------------------------------------------------------
// The seed
// ---------------------------------------------------------------------------------------------

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

type PlannedReview = typeof reviews.$inferInsert;

type Plan = {
  n: number;
  email: string;
  account: Omit<typeof accounts.$inferInsert, 'passwordHash'>;
  advert: Omit<NewAdvert, 'accountId'>;
  languageIds: number[];
  serviceIds: number[];
  prices: { durationMinutes: number; incallPriceOre: number | null; outcallPriceOre: number | null }[];
  extras: { description: string; priceOre: number }[];
  schedule: { weekday: number; fromTime: string; toTime: string }[];
  reviews: Omit<PlannedReview, 'advertId'>[];
  blacklist: { phone: string; note: string | null }[];
  pictureSvgs: string[];
  validated: boolean;
  /** How the advert's package stands (shapePackages): running out within 3 days, run out, or renewing. */
  packageState?: 'soon' | 'expired' | 'renewing';
  advertId?: number;
  accountId?: number;
};

export async function seedDemo(db: Db, options: SeedDemoOptions): Promise<{ adverts: number; pictures: number }> {
  const count = options.adverts ?? 320;
  const r = makeRandom(options.random ?? mulberry32(42));
  // Pictures draw from their own stream, so the number of shapes never shifts the advert data.
  const pr = makeRandom(mulberry32(Math.floor(r.next() * 4_294_967_296)));

  const existing = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(sql`${accounts.email} like 'demo-%@example.invalid'`)
    .limit(1);
  if (existing.length > 0) return { adverts: 0, pictures: 0 };

  const regionRows = await db.select().from(regions).orderBy(regions.sortOrder, regions.id);
  if (regionRows.length === 0) throw new Error('seedDemo needs the reference data: run seedReference first');
  const cityRows = await db.select().from(cities).orderBy(cities.regionId, cities.sortOrder, cities.id);
  const languageRows = await db.select().from(languages).orderBy(languages.id);
  const nationalityRows = await db.select().from(nationalities).orderBy(nationalities.id);
  const serviceRows = await db.select().from(services).orderBy(services.sortOrder, services.id);
  const productRows = await db.select().from(products).orderBy(products.sortOrder, products.id);

  const citiesByRegion = new Map<number, typeof cityRows>();
  for (const city of cityRows) {
    const list = citiesByRegion.get(city.regionId) ?? [];
    list.push(city);
    citiesByRegion.set(city.regionId, list);
  }
  const languageIdByCode = new Map(languageRows.map((l) => [l.code, l.id]));
  const nationalityByCode = new Map(nationalityRows.map((n) => [n.code, n]));
  const escortServices = serviceRows.filter((s) => s.type !== 4);
  const massageServices = serviceRows.filter((s) => s.type === 4);
  const productByCode = new Map(productRows.map((p) => [p.code, p]));

  // Texts: Danish and English arrays are aligned by index; massage texts go to Thai massage adverts.
  const textPairs = (da: readonly string[], en: readonly string[]) =>
    da.slice(0, Math.min(da.length, en.length)).map((text, i) => ({ da: text, en: en[i] as string }));
  const split = (pairs: { da: string; en: string }[]) => {
    const massage = pairs.filter((p) => MASSAGE_TEXT.test(p.da));
    const general = pairs.filter((p) => !MASSAGE_TEXT.test(p.da));
    return { massage: massage.length ? massage : pairs, general: general.length ? general : pairs, all: pairs };
  };
  const titles = split(textPairs(reference.titlesDa, reference.titlesEn));
  const intros = split(textPairs(reference.introductionsDa, reference.introductionsEn));
  const descriptions = split(textPairs(reference.descriptionsDa, reference.descriptionsEn));
  const pickText = (set: ReturnType<typeof split>, kind: number) =>
    kind === 1 ? r.pick(r.chance(0.7) ? set.massage : set.all) : r.pick(set.general);

  const now = Date.now();
  const passwordHash = await hash(DEMO_PASSWORD);

  // Kinds in the requested proportions: 50% escort, 20% trans escort, 30% Thai massage.
  const escortCount = Math.round(count * 0.5);
  const transCount = Math.round(count * 0.2);
  const kindPlan = r.shuffle([
    ...Array.from({ length: escortCount }, () => 'escort' as const),
    ...Array.from({ length: transCount }, () => 'trans' as const),
    ...Array.from({ length: Math.max(0, count - escortCount - transCount) }, () => 'thai' as const),
  ]);

  // Statuses: a few New (awaiting moderation), Locked and on holiday; the rest Active.
  const newCount = Math.max(1, Math.round(count * 0.025));
  const lockedCount = Math.max(1, Math.round(count * 0.01));
  const holidayCount = Math.max(1, Math.round(count * 0.015));
  const statusPlan = r.shuffle([
    ...Array.from({ length: newCount }, () => 'new' as const),
    ...Array.from({ length: lockedCount }, () => 'locked' as const),
    ...Array.from({ length: holidayCount }, () => 'holiday' as const),
    ...Array.from({ length: Math.max(0, count - newCount - lockedCount - holidayCount) }, () => 'active' as const),
  ]);

  const regionWeights = regionRows.map((region) => [region, REGION_WEIGHTS[region.slug] ?? 10] as const);
  const usedPhones = new Set<string>();
  const phone = () => {
    for (;;) {
      const candidate = `2${String(r.int(0, 9_999_999)).padStart(7, '0')}`;
      if (!usedPhones.has(candidate)) {
        usedPhones.add(candidate);
        return candidate;
      }
    }
  };

  const plans: Plan[] = [];
  for (let i = 0; i < count; i += 1) {
    const n = i + 1;
    const kindName = kindPlan[i] ?? 'escort';
    const kind = kindName === 'thai' ? 1 : 0;
    const gender = kindName === 'trans' ? 5 : 1;
    const statusName = statusPlan[i] ?? 'active';

    // Every region gets adverts; after that, weighted by population. Bigger cities come first in each list.
    const region = i < regionRows.length ? (regionRows[i] as (typeof regionRows)[number]) : r.weighted(regionWeights);
    const regionCities = citiesByRegion.get(region.id) ?? [];
    const city = regionCities.length
      ? regionCities[Math.floor(Math.pow(r.next(), 1.8) * regionCities.length)]
      : undefined;

    const name = r.pick(reference.firstNames);
    const age = 20 + Math.floor(Math.pow(r.next(), 1.4) * 36);
    const height = kind === 1 ? r.int(150, 170) : r.int(155, 185);
    const weight = Math.max(42, Math.min(95, height - 110 + r.int(-8, 10)));
    const breastType =
      kindName === 'trans'
        ? r.weighted([[1, 3], [2, 6], [null, 1]] as const)
        : kind === 1
          ? r.weighted([[1, 7], [2, 1], [null, 2]] as const)
          : r.weighted([[1, 6], [2, 3], [null, 1]] as const);
    const nationalityCode = r.weighted(
      kindName === 'trans' ? TRANS_NATIONALITIES : kind === 1 ? THAI_NATIONALITIES : ESCORT_NATIONALITIES,
    );
    const nationality = nationalityByCode.get(nationalityCode) ?? r.pick(nationalityRows);

    const languageCodes = new Set<string>();
    const native = NATIONALITY_LANGUAGE[nationality.code];
    if (native) languageCodes.add(native);
    if (kind === 1 && r.chance(0.8)) languageCodes.add('th');
    if (r.chance(0.8)) languageCodes.add('en');
    if (nationality.code === 'DK' || r.chance(0.35)) languageCodes.add('da');
    while (languageCodes.size < 1 || (languageCodes.size < 4 && r.chance(0.15))) {
      languageCodes.add(r.pick(languageRows).code);
    }
    const languageIds = [...languageCodes]
      .slice(0, 4)
      .map((code) => languageIdByCode.get(code))
      .filter((id): id is number => id !== undefined);

    const servicePool = kind === 1 ? massageServices : escortServices;
    const serviceIds = r.sample(servicePool, r.int(3, Math.min(8, servicePool.length))).map((s) => s.id);

    const incall = kind === 1 ? r.chance(0.95) : r.chance(0.8);
    const outcall = !incall || (kind === 1 ? r.chance(0.2) : r.chance(0.55));

    const hourly = kind === 1 ? r.int(8, 16) * 50 : r.int(15, 30) * 100;
    const durationPool = kind === 1 ? [30, 60, 90, 120] : [30, 60, 90, 120, 180];
    const durations = r.sample(durationPool, r.int(2, Math.min(4, durationPool.length))).sort((a, b) => a - b);
    const outcallSurcharge = r.int(2, 5) * 100;
    const prices = durations.map((minutes) => {
      const factor = minutes <= 30 ? 0.6 : minutes <= 60 ? 1 : minutes <= 90 ? 0.93 : 0.88;
      const kroner = Math.round((hourly * (minutes / 60) * factor) / 50) * 50;
      return {
        durationMinutes: minutes,
        incallPriceOre: incall ? kroner * 100 : null,
        outcallPriceOre: outcall ? (kroner + outcallSurcharge) * 100 : null,
      };
    });
    const extras = r
      .sample(kind === 1 ? MASSAGE_EXTRAS : ESCORT_EXTRAS, r.int(0, 3))
      .map(([description, min, max]) => ({ description, priceOre: Math.round(r.int(min, max) / 50) * 50 * 100 }));

    const schedule: Plan['schedule'] = [];
    if (r.chance(0.8)) {
      const days = r.sample([1, 2, 3, 4, 5, 6, 7], r.int(3, 7)).sort((a, b) => a - b);
      const from = r.int(9, 16);
      const to = Math.min(23, from + r.int(6, 12));
      for (const weekday of days) schedule.push({ weekday, fromTime: hhmm(from), toTime: hhmm(to) });
    }

    const payment = ['cash', ...r.sample(['creditcard', 'mobilepay', 'paypal', 'revolut', 'wise'], r.int(0, 3))];
    const paymentOptions = reference.paymentOptions.map((p) => p.code).filter((code) => payment.includes(code));

    const title = pickText(titles, kind);
    const intro = pickText(intros, kind);
    const description = pickText(descriptions, kind);
    const slug = slugify(name);
    const advertPhone = phone();

    // Dates and moderation state.
    const isNew = statusName === 'new';
    const createdAt = new Date(now - (isNew ? r.int(0, 4) * DAY + r.int(1, 600) * 60_000 : r.int(15, 400) * DAY));
    const approvedAt = isNew ? null : new Date(createdAt.getTime() + r.int(1, 24) * 3_600_000);
    const expirationDate = isNew ? null : new Date(now + r.int(10, 90) * DAY);
    const isActive = statusName === 'active' || statusName === 'holiday';
    const validated = !isNew && r.chance(0.25);
    const frontPageBoostUntil = statusName === 'active' && r.chance(0.1) ? new Date(now + r.int(1, 7) * DAY) : null;
    const searchBoostUntil = statusName === 'active' && r.chance(0.1) ? new Date(now + r.int(1, 7) * DAY) : null;
    let pendingChanges: PendingChanges | null = null;
    if (isNew) {
      const alternative = pickText(titles, kind);
      pendingChanges = { title: alternative.da, introduction: pickText(intros, kind).da };
    } else if (isActive && r.chance(0.04)) {
      pendingChanges = { description: pickText(descriptions, kind).da };
    }

    const birth = new Date(now);
    birth.setUTCFullYear(birth.getUTCFullYear() - age);
    birth.setUTCDate(birth.getUTCDate() - r.int(1, 360));

    const reviewsForAdvert: Plan['reviews'] = [];
    if (!isNew && r.chance(0.3)) {
      const reviewCount = r.int(1, 4);
      for (let k = 0; k < reviewCount; k += 1) {
        const [da, en] = r.pick(REVIEW_TEXTS);
        const status = r.weighted([[1, 85], [0, 10], [2, 5]] as const);
        const reviewCreated = new Date(
          Math.min(now - 3_600_000, createdAt.getTime() + r.int(1, Math.max(2, Math.floor((now - createdAt.getTime()) / DAY))) * DAY),
        );
        const reply = status === 1 && r.chance(0.25) ? r.pick(REVIEW_REPLIES) : null;
        const english = r.chance(0.25);
        const authorName = r.pick(REVIEW_AUTHORS);
        const phone = r.chance(0.5) ? `4${String(r.int(0, 9_999_999)).padStart(7, '0')}` : null;
        reviewsForAdvert.push({
          authorName,
          // One review per phone number per advert (a unique index): a repeated number is left out.
          authorPhone: phone !== null && reviewsForAdvert.some((earlier) => earlier.authorPhone === phone) ? null : phone,
          rating: r.weighted([[5, 50], [4, 35], [3, 15]] as const),
          text: english ? en : da,
          status,
          replyText: reply ? (english ? reply[1] : reply[0]) : null,
          replyAt: reply ? new Date(reviewCreated.getTime() + DAY) : null,
          decidedAt: status === 0 ? null : new Date(reviewCreated.getTime() + 3_600_000),
          createdAt: reviewCreated,
        });
      }
    }

    const blacklist: Plan['blacklist'] = [];
    if (r.chance(0.05)) {
      for (let k = r.int(1, 2); k > 0; k -= 1) {
        blacklist.push({ phone: `3${String(r.int(0, 9_999_999)).padStart(7, '0')}`, note: r.pick(BLACKLIST_NOTES) });
      }
    }

    const pictureSvgs = Array.from({ length: r.int(3, 6) }, () => demoPictureSvg(pr));
    const locale = r.chance(0.8) ? 'da' : 'en';
    const email = `demo-${n}@example.invalid`;

    plans.push({
      n,
      email,
      account: {
        email,
        phone: advertPhone,
        phoneVerifiedAt: createdAt,
        emailVerifiedAt: createdAt,
        activatedAt: createdAt,
        dateOfBirth: isoDate(birth),
        locale,
        termsAcceptedAt: createdAt,
        createdAt,
        lastLoginAt: new Date(now - r.int(0, 14) * DAY - r.int(0, 1439) * 60_000),
      },
      advert: {
        kind,
        gender,
        status: isNew ? 0 : statusName === 'locked' ? 2 : 1,
        statusReason: statusName === 'locked' ? 'Billederne skal gennemgås igen.' : null,
        approvedAt,
        expirationDate,
        holidayUntil: statusName === 'holiday' ? new Date(now + r.int(5, 21) * DAY) : null,
        validationStatus: validated ? 2 : 0,
        ageVerifiedAt: isNew && r.chance(0.5) ? null : createdAt,
        name,
        slug,
        locale: 'da',
        title: title.da,
        introduction: intro.da,
        description: description.da,
        titleEn: title.en,
        introductionEn: intro.en,
        descriptionEn: description.en,
        phone: advertPhone,
        hasWhatsapp: r.chance(0.4),
        website: r.chance(0.15) ? `https://example.com/${slug}-${n}` : null,
        regionId: region.id,
        cityId: city?.id ?? null,
        age,
        height,
        weight,
        breastType,
        nationalityId: nationality.id,
        incall,
        outcall,
        paymentOptions,
        frontPageBoostUntil,
        searchBoostUntil,
        pendingChanges,
        viewCount: isNew ? 0 : r.int(20, 5000),
        createdAt,
        updatedAt: new Date(createdAt.getTime() + r.int(0, Math.max(1, Math.floor((now - createdAt.getTime()) / DAY))) * DAY),
      },
      languageIds,
      serviceIds,
      prices,
      extras,
      schedule,
      reviews: reviewsForAdvert,
      blacklist,
      pictureSvgs,
      validated,
    });
  }

  shapePackages(plans, now);

  let pictureCount = 0;
  await db.transaction(async (tx) => {
    const supportUserId = await ensureDemoSupportUser(tx);

    for (const chunk of chunks(plans)) {
      const rows = await tx
        .insert(accounts)
        .values(chunk.map((p) => ({ ...p.account, passwordHash })))
        .returning({ id: accounts.id, email: accounts.email });
      const idByEmail = new Map(rows.map((row) => [row.email, row.id]));
      for (const plan of chunk) plan.accountId = idByEmail.get(plan.email);
    }

    for (const chunk of chunks(plans)) {
      const rows = await tx
        .insert(adverts)
        .values(
          chunk.map((p) => ({
            ...p.advert,
            accountId: p.accountId as number,
            approvedBy: p.advert.approvedAt ? supportUserId : null,
            // Waiting for review since the last edit (the review queue's "since").
            pendingSince: p.advert.pendingChanges ? p.advert.updatedAt : null,
          })),
        )
        .returning({ id: adverts.id, accountId: adverts.accountId });
      const idByAccount = new Map(rows.map((row) => [row.accountId, row.id]));
      for (const plan of chunk) plan.advertId = idByAccount.get(plan.accountId as number);
    }

    const advertId = (p: Plan) => p.advertId as number;
    const accountId = (p: Plan) => p.accountId as number;
    await insertAll(
      tx,
      advertLanguages,
      plans.flatMap((p) => p.languageIds.map((languageId) => ({ advertId: advertId(p), languageId }))),
    );
    await insertAll(
      tx,
      advertServices,
      plans.flatMap((p) => p.serviceIds.map((serviceId) => ({ advertId: advertId(p), serviceId }))),
    );
    await insertAll(
      tx,
      priceListItems,
      plans.flatMap((p) => p.prices.map((item, sortOrder) => ({ ...item, advertId: advertId(p), sortOrder }))),
    );
    await insertAll(
      tx,
      extraPriceItems,
      plans.flatMap((p) => p.extras.map((item, sortOrder) => ({ ...item, advertId: advertId(p), sortOrder }))),
    );
    await insertAll(
      tx,
      scheduleEntries,
      plans.flatMap((p) => p.schedule.map((entry) => ({ ...entry, advertId: advertId(p) }))),
    );
    await insertAll(
      tx,
      reviews,
      plans.flatMap((p) =>
        p.reviews.map((review) => ({ ...review, advertId: advertId(p), decidedBy: review.decidedAt ? supportUserId : null })),
      ),
    );
    await insertAll(
      tx,
      blacklistEntries,
      plans.flatMap((p) =>
        p.blacklist.map((entry) => ({ ...entry, accountId: accountId(p), createdAt: new Date(now - 5 * DAY) })),
      ),
    );
    await insertAll(
      tx,
      verifications,
      plans
        .filter((p) => p.validated)
        .map((p) => {
          const decidedAt = new Date((p.advert.approvedAt as Date).getTime() + 2 * 3_600_000);
          return {
            advertId: advertId(p),
            accountId: accountId(p),
            method: 'document',
            status: 2,
            decidedBy: supportUserId,
            decidedAt,
            filesDeletedAt: decidedAt,
            createdAt: p.advert.approvedAt as Date,
          };
        }),
    );
    // Each approved demo advert went live once, by the demo moderator: the audit entry support's statistics
    // count as "went live" (issue 31, item 8), at the time of its approval.
    await insertAll(
      tx,
      auditLog,
      plans
        .filter((p) => p.advert.approvedAt)
        .map((p) => ({
          actorType: 'support',
          actorId: supportUserId,
          action: 'advert.approve',
          targetType: 'advert',
          targetId: String(advertId(p)),
          after: { status: 1, demo: true },
          createdAt: p.advert.approvedAt as Date,
        })),
    );
    await insertAll(
      tx,
      notifications,
      plans.map((p) => ({
        accountId: accountId(p),
        titleDa: 'Velkommen til Annoncekatalog',
        titleEn: 'Welcome to Annoncekatalog',
        bodyDa: 'Din annonce er oprettet. Husk at tilføje billeder og at bekræfte din alder.',
        bodyEn: 'Your advert has been created. Remember to add pictures and to confirm your age.',
        status: p.advert.status === 0 ? 0 : 1,
        createdAt: p.account.createdAt as Date,
      })),
    );
    await seedOrders(tx, plans, productByCode, now);
    await seedContent(tx, regionRows, cityRows, serviceRows, now);

    const jobs: PictureJob[] = plans.flatMap((p) =>
      p.pictureSvgs.map((svg, sortOrder) => ({ advertId: advertId(p), sortOrder, svg })),
    );
    const rows: PictureRow[] = new Array(jobs.length);
    if (options.pictureFiles === 'shared') {
      const pool: PictureRow[] = new Array(Math.min(SHARED_POOL_SIZE, jobs.length));
      const poolJobs = jobs.slice(0, pool.length).map((job, index) => ({ job, index }));
      await runBounded(poolJobs, PICTURE_CONCURRENCY, async ({ job, index }) => {
        pool[index] = await writePicture(options.mediaDir, job, 'pool');
      });
      jobs.forEach((job, index) => {
        const shared = pool[index % pool.length] as PictureRow;
        rows[index] = { ...shared, advertId: job.advertId, sortOrder: job.sortOrder, isPrimary: job.sortOrder === 0 };
      });
    } else {
      const rendered = jobs.slice(0, RENDERED_PICTURES).map((job, index) => ({ job, index }));
      await runBounded(rendered, PICTURE_CONCURRENCY, async ({ job, index }) => {
        rows[index] = await writePicture(options.mediaDir, job);
      });
      for (let index = rendered.length; index < jobs.length; index += 1) {
        rows[index] = await linkPicture(options.mediaDir, rows[index % rendered.length] as PictureRow, jobs[index] as PictureJob);
      }
    }
    await insertAll(tx, pictures, rows);
    pictureCount = rows.length;
  });

  return { adverts: plans.length, pictures: pictureCount };
}

/** The demo's package states (issue 16): which plans' packages run out within 3 days, have run out, or renew. */
const PACKAGE_STATES: Record<number, NonNullable<Plan['packageState']>> = { 3: 'soon', 8: 'expired', 11: 'soon', 13: 'expired' };

/**
 * Among the approved Active adverts without a boost (a boost needs a package running), by position and
 * without a random draw (the rest of the demo stays as it was): the second one's membership renews in 4
 * days, and of every 15 some run out within 3 days and some ran out 3–22 days ago.
 */
function shapePackages(plans: Plan[], now: number): void {
  const candidates = plans.filter((p) => p.advert.status === 1 && p.advert.approvedAt && !p.advert.holidayUntil && !p.advert.frontPageBoostUntil && !p.advert.searchBoostUntil);
  candidates.forEach((plan, index) => {
    const state = index === 1 ? 'renewing' : PACKAGE_STATES[index % 15];
    if (!state) return;
    plan.packageState = state;
    plan.advert.expirationDate =
      state === 'renewing'
        ? new Date(now + 4 * DAY)
        : state === 'soon'
          ? new Date(now + (1 + (index % 3)) * DAY - 3 * 3_600_000)
          : new Date(now - (3 + (index % 20)) * DAY);
  });
}

async function insertAll<T extends Parameters<Tx['insert']>[0]>(
  tx: Tx,
  table: T,
  rows: T['$inferInsert'][],
): Promise<void> {
  for (const chunk of chunks(rows)) {
    if (chunk.length) await tx.insert(table).values(chunk as never);
  }
}

/**
 * The demo moderator recorded as approver of the demo content. It can never sign in (disabled, no
 * usable password hash): a known password on a support account would be a hole in any deployment.
 */
async function ensureDemoSupportUser(tx: Tx): Promise<number> {
  await tx
    .insert(supportUsers)
    .values({
      email: DEMO_SUPPORT_EMAIL,
      name: 'Demo Support',
      passwordHash: '!disabled',
      permissions: ['Support'],
      disabledAt: new Date(),
    })
    .onConflictDoNothing({ target: supportUsers.email });
  const [row] = await tx.select({ id: supportUsers.id }).from(supportUsers).where(eq(supportUsers.email, DEMO_SUPPORT_EMAIL));
  if (!row) throw new Error('The demo support user was not stored');
  return row.id;
}

type ProductRow = typeof products.$inferSelect;

/**
 * A paid membership for every approved advert (a renewing one, with its subscription, where the package
 * renews), a boost order for each boosted one, and one old search promotion that demo-documents.ts refunds.
 */
async function seedOrders(tx: Tx, plans: Plan[], productByCode: Map<string, ProductRow>, now: number): Promise<void> {
  type PlannedOrder = { order: typeof orders.$inferInsert; promotion: Omit<typeof promotions.$inferInsert, 'orderId'> };
  const planned: PlannedOrder[] = [];
  const add = (plan: Plan, product: ProductRow | undefined, startsAt: Date, endsAt: Date, suffix: string) => {
    if (!product) return;
    const paidAt = new Date(startsAt.getTime() + 60_000);
    planned.push({
      order: {
        accountId: plan.accountId as number,
        advertId: plan.advertId as number,
        productId: product.id,
        productType: product.type,
        days: product.days,
        productDescription: product.nameDa,
        totalPriceOre: product.priceOre,
        vatOre: vatOf(product.priceOre),
        status: 1,
        transactionId: `TEST-TX-${plan.n}-${suffix}`,
        referenceId: `TEST-PAY-DEMO-${plan.n}-${suffix}`,
        paymentMethod: 'card',
        paymentProvider: 'test',
        periodStart: startsAt,
        periodEnd: endsAt,
        fulfilledAt: paidAt,
        createdAt: startsAt,
        paidAt,
        updatedAt: paidAt,
      },
      promotion: { advertId: plan.advertId as number, type: product.type, startsAt, endsAt, createdAt: paidAt },
    });
  };
  let refunded = false;
  for (const plan of plans) {
    const expiration = plan.advert.expirationDate;
    if (!expiration || !plan.advert.approvedAt) continue;
    const remainingDays = (expiration.getTime() - now) / DAY;
    const renewing = plan.packageState === 'renewing';
    const product = productByCode.get(renewing ? 'membership-30-recurring' : remainingDays > 28 ? 'membership-90' : 'membership-30');
    if (product) add(plan, product, new Date(expiration.getTime() - product.days * DAY), expiration, 'M');
    if (renewing && product) {
      // The card provider charges it again when the paid period ends (a renewal reminder goes out a few days before).
      const [subscription] = await tx
        .insert(subscriptions)
        .values({
          accountId: plan.accountId as number,
          advertId: plan.advertId as number,
          productId: product.id,
          provider: 'cardbilling',
          saleId: `TEST-SALE-DEMO-${plan.n}`,
          status: 0,
          nextChargeOn: expiration,
          createdAt: new Date(expiration.getTime() - product.days * DAY),
          updatedAt: new Date(expiration.getTime() - product.days * DAY),
        })
        .returning({ id: subscriptions.id });
      planned.at(-1)!.order.subscriptionId = subscription!.id;
    }
    if (!refunded && plan.packageState === undefined && plan.advert.status === 1 && (plan.advert.createdAt as Date).getTime() < now - 100 * DAY) {
      // A search promotion bought 100 days ago and refunded two days later (demo-documents.ts issues its
      // receipt and credit note): the oldest demo order, so it always gets its receipt.
      refunded = true;
      const startsAt = new Date(now - 100 * DAY);
      add(plan, productByCode.get('search-boost-7'), startsAt, new Date(startsAt.getTime() + 7 * DAY), 'R');
      const last = planned.at(-1);
      if (last?.order.referenceId?.endsWith('-R')) last.promotion.endsAt = new Date(startsAt.getTime() + 2 * DAY);
    }
    const frontPage = plan.advert.frontPageBoostUntil;
    if (frontPage) add(plan, productByCode.get('frontpage-boost-7'), new Date(frontPage.getTime() - 7 * DAY), frontPage, 'F');
    const search = plan.advert.searchBoostUntil;
    if (search) add(plan, productByCode.get('search-boost-7'), new Date(search.getTime() - 7 * DAY), search, 'S');
  }
  for (const chunk of chunks(planned)) {
    const rows = await tx
      .insert(orders)
      .values(chunk.map((p) => p.order))
      .returning({ id: orders.id, referenceId: orders.referenceId });
    const idByReference = new Map(rows.map((row) => [row.referenceId, row.id]));
    await tx
      .insert(promotions)
      .values(chunk.map((p) => ({ ...p.promotion, orderId: idByReference.get(p.order.referenceId ?? null) ?? null })));
  }
}

// ---------------------------------------------------------------------------------------------
// Articles, service pages, an index page, news and search keywords
// ---------------------------------------------------------------------------------------------

type RegionRow = typeof regions.$inferSelect;
type CityRow = typeof cities.$inferSelect;
type ServiceRow = typeof services.$inferSelect;

const SERVICE_TYPE_LABEL: Record<number, { da: string; en: string }> = {
  1: { da: 'Kæresteoplevelse', en: 'Girlfriend experience' },
  2: { da: 'Pornstar experience', en: 'Pornstar experience' },
  3: { da: 'Avanceret', en: 'Advanced' },
  4: { da: 'Massage', en: 'Massage' },
};

/** The demo free page (/om-os/ and /en/om-os/). */
const ABOUT_PAGE = {
  da: {
    title: 'Om annoncekataloget',
    intro: 'Et dansk annoncekatalog for voksne, der selv annoncerer escort, transescort og thaimassage.',
    body: `
Annoncekataloget samler annoncer fra voksne annoncører i hele Danmark. Hver annoncør opretter og styrer sin egen annonce, og ingen annonce bliver vist, før annoncøren har bevist sin alder og identitet.

## Sådan holder vi kataloget lovligt
- Alle annoncører skal være mindst 18 år og annoncere af egen fri vilje.
- Nye annoncer og ændringer bliver set igennem af vores supportteam.
- Alle annoncer har en knap til at rapportere mistanke om mindreårige, menneskehandel eller udnyttelse. Rapporter læses af en person, og de alvorligste behandles først.

## Kontakt
Har du spørgsmål til en annonce eller til kataloget, så brug rapportknappen på annoncen eller skriv til vores support.
`,
  },
  en: {
    title: 'About the directory',
    intro: 'A Danish directory for adults who advertise escort, trans escort and Thai massage themselves.',
    body: `
The directory gathers adverts from adult advertisers all over Denmark. Every advertiser creates and runs their own advert, and no advert is shown until the advertiser has proved their age and identity.

## How we keep the directory lawful
- Every advertiser must be at least 18 and advertise of their own free will.
- New adverts and changes are reviewed by our support team.
- Every advert has a button to report a suspected minor, trafficking or exploitation. Reports are read by a person, and the most serious are handled first.

## Contact
If you have a question about an advert or about the directory, use the report button on the advert or write to our support.
`,
  },
};

async function seedContent(tx: Tx, regionRows: RegionRow[], cityRows: CityRow[], serviceRows: ServiceRow[], now: number) {
  const publishedAt = new Date(now - 30 * DAY);
  const pages: (typeof landingPages.$inferInsert)[] = [];

  for (const article of ARTICLES) {
    for (const locale of ['da', 'en'] as const) {
      const text = article[locale];
      pages.push({
        type: 'article',
        locale,
        url: article.url,
        title: text.title,
        metaDescription: text.intro.slice(0, 155),
        intro: text.intro,
        body: text.body.trim(),
        publishedAt,
        createdAt: publishedAt,
        updatedAt: publishedAt,
      });
    }
  }

  // A free SEO page (/{url}/): what the directory is and how it keeps adverts lawful.
  for (const locale of ['da', 'en'] as const) {
    const text = ABOUT_PAGE[locale];
    pages.push({
      type: 'free',
      locale,
      url: 'om-os',
      title: text.title,
      metaDescription: text.intro.slice(0, 155),
      intro: text.intro,
      body: text.body.trim(),
      publishedAt,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
  }

  for (const service of serviceRows) {
    const label = SERVICE_TYPE_LABEL[service.type] ?? { da: 'Massage', en: 'Massage' };
    pages.push({
      type: 'service',
      locale: 'da',
      url: service.slug,
      title: service.nameDa,
      metaDescription: service.descriptionDa.slice(0, 155),
      intro: service.descriptionDa,
      body:
        `${service.descriptionDa}\n\n` +
        `Ydelsen hører under kategorien ${label.da.toLowerCase()}. Find annoncører i hele Danmark, der tilbyder ` +
        `${service.nameDa.toLowerCase()}: vælg region og by i søgningen, og læs altid hele annoncen, før du tager kontakt.\n\n` +
        'Aftal tid, varighed og pris på forhånd, og respekter de grænser, annoncøren beskriver. ' +
        'Ser du noget, der ikke er i orden, så brug knappen "Rapportér annonce".',
      serviceId: service.id,
      publishedAt,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
    pages.push({
      type: 'service',
      locale: 'en',
      url: service.slug,
      title: service.nameEn,
      metaDescription: service.descriptionEn.slice(0, 155),
      intro: service.descriptionEn,
      body:
        `${service.descriptionEn}\n\n` +
        `This service belongs to the ${label.en.toLowerCase()} category. Find advertisers all over Denmark who offer ` +
        `${service.nameEn.toLowerCase()}: choose a region and a city in the search, and always read the whole advert before you get in touch.\n\n` +
        'Agree on the time, duration and price in advance, and respect the boundaries the advertiser describes. ' +
        'If you see something that is not right, use the "Report advert" button.',
      serviceId: service.id,
      publishedAt,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
  }

  const capital = regionRows.find((region) => region.slug === 'region-hovedstaden') ?? regionRows[0];
  const capitalCity = cityRows.find((city) => city.regionId === capital?.id);
  if (capital && capitalCity) {
    const url = `escort/${capital.slug}/${capitalCity.slug}`;
    pages.push({
      type: 'index',
      locale: 'da',
      url,
      title: `Escort i ${capitalCity.name}`,
      metaDescription: `Find escortannoncer i ${capitalCity.name} og omegn. Alle annoncer er gennemgået af vores support.`,
      intro: `Find escortannoncer i ${capitalCity.name} og omegn.`,
      body:
        `${capitalCity.name} er den by i ${capital.name}, hvor du finder flest annoncer. Alle annoncører er voksne, ` +
        'har bekræftet deres alder, og hver annonce er gennemgået af vores support, før den bliver vist. ' +
        'Filtrer efter sprog, ydelser, incall og outcall, eller vælg kun validerede annoncer.',
      kind: 'escort',
      regionId: capital.id,
      cityId: capitalCity.id,
      publishedAt,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
    pages.push({
      type: 'index',
      locale: 'en',
      url,
      title: `Escorts in ${capitalCity.name}`,
      metaDescription: `Find escort adverts in and around ${capitalCity.name}. Every advert is reviewed by our support team.`,
      intro: `Find escort adverts in and around ${capitalCity.name}.`,
      body:
        `${capitalCity.name} is the city in ${capital.nameEn} with the most adverts. Every advertiser is an adult ` +
        'who has confirmed their age, and every advert is reviewed by our support team before it is shown. ' +
        'Filter by language, services, incall and outcall, or show validated adverts only.',
      kind: 'escort',
      regionId: capital.id,
      cityId: capitalCity.id,
      publishedAt,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
  }
  await tx.insert(landingPages).values(pages).onConflictDoNothing();

  const newsRows = NEWS.flatMap((item, index) => {
    const at = new Date(now - (index * 12 + 2) * DAY);
    return (['da', 'en'] as const).map((locale) => ({
      locale,
      title: item[locale].title,
      body: item[locale].body,
      publishedAt: at,
      createdAt: at,
      updatedAt: at,
    }));
  });
  await tx.insert(news).values(newsRows);

  // SEO staff's decisions on visitors' search terms (src/server/domain/search/keywords.ts) and 30 days of
  // invented counts, so the four keyword lists have something to show.
  const decided = new Date(now - 10 * DAY);
  await tx
    .insert(searchKeywords)
    .values([
      { keyword: 'billig', kind: 'ignored', createdAt: decided },
      { keyword: 'gratis', kind: 'ignored', createdAt: decided },
      { keyword: 'kbh', kind: 'paired', createdAt: decided },
      { keyword: 'cph', kind: 'paired', createdAt: decided },
      { keyword: 'thai', kind: 'paired', createdAt: decided },
      { keyword: 'escort kbh', kind: 'paired', targetUrl: '/escort/region-hovedstaden/koebenhavn/', createdAt: decided },
    ])
    .onConflictDoNothing();
  await tx
    .insert(pairedKeywords)
    .values([
      { keyword: 'kbh', pairedWith: 'koebenhavn', createdAt: decided },
      { keyword: 'thai', pairedWith: 'thaimassage', createdAt: decided },
      { keyword: 'cph', pairedWith: 'koebenhavn', createdAt: decided },
    ])
    .onConflictDoNothing();
  const demoTerms: [term: string, perDay: number, noResultShare: number][] = [
    ['koebenhavn', 14, 0],
    ['aarhus', 7, 0],
    ['thaimassage', 9, 0],
    ['kbh', 5, 0.6],
    ['billig', 2, 0.5],
    ['hot stone', 3, 1],
    ['massage vesterbro', 2, 0.5],
    ['wellness', 1, 1],
  ];
  const termRows: (typeof searchTermDays.$inferInsert)[] = [];
  for (let daysAgo = 0; daysAgo < 30; daysAgo += 1) {
    const day = isoDayOf(new Date(now - daysAgo * DAY));
    for (const [term, perDay, noResultShare] of demoTerms) {
      const searches = perDay + ((daysAgo * 7 + term.length) % 4);
      // A pair made 10 days ago: since then "kbh" finds what "koebenhavn" finds.
      const share = term === 'kbh' && daysAgo < 10 ? 0 : noResultShare;
      termRows.push({ day, term, searches, noResults: Math.round(searches * share) });
    }
  }
  await tx.insert(searchTermDays).values(termRows).onConflictDoNothing();
}

type Localised = { title: string; intro: string; body: string };
type Article = { url: string; da: Localised; en: Localised };

const ARTICLES: Article[] = [
  {
    url: 'tryghed-og-respekt',
    da: {
      title: 'Tryghed og respekt, når du booker',
      intro: 'Gode råd til en tryg og respektfuld aftale – for både brugere og annoncører.',
      body: `
At booke en aftale via et annoncekatalog er grundlæggende en aftale mellem to voksne. Det fungerer bedst, når begge parter føler sig trygge, ved hvad de kan forvente og behandler hinanden med respekt. Her har vi samlet de råd, som annoncører og erfarne brugere giver igen og igen.

## Læs hele annoncen først

Hver annonce beskriver, hvad annoncøren tilbyder, om vedkommende tager imod gæster eller kommer ud, åbningstider og priser. Læser du annoncen grundigt, inden du tager kontakt, sparer I begge tid og undgår misforståelser. Er noget uklart, så spørg høfligt – og accepter svaret.

## Tag kontakt, som annoncen beder om

Nogle annoncører foretrækker et opkald, andre en sms eller WhatsApp. Mange svarer ikke på skjulte numre. Præsenter dig, fortæl hvilken annonce du ringer om, og foreslå et tidspunkt. Korte og klare beskeder bliver værdsat; lange samtaler før et første møde sjældent.

## Kom til tiden – eller aflys i god tid

Punktlighed er en form for respekt. Bliver du forsinket, så send en besked. Kan du ikke komme, så aflys så tidligt som muligt. En annoncør, der har sat tid af til dig, har sagt nej til andre.

## Aftal prisen på forhånd

Priserne på siden er inklusive moms og vises i danske kroner. Aftal varighed og pris, før I mødes, og hav det aftalte beløb klar i en af de betalingsformer, annoncen nævner. At forhandle om prisen ved ankomst er respektløst.

## Hygiejne og diskretion

Mød op nyvasket og ædru. Respekter annoncørens hjem eller klinik, tal lavt på trappen, og del aldrig navne, adresser eller telefonnumre med andre. Diskretion beskytter jer begge.

## Grænser er ikke til forhandling

Alle har ret til at sige nej – når som helst og uden at give en grund. Ydelser, der ikke står i annoncen, tilbydes ikke. Afslutter annoncøren mødet, så gå roligt.

## Pas på hinanden

Alle voksne i kataloget skal have valgt at annoncere af egen fri vilje. Møder du en person, der ser ud til at være under 18 år, som virker styret af en anden, som ikke har adgang til sin egen telefon eller sit pas, eller som virker bange, så gå og rapportér det. Brug knappen "Rapportér annonce", som findes på hver annonce – rapporter læses af vores supportteam og kan laves anonymt. Ring 112 i en nødsituation. Du kan også kontakte politiet på 114.

## Anmeldelser hjælper alle

Efter et møde kan du skrive en kort anmeldelse. Hold den saglig og venlig: Var annoncøren punktlig, var omgivelserne rene, og svarede annoncen til virkeligheden? Skriv aldrig personlige oplysninger eller intime beskrivelser. Anmeldelser bliver gennemgået, før de offentliggøres.

Et katalog som dette fungerer kun, når brugere og annoncører kan stole på hinanden. Tak, fordi du gør din del.
`,
    },
    en: {
      title: 'Safety and respect when booking',
      intro: 'Advice for a safe and respectful appointment – for visitors and advertisers alike.',
      body: `
Booking an appointment through an advert directory is, at heart, an agreement between two adults. It works best when both sides feel safe, know what to expect and treat each other with respect. This guide collects the advice that advertisers and experienced visitors give again and again.

## Read the whole advert first

Every advert states what the advertiser offers, whether they receive guests or travel to you, their opening hours and their prices. Reading it properly before you get in touch saves time for both of you and avoids misunderstandings. If something is unclear, ask politely – and accept the answer.

## Make contact the way the advert asks

Some advertisers prefer a phone call, others a text message or WhatsApp. Many do not answer hidden numbers. Introduce yourself, say which advert you are calling about and suggest a time. Short, clear messages are appreciated; long conversations before a first meeting rarely are.

## Be on time – or cancel in good time

Punctuality is a form of respect. If you are delayed, send a message. If you cannot come, cancel as early as possible. An advertiser who has set time aside for you has turned other bookings down.

## Agree on the price in advance

Prices on this site include VAT and are shown in Danish kroner. Agree on the duration and the price before you meet, and have the agreed amount ready in one of the payment forms the advert accepts. Haggling on arrival is disrespectful.

## Hygiene and discretion

Arrive freshly showered and sober. Respect the advertiser's home or clinic, keep your voice down in the stairwell and never share names, addresses or phone numbers with anyone else. Discretion protects both of you.

## Boundaries are not negotiable

Everyone has the right to say no, at any time, without giving a reason. Services that are not listed in the advert are not on offer. If the advertiser ends the meeting, leave calmly.

## Look out for each other

Every adult in this directory must have chosen to advertise of their own free will. If you meet someone who seems to be under 18, who seems to be controlled by another person, who has no access to their own phone or passport, or who appears frightened, leave and report it. Use the "Report advert" button found on every advert – reports are read by our support team and can be made anonymously. In an emergency, call 112. You can also reach the police on 114.

## Reviews help everyone

After a meeting you may write a short review. Keep it factual and friendly: was the advertiser punctual, were the surroundings clean, did the advert match reality? Never include personal details or intimate descriptions. Reviews are checked before they are published.

A directory like this only works when visitors and advertisers can trust each other. Thank you for doing your part.
`,
    },
  },
  {
    url: 'saadan-fungerer-verificering',
    da: {
      title: 'Sådan fungerer verificering',
      intro: 'Alderskontrol, gennemgang hos support og mærket Valideret – forklaret trin for trin.',
      body: `
Tillid er fundamentet for et godt annoncekatalog. Brugerne vil vide, at personen på billederne findes og er voksen, og annoncørerne vil skille sig ud fra falske profiler. Derfor gennemgår hver annonce to adskilte kontroller, før den bliver synlig for offentligheden – og derfor kan annoncører desuden opnå mærket Valideret.

## Trin 1: Alderskontrol

Ingen annonce bliver offentliggjort, før ejeren har bekræftet at være mindst 18 år. Det gør annoncøren fra sit kontrolpanel, enten via en ekstern udbyder af alderskontrol eller ved at scanne en QR-kode med sin telefon. Udbyderen kontrollerer et identitetsdokument eller vurderer alderen ud fra en kort selfie-video og oplyser os kun om resultatet: over 18 eller ej. Vi modtager ikke en kopi af dokumentet fra udbyderen.

## Trin 2: Gennemgang hos support

Derefter læser en medarbejder fra vores supportteam annoncen: navn, tekster, område, ydelser, priser og hvert eneste billede. Billederne skal vise annoncøren og må ikke indeholde andre personer, mindreårige, kontaktoplysninger eller eksplicit indhold. Skal noget ændres, skriver support til annoncøren og forklarer hvorfor. Ændringer, som annoncøren laver senere, bliver gennemgået igen felt for felt, før de bliver synlige.

## Mærket Valideret

Annoncører, der vil gå et skridt videre, kan få deres identitet valideret. De uploader et billede, hvor de holder en håndskrevet seddel med sidens navn og dagens dato, eller optager en kort video. Support sammenligner med billederne i annoncen. Passer de sammen, får annoncen mærket Valideret, og brugerne kan vælge kun at se validerede annoncer i søgningen.

## Hvad sker der med filerne?

Billeder og videoer til validering gemmes privat, adskilt fra de offentlige billeder, og kun supportmedarbejdere kan se dem. De slettes, så snart der er truffet en afgørelse – kun afgørelsen, datoen og medarbejderens navn gemmes. Alle afgørelser registreres i vores log.

## Hvis valideringen afvises

En afvist validering har altid en begrundelse, for eksempel at billedet er uskarpt, eller at sedlen mangler. Annoncøren kan blot prøve igen. Bliver en annonce spærret, modtager annoncøren en begrundelse for afgørelsen og kan klage over den fra sit kontrolpanel.

## Hjælp os med at holde det ærligt

Verificering mindsker antallet af falske profiler, men intet system er perfekt. Hvis du mener, at en annonce er vildledende, eller at personen i den ikke er der af egen fri vilje, så brug knappen "Rapportér annonce". Hver rapport læses af et menneske, og sager om mindreårige eller menneskehandel behandles først.
`,
    },
    en: {
      title: 'How verification works',
      intro: 'Age verification, review by support and the Validated badge – explained step by step.',
      body: `
Trust is the foundation of a good directory. Visitors want to know that the person in the pictures is real and an adult, and advertisers want to stand out from fake profiles. That is why every advert goes through two separate checks before the public can see it – and why advertisers can also earn the Validated badge.

## Step 1: Age verification

No advert is published until its owner has confirmed that they are at least 18 years old. The advertiser does this from the dashboard, either through an external age verification provider or by scanning a QR code with a phone. The provider checks an identity document or estimates age from a short selfie video and tells us only the result: over 18 or not. We do not receive a copy of the document from the provider.

## Step 2: Review by support

A member of our support team then reads the advert: the name, texts, location, services, prices and every single picture. Pictures must show the advertiser and must not contain other people, minors, contact details or explicit content. If something needs changing, support writes to the advertiser and explains why. Changes the advertiser makes later are reviewed again, field by field, before they go live.

## The Validated badge

Advertisers who want to go one step further can have their identity validated. They upload a photo holding a handwritten note with the site name and today's date, or record a short video. Support compares it with the pictures in the advert. When they match, the advert receives the Validated badge, and visitors can choose to see validated adverts only.

## What happens to the files?

Validation pictures and videos are stored privately, separated from the public pictures, and only support staff can see them. They are deleted as soon as a decision has been made – only the decision, its date and the name of the staff member are kept. Every decision is recorded in our log.

## If validation is declined

A declined validation always comes with a reason, for example that the picture is blurred or the note is missing. The advertiser can simply try again. If an advert is locked, the advertiser receives a statement of reasons and can appeal the decision from the dashboard.

## Help us keep it honest

Verification reduces fake profiles, but no system is perfect. If you believe an advert is misleading, or that the person in it is not there of their own free will, please use the "Report advert" button. Every report is read by a person, and cases involving minors or trafficking are handled first.
`,
    },
  },
  {
    url: 'guide-til-danske-byer',
    da: {
      title: 'En guide til danske byer',
      intro: 'De fem regioner og deres byer – så finder du hurtigt annoncer tæt på dig.',
      body: `
Danmark er et lille land, og de fleste steder ligger kun få timer fra hinanden med tog eller bil. Kataloget er inddelt efter de fem regioner og byerne i dem, så du hurtigt kan finde annoncer tæt på dig – eller tæt på det sted, du besøger.

## Region Hovedstaden

København er landets største by, og her finder du flest annoncer. De centrale kvarterer som Indre By, Vesterbro og Frederiksberg er lette at nå med metroen, og lufthavnen i Kastrup ligger kun et kvarter fra centrum. Nord for byen ligger de roligere byer langs kysten, som Hellerup, Lyngby og Helsingør, mens Bornholm med Rønne som hovedby hører til samme region.

## Region Sjælland

Resten af Sjælland byder på historiske købstæder og stille landskaber. Roskilde, kendt for domkirken og sommerens festival, ligger kun 25 minutter fra København med tog. Længere mod syd finder du Køge, Næstved og Vordingborg, og over broerne venter Lolland og Falster.

## Region Syddanmark

Odense på Fyn er H.C. Andersens fødeby og en livlig universitetsby. Regionen dækker også det sydlige Jylland: Kolding, Vejle og Fredericia danner en trekant af erhvervsbyer tæt på motorvejen, mens Esbjerg på vestkysten er centrum for Danmarks offshoreindustri. Sønderborg og Aabenraa ligger tæt på den tyske grænse.

## Region Midtjylland

Aarhus er Danmarks næststørste by med et kompakt centrum, mange studerende og en travl havnefront. Inden for en time kan du nå Randers, Silkeborg, Horsens, Viborg og Herning, hvor mange af landets store messer og koncerter finder sted.

## Region Nordjylland

Aalborg er Nordjyllands hovedstad, kendt for sin havnefront og sit natteliv. Længere mod nord er Frederikshavn og Hjørring porte til færgerne til Norge og Sverige, og Skagen, hvor de to have mødes, tiltrækker gæster hele sommeren.

## Find det rette sted

Brug menuerne for region og by i søgningen, eller skriv navnet på en by i søgefeltet – stavning med eller uden æ, ø og å virker begge dele. Hver annonce viser, om annoncøren tager imod gæster (incall), kommer ud til kunder (outcall) eller begge dele. Er du på rejse, så kig efter annoncører, der tilbyder outcall til hoteller, og husk at aftale et eventuelt transporttillæg på forhånd.

## Rejs med respekt

Uanset hvor i landet du er, gælder de samme regler: Aftal tid og pris på forhånd, vær punktlig, og respekter grænserne i annoncen. Den offentlige transport kører til sent i de store byer, og taxa kan bestilles via app over hele landet.
`,
    },
    en: {
      title: 'A guide to Danish cities',
      intro: 'The five regions and their cities – so you quickly find adverts near you.',
      body: `
Denmark is a small country, and most places are within a few hours of each other by train or car. The directory is organised by the five Danish regions and the cities within them, so you can quickly find adverts near you – or near the place you are visiting.

## Capital Region of Denmark

Copenhagen is the country's largest city and the place with the most adverts. Central districts such as Indre By, Vesterbro and Frederiksberg are easy to reach by metro, and the airport in Kastrup is only fifteen minutes from the centre. North of the city lie the quieter towns along the coast, such as Hellerup, Lyngby and Helsingør, while the island of Bornholm, with Rønne as its main town, belongs to the same region.

## Region Zealand

The rest of Zealand combines historic market towns with quiet countryside. Roskilde, known for its cathedral and its summer festival, is only twenty-five minutes from Copenhagen by train. Further south you find Køge, Næstved and Vordingborg, and across the bridges the islands of Lolland and Falster.

## Region of Southern Denmark

Odense on Funen is the birthplace of Hans Christian Andersen and a lively university city. The region also covers southern Jutland: Kolding, Vejle and Fredericia form a triangle of business cities close to the motorway, while Esbjerg on the west coast is the centre of Denmark's offshore industry. Sønderborg and Aabenraa lie close to the German border.

## Central Denmark Region

Aarhus is Denmark's second city, with a compact centre, a large student population and a busy harbour front. Within an hour you can reach Randers, Silkeborg, Horsens, Viborg and Herning, which hosts many of the country's large trade fairs and concerts.

## North Denmark Region

Aalborg is the capital of the north, known for its waterfront and its nightlife. Further north, Frederikshavn and Hjørring are gateways to the ferries to Norway and Sweden, and Skagen, where the two seas meet, draws visitors all summer.

## Finding the right place

Use the region and city menus in the search, or type the name of a town in the search box – spellings with or without æ, ø and å both work. Each advert shows whether the advertiser receives guests (incall), visits clients (outcall) or both. If you are travelling, look for advertisers who offer outcall to hotels, and remember to agree on any travel surcharge in advance.

## Travelling respectfully

Wherever you are in the country, the same rules apply: agree on times and prices beforehand, be punctual and respect the boundaries in the advert. Public transport runs late in the big cities, and taxis can be booked by app everywhere.
`,
    },
  },
  {
    url: 'thaimassagens-traditioner',
    da: {
      title: 'Thaimassagens traditioner',
      intro: 'Fra templerne i Bangkok til klinikker i hele Danmark: historien bag nuad thai.',
      body: `
Thaimassage, i Thailand kendt som nuad thai, er en af de ældste former for kropsbehandling, der stadig praktiseres. I 2019 optog UNESCO den på sin liste over menneskehedens immaterielle kulturarv som anerkendelse af en tradition, der i århundreder er gået fra lærer til elev.

## Rødder i templer og familier

Traditionen føres ofte tilbage til Jivaka Kumar Bhaccha, en læge, der omtales i tidlige buddhistiske tekster, og den voksede frem omkring Thailands templer, hvor munke og healere behandlede lokalbefolkningen. Den mest kendte skole i dag ligger ved templet Wat Pho i Bangkok, hvor indskrifter i sten stadig viser de energilinjer og trykpunkter, der bruges i behandlingen. Meget af den viden blev dog givet videre i familierne, og derfor er stilarterne forskellige i det nordlige og det sydlige Thailand.

## Energilinjer og stræk

Thaimassage bygger på idéen om sen – energilinjer, der løber gennem kroppen. Massøren arbejder langs linjerne med håndflader, tommelfingre, albuer, knæ og fødder og kombinerer fast, rytmisk tryk med blide stræk inspireret af yoga. En traditionel behandling foregår på en måtte på gulvet, og kunden beholder løst og behageligt tøj på. Der bruges ingen olie.

## Sådan foregår en behandling

En typisk behandling varer mellem tres og hundrede og tyve minutter. Den begynder ved fødderne og bevæger sig langsomt op gennem kroppen. Trykket kan være kraftigt, så sig til, hvis du ønsker det blødere eller fastere – en god massør tilpasser sig altid. Mange føler sig både afslappede og fulde af energi bagefter, og strækkene kan lindre stivhed i ryg, skuldre og hofter.

## Varianter, du møder i Danmark

Mange thaimassageklinikker i Danmark tilbyder den traditionelle gulvmassage sammen med olie-massage, fodmassage, hot stone-massage og aromaterapi. Olie-massage foregår på en briks og er blødere og mere beroligende. Fodmassage, ofte i en hvilestol, fokuserer på reflekspunkter i fødderne og er en god begyndelse, hvis du aldrig har prøvet thaimassage før.

## God opførsel på klinikken

Book i forvejen, kom et par minutter før tid, og fortæl massøren om eventuelle skader, graviditet eller helbredsproblemer. Tag et bad før eller på klinikken, hvis der er mulighed for det. Vær tydelig om den behandling, du har booket, og respekter, at en massageklinik tilbyder massage – intet andet. Drikkepenge er velkomne, men aldrig forventet.

## Find en massør

Brug kategorien Thaimassage i søgningen, og filtrer efter by, sprog og åbningstider. Anmeldelser fra andre kunder fortæller om punktlighed, renlighed og teknik, og mærket Valideret viser, at support har bekræftet annoncørens identitet.
`,
    },
    en: {
      title: 'Thai massage traditions',
      intro: 'From the temples of Bangkok to clinics all over Denmark: the story behind nuad thai.',
      body: `
Thai massage, known in Thailand as nuad thai, is one of the oldest forms of bodywork still practised. In 2019 UNESCO added it to its list of the intangible cultural heritage of humanity, recognising a tradition that has been passed from teacher to student for centuries.

## Roots in temples and families

The practice is traditionally traced back to Jivaka Kumar Bhaccha, a physician described in early Buddhist texts, and it grew up around the temples of Thailand, where monks and healers treated local people. The best-known school today is at the Wat Pho temple in Bangkok, where stone inscriptions still show the energy lines and pressure points used in treatment. Much of the knowledge, however, was handed down within families, which is why styles differ between the north and the south of the country.

## Energy lines and stretching

Thai massage is built on the idea of sen, lines of energy running through the body. The therapist works along these lines with palms, thumbs, elbows, knees and feet, combining firm, rhythmic pressure with gentle stretches inspired by yoga. A traditional session takes place on a mat on the floor, and the client stays dressed in loose, comfortable clothing. No oil is used.

## What a session is like

A typical treatment lasts sixty to one hundred and twenty minutes. It begins at the feet and moves slowly up the body. The pressure can be strong, so tell your therapist if you want it softer or firmer – a good therapist always adjusts. Many people feel both relaxed and energised afterwards, and the stretches can ease stiffness in the back, shoulders and hips.

## Variations you will meet in Denmark

Many Thai massage clinics in Denmark offer the traditional floor massage alongside oil massage, foot massage, hot stone massage and aromatherapy. Oil massage is given on a massage table and is softer and more soothing. Foot massage, often in a reclining chair, focuses on reflex points in the feet and is a good start if you have never tried Thai massage before.

## Good manners at the clinic

Book in advance, arrive a few minutes early and tell the therapist about any injuries, pregnancy or health issues. Shower before you come or at the clinic if it has facilities. Be clear about the treatment you have booked, and respect that a massage clinic offers massage – nothing else. A tip is appreciated but never expected.

## Finding a therapist

Use the Thai massage category in the search and filter by city, language and opening hours. Reviews from other clients tell you about punctuality, cleanliness and technique, and the Validated badge shows that support has confirmed the advertiser's identity.
`,
    },
  },
];

const NEWS: { da: { title: string; body: string }; en: { title: string; body: string } }[] = [
  {
    da: {
      title: 'Nyt kontrolpanel til annoncører',
      body: 'Kontrolpanelet har fået nyt udseende. Du kan nu se, hvad der mangler i din annonce, følge dine køb og læse beskeder fra support ét sted. Punkter, du ikke har brug for, kan du skjule.',
    },
    en: {
      title: 'A new dashboard for advertisers',
      body: 'The dashboard has a new look. You can now see what your advert is missing, follow your purchases and read messages from support in one place. Items you do not need can be hidden.',
    },
  },
  {
    da: {
      title: 'Bliv valideret med video',
      body: 'Du kan nu validere din annonce med en kort video i stedet for et billede. Filen ses kun af support og slettes, når afgørelsen er truffet. Validerede annoncer får mærket Valideret og kan findes med filteret i søgningen.',
    },
    en: {
      title: 'Get validated with a video',
      body: 'You can now validate your advert with a short video instead of a picture. Only support sees the file, and it is deleted once a decision has been made. Validated adverts get the Validated badge and can be found with the search filter.',
    },
  },
  {
    da: {
      title: 'Husk at holde dit skema opdateret',
      body: 'Brugere kan se dine åbningstider direkte i annoncen. Et opdateret skema giver færre forgæves opkald. Skal du holde fri, så brug feriefunktionen – så skjules annoncen, indtil du er tilbage.',
    },
    en: {
      title: 'Remember to keep your schedule up to date',
      body: 'Visitors can see your opening hours directly in your advert. An up-to-date schedule means fewer wasted calls. If you are taking time off, use holiday mode – your advert is hidden until you return.',
    },
  },
];
