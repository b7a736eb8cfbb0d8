/** /sitemaps/{n}.xml: the parts of a sitemap too large for one file (none on smaller sites). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { URLS_PER_FILE, sitemapUrls, urlset, xmlHeaders } from '../../components/sitemap.ts';

export const getStaticPaths = (async () => {
  const urls = await sitemapUrls(new URL(import.meta.env.SITE ?? 'http://localhost:3000'));
  if (urls.length <= URLS_PER_FILE) return [];
  const files = Math.ceil(urls.length / URLS_PER_FILE);
  return Array.from({ length: files }, (_, index) => ({
    params: { file: String(index + 1) },
    props: { urls: urls.slice(index * URLS_PER_FILE, (index + 1) * URLS_PER_FILE) },
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(urlset((props as { urls: string[] }).urls), { headers: xmlHeaders });
