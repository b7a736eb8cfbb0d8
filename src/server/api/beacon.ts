/**
 * The insights beacon's door (issue 32, docs/decisions/040): `POST /api/beacon`, answered 204 at once, beside
 * the built site's fast path and before Fastify's routing and hooks (app.ts `serverFactory`), so prebuilt
 * pages cost the same while beacons arrive. The body is read (at most MAX_BODY_BYTES kept) and counted after
 * the answer (insights/tally.ts `countBeacon`: public adverts of the search memory only, no bots, the
 * address's budget, no repeats); the address is used in memory only. The answer promises nothing: a beacon
 * that is not counted is answered the same.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../db/client.ts';
import { clientAddressReader, type TrustProxySetting } from '../client-address.ts';
import { MAX_BODY_BYTES } from '../domain/insights/beacon.ts';
import { AddressBudget, RepeatWindow } from '../domain/insights/repeat-window.ts';
import { countBeacon, type InsightTally } from '../domain/insights/tally.ts';
import { DayKeys } from '../domain/visitors.ts';
import { searchMemory } from '../domain/search/search-memory.ts';

export const BEACON_PATH = '/api/beacon';
/** One visitor counts once per advert, figure and place in this window. */
export const REPEAT_WINDOW_MS = 30 * 60_000;
/** Counted events an hour per address. */
export const EVENTS_PER_ADDRESS_HOUR = 600;
/** A body larger than this is not read on: the connection is closed. */
const MAX_READ_BYTES = 1024 * 1024;

export type BeaconDoor = (request: IncomingMessage, response: ServerResponse) => boolean;

export function createBeaconDoor(deps: { db: Db; tally: InsightTally; trustProxy: TrustProxySetting; now: () => number }): BeaconDoor {
  const clientAddress = clientAddressReader(deps.trustProxy);
  const counting = {
    keys: new DayKeys(),
    window: new RepeatWindow(REPEAT_WINDOW_MS, 200_000),
    budget: new AddressBudget(EVENTS_PER_ADDRESS_HOUR, 50_000),
    tally: deps.tally,
    now: deps.now,
  };
  return (request, response) => {
    if (request.method !== 'POST') return false;
    const url = request.url ?? '';
    if (url !== BEACON_PATH && !url.startsWith(`${BEACON_PATH}?`)) return false;
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_READ_BYTES) request.destroy();
      else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('error', () => response.destroy());
    request.on('end', () => {
      response.writeHead(204, { 'cache-control': 'no-store' });
      response.end();
      const beacon = { body: Buffer.concat(chunks).toString('utf8'), address: clientAddress(request), userAgent: request.headers['user-agent'] };
      searchMemory(deps.db).then(
        (memory) => countBeacon({ ...counting, isPublic: (id) => memory.isPublic(id) }, beacon),
        () => undefined,
      );
    });
    return true;
  };
}
