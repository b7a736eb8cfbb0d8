/**
 * A `redirectTo` query value is only followed when it is a path on our own site under the allowed prefix
 * (no scheme, no `//host`), otherwise the fallback is used. Prevents open redirects after sign-in.
 */
export function safeRedirect(target: string | null | undefined, allowedPrefix: string, fallback: string): string {
  if (!target) return fallback;
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return fallback;
  let url: URL;
  try {
    url = new URL(target, 'http://local.invalid');
  } catch {
    return fallback;
  }
  if (url.origin !== 'http://local.invalid' || !url.pathname.startsWith(allowedPrefix)) return fallback;
  return url.pathname + url.search + url.hash;
}

/** The current path and query, for a `redirectTo` parameter. */
export function currentPathAndQuery(): string {
  return location.pathname + location.search;
}
