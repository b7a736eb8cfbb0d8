/**
 * Adding and changing SEO pages (SEO staff, `seo:pages:any`; issue 17). A page is one row per language
 * (twins share type and url). Addresses the site uses are refused, and so is an address another page of
 * the type has; an index page's address is its place (kind, kind × region, kind × city). A published
 * page given a new address leaves a 301 from the old one (both languages' paths), in the same
 * transaction. Every change is audited and publishes `content.changed`: the public site shows it after
 * the next (debounced) rebuild, and the server's redirects are read again.
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import { landingPages, type LandingPage } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { addPathRedirect, removePathRedirect } from '../site/redirects.ts';
import { findIndexPlace, supportPageOf, twinRows } from './list-landing-pages.ts';
import {
  LANDING_LOCALES,
  RESERVED_TOP_SEGMENTS,
  landingPublicPath,
  type LandingLocale,
  type LandingPageChangeInput,
  type LandingPageInput,
  type LandingPageTypeValue,
  type SupportLandingPage,
} from '#lib/schemas/landing-page.ts';

const invalid = (field: string, message: string, detail: string) => new AppError('INVALID', detail, [{ field, message }]);

/** What an index page's row says of its place, or nothing for other types. */
async function placeColumns(db: Db, type: string, url: string, field: string) {
  if (type !== 'index') {
    if (url.includes('/')) throw invalid(field, 'slug', 'An address is one word of a-z, 0-9 and -');
    if (type === 'free' && RESERVED_TOP_SEGMENTS.has(url)) throw invalid(field, 'urlReserved', 'This address is used by the site itself');
    return { kind: null, regionId: null, cityId: null };
  }
  const place = await findIndexPlace(db, url);
  if (!place) throw invalid(field, 'unknownPlace', 'No kind, region or city has this address');
  return { kind: place.kind, regionId: place.regionId, cityId: place.cityId };
}

/** Refuses an address another page of the type has in one of the languages (the twins being moved excepted). */
async function requireUnusedAddress(db: Db, type: string, url: string, locales: readonly string[], field: string, except: number[] = []) {
  const [taken] = await db
    .select({ id: landingPages.id })
    .from(landingPages)
    .where(
      and(
        eq(landingPages.type, type),
        eq(landingPages.url, url),
        inArray(landingPages.locale, [...locales]),
        ...(except.length > 0 ? except.map((id) => ne(landingPages.id, id)) : []),
      ),
    )
    .limit(1);
  if (taken) throw new AppError('CONFLICT', 'A page with this address exists', [{ field, message: 'urlTaken' }]);
}

/** What the audit keeps of a row. */
export const auditedPage = (row: Pick<LandingPage, 'type' | 'locale' | 'url' | 'title' | 'metaDescription' | 'intro' | 'body' | 'images' | 'publishedAt'>) => ({
  type: row.type,
  locale: row.locale,
  url: row.url,
  title: row.title,
  metaDescription: row.metaDescription,
  intro: row.intro,
  body: row.body,
  images: row.images.map((image) => ({ key: image.key, alt: image.alt ?? '' })),
  publishedAt: row.publishedAt?.toISOString() ?? null,
});

/** Adds one language of an SEO page (POST landingpages). The public site shows it after the next (debounced) rebuild. */
export async function createLandingPage(ctx: DomainContext, input: LandingPageInput): Promise<{ id: number }> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const place = await placeColumns(ctx.db, input.type, input.url, 'url');
  await requireUnusedAddress(ctx.db, input.type, input.url, [input.locale], 'url');
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(landingPages)
      .values({
        type: input.type,
        locale: input.locale,
        url: input.url,
        title: input.title,
        metaDescription: input.metaDescription,
        intro: input.intro,
        body: input.body,
        ...place,
        publishedAt: input.published ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new AppError('CONFLICT', 'The page was not saved');
    if (created.publishedAt) await removePathRedirect(tx, landingPublicPath(input.type, input.url, input.locale));
    await writeAudit({ ...ctx, db: tx }, { action: 'landing_page.create', targetType: 'landing_page', targetId: created.id, after: auditedPage(created) });
    return created;
  });
  await ctx.events.publish({ type: 'content.changed', reason: `landing page ${row.id} created` });
  return { id: row.id };
}

const suffix: Record<LandingLocale, 'Da' | 'En'> = { da: 'Da', en: 'En' };

/** One language's texts of the form, or null when that language is left empty. */
function textsOf(input: LandingPageChangeInput, locale: LandingLocale) {
  const s = suffix[locale];
  const texts = {
    title: input[`title${s}`],
    metaDescription: input[`metaDescription${s}`],
    intro: input[`intro${s}`],
    body: input[`body${s}`],
  };
  const empty = !texts.title && !texts.metaDescription && !texts.intro && !texts.body.trim();
  return empty ? null : texts;
}

/**
 * landingpage (POST, SEO): adds a page (no id: each language given a title becomes a draft row) or
 * changes one (id of either twin): its texts side by side, a language added, the address of both twins.
 * The type of a page stays; a language once written is deleted by its own call, not by emptying it.
 */
export async function saveLandingPage(ctx: DomainContext, input: LandingPageChangeInput): Promise<SupportLandingPage> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const now = ctx.now();
  const saved = await ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    let before: LandingPage[] = [];
    if (input.id) {
      const [row] = await tx.select().from(landingPages).where(eq(landingPages.id, input.id)).limit(1).for('update');
      if (!row) throw notFound('Page');
      if (row.type !== input.type) throw invalid('type', 'typeFixed', 'The type of a page cannot change');
      before = await twinRows(tx, row.type, row.url);
    }
    const oldUrl = before[0]?.url ?? null;
    const type = input.type as LandingPageTypeValue;
    if (type === 'index' && oldUrl !== null && oldUrl !== input.url) throw invalid('url', 'typeFixed', 'An index page stays at its place');
    const place = await placeColumns(tx, type, input.url, 'url');
    if (oldUrl !== input.url) await requireUnusedAddress(tx, type, input.url, LANDING_LOCALES, 'url', before.map((row) => row.id));

    const texts = { da: textsOf(input, 'da'), en: textsOf(input, 'en') };
    for (const locale of LANDING_LOCALES) {
      const existing = before.some((row) => row.locale === locale);
      if ((texts[locale] && !texts[locale].title) || (existing && !texts[locale])) {
        throw invalid(`title${suffix[locale]}`, 'required', 'A language with text needs a title');
      }
    }
    if (!texts.da && !texts.en) throw invalid('titleDa', 'required', 'Write the page in at least one language');

    const after: LandingPage[] = [];
    for (const locale of LANDING_LOCALES) {
      const text = texts[locale];
      if (!text) continue;
      const existing = before.find((row) => row.locale === locale);
      if (existing) {
        const [changed] = await tx
          .update(landingPages)
          .set({ ...text, url: input.url, ...place, updatedAt: now })
          .where(eq(landingPages.id, existing.id))
          .returning();
        after.push(changed!);
        await writeAudit(txCtx, { action: 'landing_page.change', targetType: 'landing_page', targetId: existing.id, before: auditedPage(existing), after: auditedPage(changed!) });
      } else {
        const [created] = await tx
          .insert(landingPages)
          .values({ type, locale, url: input.url, ...text, ...place, publishedAt: null, createdAt: now, updatedAt: now })
          .returning();
        after.push(created!);
        await writeAudit(txCtx, { action: 'landing_page.create', targetType: 'landing_page', targetId: created!.id, after: auditedPage(created!) });
      }
    }

    // A published page's old address leads to the new one (301), in each language it is public in.
    if (oldUrl !== null && oldUrl !== input.url) {
      for (const row of before) {
        const locale = row.locale === 'en' ? 'en' : 'da';
        const to = landingPublicPath(type, input.url, locale);
        await removePathRedirect(tx, to);
        if (row.publishedAt) await addPathRedirect(tx, landingPublicPath(type, oldUrl, locale), to);
      }
    }
    return supportPageOf(tx, type, input.url, await twinRows(tx, type, input.url));
  });
  await ctx.events.publish({ type: 'content.changed', reason: `landing page ${saved.url} saved` });
  return saved;
}
