/**
 * The insights beacon over real HTTP (issue 32, docs/decisions/040): POST /api/beacon is answered 204
 * whatever it holds; what counts is written by the next flush: public adverts only, no bots, one count per
 * visitor (address), advert, figure and place within 30 minutes. Visitors are other loopback addresses
 * (127.0.0.2, …), as the server sees them.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { advertInsightDays } from '#server/db/schema.ts';
import { isoDayOf } from '#lib/format.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert } from '#tests/support/fixtures.ts';

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

let server: TestServer;
let shown: number;
let hidden: number;
beforeAll(async () => {
  server = await startTestServer();
  shown = (await createAdvert(server.db, { name: 'Beacon Bente' })).id;
  hidden = (await createAdvert(server.db, { name: 'Beacon Skjult', status: 0, approvedAt: null })).id;
});
afterAll(async () => {
  await server?.close();
});

/** A beacon as a browser at `address` sends it (text/plain, as navigator.sendBeacon sends a string). */
function beaconFrom(address: string, body: string, userAgent = PHONE): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const url = new URL(`${server.url}/api/beacon`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: address, headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': userAgent } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The rows after the tally is written (counting runs just after the answer: waited for by polling). */
async function rowsAfter(expectedViews: number) {
  await expect
    .poll(async () => {
      await server.app.insights.flush(server.db);
      const rows = await server.db.select().from(advertInsightDays).orderBy(asc(advertInsightDays.place));
      return rows.reduce((sum, row) => sum + row.views, 0);
    })
    .toBe(expectedViews);
  return server.db.select().from(advertInsightDays).orderBy(asc(advertInsightDays.place));
}

describe('POST /api/beacon (issue 32)', () => {
  it('answers 204 with nothing, and counts a visitor’s impression, view, reveal and tap of a public advert', async () => {
    const answer = await beaconFrom('127.0.0.2', `i ${shown} front 4\nv ${shown}\np ${shown}\nc ${shown} tel`);
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers['cache-control']).toBe('no-store');
    const day = isoDayOf(new Date());
    expect(await rowsAfter(1)).toEqual([
      { advertId: shown, day, place: 'advert', impressions: 0, rankSum: 0, views: 1, phoneReveals: 1, contactTaps: 1 },
      { advertId: shown, day, place: 'front', impressions: 1, rankSum: 4, views: 0, phoneReveals: 0, contactTaps: 0 },
    ]);
  });

  it('counts the same visitor once within the window, another visitor again, and no bot or hidden advert', async () => {
    expect((await beaconFrom('127.0.0.2', `v ${shown}`)).status).toBe(204);
    expect((await beaconFrom('127.0.0.3', `v ${shown}\nv ${hidden}`)).status).toBe(204);
    expect((await beaconFrom('127.0.0.4', `v ${shown}`, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).status).toBe(204);
    expect((await beaconFrom('127.0.0.5', 'nonsense\u0000\nv abc')).status).toBe(204);
    const rows = await rowsAfter(2);
    expect(rows.map((row) => row.advertId)).not.toContain(hidden);
  });

  it('leaves GET and other paths to the site and the API', async () => {
    expect((await fetch(`${server.url}/api/beacon`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/beacons`, { method: 'POST', body: 'v 1' })).status).not.toBe(204);
  });
});
