import { and, asc, gt, lte, notExists, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { anyOf, idArray } from '../../db/any-of.ts';
import { adverts, advertSearch, advertSearchDocuments, searchIndexState } from '../../db/schema.ts';
import { publicAdvertCondition } from '../adverts/visibility.ts';
import { listAdvertCards } from './advert-card.ts';
import { recordSearchIndexChange } from './search-index-log.ts';
import { BOOST_RANK } from './ranking.ts';

const CHUNK = 500;

/**
 * The public kind of an advert (over `adverts a`) as the search index files it and the statistics count
 * it: 0 escort, 1 trans escort (kind 0 with gender 5), 2 Thai massage.
 */
export const SEARCH_KIND_OF_ADVERT = sql.raw('(case when a.kind = 1 then 2 when a.gender = 5 then 1 else 0 end)');

// What an advert's clocks (expiry, holiday, boosts) decide in its search row, over `adverts a`.
const frontPageBoosted = (nowIso: string) => sql`coalesce(a.front_page_boost_until > ${nowIso}::timestamptz, false)`;
const searchBoosted = (nowIso: string) => sql`coalesce(a.search_boost_until > ${nowIso}::timestamptz, false)`;
const rankOf = (nowIso: string) =>
  sql`(case when a.search_boost_until > ${nowIso}::timestamptz then ${BOOST_RANK}::bigint else 0 end) + (extract(epoch from a.updated_at) * 1000)::bigint`;
/** The next time the row must be looked at again: the soonest of expiry, holiday end and running boosts' ends. */
const recheckAtOf = (nowIso: string) => sql`(select min(t) from (values (a.expiration_date), (a.holiday_until),
  (case when a.search_boost_until > ${nowIso}::timestamptz then a.search_boost_until end),
  (case when a.front_page_boost_until > ${nowIso}::timestamptz then a.front_page_boost_until end)) as times(t)
  where t > ${nowIso}::timestamptz)`;

/**
 * Rebuilds the search rows of the given adverts from the adverts and their relations: a row for each
 * that is public now (the one visibility rule), none for the others. Every change to an advert calls
 * this for it; `refreshDueAdvertSearch` catches what time changes (expiry, holidays, boosts). Each chunk
 * is logged under a new index version, so in-memory readers and the incremental build see the change.
 */
export async function refreshAdvertSearch(db: Db, advertIds: number[], now: Date): Promise<void> {
  for (let start = 0; start < advertIds.length; start += CHUNK) {
    const ids = advertIds.slice(start, start + CHUNK);
    await db.delete(advertSearch).where(anyOf(advertSearch.advertId, ids));
    await db.delete(advertSearchDocuments).where(anyOf(advertSearchDocuments.advertId, ids));
    const publicRows = await db
      .select({ id: adverts.id })
      .from(adverts)
      .where(and(anyOf(adverts.id, ids), publicAdvertCondition(now)));
    const publicIds = publicRows.map((row) => row.id);
    if (publicIds.length === 0) {
      await recordSearchIndexChange(db, ids);
      continue;
    }
    const idList = idArray(publicIds);
    const nowIso = now.toISOString();
    await db.execute(sql`
      insert into advert_search (
        advert_id, kind, region_id, city_id, age, height, weight, breast_type, nationality_id, incall, outcall,
        validated, has_video, has_review, language_ids, service_ids, front_page_boosted, rank, recheck_at, refreshed_at)
      select a.id,
        ${SEARCH_KIND_OF_ADVERT},
        a.region_id, a.city_id, a.age, a.height, a.weight, a.breast_type, a.nationality_id, a.incall, a.outcall,
        a.validation_status = 2,
        exists (select 1 from videos v where v.advert_id = a.id and v.status = 2 and v.moderation_status = 1 and v.is_online and v.deleted_at is null and v.public_key is not null),
        exists (select 1 from reviews r where r.advert_id = a.id and r.status = 1),
        coalesce((select array_agg(l.language_id order by l.language_id) from advert_languages l where l.advert_id = a.id), '{}'),
        coalesce((select array_agg(x.service_id order by x.service_id) from advert_services x where x.advert_id = a.id), '{}'),
        ${frontPageBoosted(nowIso)}, ${rankOf(nowIso)}, ${recheckAtOf(nowIso)}, ${nowIso}::timestamptz
      from adverts a
      where a.id = any(${idList})`);
    await db.execute(sql`
      insert into advert_search_documents (advert_id, document, search_text, card_da, card_en)
      select a.id,
        setweight(to_tsvector('danish', a.name), 'A')
          || setweight(to_tsvector('danish', a.title || ' ' || coalesce(a.title_en, '')), 'B')
          || setweight(to_tsvector('danish', coalesce(c.name, '') || ' ' || coalesce(rg.name, '') || ' ' || coalesce(rg.name_en, '') || ' ' || coalesce(sv.names, '')), 'C')
          || to_tsvector('danish', a.introduction || ' ' || a.description || ' ' || coalesce(a.introduction_en, '') || ' ' || coalesce(a.description_en, '')),
        t.text || case when t.text ~ '[æøå]' then ' ' || replace(replace(replace(t.text, 'æ', 'ae'), 'ø', 'oe'), 'å', 'aa') else '' end,
        '{}'::jsonb, '{}'::jsonb
      from adverts a
      left join cities c on c.id = a.city_id
      left join regions rg on rg.id = a.region_id
      left join lateral (
        select string_agg(s.name_da || ' ' || s.name_en, ' ') as names
        from advert_services x join services s on s.id = x.service_id where x.advert_id = a.id
      ) sv on true
      -- The substring text, and with æ, ø and å folded as the slugs have them (ae, oe, aa): Danish typing.
      cross join lateral (select lower(a.name || ' ' || a.title || ' ' || coalesce(c.name, '') || ' ' || coalesce(sv.names, '')) as text) t
      where a.id = any(${idList})`);
    const [da, en] = await Promise.all([
      listAdvertCards(db, publicIds, 'da', now),
      listAdvertCards(db, publicIds, 'en', now),
    ]);
    const enById = new Map(en.map((card) => [card.id, card]));
    const cards = da.map((card) => ({ id: card.id, card_da: card, card_en: enById.get(card.id) ?? card }));
    await db.execute(sql`
      update advert_search_documents set card_da = v.card_da, card_en = v.card_en
      from jsonb_to_recordset(${JSON.stringify(cards)}::jsonb) as v(id integer, card_da jsonb, card_en jsonb)
      where advert_search_documents.advert_id = v.id`);
    await recordSearchIndexChange(db, ids);
  }
}

/**
 * After a change of adverts' clocks alone (a package or a boost bought, or taken back by a refund): the
 * search rows' boost flags, rank and recheck time, and the cards' boost flags, updated in place, which
 * costs a fraction of the full refresh (the texts, relations and cards are as they were). An advert whose
 * public state the change flipped (public without a row, or a row while not public) gets the full refresh.
 * Only rows whose boost flag or rank moved are logged as changed (and their cards rewritten): a package
 * for an advert that stays public moves only its recheck time, which no reader of the log (the search
 * memory, the incremental build) shows, so the searches after a payment have nothing to read again.
 * Answers how many got the full refresh (their public state changed).
 */
export async function refreshAdvertSearchClocks(db: Db, advertIds: number[], now: Date): Promise<number> {
  if (advertIds.length === 0) return 0;
  const ids = idArray(advertIds);
  const nowIso = now.toISOString();
  // The search row and its cards in one statement (the cards' update reads the ids the first returns);
  // `before` is the row as it was (a second reference to the table sees the statement's snapshot).
  const updated = await db.execute(sql`
    with clocks as (
      update advert_search s set
        front_page_boosted = ${frontPageBoosted(nowIso)}, rank = ${rankOf(nowIso)}, recheck_at = ${recheckAtOf(nowIso)},
        refreshed_at = ${nowIso}::timestamptz
      from adverts a, advert_search before
      where s.advert_id = a.id and before.advert_id = s.advert_id and a.id = any(${ids})
        and a.id in (select ${adverts.id} from ${adverts} where ${adverts.id} = any(${ids}) and ${publicAdvertCondition(now)})
      returning s.advert_id, (s.front_page_boosted is distinct from before.front_page_boosted or s.rank is distinct from before.rank) as moved),
    cards as (
      update advert_search_documents d set
        card_da = d.card_da || jsonb_build_object('frontPageBoosted', ${frontPageBoosted(nowIso)}, 'searchBoosted', ${searchBoosted(nowIso)}),
        card_en = d.card_en || jsonb_build_object('frontPageBoosted', ${frontPageBoosted(nowIso)}, 'searchBoosted', ${searchBoosted(nowIso)})
      from adverts a
      where d.advert_id = a.id and a.id in (select advert_id from clocks where moved))
    select advert_id, moved from clocks`);
  const rows = rowsOf<{ advert_id: number; moved: boolean }>(updated);
  const inPlace = rows.map((row) => Number(row.advert_id));
  const moved = rows.filter((row) => row.moved).map((row) => Number(row.advert_id));
  if (moved.length > 0) await recordSearchIndexChange(db, moved);
  const rest = advertIds.filter((id) => !inPlace.includes(id));
  if (rest.length > 0) await refreshAdvertSearch(db, rest, now);
  return rest.length;
}

/** Every advert, in chunks (first start, or after the index's shape changed). */
export async function refreshAllAdvertSearch(db: Db, now: Date): Promise<number> {
  const count = await refreshEvery(db, now);
  await db.execute(sql`analyze advert_search`);
  await db.execute(sql`analyze advert_search_documents`);
  return count;
}

async function refreshEvery(db: Db, now: Date): Promise<number> {
  let afterId = 0;
  let count = 0;
  for (;;) {
    const rows = await db
      .select({ id: adverts.id })
      .from(adverts)
      .where(gt(adverts.id, afterId))
      .orderBy(asc(adverts.id))
      .limit(CHUNK * 4);
    if (rows.length === 0) return count;
    const ids = rows.map((row) => row.id);
    await refreshAdvertSearch(db, ids, now);
    count += ids.length;
    afterId = ids.at(-1)!;
  }
}

/** A look for ended holidays reaches back this far before the last look (a slow or crashed run). */
const LOOK_MARGIN_MS = 10 * 60_000;

/**
 * What time changed since the last look: rows whose expiry, holiday or boost has come, and public
 * adverts that have no row yet because their holiday ended since the last look (kept in
 * search_index_state; the first look checks every advert). Runs at start and every minute; cheap when
 * nothing is due (it never scans the wide adverts table but the first time).
 */
export async function refreshDueAdvertSearch(db: Db, now: Date): Promise<number> {
  const [state] = await db.select({ checkedAt: searchIndexState.checkedAt }).from(searchIndexState);
  const since = state?.checkedAt ? new Date(state.checkedAt.getTime() - LOOK_MARGIN_MS) : null;
  const due = await db.select({ id: advertSearch.advertId }).from(advertSearch).where(lte(advertSearch.recheckAt, now));
  const missing = await db
    .select({ id: adverts.id })
    .from(adverts)
    .where(
      and(
        since ? gt(adverts.holidayUntil, since) : undefined,
        publicAdvertCondition(now),
        notExists(db.select({ one: sql`1` }).from(advertSearch).where(sql`${advertSearch.advertId} = ${adverts.id}`)),
      ),
    );
  const ids = [...new Set([...due, ...missing].map((row) => row.id))];
  if (ids.length > 0) await refreshAdvertSearch(db, ids, now);
  await db.update(searchIndexState).set({ checkedAt: now });
  // After a large change (first start, a seed) the planner needs fresh statistics.
  if (ids.length > 1000) {
    await db.execute(sql`analyze advert_search`);
    await db.execute(sql`analyze advert_search_documents`);
  }
  return ids.length;
}
