import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { formatDate } from '#lib/format.ts';
import {
  MIGRATION_UNCLAIMED_DAYS,
  REFUSABLE_MIGRATED_STATES,
  type MigratedAdvertData,
  type MigratedAdvertDetail,
  type MigratedAdvertItem,
  type MigratedAdvertsQuery,
  type MigratedAdvertState,
  type MigrationDuplicate,
} from '#lib/schemas/migration.ts';
import { rowsOf } from '../../db/client.ts';
import { textArray } from '../../db/any-of.ts';
import { containing } from '../../db/like.ts';
import { adverts, cities, migratedAdverts, regions } from '../../db/schema.ts';
import { publicAdvertCondition } from '../adverts/visibility.ts';
import type { MediaStorage, StoredObject } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { kindOf } from '../adverts/statuses.ts';
import { SAME_PICTURE_DISTANCE } from '../moderation/risk-signals.ts';
import { phoneDigits } from '../support-adverts/search-profiles.ts';
import { MIGRATION_PERMISSION } from './start-import.ts';

/**
 * Support's view of the imported adverts (migrationadverts, migrationadvert, refusemigrationadvert and
 * their pictures; permission `migration:manage:any`): the list with search and state, one advert with
 * its data, its pictures at an authenticated address, and the people on the site it may belong to.
 */

type Row = typeof migratedAdverts.$inferSelect;

const DAY_MS = 86_400_000;

/** The authenticated address of an imported picture's file (support only; never public). */
export function migratedPictureUrl(id: number, index: number, variant: { width: number; format: string }): string {
  return `/api/support/migrationpicture/${id}/${index}/${variant.width}.${variant.format}`;
}

const digitsOf = (column: typeof migratedAdverts.phone) => sql`regexp_replace(coalesce(${column}, ''), '[^0-9]', '', 'g')`;

/**
 * Whether the advert an import became is public now (the one visibility rule, over the joined advert;
 * false without one). A claimed import whose advert is public is shown as `live`: worked out when read,
 * since an advert's being public changes with time (expiry, holiday) and with decisions elsewhere.
 */
const advertIsPublic = (now: Date) => sql<boolean>`coalesce((${publicAdvertCondition(now)}), false)`;

/** The state as support sees it: `live` for a claimed import whose advert is public. */
function stateOf(row: Row, isPublic: boolean): MigratedAdvertState {
  return row.state === 'claimed' && isPublic ? 'live' : (row.state as MigratedAdvertState);
}

/** The state filter: `live` and `claimed` told apart by the advert's being public now. */
function stateCondition(state: MigratedAdvertState, now: Date): SQL {
  if (state === 'live') return and(eq(migratedAdverts.state, 'claimed'), advertIsPublic(now)) as SQL;
  if (state === 'claimed') return and(eq(migratedAdverts.state, 'claimed'), sql`not ${advertIsPublic(now)}`) as SQL;
  return eq(migratedAdverts.state, state);
}

function itemOf(row: Row, regionName: string | null, cityName: string | null, isPublic: boolean): MigratedAdvertItem {
  return {
    id: row.id,
    oldId: row.oldId,
    state: stateOf(row, isPublic),
    kind: kindOf(row),
    name: row.name,
    email: row.email,
    phone: row.phone,
    regionName,
    cityName,
    pictureCount: row.pictures.length,
    importId: row.importId,
    line: row.line,
    createdAt: row.createdAt.toISOString(),
  };
}

/** migrationadverts: by old id (exact), name, email (contains), phone (digits) and state, every key given; newest first. */
export async function listMigratedAdverts(ctx: DomainContext, input: MigratedAdvertsQuery): Promise<{ total: number; items: MigratedAdvertItem[] }> {
  requirePermission(ctx.actor, MIGRATION_PERMISSION);
  const conditions: SQL[] = [];
  if (input.OldId !== '') conditions.push(eq(migratedAdverts.oldId, input.OldId));
  if (input.ImportId !== '') conditions.push(eq(migratedAdverts.importId, input.ImportId));
  if (input.State !== '') conditions.push(stateCondition(input.State, ctx.now()));
  if (input.Name) conditions.push(ilike(migratedAdverts.name, containing(input.Name)));
  if (input.Email) conditions.push(ilike(migratedAdverts.email, containing(input.Email.toLowerCase())));
  const phone = phoneDigits(input.Phone);
  if (phone) conditions.push(sql`${digitsOf(migratedAdverts.phone)} like ${containing(phone)}`);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(migratedAdverts).leftJoin(adverts, eq(adverts.id, migratedAdverts.advertId)).where(where),
    ctx.db
      .select({ row: migratedAdverts, regionName: regions.name, cityName: cities.name, isPublic: advertIsPublic(ctx.now()) })
      .from(migratedAdverts)
      .leftJoin(adverts, eq(adverts.id, migratedAdverts.advertId))
      .leftJoin(regions, eq(regions.id, migratedAdverts.regionId))
      .leftJoin(cities, eq(cities.id, migratedAdverts.cityId))
      .where(where)
      .orderBy(desc(migratedAdverts.id))
      .offset(input.Skip)
      .limit(input.Take),
  ]);
  return {
    total: Number(totals[0]?.total ?? 0),
    items: rows.map(({ row, regionName, cityName, isPublic }) => itemOf(row, regionName, cityName, isPublic)),
  };
}

async function findRow(ctx: DomainContext, id: number): Promise<{ row: Row; regionName: string | null; cityName: string | null; isPublic: boolean } | null> {
  const [found] = await ctx.db
    .select({ row: migratedAdverts, regionName: regions.name, cityName: cities.name, isPublic: advertIsPublic(ctx.now()) })
    .from(migratedAdverts)
    .leftJoin(adverts, eq(adverts.id, migratedAdverts.advertId))
    .leftJoin(regions, eq(regions.id, migratedAdverts.regionId))
    .leftJoin(cities, eq(cities.id, migratedAdverts.cityId))
    .where(eq(migratedAdverts.id, id));
  return found ?? null;
}

/** migrationadvert: one imported advert with its data, pictures and possible duplicates. */
export async function getMigratedAdvert(ctx: DomainContext, id: number): Promise<MigratedAdvertDetail> {
  requirePermission(ctx.actor, MIGRATION_PERMISSION);
  const found = await findRow(ctx, id);
  if (!found) throw notFound('Imported advert');
  const { row, regionName, cityName, isPublic } = found;
  const waiting = row.deletedAt === null && row.claimedAt === null && (REFUSABLE_MIGRATED_STATES as readonly string[]).concat('refused').includes(row.state);
  return {
    ...itemOf(row, regionName, cityName, isPublic),
    gender: row.gender,
    oldSlug: row.oldSlug,
    oldPath: `/P/${row.oldSlug}--${row.oldId}.html/`,
    regionId: row.regionId,
    cityId: row.cityId,
    data: row.deletedAt ? null : (row.data as MigratedAdvertData),
    pictures: row.pictures.map((picture, index) => ({
      index,
      fileName: picture.fileName,
      width: picture.width,
      height: picture.height,
      variants: picture.variants.map((variant) => ({
        width: variant.width,
        height: variant.height,
        format: variant.format,
        url: migratedPictureUrl(row.id, index, variant),
      })),
    })),
    refusedReason: row.refusedReason,
    accountId: row.accountId,
    advertId: row.advertId,
    invitedAt: row.invitedAt?.toISOString() ?? null,
    claimedAt: row.claimedAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    deleteOn: waiting ? formatDate(new Date(row.createdAt.getTime() + MIGRATION_UNCLAIMED_DAYS * DAY_MS)) : null,
    possibleDuplicates: row.deletedAt ? [] : await possibleDuplicates(ctx, row),
  };
}

type Match = MigrationDuplicate['matches'][number];
type Found = { type: MigrationDuplicate['type']; id: number | string; name: string | null; match: Match };

/**
 * Who on the site this import may already be: accounts with its email or phone, adverts (not deleted)
 * with its phone or a picture alike, and other imports (not deleted) with its phone, email or a picture
 * alike. Pictures are alike as the risk signals count them: the 64-bit dHash within
 * SAME_PICTURE_DISTANCE bits (an identical file always is). Support decides; nothing is marked here.
 */
async function possibleDuplicates(ctx: DomainContext, row: Row): Promise<MigrationDuplicate[]> {
  const hashes = row.pictures.map((picture) => picture.perceptualHash).filter((hash) => /^[0-9a-f]{16}$/.test(hash));
  const phone = row.phone ?? '';
  const email = row.email ?? '';
  const alike = (column: SQL) => sql`exists (
    select 1 from unnest(${textArray(hashes)}) as h(hash)
    where bit_count(('x' || ${column})::bit(64) # ('x' || h.hash)::bit(64)) <= ${SAME_PICTURE_DISTANCE})`;
  const queries: Promise<Found[]>[] = [
    ctx.db
      .execute(sql`
        select 'account' as type, a.id, (select name from adverts where account_id = a.id order by id limit 1) as name, 'email' as match
        from accounts a
        where a.erased_at is null and ${email} <> '' and a.email = ${email}
        union all
        select 'account', a.id, (select name from adverts where account_id = a.id order by id limit 1), 'phone'
        from accounts a
        where a.erased_at is null and ${phone} <> '' and a.phone = ${phone}
        union all
        select 'advert', ad.id, ad.name, 'phone' from adverts ad
        where ad.deleted_at is null and ${phone} <> '' and ad.phone = ${phone}
        union all
        select 'migratedAdvert', m.id, m.name, 'phone' from migrated_adverts m
        where m.id <> ${row.id} and m.deleted_at is null and ${phone} <> '' and m.phone = ${phone}
        union all
        select 'migratedAdvert', m.id, m.name, 'email' from migrated_adverts m
        where m.id <> ${row.id} and m.deleted_at is null and ${email} <> '' and m.email = ${email}`)
      .then((result) => rowsOf<Found>(result)),
  ];
  if (hashes.length > 0) {
    queries.push(
      ctx.db
        .execute(sql`
          select distinct 'advert' as type, ad.id, ad.name, 'picture' as match
          from pictures p join adverts ad on ad.id = p.advert_id
          where p.deleted_at is null and ad.deleted_at is null and p.perceptual_hash is not null and ${alike(sql`p.perceptual_hash`)}
          union
          select distinct 'migratedAdvert', m.id, m.name, 'picture'
          from migrated_adverts m cross join lateral jsonb_array_elements(m.pictures) as mp(picture)
          where m.id <> ${row.id} and m.deleted_at is null and ${alike(sql`(mp.picture ->> 'perceptualHash')`)}`)
        .then((result) => rowsOf<Found>(result)),
    );
  }
  const byKey = new Map<string, MigrationDuplicate>();
  for (const found of (await Promise.all(queries)).flat()) {
    const key = `${found.type}:${found.id}`;
    const entry = byKey.get(key) ?? { type: found.type, id: Number(found.id), name: found.name, matches: [] };
    entry.name ??= found.name;
    if (!entry.matches.includes(found.match)) entry.matches.push(found.match);
    byKey.set(key, entry);
  }
  const order: Record<MigrationDuplicate['type'], number> = { account: 0, advert: 1, migratedAdvert: 2 };
  const matchOrder: Match[] = ['email', 'phone', 'picture'];
  return [...byKey.values()]
    .map((entry) => ({ ...entry, matches: matchOrder.filter((m) => entry.matches.includes(m)) }))
    .sort((a, b) => order[a.type] - order[b.type] || a.id - b.id);
}

/** refusemigrationadvert: the import will not be brought over (its old address answers Gone); audited. */
export async function refuseMigratedAdvert(ctx: DomainContext, input: { Id: number; Reason: string }): Promise<MigratedAdvertDetail> {
  requirePermission(ctx.actor, MIGRATION_PERMISSION);
  const found = await findRow(ctx, input.Id);
  if (!found) throw notFound('Imported advert');
  const before = found.row.state;
  const [updated] = await ctx.db
    .update(migratedAdverts)
    .set({
      state: 'refused',
      refusedReason: input.Reason,
      decidedBy: ctx.actor.type === 'support' ? ctx.actor.supportUserId : null,
      // An invitation sent meanwhile no longer works.
      claimTokenHash: null,
      claimExpiresAt: null,
      updatedAt: ctx.now(),
    })
    .where(and(eq(migratedAdverts.id, input.Id), sql`${migratedAdverts.state} = any(${textArray(REFUSABLE_MIGRATED_STATES)})`))
    .returning({ id: migratedAdverts.id });
  if (!updated) throw new AppError('CONFLICT', 'The imported advert is already decided', [{ field: 'Id', message: 'alreadyDecided' }]);
  await writeAudit(ctx, {
    action: 'migration.refuse',
    targetType: 'migrated_advert',
    targetId: input.Id,
    before: { state: before },
    after: { state: 'refused' },
    reason: input.Reason,
  });
  return getMigratedAdvert(ctx, input.Id);
}

const PICTURE_FILE = /^(\d{1,5})\.(avif|webp)$/;

/** migrationpicture/{id}/{index}/{width}.{format}: one imported picture's private file, for support only; 404 otherwise. */
export async function openMigratedPicture(
  ctx: DomainContext,
  storage: MediaStorage,
  input: { id: number; index: number; file: string },
): Promise<StoredObject> {
  requirePermission(ctx.actor, MIGRATION_PERMISSION);
  const match = PICTURE_FILE.exec(input.file);
  const [row] = match ? await ctx.db.select({ pictures: migratedAdverts.pictures }).from(migratedAdverts).where(eq(migratedAdverts.id, input.id)) : [];
  const variant = row?.pictures[input.index]?.variants.find((item) => item.width === Number(match![1]) && item.format === match![2]);
  const stored = variant ? await storage.open('private', variant.key) : null;
  if (!stored) throw notFound('File');
  return stored;
}
