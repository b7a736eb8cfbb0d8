/** The free-text search reads its text from the path /search/{text}/ (or ?text= when sent without JS). */
export function searchTextFrom(pathname: string, search: string): string {
  const match = /^(?:\/en)?\/search\/([^/]+)\/?$/.exec(pathname);
  if (match?.[1]) {
    try {
      return decodeURIComponent(match[1]).trim();
    } catch {
      return match[1].trim();
    }
  }
  return (new URLSearchParams(search).get('text') ?? '').trim();
}

/**
 * Where a header search goes when SEO staff have tied its keyword to a page (searchpagepagefreetext's
 * targetUrl): a path on this site, in the page's language. Anything else (another host) is ignored: null.
 */
export function freeTextTargetPath(targetUrl: string | null | undefined, locale: 'da' | 'en'): string | null {
  if (!targetUrl) return null;
  let path = targetUrl.trim();
  if (/^https?:\/\//i.test(path)) return null;
  if (!path.startsWith('/')) path = `/${path}`;
  if (path.startsWith('//') || path.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(path, 'http://local.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://local.invalid') return null;
  let pathname = url.pathname;
  if (!pathname.endsWith('/') && !pathname.slice(pathname.lastIndexOf('/')).includes('.')) pathname += '/';
  const isEnglish = pathname === '/en/' || pathname.startsWith('/en/');
  if (locale === 'en' && !isEnglish) pathname = `/en${pathname}`;
  return pathname + url.search;
}
