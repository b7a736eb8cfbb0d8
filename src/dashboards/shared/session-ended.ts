/**
 * The session ended (a call answered 401): sign in again and come back to this screen. The app is known
 * by its path: /support/... signs in at /support/login/, the advertiser app at /login/.
 */
export function loginPathFor(pathname: string): string {
  return pathname === '/support' || pathname.startsWith('/support/') ? '/support/login/' : '/login/';
}

export function goToLogin(): void {
  location.assign(`${loginPathFor(location.pathname)}?redirectTo=${encodeURIComponent(location.pathname + location.search)}`);
}
