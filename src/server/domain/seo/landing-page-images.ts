/**
 * Images of an SEO page (SEO staff; issue 17), through the adverts' picture pipeline
 * (media/picture-processing.ts: the type by content, limits before decoding, metadata dropped, AVIF and
 * WebP at PICTURE_WIDTHS). Staff's pages need no moderation, so the variants are published at once under
 * a new name (`landing-pages/{pageId}/{uuid}-{width}.{avif|webp}` in the public area, served at /media/)
 * and the private files, the original among them, are deleted. Deleting an image (the spec's "image
 * delete") deletes its published files. Audited; `content.changed` rebuilds the site.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { PictureRefusal } from '#lib/schemas/media.ts';
import type { SupportLandingPage } from '#lib/schemas/landing-page.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import { landingPages, type LandingPageImage } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { processPicture, removePictureFiles, type UploadedPictureFile } from '../media/picture-processing.ts';
import type { PictureMedia } from '../media/pictures.ts';
import { supportPageOf, twinRows } from './list-landing-pages.ts';
import type { LandingPageTypeValue } from '#lib/schemas/landing-page.ts';

/** At most this many images on one language of a page. */
export const IMAGES_PER_PAGE = 12;

/** Deletes the published files of images (a missing file is no error). */
export async function removeLandingImageFiles(storage: MediaStorage, images: LandingPageImage[]): Promise<void> {
  for (const image of images) {
    const base = image.base ?? image.key.replace(/-\d+\.(webp|avif)$/, '');
    if (base.startsWith('landing-pages/')) await storage.deletePrefix('public', base);
  }
}

/**
 * landingpageimage (POST multipart, SEO): one picture with its alt text added to one language of a page.
 * A file that is not a picture (by content) is refused with its reason, as the advertisers' uploads are.
 */
export async function uploadLandingPageImage(
  ctx: DomainContext,
  media: PictureMedia,
  id: number,
  alt: string,
  file: UploadedPictureFile,
): Promise<{ ok: true; page: SupportLandingPage } | { ok: false; reason: PictureRefusal }> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const [row] = await ctx.db.select().from(landingPages).where(eq(landingPages.id, id)).limit(1);
  if (!row) throw notFound('Page');
  if (row.images.length >= IMAGES_PER_PAGE) return { ok: false, reason: 'tooManyPictures' };
  const outcome = await media.work.run(() => processPicture(media.storage, file, `landing-pages/${id}`, media.render));
  if (!outcome.ok) return { ok: false, reason: outcome.reason };
  const processed = outcome.picture;
  const base = `landing-pages/${id}/${randomUUID()}`;
  const widest = processed.variants.filter((variant) => variant.format === 'webp').sort((a, b) => b.width - a.width)[0];
  try {
    if (!widest) throw new AppError('CONFLICT', 'The picture gave no WebP file');
    for (const variant of processed.variants) await media.storage.copy('private', variant.key, 'public', `${base}-${variant.width}.${variant.format}`);
    const image: LandingPageImage = {
      key: `${base}-${widest.width}.webp`,
      alt,
      width: widest.width,
      height: widest.height,
      base,
      widths: [...new Set(processed.variants.map((variant) => variant.width))].sort((a, b) => a - b),
    };
    const page = await ctx.db.transaction(async (tx) => {
      const [current] = await tx.select().from(landingPages).where(eq(landingPages.id, id)).limit(1).for('update');
      if (!current) throw notFound('Page');
      await tx.update(landingPages).set({ images: [...current.images, image], updatedAt: ctx.now() }).where(eq(landingPages.id, id));
      await writeAudit({ ...ctx, db: tx }, { action: 'landing_page.image_add', targetType: 'landing_page', targetId: id, after: { key: image.key, alt } });
      return supportPageOf(tx, current.type as LandingPageTypeValue, current.url, await twinRows(tx, current.type, current.url));
    });
    await ctx.events.publish({ type: 'content.changed', reason: `landing page ${id} image added` });
    return { ok: true, page };
  } catch (error) {
    await media.storage.deletePrefix('public', base).catch(() => {});
    throw error;
  } finally {
    // Only the published copies stay: the private variants and the original (as received) go.
    await removePictureFiles(media.storage, processed).catch(() => {});
  }
}

/** deletelandingpageimage (POST, SEO): the spec's "image delete": the image leaves the page and its files are deleted. */
export async function deleteLandingPageImage(ctx: DomainContext, storage: MediaStorage, id: number, key: string): Promise<SupportLandingPage> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const { page, removed } = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(landingPages).where(eq(landingPages.id, id)).limit(1).for('update');
    if (!current) throw notFound('Page');
    const image = current.images.find((item) => item.key === key);
    if (!image) throw notFound('Image');
    await tx
      .update(landingPages)
      .set({ images: current.images.filter((item) => item.key !== key), updatedAt: ctx.now() })
      .where(eq(landingPages.id, id));
    await writeAudit({ ...ctx, db: tx }, { action: 'landing_page.image_delete', targetType: 'landing_page', targetId: id, before: { key: image.key, alt: image.alt ?? '' } });
    return { page: await supportPageOf(tx, current.type as LandingPageTypeValue, current.url, await twinRows(tx, current.type, current.url)), removed: image };
  });
  await removeLandingImageFiles(storage, [removed]);
  await ctx.events.publish({ type: 'content.changed', reason: `landing page ${id} image deleted` });
  return page;
}
