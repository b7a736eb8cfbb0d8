/** /googlesitemap.xml: every public page (see src/components/sitemap.ts); a sitemap index when it is large. */
import type { APIRoute } from 'astro';
import { URLS_PER_FILE, sitemapIndex, sitemapUrls, urlset, xmlHeaders } from '../components/sitemap.ts';

export const GET: APIRoute = async ({ site }) => {
  const origin = site ?? new URL('http://localhost:3000');
  const urls = await sitemapUrls(origin);
  if (urls.length <= URLS_PER_FILE) return new Response(urlset(urls), { headers: xmlHeaders });
  const files = Array.from({ length: Math.ceil(urls.length / URLS_PER_FILE) }, (_, index) => new URL(`/sitemaps/${index + 1}.xml`, origin).toString());
  return new Response(sitemapIndex(files), { headers: xmlHeaders });
};
