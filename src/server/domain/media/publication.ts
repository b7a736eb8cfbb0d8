import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adverts, pictures, videos, type MediaVariant, type Picture, type Video } from '../../db/schema.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';

/**
 * Which media files the public can fetch (docs/decisions/013, issue 15). Every picture and video keeps
 * its files (variants, poster, MP4, original) in the private area, never reachable by a URL; the
 * advertiser and support see them through authenticated calls. Only media that are public — approved,
 * online, not deleted (a video also ready), of an advert that is neither deleted nor locked — have a
 * copy in the public area, under a name made for that publication (`publicKey`). Taking one down
 * (declined, removed, offline, deleted, its advert deleted or locked) deletes that copy; publishing it
 * again makes a copy under a new name, so a URL once taken down stays dead and no cache that kept it
 * can serve the current picture. `syncAdvertMedia` brings the public area in line with those rules for
 * one advert; `publishAdvertChange` calls it before the search index and the site see the change.
 */

/** Picture moderation 1 Approved; video status 2 Ready and moderation 1 Approved (pictures.ts, videos.ts). */
const APPROVED = 1;
const VIDEO_READY = 2;

/** The public URL prefix of published copies (the `/media/*` route). */
export const PUBLIC_MEDIA_PREFIX = '/media/';

/** The key of a picture variant's published copy. */
export function publishedVariantKey(publicKey: string, variant: Pick<MediaVariant, 'width' | 'format'>): string {
  return `${publicKey}-${variant.width}.${variant.format}`;
}

/** The keys of a video's published copies. */
export function publishedVideoKeys(publicKey: string): { video: string; poster: string } {
  return { video: `${publicKey}.mp4`, poster: `${publicKey}-poster.webp` };
}

/**
 * Who looks at media through the authenticated calls: the owner (the backend, also while support is
 * signed in as them), support (review and advert screens), or the browser that uploaded a temporary
 * picture during /create (its upload_token cookie).
 */
export type MediaViewer = 'advertiser' | 'support' | 'upload';

const VIEWER_BASE: Record<MediaViewer, string> = {
  advertiser: '/api/backend/mediafile',
  support: '/api/support/mediafile',
  upload: '/api/frontend/tempmediafile',
};

/** The authenticated URL of a picture variant's private file (`…/picture/{id}/{width}.{format}`). */
export function privatePictureUrl(viewer: MediaViewer, pictureId: number, variant: Pick<MediaVariant, 'width' | 'format'>): string {
  return `${VIEWER_BASE[viewer]}/picture/${pictureId}/${variant.width}.${variant.format}`;
}

/** The authenticated URL of a video's private poster or MP4 (`…/video/{id}/poster.webp|video.mp4`). */
export function privateVideoUrl(viewer: Exclude<MediaViewer, 'upload'>, videoId: number, file: 'poster' | 'video'): string {
  return `${VIEWER_BASE[viewer]}/video/${videoId}/${file === 'poster' ? 'poster.webp' : 'video.mp4'}`;
}

/** Whether an advert may show media at all: not deleted (the account's deletion deletes it too), not locked. */
export function advertShowsMedia(advert: { status: number; deletedAt: Date | null }): boolean {
  return advert.deletedAt === null && advert.status !== PROFILE_STATUS.Locked && advert.status !== PROFILE_STATUS.Deleted;
}

export function pictureShouldBePublic(row: Picture, advertAllows: boolean): boolean {
  return advertAllows && row.advertId !== null && row.moderationStatus === APPROVED && row.isOnline && row.deletedAt === null;
}

export function videoShouldBePublic(row: Video, advertAllows: boolean): boolean {
  return (
    advertAllows &&
    row.status === VIDEO_READY &&
    row.moderationStatus === APPROVED &&
    row.isOnline &&
    row.deletedAt === null &&
    row.videoKey !== null
  );
}

/** A new publication name beside the advert's other media: `{pictures|videos}/{advertId}/{uuid}`. */
const newPublicKey = (folder: 'pictures' | 'videos', advertId: number) => `${folder}/${advertId}/${randomUUID()}`;

async function publishPicture(db: Db, storage: MediaStorage, row: Picture): Promise<void> {
  // Nothing to publish without its private files (lost, or a row made without them): it stays unpublished.
  const first = row.variants[0];
  if (!first || !(await storage.exists('private', first.key))) return;
  const publicKey = newPublicKey('pictures', row.advertId!);
  try {
    for (const variant of row.variants) {
      await storage.copy('private', variant.key, 'public', publishedVariantKey(publicKey, variant));
    }
    const [updated] = await db
      .update(pictures)
      .set({ publicKey })
      .where(and(eq(pictures.id, row.id), isNull(pictures.publicKey)))
      .returning({ id: pictures.id });
    // Another request published it meanwhile: this copy is not needed.
    if (!updated) await storage.deletePrefix('public', publicKey);
  } catch (error) {
    await storage.deletePrefix('public', publicKey).catch(() => {});
    throw error;
  }
}

async function publishVideo(db: Db, storage: MediaStorage, row: Video): Promise<void> {
  if (!(await storage.exists('private', row.videoKey!))) return;
  const publicKey = newPublicKey('videos', row.advertId);
  const keys = publishedVideoKeys(publicKey);
  try {
    await storage.copy('private', row.videoKey!, 'public', keys.video);
    if (row.posterKey) await storage.copy('private', row.posterKey, 'public', keys.poster);
    const [updated] = await db
      .update(videos)
      .set({ publicKey })
      .where(and(eq(videos.id, row.id), isNull(videos.publicKey)))
      .returning({ id: videos.id });
    if (!updated) await storage.deletePrefix('public', publicKey);
  } catch (error) {
    await storage.deletePrefix('public', publicKey).catch(() => {});
    throw error;
  }
}

/** Takes a published copy down: the row forgets its public name first, then the files go. */
async function unpublish(db: Db, storage: MediaStorage, table: typeof pictures | typeof videos, row: { id: number; publicKey: string }) {
  await db
    .update(table)
    .set({ publicKey: null })
    .where(and(eq(table.id, row.id), eq(table.publicKey, row.publicKey)));
  await storage.deletePrefix('public', row.publicKey);
}

/** Deletes the published copies of a picture or video (any state), leaving its private files. */
export async function unpublishMedia(db: Db, storage: MediaStorage, kind: 'picture' | 'video', row: { id: number; publicKey: string | null }) {
  if (row.publicKey) await unpublish(db, storage, kind === 'picture' ? pictures : videos, { id: row.id, publicKey: row.publicKey });
}

/**
 * Publishes what should be public and takes down what should not, for every picture and video of the
 * advert (deleted ones too, while they still have a published copy). Idempotent; answers whether
 * anything changed.
 */
export async function syncAdvertMedia(db: Db, storage: MediaStorage, advertId: number): Promise<boolean> {
  const [advert] = await db.select({ status: adverts.status, deletedAt: adverts.deletedAt }).from(adverts).where(eq(adverts.id, advertId));
  const allows = advert ? advertShowsMedia(advert) : false;
  const [pictureRows, videoRows] = await Promise.all([
    db
      .select()
      .from(pictures)
      .where(and(eq(pictures.advertId, advertId), or(isNull(pictures.deletedAt), isNotNull(pictures.publicKey)))),
    db
      .select()
      .from(videos)
      .where(and(eq(videos.advertId, advertId), or(isNull(videos.deletedAt), isNotNull(videos.publicKey)))),
  ]);
  let changed = false;
  for (const row of pictureRows) {
    const wanted = pictureShouldBePublic(row, allows);
    if (wanted && !row.publicKey) {
      await publishPicture(db, storage, row);
      changed = true;
    } else if (!wanted && row.publicKey) {
      await unpublish(db, storage, pictures, { id: row.id, publicKey: row.publicKey });
      changed = true;
    }
  }
  for (const row of videoRows) {
    const wanted = videoShouldBePublic(row, allows);
    if (wanted && !row.publicKey) {
      await publishVideo(db, storage, row);
      changed = true;
    } else if (!wanted && row.publicKey) {
      await unpublish(db, storage, videos, { id: row.id, publicKey: row.publicKey });
      changed = true;
    }
  }
  return changed;
}
