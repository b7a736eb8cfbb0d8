import { asc, eq, sql } from 'drizzle-orm';
import type { RiskDetails, RiskSignal, RiskWord } from '#lib/schemas/review.ts';
import { anyOf, idArray } from '../../db/any-of.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { adverts, riskWords, supportUsers } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';

/**
 * Risk signals (issue 6 "Moderation"): they never decide alone; they put an item first in support's
 * queues and flag it. The one place they are computed, in bulk for a list of adverts:
 * - `minorWords`: a word from support's list (`risk_words`) in the advert's texts, approved or proposed;
 *   the same list blocks an advertiser's save (`requireNoRiskWords`);
 * - `samePicture`: a picture whose 64-bit dHash (picture-processing.ts) is within Hamming distance
 *   `SAME_PICTURE_DISTANCE` of a picture of another account's advert;
 * - `samePhone`: the advert's phone (or its proposed phone) is the phone of another account's advert.
 */

/** Pictures this close (bits that differ out of 64) count as the same picture. */
export const SAME_PICTURE_DISTANCE = 6;

/** The advert texts the words are looked for in (and their names in the advertiser's forms). */
export const RISK_TEXT_FIELDS = { name: 'Name', title: 'Title', introduction: 'Introduction', description: 'Description' } as const;
type TextField = keyof typeof RISK_TEXT_FIELDS;

const PERMISSION = 'advert:moderate:any';

/** The list of words, lower-case. */
export async function loadRiskWords(db: Db): Promise<string[]> {
  const rows = await db.select({ word: riskWords.word }).from(riskWords).orderBy(asc(riskWords.word));
  return rows.map((row) => row.word);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A word matches at the start of a word of the text (not inside one: "teen" is not in "canteen"), in
 * any case, with any white space between its parts; forms with an ending match too ("skolepiger"), but a
 * number does not run on ("under 18" is not in "under 180").
 */
function matcherOf(word: string): RegExp {
  const body = word.split(/\s+/).map(escapeRegExp).join('\\s+');
  const end = /\p{N}$/u.test(word) ? '(?!\\p{N})' : '';
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}${end}`, 'iu');
}

/** The words of `words` found in `text`. */
export function findRiskWords(text: string, words: readonly string[]): string[] {
  if (!text) return [];
  return words.filter((word) => matcherOf(word).test(text));
}

/**
 * Refuses texts that contain a risk word: 400 naming each field (the forms' names) with the key
 * `forbiddenWords`. Called where advertisers' texts are saved (saveModeratedEdit).
 */
export async function requireNoRiskWords(db: Db, texts: Partial<Record<TextField, unknown>>): Promise<void> {
  const present = Object.entries(texts).filter((entry): entry is [TextField, string] => typeof entry[1] === 'string' && entry[1] !== '');
  if (!present.length) return;
  const words = await loadRiskWords(db);
  const failing = present.filter(([, text]) => findRiskWords(text, words).length > 0);
  if (failing.length) {
    throw new AppError(
      'INVALID',
      'The text contains words that are not allowed',
      failing.map(([field]) => ({ field: RISK_TEXT_FIELDS[field], message: 'forbiddenWords' })),
    );
  }
}

type Pair = { id: number | string; other: number | string };


export type AdvertRisk = { risk: RiskSignal[]; details: RiskDetails };

/** Risk signals of each advert in `advertIds` (every id answers, maybe with no signals). */
export async function riskSignalsFor(db: Db, advertIds: readonly number[]): Promise<Map<number, AdvertRisk>> {
  const ids = [...new Set(advertIds)];
  const details = new Map<number, RiskDetails>(ids.map((id) => [id, { words: [], samePhoneAdvertIds: [], samePictureAdvertIds: [] }]));
  if (!ids.length) return new Map();
  const [texts, words, phones, pictures] = await Promise.all([
    db
      .select({
        id: adverts.id,
        name: adverts.name,
        title: adverts.title,
        introduction: adverts.introduction,
        description: adverts.description,
        pendingChanges: adverts.pendingChanges,
      })
      .from(adverts)
      .where(anyOf(adverts.id, ids)),
    loadRiskWords(db),
    // The same phone (approved or proposed) on another account's advert that is not deleted.
    db.execute(sql`
      select a.id, b.id as other
      from adverts a
      join adverts b
        on b.account_id <> a.account_id
       and b.deleted_at is null
       and b.phone is not null
       and (b.phone = a.phone or b.phone = a.pending_changes ->> 'phone')
      where a.id = any(${idArray(ids)})
      order by a.id, b.id`),
    // A picture of the advert (any state but deleted) close to a picture of another account's advert.
    db.execute(sql`
      select distinct p1.advert_id as id, p2.advert_id as other
      from pictures p1
      join adverts a1 on a1.id = p1.advert_id
      join pictures p2
        on p2.id <> p1.id
       and p2.deleted_at is null
       and p2.perceptual_hash is not null
       and p2.advert_id is not null
      join adverts a2 on a2.id = p2.advert_id and a2.account_id <> a1.account_id and a2.deleted_at is null
      where p1.advert_id = any(${idArray(ids)})
        and p1.deleted_at is null
        and p1.perceptual_hash is not null
        and bit_count(('x' || p1.perceptual_hash)::bit(64) # ('x' || p2.perceptual_hash)::bit(64)) <= ${SAME_PICTURE_DISTANCE}
      order by 1, 2`),
  ]);
  for (const row of texts) {
    const pending = row.pendingChanges ?? {};
    const all = [row.name, row.title, row.introduction, row.description, ...(['name', 'title', 'introduction', 'description'] as const).map((f) => pending[f])]
      .filter((t): t is string => typeof t === 'string')
      .join('\n');
    details.get(row.id)!.words = findRiskWords(all, words);
  }
  for (const row of rowsOf<Pair>(phones)) details.get(Number(row.id))?.samePhoneAdvertIds.push(Number(row.other));
  for (const row of rowsOf<Pair>(pictures)) details.get(Number(row.id))?.samePictureAdvertIds.push(Number(row.other));
  const out = new Map<number, AdvertRisk>();
  for (const [id, found] of details) {
    const risk: RiskSignal[] = [];
    if (found.words.length) risk.push('minorWords');
    if (found.samePictureAdvertIds.length) risk.push('samePicture');
    if (found.samePhoneAdvertIds.length) risk.push('samePhone');
    out.set(id, { risk, details: found });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The list support edits (Support: advert:moderate:any)
// ---------------------------------------------------------------------------------------------

/** riskwords (GET): the words, alphabetically, with who added them. */
export async function listRiskWords(ctx: DomainContext): Promise<RiskWord[]> {
  requirePermission(ctx.actor, PERMISSION);
  const rows = await ctx.db
    .select({ id: riskWords.id, word: riskWords.word, createdAt: riskWords.createdAt, byId: supportUsers.id, byName: supportUsers.name })
    .from(riskWords)
    .leftJoin(supportUsers, eq(supportUsers.id, riskWords.addedBy))
    .orderBy(asc(riskWords.word));
  return rows.map((row) => ({
    id: row.id,
    word: row.word,
    addedBy: row.byId === null || row.byName === null ? null : { id: row.byId, name: row.byName },
    createdAt: row.createdAt.toISOString(),
  }));
}

/** riskwords (POST): adds a word (lower-case); a word already on the list: 409 duplicate. Audited. */
export async function addRiskWord(ctx: DomainContext, input: { Word: string }): Promise<RiskWord[]> {
  requirePermission(ctx.actor, PERMISSION);
  const addedBy = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  const [row] = await ctx.db
    .insert(riskWords)
    .values({ word: input.Word, addedBy, createdAt: ctx.now() })
    .onConflictDoNothing()
    .returning({ id: riskWords.id });
  if (!row) throw new AppError('CONFLICT', 'The word is already on the list', [{ field: 'Word', message: 'duplicate' }]);
  await writeAudit(ctx, { action: 'risk_word.add', targetType: 'risk_word', targetId: row.id, after: { word: input.Word } });
  return listRiskWords(ctx);
}

/** removeriskword: removes a word by id (404 when there is none). Audited. */
export async function removeRiskWord(ctx: DomainContext, id: number): Promise<RiskWord[]> {
  requirePermission(ctx.actor, PERMISSION);
  const [row] = await ctx.db.delete(riskWords).where(eq(riskWords.id, id)).returning();
  if (!row) throw notFound('Risk word');
  await writeAudit(ctx, { action: 'risk_word.remove', targetType: 'risk_word', targetId: row.id, before: { word: row.word } });
  return listRiskWords(ctx);
}
