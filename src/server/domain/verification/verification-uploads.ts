import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import {
  VALIDATION_STATUS,
  VERIFICATION_STATUS,
  type ValidationPictures,
  type ValidationUploadAnswer,
  type ValidationVideo,
  type VerificationKind,
  type VerificationRefusal,
} from '#lib/schemas/verification.ts';
import { verifications, type Verification, type VerificationFile } from '../../db/schema.ts';
import type { MediaStorage, StoredObject } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert } from '../adverts/own-advert.ts';
import { refuseWhileImpersonating } from '../accounts/impersonation.ts';
import type { MediaWork } from '../media/media-work.ts';
import type { UploadedPictureFile } from '../media/picture-processing.ts';
import { checkVerificationVideo, verificationPictureToJpeg } from './verification-files.ts';
import {
  OPEN_STATUSES,
  alreadyDecided,
  fileOf,
  findLatestFileVerification,
  findOpenFileVerification,
  isComplete,
  requireMayVerify,
  setAdvertValidation,
  stateOf,
  viaOf,
} from './verification-records.ts';
import { revokeHandoffs } from './handoff.ts';

/**
 * The advertiser's verification files (spec §7: validationpictureuploader, validationpicture,
 * validationvideo, deletevalidationpicture, deletevalidationvideo). Files are checked by content and kept
 * in the PRIVATE storage area only; when the document and the selfie (or the video) are there, the
 * verification goes to support's queue (status 1 Pending) and the advert's validation status is Pending.
 */

export type VerificationMedia = { storage: MediaStorage; work: MediaWork };

const MESSAGES: Record<VerificationRefusal, string> = {
  notAnImage: 'The file is not a JPEG, PNG, WebP or HEIC picture.',
  typeMismatch: 'The file is not the type its name or type says.',
  tooLarge: 'The file is too large.',
  tooManyPixels: 'The picture has too many pixels.',
  notAVideo: 'The file is not an MP4, MOV or WebM video.',
  tooLong: 'The video is longer than 60 seconds.',
};

const refused = (reason: VerificationRefusal) => new AppError('INVALID', MESSAGES[reason], [{ field: 'file', message: reason }]);

const uploaded = (file: VerificationFile | null) => (file ? { uploadedAt: file.uploadedAt } : null);

/** validationpictureuploader: one document, selfie or video, checked, stored privately, on the open verification. */
export async function uploadVerificationFile(
  ctx: DomainContext,
  media: VerificationMedia,
  input: { kind: VerificationKind; file: UploadedPictureFile },
): Promise<ValidationUploadAnswer> {
  refuseWhileImpersonating(ctx.actor, 'verification.upload');
  const advert = await getOwnAdvert(ctx);
  requireMayVerify(advert);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'verification-'));
  try {
    const output = path.join(dir, 'kept');
    const checked = await media.work.run(() =>
      input.kind === 'video' ? checkVerificationVideo(input.file) : verificationPictureToJpeg(input.file, output),
    );
    if (!checked.ok) throw refused(checked.reason);

    const now = ctx.now();
    let row = await findOpenFileVerification(ctx.db, advert.id);
    if (!row) {
      const [created] = await ctx.db
        .insert(verifications)
        .values({ advertId: advert.id, accountId: advert.accountId, method: input.kind === 'video' ? 'video' : 'document', status: VERIFICATION_STATUS.Open, createdAt: now })
        .returning();
      row = created!;
    }
    const key = `verifications/${advert.accountId}/${row.id}/${input.kind}-${randomUUID()}.${checked.extension}`;
    await media.storage.putFile('private', key, input.kind === 'video' ? input.file.path : output, checked.contentType);

    const replaced = fileOf(row, input.kind);
    const file: VerificationFile = { kind: input.kind, key, contentType: checked.contentType, uploadedAt: now.toISOString() };
    const files = [...row.files.filter((f) => f.kind !== input.kind), file];
    const complete = isComplete(files);
    const submitting = complete && row.status === VERIFICATION_STATUS.Open;
    const hasPictures = files.some((f) => f.kind === 'document') && files.some((f) => f.kind === 'selfie');
    const [saved] = await ctx.db
      .update(verifications)
      .set({
        files,
        method: hasPictures || !files.some((f) => f.kind === 'video') ? 'document' : 'video',
        ...(submitting ? { status: VERIFICATION_STATUS.Pending, submittedAt: now } : {}),
      })
      .where(and(eq(verifications.id, row.id), inArray(verifications.status, OPEN_STATUSES)))
      .returning();
    if (!saved) {
      // Decided while this upload ran: the new file is not kept.
      await media.storage.delete('private', key);
      throw alreadyDecided();
    }
    if (replaced) await media.storage.delete('private', replaced.key);
    await writeAudit(ctx, {
      action: 'verification.upload',
      targetType: 'verification',
      targetId: row.id,
      after: { advertId: advert.id, kind: input.kind, replaced: replaced !== null, via: viaOf(ctx) },
    });
    if (submitting) await submitted(ctx, saved, advert.validationStatus);
    return { kind: input.kind, uploadedAt: file.uploadedAt, submitted: saved.status === VERIFICATION_STATUS.Pending, state: stateOf(advert, saved) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The files are complete: the advert's validation status becomes Pending, and the QR links end. */
async function submitted(ctx: DomainContext, row: Verification, before: number): Promise<void> {
  await setAdvertValidation(ctx, row.advertId!, { validationStatus: VALIDATION_STATUS.Pending });
  await revokeHandoffs(ctx.db, row.accountId, ctx.now());
  await writeAudit(ctx, {
    action: 'verification.submit',
    targetType: 'verification',
    targetId: row.id,
    before: { validationStatus: before },
    after: { advertId: row.advertId, method: row.method, validationStatus: VALIDATION_STATUS.Pending, via: viaOf(ctx) },
  });
}

/** What the advertiser sees: the open verification, else the latest one (its files until they are deleted). */
async function ownState(ctx: DomainContext) {
  const advert = await getOwnAdvert(ctx);
  const open = await findOpenFileVerification(ctx.db, advert.id);
  const shown = open ?? (await findLatestFileVerification(ctx.db, advert.id));
  const state = stateOf(advert, open);
  const reason = (state === 'declined' || state === 'rejected') && shown && shown.decidedBy !== null ? shown.reason : null;
  return { advert, open, shown, state, reason };
}

/**
 * validationpicture (GET): the state, whether the online age check is offered (a provider is configured),
 * and when the document and the selfie were uploaded.
 */
export async function getOwnValidationPictures(ctx: DomainContext, offered: { onlineCheck: boolean }): Promise<ValidationPictures> {
  const { shown, state, reason } = await ownState(ctx);
  return { state, onlineCheck: offered.onlineCheck, reason, document: uploaded(fileOf(shown, 'document')), selfie: uploaded(fileOf(shown, 'selfie')) };
}

/** validationvideo (GET): the state, and when the video was uploaded. */
export async function getOwnValidationVideo(ctx: DomainContext): Promise<ValidationVideo> {
  const { shown, state, reason } = await ownState(ctx);
  return { state, reason, video: uploaded(fileOf(shown, 'video')) };
}

/** One of the advertiser's own verification files, to look at (never anyone else's: 404). */
export async function openOwnVerificationFile(
  ctx: DomainContext,
  storage: MediaStorage,
  kind: VerificationKind,
): Promise<StoredObject & { contentType: string }> {
  refuseWhileImpersonating(ctx.actor, 'verification.files');
  const { shown } = await ownState(ctx);
  const file = fileOf(shown, kind);
  const stored = file ? await storage.open('private', file.key) : null;
  if (!file || !stored) throw notFound('Verification file');
  return { ...stored, contentType: file.contentType };
}

/**
 * deletevalidationpicture, deletevalidationvideo: removes one file while the verification is open or
 * pending; a pending one that is no longer complete goes back to open (and the advert to Not validated).
 * After a decision: 409 alreadyDecided; nothing uploaded: 404.
 */
export async function deleteOwnVerificationFile(ctx: DomainContext, storage: MediaStorage, kind: VerificationKind): Promise<void> {
  refuseWhileImpersonating(ctx.actor, 'verification.upload');
  const advert = await getOwnAdvert(ctx);
  const open = await findOpenFileVerification(ctx.db, advert.id);
  if (!open) {
    const latest = await findLatestFileVerification(ctx.db, advert.id);
    if (latest && fileOf(latest, kind)) throw alreadyDecided();
    throw notFound('Verification file');
  }
  const file = fileOf(open, kind);
  if (!file) throw notFound('Verification file');
  const files = open.files.filter((f) => f.kind !== kind);
  const withdrawn = open.status === VERIFICATION_STATUS.Pending && !isComplete(files);
  const [saved] = await ctx.db
    .update(verifications)
    .set({ files, ...(withdrawn ? { status: VERIFICATION_STATUS.Open, submittedAt: null } : {}) })
    .where(and(eq(verifications.id, open.id), inArray(verifications.status, OPEN_STATUSES)))
    .returning({ id: verifications.id });
  if (!saved) throw alreadyDecided();
  await storage.delete('private', file.key);
  if (withdrawn && advert.validationStatus === VALIDATION_STATUS.Pending) {
    await setAdvertValidation(ctx, advert.id, { validationStatus: VALIDATION_STATUS.NotValidated });
  }
  await writeAudit(ctx, {
    action: 'verification.file_delete',
    targetType: 'verification',
    targetId: open.id,
    after: { advertId: advert.id, kind, withdrawn, via: viaOf(ctx) },
  });
}
