import { and, asc, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { AdvertMedia, SupportPicture, SupportVideo } from '#lib/schemas/support-adverts.ts';
import { pictures, videos, type Picture, type Video } from '../../db/schema.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { publicPicture } from '../search/advert-card.ts';
import { privatePictureUrl, privateVideoUrl } from '../media/publication.ts';
import { VIDEO_STATUS } from '../media/videos.ts';
import { findSupportAdvert } from './find-advert.ts';

const MODERATION = ['pending', 'approved', 'declined'] as const;
const moderationOf = (status: number) => MODERATION[status] ?? 'pending';

/**
 * A picture with its variants at support's authenticated URLs (private files, any moderation state:
 * docs/decisions/013). A deleted picture's files are removed, so its variants are listed only while its
 * files are still there.
 */
async function supportPicture(row: Picture, storage: MediaStorage): Promise<SupportPicture> {
  const first = row.variants[0];
  const filesExist = row.deletedAt === null ? true : first ? await storage.exists('private', first.key) : false;
  return {
    id: row.id,
    variants: filesExist ? publicPicture(row, (variant) => privatePictureUrl('support', row.id, variant)).variants : [],
    width: row.width,
    height: row.height,
    moderation: moderationOf(row.moderationStatus),
    isOnline: row.isOnline,
    isPrimary: row.isPrimary,
    declineReason: row.declineReason,
    createdAt: row.createdAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
    filesExist,
  };
}

async function supportVideo(row: Video, storage: MediaStorage): Promise<SupportVideo> {
  const deleted = row.deletedAt !== null;
  const posterExists = row.posterKey !== null && (!deleted || (await storage.exists('private', row.posterKey)));
  const videoExists = row.videoKey !== null && (!deleted || (await storage.exists('private', row.videoKey)));
  const processing = row.status === VIDEO_STATUS.ready ? 'ready' : row.status === VIDEO_STATUS.failed ? 'failed' : 'converting';
  return {
    id: row.id,
    posterUrl: posterExists ? privateVideoUrl('support', row.id, 'poster') : null,
    videoUrl: videoExists && processing === 'ready' ? privateVideoUrl('support', row.id, 'video') : null,
    processing,
    moderation: moderationOf(row.moderationStatus),
    isOnline: row.isOnline,
    durationSeconds: row.durationSeconds,
    declineReason: row.declineReason,
    createdAt: row.createdAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
    filesExist: deleted ? posterExists || videoExists : true,
  };
}

/**
 * currentmedia / deletedmedia (Support: advert:moderate:any): the advert's pictures and videos that are not
 * deleted (in the advertiser's order, any moderation state), or the deleted ones (latest deletion first).
 */
export async function listAdvertMedia(ctx: DomainContext, storage: MediaStorage, id: number, which: 'current' | 'deleted'): Promise<AdvertMedia> {
  const advert = await findSupportAdvert(ctx, id);
  const current = which === 'current';
  const [pictureRows, videoRows] = await Promise.all([
    ctx.db
      .select()
      .from(pictures)
      .where(and(eq(pictures.advertId, advert.id), current ? isNull(pictures.deletedAt) : isNotNull(pictures.deletedAt)))
      .orderBy(...(current ? [asc(pictures.sortOrder), asc(pictures.id)] : [desc(pictures.deletedAt), desc(pictures.id)])),
    ctx.db
      .select()
      .from(videos)
      .where(and(eq(videos.advertId, advert.id), current ? isNull(videos.deletedAt) : isNotNull(videos.deletedAt)))
      .orderBy(...(current ? [asc(videos.sortOrder), asc(videos.id)] : [desc(videos.deletedAt), desc(videos.id)])),
  ]);
  return {
    pictures: await Promise.all(pictureRows.map((row) => supportPicture(row, storage))),
    videos: await Promise.all(videoRows.map((row) => supportVideo(row, storage))),
  };
}
