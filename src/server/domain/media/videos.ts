import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, isNull, max } from 'drizzle-orm';
import type * as v from 'valibot';
import { formatDate } from '#lib/format.ts';
import { MEDIA_LIMITS, type BackendVideo, type ModerationWord, type VideoFailure } from '#lib/schemas/media.ts';
import type {
  ModerationDecisionSchema,
  ModerationItemSchema,
  ReorderVideosSchema,
  UpdateVideoStatusSchema,
  VideoIdSchema,
} from '#lib/schemas/media-calls.ts';
import { adverts, videos, type Video } from '../../db/schema.ts';
import { notifyMediaDecision } from './media-notices.ts';
import type { MediaStorage, Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert, publishAdvertChange } from '../adverts/own-advert.ts';
import type { MediaWork } from './media-work.ts';
import { probeVideo, refusalOf } from './video-processing.ts';
import { privateVideoUrl, type MediaViewer } from './publication.ts';

/**
 * The advertiser's videos (docs/decisions/013): upload (probe, store the original privately, queue the
 * durable transcode job), list, show/hide, reorder, delete; the encoder's postbacks; support's
 * moderation. Only ready, approved, online, not deleted videos are public.
 */

/** Processing status of a video row. */
export const VIDEO_STATUS = { uploaded: 0, converting: 1, ready: 2, failed: 3 } as const;
/** Moderation status of a video row. */
export const VIDEO_MODERATION = { pending: 0, approved: 1, declined: 2 } as const;

const moderationWords: Record<number, ModerationWord> = { 0: 'pending', 1: 'approved', 2: 'declined' };

/**
 * The answer shape of one video (profilevideos, the upload, the hub events, support's review): poster and
 * MP4 at the viewer's authenticated URLs (private files; docs/decisions/013).
 */
export function backendVideo(row: Video, viewer: Exclude<MediaViewer, 'upload'> = 'advertiser'): BackendVideo {
  const processing = row.status === VIDEO_STATUS.ready ? 'ready' : row.status === VIDEO_STATUS.failed ? 'failed' : 'converting';
  return {
    id: row.id,
    processing,
    failure: processing === 'failed' ? ((row.failureReason as VideoFailure | null) ?? 'transcodeFailed') : null,
    posterUrl: row.posterKey ? privateVideoUrl(viewer, row.id, 'poster') : null,
    videoUrl: processing === 'ready' && row.videoKey ? privateVideoUrl(viewer, row.id, 'video') : null,
    width: row.width,
    height: row.height,
    durationSeconds: row.durationSeconds,
    isOnline: row.isOnline,
    sortOrder: row.sortOrder,
    moderation: moderationWords[row.moderationStatus] ?? 'pending',
    declineReason: row.declineReason,
    uploadedOn: formatDate(row.createdAt),
  };
}

/** Whether visitors see the video (the same rule as fullprofile and the search index's has_video). */
export function isPublicVideo(row: Video): boolean {
  return (
    row.status === VIDEO_STATUS.ready && row.moderationStatus === VIDEO_MODERATION.approved && row.isOnline && row.deletedAt === null
  );
}

/** A 400 naming the uploaded file, with the reason key the videos screen translates. */
function refused(reason: VideoFailure | 'tooManyVideos'): AppError {
  const messages: Record<string, string> = {
    notAVideo: 'The file is not an MP4, MOV or WebM video',
    tooLong: `The video is longer than ${MEDIA_LIMITS.videoSeconds} seconds`,
    tooLarge: `The file is larger than ${MEDIA_LIMITS.videoBytes / 1024 / 1024} MB`,
    tooManyVideos: `An advert can have at most ${MEDIA_LIMITS.videosPerAdvert} videos`,
  };
  return new AppError('INVALID', messages[reason] ?? reason, [{ field: 'file', message: reason }]);
}

async function videosOf(ctx: DomainContext, advertId: number): Promise<Video[]> {
  return ctx.db
    .select()
    .from(videos)
    .where(and(eq(videos.advertId, advertId), isNull(videos.deletedAt)))
    .orderBy(asc(videos.sortOrder), asc(videos.id));
}

/** One of the caller's own videos; another advertiser's (or a deleted one) answers 404 like a missing one. */
async function getOwnVideo(ctx: DomainContext, videoId: number): Promise<{ advertId: number; video: Video }> {
  const advert = await getOwnAdvert(ctx);
  const [video] = await ctx.db
    .select()
    .from(videos)
    .where(and(eq(videos.id, videoId), eq(videos.advertId, advert.id), isNull(videos.deletedAt)));
  if (!video) throw notFound('Video');
  return { advertId: advert.id, video };
}

/** profilevideos: the caller's videos in their order, with processing and moderation state. */
export async function listVideos(ctx: DomainContext): Promise<BackendVideo[]> {
  const advert = await getOwnAdvert(ctx);
  return (await videosOf(ctx, advert.id)).map((row) => backendVideo(row));
}

/** Refuses an upload before any work when the advert already has its maximum of videos. */
export async function requireRoomForVideo(ctx: DomainContext): Promise<void> {
  const advert = await getOwnAdvert(ctx);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(videos)
    .where(and(eq(videos.advertId, advert.id), isNull(videos.deletedAt)));
  if ((row?.n ?? 0) >= MEDIA_LIMITS.videosPerAdvert) throw refused('tooManyVideos');
}

export type UploadedVideoFile = { path: string; truncated: boolean };

/**
 * profilevideouploader: checks the received file (size, then ffprobe in the media queue: a video stream
 * in MP4, MOV or WebM, at most 180 s), keeps it privately, adds the video as converting and pending, and
 * queues the transcode job. Refusals are 400s naming `file` with a VideoFailure key.
 */
export async function uploadVideo(
  ctx: DomainContext,
  media: { storage: MediaStorage; mediaWork: MediaWork; queueTranscode: (videoId: number) => Promise<void> },
  file: UploadedVideoFile,
): Promise<BackendVideo> {
  if (file.truncated) throw refused('tooLarge');
  await requireRoomForVideo(ctx);
  const advert = await getOwnAdvert(ctx);
  const probe = await media.mediaWork.run(() => probeVideo(file.path));
  const refusal = refusalOf(probe);
  if (refusal) throw refused(refusal);

  const storageKey = `videos/${advert.id}/${randomUUID()}`;
  const originalKey = `${storageKey}.orig`;
  await media.storage.putFile('private', originalKey, file.path, 'application/octet-stream');
  const [last] = await ctx.db
    .select({ n: max(videos.sortOrder) })
    .from(videos)
    .where(and(eq(videos.advertId, advert.id), isNull(videos.deletedAt)));
  const [row] = await ctx.db
    .insert(videos)
    .values({
      advertId: advert.id,
      storageKey,
      originalKey,
      status: VIDEO_STATUS.converting,
      moderationStatus: VIDEO_MODERATION.pending,
      sortOrder: (last?.n ?? -1) + 1,
      isOnline: true,
    })
    .returning();
  await media.queueTranscode(row!.id);
  return backendVideo(row!);
}

/** updatevideostatus: shows or hides one of the caller's videos. */
export async function updateVideoStatus(
  ctx: DomainContext,
  input: v.InferOutput<typeof UpdateVideoStatusSchema>,
): Promise<BackendVideo> {
  const { advertId, video } = await getOwnVideo(ctx, input.VideoId);
  const [row] = await ctx.db.update(videos).set({ isOnline: input.Online }).where(eq(videos.id, video.id)).returning();
  if (isPublicVideo(video) !== isPublicVideo(row!)) await publishAdvertChange(ctx, advertId, 'advert.video.status');
  return backendVideo(row!);
}

/** reordervideos: the given ids (all the caller's own) first, in that order; the rest keep theirs after them. */
export async function reorderVideos(ctx: DomainContext, input: v.InferOutput<typeof ReorderVideosSchema>): Promise<BackendVideo[]> {
  const advert = await getOwnAdvert(ctx);
  const current = await videosOf(ctx, advert.id);
  const ids = [...new Set(input.Ids)];
  const known = new Set(current.map((row) => row.id));
  if (ids.some((id) => !known.has(id))) throw notFound('Video');
  const order = [...ids, ...current.map((row) => row.id).filter((id) => !ids.includes(id))];
  await ctx.db.transaction(async (tx) => {
    for (const [index, id] of order.entries()) {
      await tx.update(videos).set({ sortOrder: index }).where(and(eq(videos.id, id), eq(videos.advertId, advert.id)));
    }
  });
  if (current.some(isPublicVideo)) await publishAdvertChange(ctx, advert.id, 'advert.videos.reorder');
  return (await videosOf(ctx, advert.id)).map((row) => backendVideo(row));
}

/** Deletes a video's files (original, poster, MP4, published copies); a missing one is not an error. */
export async function deleteVideoFiles(storage: MediaStorage, video: Video): Promise<void> {
  await Promise.all([
    video.originalKey ? storage.delete('private', video.originalKey) : undefined,
    video.posterKey ? storage.delete('private', video.posterKey) : undefined,
    video.videoKey ? storage.delete('private', video.videoKey) : undefined,
    video.publicKey ? storage.deletePrefix('public', video.publicKey) : undefined,
  ]);
}

/** Marks a video deleted (a transcode still running sees it and drops its files) and deletes its files. */
async function softDelete(ctx: DomainContext, storage: MediaStorage, video: Video): Promise<void> {
  await ctx.db.update(videos).set({ deletedAt: ctx.now(), isOnline: false, publicKey: null }).where(eq(videos.id, video.id));
  await deleteVideoFiles(storage, video);
}

/** removeimage (the spec's name for deleting a video): the caller deletes one of their videos. */
export async function removeVideo(
  ctx: DomainContext,
  storage: MediaStorage,
  input: v.InferOutput<typeof VideoIdSchema>,
): Promise<void> {
  const { advertId, video } = await getOwnVideo(ctx, input.VideoId);
  await softDelete(ctx, storage, video);
  await writeAudit(ctx, { action: 'video.delete', targetType: 'video', targetId: video.id, before: backendVideo(video) });
  if (isPublicVideo(video)) await publishAdvertChange(ctx, advertId, 'advert.video.delete');
}

// ---------------------------------------------------------------------------------------------
// The encoder's postbacks (system actor, after the door has checked the signature)
// ---------------------------------------------------------------------------------------------

export type VideoChange = { accountId: number; video: BackendVideo };

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

async function videoForEncoder(ctx: DomainContext, videoId: number): Promise<{ video: Video; accountId: number }> {
  requirePermission(ctx.actor, 'advert:moderate:any');
  const [row] = await ctx.db
    .select({ video: videos, accountId: adverts.accountId })
    .from(videos)
    .innerJoin(adverts, eq(adverts.id, videos.advertId))
    .where(and(eq(videos.id, videoId), isNull(videos.deletedAt)));
  if (!row) throw notFound('Video');
  return row;
}

/** A key the encoder reports must be one of this video's own public names. */
function requireOwnKey(video: Video, key: string, suffix: string): void {
  if (!KEY.test(key) || key.includes('..') || !key.startsWith(`${video.storageKey}`) || !key.endsWith(suffix)) {
    throw new AppError('INVALID', 'The key is not one of this video', [{ field: 'key', message: 'invalid' }]);
  }
}

/** videoencoderthumbnailpostback: the poster is stored; the video answers with it. */
export async function recordVideoPoster(
  ctx: DomainContext,
  input: { videoId: number; posterKey: string; width: number; height: number },
): Promise<VideoChange> {
  const { video, accountId } = await videoForEncoder(ctx, input.videoId);
  requireOwnKey(video, input.posterKey, '.webp');
  // The poster has the video's size: the screen can lay it out before the MP4 is ready.
  const size = video.width === null ? { width: input.width, height: input.height } : {};
  const [row] = await ctx.db
    .update(videos)
    .set({ posterKey: input.posterKey, ...size })
    .where(eq(videos.id, video.id))
    .returning();
  return { accountId, video: backendVideo(row!) };
}

/**
 * videoencoderpostback: the MP4 is stored (ready), or the transcode failed for good (failed, with the
 * reason key). A video that becomes public refreshes the advert (has_video, the advert page).
 */
export async function recordVideoResult(
  ctx: DomainContext,
  input:
    | { videoId: number; videoKey: string; durationSeconds: number; width: number; height: number }
    | { videoId: number; failed: VideoFailure },
): Promise<VideoChange> {
  const { video, accountId } = await videoForEncoder(ctx, input.videoId);
  let change: Partial<Video>;
  if ('failed' in input) {
    change = { status: VIDEO_STATUS.failed, failureReason: input.failed };
  } else {
    requireOwnKey(video, input.videoKey, '.mp4');
    change = {
      status: VIDEO_STATUS.ready,
      failureReason: null,
      videoKey: input.videoKey,
      durationSeconds: Math.round(input.durationSeconds),
      width: input.width,
      height: input.height,
    };
  }
  const [row] = await ctx.db.update(videos).set(change).where(eq(videos.id, video.id)).returning();
  await writeAudit(ctx, {
    action: 'failed' in input ? 'video.transcode.failed' : 'video.transcode.done',
    targetType: 'video',
    targetId: video.id,
    after: change,
  });
  if (isPublicVideo(video) !== isPublicVideo(row!)) await publishAdvertChange(ctx, video.advertId, 'advert.video.ready');
  return { accountId, video: backendVideo(row!) };
}

/** The video of a queued job, or null when it was deleted meanwhile (the job then has nothing to do). */
export async function findVideoForJob(ctx: DomainContext, videoId: number): Promise<Video | null> {
  const [row] = await ctx.db.select().from(videos).where(eq(videos.id, videoId));
  return row && row.deletedAt === null ? row : null;
}

// ---------------------------------------------------------------------------------------------
// Support's moderation (advert:moderate:any)
// ---------------------------------------------------------------------------------------------

async function videoForSupport(ctx: DomainContext, id: number): Promise<{ video: Video; accountId: number }> {
  requirePermission(ctx.actor, 'advert:moderate:any');
  const [row] = await ctx.db
    .select({ video: videos, accountId: adverts.accountId })
    .from(videos)
    .innerJoin(adverts, eq(adverts.id, videos.advertId))
    .where(and(eq(videos.id, id), isNull(videos.deletedAt)));
  if (!row) throw notFound('Video');
  return row;
}

const supportUserIdOf = (ctx: DomainContext) => (ctx.actor.type === 'support' ? ctx.actor.supportUserId : null);

/** approvevideoitem: the video may be shown (once ready and online). */
export async function approveVideo(ctx: DomainContext, input: v.InferOutput<typeof ModerationItemSchema>): Promise<BackendVideo> {
  const { video } = await videoForSupport(ctx, input.Id);
  const [row] = await ctx.db
    .update(videos)
    .set({ moderationStatus: VIDEO_MODERATION.approved, moderatedBy: supportUserIdOf(ctx), moderatedAt: ctx.now(), declineReason: null })
    .where(eq(videos.id, video.id))
    .returning();
  await writeAudit(ctx, { action: 'video.approve', targetType: 'video', targetId: video.id, before: { moderation: video.moderationStatus }, after: { moderation: 1 } });
  if (isPublicVideo(video) !== isPublicVideo(row!)) await publishAdvertChange(ctx, video.advertId, 'advert.video.approve');
  return backendVideo(row!, 'support');
}

/** declinevideoitem: the video is not shown; the advertiser is told why. */
export async function declineVideo(
  ctx: DomainContext,
  input: v.InferOutput<typeof ModerationDecisionSchema>,
  deps: { messaging: Messaging },
): Promise<BackendVideo> {
  const { video, accountId } = await videoForSupport(ctx, input.Id);
  const [row] = await ctx.db
    .update(videos)
    .set({ moderationStatus: VIDEO_MODERATION.declined, moderatedBy: supportUserIdOf(ctx), moderatedAt: ctx.now(), declineReason: input.Reason })
    .where(eq(videos.id, video.id))
    .returning();
  await writeAudit(ctx, {
    action: 'video.decline',
    targetType: 'video',
    targetId: video.id,
    before: { moderation: video.moderationStatus },
    after: { moderation: 2 },
    reason: input.Reason,
  });
  await notifyMediaDecision(
    ctx,
    { accountId, advertId: video.advertId, media: 'video', mediaId: video.id, decision: 'decline', reason: input.Reason, rule: input.Rule },
    deps,
  );
  if (isPublicVideo(video)) await publishAdvertChange(ctx, video.advertId, 'advert.video.decline');
  return backendVideo(row!, 'support');
}

/** removevideoitem: support deletes the video (and its files); the advertiser is told why. */
export async function removeVideoItem(
  ctx: DomainContext,
  storage: MediaStorage,
  input: v.InferOutput<typeof ModerationDecisionSchema>,
  deps: { messaging: Messaging },
): Promise<void> {
  const { video, accountId } = await videoForSupport(ctx, input.Id);
  await softDelete(ctx, storage, video);
  await writeAudit(ctx, { action: 'video.remove', targetType: 'video', targetId: video.id, before: backendVideo(video, 'support'), reason: input.Reason });
  await notifyMediaDecision(
    ctx,
    { accountId, advertId: video.advertId, media: 'video', mediaId: video.id, decision: 'remove', reason: input.Reason, rule: input.Rule },
    deps,
  );
  if (isPublicVideo(video)) await publishAdvertChange(ctx, video.advertId, 'advert.video.remove');
}
