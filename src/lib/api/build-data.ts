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
  LandingPageSummary,
  Language,
  Region,
  WebsiteConfig,
} from './types.ts';
import type { Locale } from '../i18n/locales.ts';

export const apiUrl = process.env['API_URL'] || 'http://127.0.0.1:3000';

const client = createApiClient('frontend', { baseUrl: apiUrl });
const cache = new Map<string, Promise<unknown>>();

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** GET /api/frontend/{path}, once per build; throws a clear error when the API does not answer. */
function load<T>(path: string, searchParams?: Record<string, string>): Promise<T> {
  const query = new URLSearchParams(searchParams).toString();
  const key = query ? `${path}?${query}` : path;
  let pending = cache.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = client.get<T>(path, searchParams ? { searchParams } : {}).catch((error: unknown) => {
      throw new Error(`Site build: GET ${apiUrl}/api/frontend/${key} failed: ${describe(error)}`, { cause: error });
    });
    cache.set(key, pending);
  }
  return pending;
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

export function getLandingPages(kind: LandingKind, locale: Locale): Promise<LandingPageSummary[]> {
  return load<LandingPageSummary[]>('landingpagepages', { Kind: kind, Locale: locale });
}

/** One landing page, or null when the API answers 404 (listed but gone). */
export async function findLandingPage(kind: LandingKind, url: string, locale: Locale): Promise<LandingPage | null> {
  try {
    return await load<LandingPage>('landingpagepage', { Kind: kind, Url: url, Locale: locale });
  } catch (error) {
    if (error instanceof Error && isApiError(error.cause, 404)) return null;
    throw error;
  }
}

/** The slug of a landing page url: 'my-page', '/artikler/my-page/' and 'artikler/my-page' all give 'my-page'. */
export function landingSlug(url: string): string {
  const parts = url.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? '';
}
