/**
 * The client's address of a request that Fastify does not see (the built site's fast path, the insights
 * beacon), read as Fastify reads `request.ip`: through the proxies TRUST_PROXY trusts (app.ts `trustProxy`).
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

export type TrustProxySetting = false | string[] | ((address: string, hop: number) => boolean);

/** A reader of the client's address for this trust setting (compiled once). */
export function clientAddressReader(trustProxy: TrustProxySetting): (request: IncomingMessage) => string {
  const trust = trustProxy === false ? null : Array.isArray(trustProxy) ? proxyAddr.compile(trustProxy) : trustProxy;
  return (request) => (trust ? proxyAddr(request, trust) : (request.socket.remoteAddress ?? ''));
}
