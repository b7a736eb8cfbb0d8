/**
 * The site build's data: read from the frontend API at env API_URL (default http://127.0.0.1:3000).
 * Every call is made once per build (memoised). If the API does not answer, the build fails: it never
 * builds an empty site. Imported only by .astro frontmatter (build time), never by islands.
 */
import { createApiClient } from './client.ts';
import { isApiError } from './errors.ts';
import type {
  AvailableCounts,
  FooterInfo,
  LandingKind,
  LandingPage,
  ActiveArea,
  LandingIndexPage,
  LandingPageSummary,
  Language,
  ProfilesReferences,
  ServiceInfo,
  Region,
  WebsiteConfig,
} from './types.ts';
import { locales, type Locale } from '../i18n/locales.ts';
import type { FrontPageAdverts, FullProfile, FullProfileLocalesPage, SearchResult } from '../schemas/public-advert.ts';
import { PAGE_SIZE } from '../schemas/search.ts';

export const apiUrl = process.env['API_URL'] || 'http://127.0.0.1:3000';

/** The build's credential for its bulk call (fullprofiles): SITE_BUILD_TOKEN, set by the server or the host. */
const siteBuildToken = process.env['SITE_BUILD_TOKEN'];
const client = createApiClient('frontend', { baseUrl: apiUrl, ...(siteBuildToken ? { headers: { authorization: `Bearer ${siteBuildToken}` } } : {}) });
const cache = new Map<string, Promise<unknown>>();

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * At most this many calls of the per-page kind (landing results, SEO texts) run at once, so the build
 * does not flood the API (PGlite answers one query at a time anyway).
 */
const PER_PAGE_CONCURRENCY = 8;
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(task: () => Promise<T>): Promise<T> {
  if (running >= PER_PAGE_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await task();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** GET /api/frontend/{path}, once per build; throws a clear error when the API does not answer. */
function load<T>(path: string, searchParams?: Record<string, string>, options: { limited?: boolean; timeout?: number } = {}): Promise<T> {
  const query = new URLSearchParams(searchParams).toString();
  const key = query ? `${path}?${query}` : path;
  let pending = cache.get(key) as Promise<T> | undefined;
  if (!pending) {
    const call = () =>
      client.get<T>(path, {
        ...(searchParams ? { searchParams } : {}),
        ...(options.timeout ? { timeout: options.timeout } : {}),
      });
    pending = (options.limited ? limited(call) : call()).catch((error: unknown) => {
      throw new Error(`Site build: GET ${apiUrl}/api/frontend/${key} failed: ${describe(error)}`, { cause: error });
    });
    cache.set(key, pending);
  }
  return pending;
}

/** Like `load`, but a 404 answer (no such page) gives null. */
async function find<T>(path: string, searchParams: Record<string, string>, options: { limited?: boolean } = {}): Promise<T | null> {
  try {
    return await load<T>(path, searchParams, options);
  } catch (error) {
    if (error instanceof Error && isApiError(error.cause, 404)) return null;
    throw error;
  }
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** Website config with the URL-encoded fields (name, address, zip/city) decoded. */
export async function getWebsiteConfig(): Promise<WebsiteConfig> {
  const config = await load<WebsiteConfig>('websiteconfig');
  return {
    ...config,
    companyName: decode(config.companyName),
    companyAddress: decode(config.companyAddress),
    companyZipCity: decode(config.companyZipCity),
  };
}

export const getAvailableCounts = () => load<AvailableCounts>('frontpageavailablecounts');
export const getFooterInfo = () => load<FooterInfo>('frontpagefooterinfo');
export const getLocations = () => load<Region[]>('searchpagelocations');
export const getLanguages = () => load<Language[]>('languages');

export function getLandingPages(kind: LandingKind | 'free', locale: Locale): Promise<LandingPageSummary[]> {
  return load<LandingPageSummary[]>('landingpagepages', { Kind: kind, Locale: locale });
}

/** One landing page, or null when the API answers 404 (listed but gone). */
export function findLandingPage(kind: LandingKind | 'free', url: string, locale: Locale): Promise<LandingPage | null> {
  return find<LandingPage>('landingpagepage', { Kind: kind, Url: url, Locale: locale });
}

/** The front page's adverts at build time (the browser refreshes them). */
export const getFrontPageAdverts = (locale: Locale) => load<FrontPageAdverts>('frontpageprofiles', { Locale: locale });

/** Everything the search filters offer, in the page's language. */
export const getProfilesReferences = (locale: Locale) => load<ProfilesReferences>('profilesreferences', { Locale: locale });

/** Cities with public adverts, most adverts first. */
export const getActiveAreas = (locale: Locale) => load<ActiveArea[]>('frontpageactiveareas', { Locale: locale });

/** The services with their descriptions. */
export const getServiceList = (locale: Locale) => load<ServiceInfo[]>('servicelist', { Locale: locale });

/**
 * The first page of results of a landing page ('/escort/', '/escort/{region}/', '/escort/{region}/{city}/'),
 * search-boosted first, as the filters island shows it unfiltered.
 */
export function getLandingResults(path: string, locale: Locale): Promise<SearchResult> {
  return load<SearchResult>('searchpageprofiles', { Url: path, Page: '1', PageSize: String(PAGE_SIZE), Locale: locale }, { limited: true });
}

/** The SEO text of a landing page path, or null when SEO staff have written none (all read in one call). */
export async function findLandingIndexPage(path: string, locale: Locale): Promise<LandingIndexPage | null> {
  const url = path.split('/').filter(Boolean).join('/');
  const pages = await load<LandingIndexPage[]>('landingpageindexpages', { Locale: locale });
  return pages.find((page) => page.url === url) ?? null;
}

const FULL_PROFILES_PAGE = 500;
type ProfilesByLocale = Record<Locale, FullProfile[]>;
let allProfiles: Promise<ProfilesByLocale> | undefined;

/**
 * The adverts an incremental build makes pages for (env SITE_ADVERT_IDS, a comma list set by the
 * server's site build), or null in a full build (every public advert). Empty: no advert pages at all.
 */
export function advertIdsToBuild(): number[] | null {
  const value = process.env['SITE_ADVERT_IDS'];
  if (value === undefined) return null;
  return value
    .split(',')
    .filter(Boolean)
    .map((part) => {
      const id = Number(part);
      if (!Number.isInteger(id) || id <= 0) throw new Error(`Site build: SITE_ADVERT_IDS has a bad id: ${part}`);
      return id;
    });
}

/**
 * One `fullprofiles` query in every language at once (the rows are read once for both) paged through
 * with AfterId until the API says there is no more; adds to `into`.
 */
async function pageFullProfiles(ids: number[] | null, into: ProfilesByLocale): Promise<void> {
  let afterId: number | null = 0;
  while (afterId !== null) {
    const searchParams: Record<string, string> = { AfterId: String(afterId), Take: String(FULL_PROFILES_PAGE), Locales: locales.join(',') };
    if (ids) searchParams['Ids'] = ids.join(',');
    const page: FullProfileLocalesPage = await client
      .get<FullProfileLocalesPage>('fullprofiles', { searchParams, timeout: 120_000 })
      .catch((error: unknown) => {
        throw new Error(`Site build: GET ${apiUrl}/api/frontend/fullprofiles?AfterId=${afterId} failed: ${describe(error)}`, { cause: error });
      });
    for (const locale of locales) into[locale].push(...(page.byLocale[locale] ?? []));
    afterId = page.nextAfterId;
  }
}

/**
 * Every public advert in full, read in pages of 500 (never one call per advert page), both languages
 * from the same calls. In an incremental build only the public ones among SITE_ADVERT_IDS, asked for 500
 * ids at a time (short URLs).
 */
export async function getAllFullProfiles(locale: Locale): Promise<FullProfile[]> {
  allProfiles ??= (async () => {
    const into = Object.fromEntries(locales.map((l) => [l, [] as FullProfile[]])) as ProfilesByLocale;
    const ids = advertIdsToBuild();
    if (!ids) await pageFullProfiles(null, into);
    else for (let start = 0; start < ids.length; start += FULL_PROFILES_PAGE) await pageFullProfiles(ids.slice(start, start + FULL_PROFILES_PAGE), into);
    return into;
  })();
  return (await allProfiles)[locale];
}

/** The slug of a landing page url: 'my-page', '/artikler/my-page/' and 'artikler/my-page' all give 'my-page'. */
export function landingSlug(url: string): string {
  const parts = url.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? '';
}
