/**
 * Browser security headers beyond helmet's defaults (issue 15, item 12), for every answer of the server
 * (API, media and the built site) and, the same values, in netlify.toml for a static deploy.
 */

/**
 * Powerful browser features no page of the product uses are off for every page and frame: the
 * verification's ID photo, selfie and video are chosen with a plain file input (the phone's camera app
 * opens from the file picker, which this policy does not govern), never through getUserMedia; payments
 * go through the provider's own pages. Fullscreen stays for the page itself (video players). Only features
 * the browsers know: an unknown one (Web Bluetooth's `bluetooth`, which Chromium does not take in this
 * header) is a console warning on every page (issue 31, item 10).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
].join(', ');

/**
 * CSP `connect-src`: the page's own origin ('self', the API) and the notification hub's WebSocket at
 * the site's own origin and the other allowed hub origins (HUB_ALLOWED_ORIGINS), never any host.
 */
export function connectSources(siteUrl: string, hubOrigins: readonly string[] = []): string[] {
  const sources = new Set<string>();
  for (const value of [siteUrl, ...hubOrigins]) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    sources.add(`${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`);
  }
  return ["'self'", ...sources];
}
