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
