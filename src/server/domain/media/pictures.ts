import { createHash } from 'node:crypto';
import { and, asc, count, eq, isNotNull, isNull, lt, max, ne } from 'drizzle-orm';
import { formatDate } from '#lib/format.ts';
import { MEDIA_LIMITS, type BackendPicture, type ModerationWord, type PictureUploadAnswer } from '#lib/schemas/media.ts';
import type { Db } from '../../db/client.ts';
import { adverts, pictures, type Picture } from '../../db/schema.ts';
import { notifyMediaDecision } from './media-notices.ts';
import type { MediaStorage, Messaging } from '../../adapters/types.ts';
import type { TermsRule } from '#lib/schemas/moderation.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { getOwnAdvert, publishAdvertChange } from '../adverts/own-advert.ts';
import { publicPicture } from '../search/advert-card.ts';
import type { MediaWork } from './media-work.ts';
import { processPicture, removePictureFiles, type RenderOutcome, type UploadedPictureFile } from './picture-processing.ts';
import { privatePictureUrl, type MediaViewer } from './publication.ts';

/**
 * The advertiser's pictures and support's decisions on them (spec §7 media calls; docs/decisions/013).
 * Every call on an id looks it up together with the caller's advert, so another advertiser's picture
 * answers 404 like a missing one. New pictures are pending; the public sees approved, online, not
 * deleted ones (`publicPictureCondition`), and every change that can alter that calls publishAdvertChange.
 */

/** Storage and the media queue: what picture work needs beyond the DomainContext. */
/** Where pictures are stored, the media queue, and what renders them (the render worker in the server). */
export type PictureMedia = { storage: MediaStorage; work: MediaWork; render?: (file: UploadedPictureFile) => Promise<RenderOutcome> };

export const MODERATION = { pending: 0, approved: 1, declined: 2 } as const;
const MODERATION_WORDS: ModerationWord[] = ['pending', 'approved', 'declined'];

/** Whether the public sees this picture once the advert's media are published: approved, online, not deleted. */
function publishable(picture: Pick<Picture, 'moderationStatus' | 'isOnline' | 'deletedAt'>): boolean {
  return picture.moderationStatus === MODERATION.approved && picture.isOnline && picture.deletedAt === null;
}

/** The pictures the public sees, in the order cards and the profile show them (primary first, then by order). */
function publicOrder(rows: Picture[]): string {
  return rows
    .filter(publishable)
    .sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || a.sortOrder - b.sortOrder || a.id - b.id)
    .map((row) => row.id)
    .join(',');
}

/** How long a temporary upload (made during /create) waits for its account. */
export const TEMP_PICTURE_HOURS = 24;

/**
 * A picture as its owner (`advertiser`, also the browser of /create: `upload`) or support sees it, in any
 * state: its variants at the authenticated URLs of that viewer (private files, `Cache-Control: private,
 * no-store`), never at a public one (docs/decisions/013).
 */
export function backendPicture(row: Picture, viewer: MediaViewer = 'advertiser'): BackendPicture {
  return {
    ...publicPicture(row, (variant) => privatePictureUrl(viewer, row.id, variant)),
    isPrimary: row.isPrimary,
    isOnline: row.isOnline,
    sortOrder: row.sortOrder,
    moderation: MODERATION_WORDS[row.moderationStatus] ?? 'pending',
    declineReason: row.declineReason,
    uploadedOn: formatDate(row.createdAt),
  };
}

/** The advert's pictures that are not deleted, in their order (primary first among equals). */
async function listAdvertPictures(db: Db, advertId: number, options: { lock?: boolean } = {}): Promise<Picture[]> {
  const query = db
    .select()
    .from(pictures)
    .where(and(eq(pictures.advertId, advertId), isNull(pictures.deletedAt)))
    .orderBy(asc(pictures.sortOrder), asc(pictures.id));
  return options.lock ? await query.for('update') : await query;
}

/**
 * THE way every change to an advert's pictures runs: in one transaction with the advert's pictures locked,
 * and the advert published (media sync, search row, site rebuild) only when what the public sees changed:
 * the public pictures or their order (`publicOrder`), as `isPublicVideo` decides for videos. A pending,
 * declined or offline picture's changes publish nothing. Both sides are read under the lock, so a
 * concurrent change is never compared against a stale "before". `change` gets the transaction's context
 * and the locked rows; answers its result and the pictures after it.
 */
async function changeAdvertPictures<T>(
  ctx: DomainContext,
  advertId: number,
  reason: string,
  change: (txCtx: DomainContext, before: Picture[]) => Promise<T>,
): Promise<{ result: T; after: Picture[] }> {
  const { before, after, result } = await ctx.db.transaction(async (tx) => {
    const before = await listAdvertPictures(tx, advertId, { lock: true });
    const result = await change({ ...ctx, db: tx }, before);
    return { before, after: await listAdvertPictures(tx, advertId), result };
  });
  if (publicOrder(before) !== publicOrder(after)) await publishAdvertChange(ctx, advertId, reason);
  return { result, after };
}

/** The locked row of one picture among `rows` (it may have been deleted meanwhile: 404). */
function lockedPicture(rows: Picture[], pictureId: number): Picture {
  const row = rows.find((candidate) => candidate.id === pictureId);
  if (!row) throw notFound('Picture');
  return row;
}

/** profilepictures: the caller's pictures with their state (pending, declined, offline included). */
export async function listOwnPictures(ctx: DomainContext): Promise<BackendPicture[]> {
  const advert = await getOwnAdvert(ctx);
  return (await listAdvertPictures(ctx.db, advert.id)).map((row) => backendPicture(row));
}

/** One of the caller's pictures (not deleted), or 404. */
async function ownPicture(ctx: DomainContext, pictureId: number): Promise<{ advertId: number; picture: Picture }> {
  const advert = await getOwnAdvert(ctx);
  const [picture] = await ctx.db
    .select()
    .from(pictures)
    .where(and(eq(pictures.id, pictureId), eq(pictures.advertId, advert.id), isNull(pictures.deletedAt)));
  if (!picture) throw notFound('Picture');
  return { advertId: advert.id, picture };
}

type Owner = { advertId: number } | { tempToken: string };

const ownerCondition = (owner: Owner) =>
  'advertId' in owner
    ? and(eq(pictures.advertId, owner.advertId), isNull(pictures.deletedAt))
    : and(eq(pictures.tempToken, owner.tempToken), isNull(pictures.advertId), isNull(pictures.deletedAt));

/**
 * Processes the files one by one through the media queue and stores the accepted ones as pending
 * pictures of the owner; the first picture of an advert becomes its primary. Files beyond
 * picturesPerAdvert are refused without being decoded.
 */
async function storeUploads(ctx: DomainContext, media: PictureMedia, owner: Owner, files: UploadedPictureFile[]): Promise<PictureUploadAnswer> {
  const [kept] = await ctx.db.select({ n: count(), top: max(pictures.sortOrder) }).from(pictures).where(ownerCondition(owner));
  let total = kept?.n ?? 0;
  let nextOrder = kept?.top == null ? 0 : kept.top + 1;
  const folder = 'advertId' in owner ? String(owner.advertId) : 'temp';
  const results: PictureUploadAnswer['results'] = [];
  for (const file of files) {
    const name = file.fileName.slice(0, 200);
    if (total >= MEDIA_LIMITS.picturesPerAdvert) {
      results.push({ file: name, ok: false, reason: 'tooManyPictures' });
      continue;
    }
    const outcome = await media.work.run(() => processPicture(media.storage, file, folder, media.render));
    if (!outcome.ok) {
      results.push({ file: name, ok: false, reason: outcome.reason });
      continue;
    }
    const processed = outcome.picture;
    try {
      const row = await ctx.db.transaction(async (tx) => {
        const [primary] =
          'advertId' in owner
            ? await tx.select({ id: pictures.id }).from(pictures).where(and(ownerCondition(owner), eq(pictures.isPrimary, true))).limit(1)
            : [{ id: 0 }];
        const [inserted] = await tx
          .insert(pictures)
          .values({
            advertId: 'advertId' in owner ? owner.advertId : null,
            tempToken: 'tempToken' in owner ? owner.tempToken : null,
            storageKey: processed.storageKey,
            originalKey: processed.originalKey,
            variants: processed.variants,
            width: processed.width,
            height: processed.height,
            perceptualHash: processed.perceptualHash,
            isPrimary: !primary,
            sortOrder: nextOrder,
            moderationStatus: MODERATION.pending,
            createdAt: ctx.now(),
          })
          .returning();
        return inserted!;
      });
      total += 1;
      nextOrder += 1;
      if ('advertId' in owner) {
        await writeAudit(ctx, {
          action: 'picture.upload',
          targetType: 'picture',
          targetId: row.id,
          after: { advertId: owner.advertId, width: row.width, height: row.height, type: processed.family },
        });
      }
      results.push({ file: name, ok: true, picture: backendPicture(row, 'advertId' in owner ? 'advertiser' : 'upload') });
    } catch (error) {
      await removePictureFiles(media.storage, processed).catch(() => {});
      throw error;
    }
  }
  return { results };
}

/** profilepictureuploader: the caller's new pictures, pending until support approves them. */
export async function uploadOwnPictures(ctx: DomainContext, media: PictureMedia, files: UploadedPictureFile[]): Promise<PictureUploadAnswer> {
  const advert = await getOwnAdvert(ctx);
  return storeUploads(ctx, media, { advertId: advert.id }, files);
}

/** The stored form of an upload token (the cookie's value is never stored). */
export function hashUploadToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** profilepictureuploadertemp: pictures uploaded during /create, kept under the browser's upload token. */
export async function uploadTempPictures(
  ctx: DomainContext,
  media: PictureMedia,
  token: string,
  files: UploadedPictureFile[],
): Promise<PictureUploadAnswer> {
  return storeUploads(ctx, media, { tempToken: hashUploadToken(token) }, files);
}

/** removetempimage: one of this upload token's pictures, rows and files; any other id answers 404. */
export async function removeTempPicture(ctx: DomainContext, storage: MediaStorage, token: string | undefined, pictureId: number): Promise<void> {
  if (!token) throw notFound('Picture');
  const [picture] = await ctx.db
    .delete(pictures)
    .where(and(eq(pictures.id, pictureId), ownerCondition({ tempToken: hashUploadToken(token) })))
    .returning();
  if (!picture) throw notFound('Picture');
  await removePictureFiles(storage, picture);
}

/**
 * createprofile: the caller's temporary pictures become the new advert's (their keys stay under
 * `pictures/temp/`; only the row changes). The first becomes primary. Answers how many.
 */
export async function attachTempPictures(db: Db, token: string, advertId: number): Promise<number> {
  const hashed = hashUploadToken(token);
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: pictures.id })
      .from(pictures)
      .where(ownerCondition({ tempToken: hashed }))
      .orderBy(asc(pictures.sortOrder), asc(pictures.id))
      .limit(MEDIA_LIMITS.picturesPerAdvert);
    for (const [index, row] of rows.entries()) {
      await tx
        .update(pictures)
        .set({ advertId, tempToken: null, sortOrder: index, isPrimary: index === 0 })
        .where(eq(pictures.id, row.id));
    }
    return rows.length;
  });
}

/** The cleanup: temporary uploads older than a day that no account took, rows and files. Answers how many. */
export async function deleteStaleTempPictures(db: Db, storage: MediaStorage, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - TEMP_PICTURE_HOURS * 3_600_000);
  const stale = await db
    .delete(pictures)
    .where(and(isNull(pictures.advertId), isNotNull(pictures.tempToken), lt(pictures.createdAt, cutoff)))
    .returning();
  for (const picture of stale) await removePictureFiles(storage, picture);
  return stale.length;
}

/** updateimagestatus: online (shown once approved) or offline. */
export async function setPictureOnline(ctx: DomainContext, pictureId: number, online: boolean): Promise<BackendPicture> {
  const { advertId } = await ownPicture(ctx, pictureId);
  const { result: updated } = await changeAdvertPictures(ctx, advertId, 'picture.online', async (txCtx, rows) => {
    const picture = lockedPicture(rows, pictureId);
    const [row] = await txCtx.db.update(pictures).set({ isOnline: online }).where(eq(pictures.id, picture.id)).returning();
    await writeAudit(txCtx, { action: 'picture.online', targetType: 'picture', targetId: picture.id, before: { isOnline: picture.isOnline }, after: { isOnline: online } });
    return row!;
  });
  return backendPicture(updated);
}

/** setprimarypicture: this picture first on cards and the profile (once it is public). */
export async function setPrimaryPicture(ctx: DomainContext, pictureId: number): Promise<BackendPicture[]> {
  const { advertId, picture } = await ownPicture(ctx, pictureId);
  if (picture.isPrimary) return (await listAdvertPictures(ctx.db, advertId)).map((row) => backendPicture(row));
  const { after } = await changeAdvertPictures(ctx, advertId, 'picture.primary', async (txCtx) => {
    await txCtx.db.update(pictures).set({ isPrimary: false }).where(and(eq(pictures.advertId, advertId), ne(pictures.id, picture.id)));
    await txCtx.db.update(pictures).set({ isPrimary: true }).where(eq(pictures.id, picture.id));
    await writeAudit(txCtx, { action: 'picture.primary', targetType: 'picture', targetId: picture.id });
  });
  return after.map((row) => backendPicture(row));
}

/**
 * reorderimages: every picture id of the caller's advert in the new order; an id of another advert
 * answers 404, a missing or repeated one 400.
 */
export async function reorderPictures(ctx: DomainContext, ids: number[]): Promise<BackendPicture[]> {
  const advert = await getOwnAdvert(ctx);
  const { after } = await changeAdvertPictures(ctx, advert.id, 'picture.reorder', async (txCtx, rows) => {
    const own = new Set(rows.map((row) => row.id));
    if (ids.some((id) => !own.has(id))) throw notFound('Picture');
    if (new Set(ids).size !== ids.length || ids.length !== own.size) {
      throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Ids', message: 'order' }]);
    }
    for (const [index, id] of ids.entries()) {
      await txCtx.db.update(pictures).set({ sortOrder: index }).where(and(eq(pictures.id, id), eq(pictures.advertId, advert.id)));
    }
    await writeAudit(txCtx, { action: 'picture.reorder', targetType: 'advert', targetId: advert.id, before: rows.map((row) => row.id), after: ids });
  });
  return after.map((row) => backendPicture(row));
}

/**
 * Soft-deletes a picture and hands a primary's role to the next picture, in the caller's transaction
 * (`changeAdvertPictures`); the caller deletes its files (private and published) after the commit.
 */
async function deletePictureRow(txCtx: DomainContext, advertId: number, picture: Picture): Promise<void> {
  const tx = txCtx.db;
  await tx.update(pictures).set({ deletedAt: txCtx.now(), isPrimary: false, publicKey: null }).where(eq(pictures.id, picture.id));
  if (picture.isPrimary) {
    const [next] = await tx
      .select({ id: pictures.id })
      .from(pictures)
      .where(and(eq(pictures.advertId, advertId), isNull(pictures.deletedAt)))
      .orderBy(asc(pictures.sortOrder), asc(pictures.id))
      .limit(1);
    if (next) await tx.update(pictures).set({ isPrimary: true }).where(eq(pictures.id, next.id));
  }
}

/** deleteprofilepicture: the picture and its files are gone; a primary's role moves to the next. */
export async function deleteOwnPicture(ctx: DomainContext, storage: MediaStorage, pictureId: number): Promise<BackendPicture[]> {
  const { advertId } = await ownPicture(ctx, pictureId);
  const { result: picture, after } = await changeAdvertPictures(ctx, advertId, 'picture.delete', async (txCtx, rows) => {
    const picture = lockedPicture(rows, pictureId);
    await deletePictureRow(txCtx, advertId, picture);
    await writeAudit(txCtx, { action: 'picture.delete', targetType: 'picture', targetId: picture.id, before: { storageKey: picture.storageKey } });
    return picture;
  });
  await removePictureFiles(storage, picture);
  return after.map((row) => backendPicture(row));
}

// Support's moderation ------------------------------------------------------------------------

export type PictureDecision = 'approve' | 'decline' | 'remove';


/**
 * approveimageitem, declineimageitem (with a reason), removeimageitem: support's decision on any
 * advert's picture (permission advert:moderate:any). Written to the audit log; a decline or removal
 * is a statement of reasons to the advertiser (notification and email, with the reason, the rule and how
 * to appeal).
 */
export async function moderatePicture(
  ctx: DomainContext,
  storage: MediaStorage,
  input: { id: number; decision: PictureDecision; reason?: string; rule?: TermsRule },
  deps: { messaging: Messaging },
): Promise<BackendPicture> {
  requirePermission(ctx.actor, 'advert:moderate:any');
  const supportUserId = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  const [found] = await ctx.db
    .select({ picture: pictures, accountId: adverts.accountId })
    .from(pictures)
    .innerJoin(adverts, eq(adverts.id, pictures.advertId))
    .where(and(eq(pictures.id, input.id), isNull(pictures.deletedAt)));
  if (!found) throw notFound('Picture');
  const { accountId } = found;
  const advertId = found.picture.advertId!;
  const reason = input.reason?.trim() || null;
  const moderated = { moderatedBy: supportUserId, moderatedAt: ctx.now() };

  const {
    result: { picture, after },
  } = await changeAdvertPictures(ctx, advertId, `picture.${input.decision}`, async (txCtx, rows) => {
    const picture = lockedPicture(rows, input.id);
    let after: Picture;
    if (input.decision === 'remove') {
      await txCtx.db.update(pictures).set(moderated).where(eq(pictures.id, picture.id));
      await deletePictureRow(txCtx, advertId, picture);
      after = { ...picture, ...moderated, deletedAt: ctx.now() };
    } else {
      const status = input.decision === 'approve' ? MODERATION.approved : MODERATION.declined;
      const [updated] = await txCtx.db
        .update(pictures)
        .set({ ...moderated, moderationStatus: status, declineReason: input.decision === 'decline' ? reason : null })
        .where(eq(pictures.id, picture.id))
        .returning();
      after = updated!;
    }
    await writeAudit(txCtx, {
      action: `picture.${input.decision}`,
      targetType: 'picture',
      targetId: picture.id,
      before: { moderationStatus: picture.moderationStatus, advertId },
      after: { moderationStatus: after.moderationStatus, deleted: after.deletedAt !== null },
      reason,
    });
    return { picture, after };
  });
  if (input.decision === 'remove') await removePictureFiles(storage, picture);
  if (input.decision !== 'approve') {
    await notifyMediaDecision(
      ctx,
      { accountId, advertId, media: 'picture', mediaId: picture.id, decision: input.decision, reason, rule: input.rule },
      deps,
    );
  }
  return backendPicture(after, 'support');
}
