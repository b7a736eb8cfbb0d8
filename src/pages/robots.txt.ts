/** robots.txt: everything public may be crawled except the app shells and sign-in pages. */
import type { APIRoute } from 'astro';

export const GET: APIRoute = ({ site }) => {
  const origin = (site ?? new URL('http://localhost:3000')).origin;
  const body = [
    'User-agent: *',
    'Disallow: /backend/',
    'Disallow: /support/',
    'Disallow: /login/',
    'Disallow: /en/login/',
    'Disallow: /impersonate/',
    'Disallow: /en/impersonate/',
    'Disallow: /search/',
    'Disallow: /en/search/',
    '',
    `Sitemap: ${origin}/googlesitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
