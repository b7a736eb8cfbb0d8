/**
 * Thin landing pages (issue 17): a kind, region or city page with fewer than THIN_PAGE_ADVERTS public
 * adverts and no text written for it is `noindex, follow` and left out of the sitemap; it comes back when
 * either changes (the next rebuild). The pages report themselves while they render, and the sitemap's
 * filter (astro.config.mjs) reads the list at the end of the same build: both run in the build's one
 * process, but from different bundles, so the list lives on `globalThis`.
 */

/** Fewer public adverts than this, and no written text: a thin page. */
export const THIN_PAGE_ADVERTS = 3;

const KEY = Symbol.for('annoncekatalog.thinPages');

function thinPages(): Set<string> {
  const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  return (holder[KEY] ??= new Set());
}

/** Whether a landing page with this many public adverts and this written text is thin. */
export function isThinPage(adverts: number, writtenText: string | null | undefined): boolean {
  return adverts < THIN_PAGE_ADVERTS && !(writtenText ?? '').trim();
}

/** A page (its path, e.g. /en/escort/region-x/y/) found thin while it rendered. */
export function reportThinPage(path: string): void {
  thinPages().add(path);
}

/** Whether a page of this build reported itself thin. */
export function isReportedThin(path: string): boolean {
  return thinPages().has(path);
}
