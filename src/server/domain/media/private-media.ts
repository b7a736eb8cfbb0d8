import { and, eq, isNull } from 'drizzle-orm';
import { pictures, videos } from '../../db/schema.ts';
import type { MediaStorage, StoredObject } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { getOwnAdvert } from '../adverts/own-advert.ts';
import { hashUploadToken } from './pictures.ts';
import type { MediaViewer } from './publication.ts';

/**
 * The authenticated way to media files (docs/decisions/013): every picture variant, poster and MP4 lives
 * in private storage; the owner (`/api/backend/mediafile/…`), support with `advert:moderate:any`
 * (`/api/support/mediafile/…`) and the browser holding a /create upload token
 * (`/api/frontend/tempmediafile/…`) read them here, in any moderation state. Anyone else's id, a file
 * name the item does not have, or a missing file answers 404 (like an id that does not exist).
 */

export type PrivateMediaRequest = { kind: 'picture' | 'video'; id: number; file: string };

const PICTURE_FILE = /^(\d{1,5})\.(avif|webp)$/;

async function pictureKey(ctx: DomainContext, viewer: MediaViewer, id: number, file: string, uploadToken?: string): Promise<string | null> {
  const match = PICTURE_FILE.exec(file);
  if (!match) return null;
  const [row] = await ctx.db.select().from(pictures).where(eq(pictures.id, id));
  if (!row) return null;
  if (viewer === 'advertiser') {
    const advert = await getOwnAdvert(ctx);
    if (row.advertId !== advert.id || row.deletedAt !== null) return null;
  } else if (viewer === 'upload') {
    if (!uploadToken || row.advertId !== null || row.deletedAt !== null || row.tempToken !== hashUploadToken(uploadToken)) return null;
  }
  const variant = row.variants.find((v) => v.width === Number(match[1]) && v.format === match[2]);
  return variant?.key ?? null;
}

async function videoKey(ctx: DomainContext, viewer: MediaViewer, id: number, file: string): Promise<string | null> {
  if (file !== 'poster.webp' && file !== 'video.mp4') return null;
  let row;
  if (viewer === 'advertiser') {
    const advert = await getOwnAdvert(ctx);
    [row] = await ctx.db
      .select()
      .from(videos)
      .where(and(eq(videos.id, id), eq(videos.advertId, advert.id), isNull(videos.deletedAt)));
  } else if (viewer === 'support') {
    [row] = await ctx.db.select().from(videos).where(eq(videos.id, id));
  }
  if (!row) return null;
  return file === 'poster.webp' ? row.posterKey : row.videoKey;
}

/** One private media file for this viewer, or 404. */
export async function openPrivateMedia(
  ctx: DomainContext,
  storage: MediaStorage,
  viewer: MediaViewer,
  input: PrivateMediaRequest,
  uploadToken?: string,
): Promise<StoredObject> {
  if (viewer === 'support') requirePermission(ctx.actor, 'advert:moderate:any');
  const key =
    input.kind === 'picture' ? await pictureKey(ctx, viewer, input.id, input.file, uploadToken) : await videoKey(ctx, viewer, input.id, input.file);
  const stored = key ? await storage.open('private', key) : null;
  if (!stored) throw notFound('File');
  return stored;
}
