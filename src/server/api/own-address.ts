/**
 * Development only: the site works at whichever of this machine's addresses the visitor opened
 * (`http://localhost:3000`, `http://127.0.0.1:3000`, the LAN address a phone uses), not only at SITE_URL.
 * The notification hub accepts pages of that address, and the providers' returns (payments, the age check,
 * the QR hand-off) come back to it, where the visitor's session cookie is. In production SITE_URL stays the
 * only origin (`ApiDeps.followVisitorAddress` is false).
 *
 * Only `localhost` and the IP addresses of this machine's own network interfaces count: a host name that
 * merely resolves here (DNS rebinding) is never taken for one of ours. And only a request that reached this
 * server at that address directly: its Host names the port the connection came in on. Behind a proxy
 * (nginx's `Host $host` has no port, or the proxy's own) the answer is SITE_URL.
 */
import { networkInterfaces } from 'node:os';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

let localAddresses: Set<string> | null = null;

/** The IP addresses of this machine's interfaces (read once), loopback included. */
function ownAddresses(): Set<string> {
  if (localAddresses) return localAddresses;
  const found = new Set<string>(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) found.add(entry.address.toLowerCase());
  localAddresses = found;
  return found;
}

/** Whether `hostname` (as in a URL: IPv6 in brackets) names this machine: localhost or one of its own addresses. */
export function isOwnHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  return isIP(bare) !== 0 && ownAddresses().has(bare);
}

type RequestAddress = Pick<FastifyRequest, 'headers'> & { socket?: { localPort?: number | undefined } | undefined };

/**
 * `http://host:port` of the address the request was sent to, when that address is this machine's and the
 * connection came in on that port (not through a proxy); else null.
 */
export function ownAddressOf(request: RequestAddress): string | null {
  const host = request.headers.host;
  if (typeof host !== 'string' || host.length === 0) return null;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== '/') return null;
  const localPort = request.socket?.localPort;
  if (localPort === undefined || (url.port || '80') !== String(localPort)) return null;
  return isOwnHostname(url.hostname) ? url.origin : null;
}

/**
 * The site's address for links that bring this visitor back (a provider's return, the QR hand-off): in
 * development the address they opened, when it is this machine's; SITE_URL otherwise.
 */
export function siteUrlForVisitor(deps: { siteUrl: string; followVisitorAddress?: boolean | undefined }, request: RequestAddress): string {
  if (!deps.followVisitorAddress) return deps.siteUrl;
  return ownAddressOf(request) ?? deps.siteUrl;
}
