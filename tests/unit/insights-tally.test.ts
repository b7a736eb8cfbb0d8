import { describe, expect, it } from 'vitest';
import { AddressBudget, RepeatWindow } from '#server/domain/insights/repeat-window.ts';
import { DayKeys } from '#server/domain/visitors.ts';
import { InsightTally, countBeacon, type BeaconCounting } from '#server/domain/insights/tally.ts';

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

function counting(now: { ms: number }, perHour = 600): BeaconCounting {
  const clock = () => now.ms;
  return {
    keys: new DayKeys(),
    window: new RepeatWindow(30 * 60_000, 10_000, clock),
    budget: new AddressBudget(perHour, 10_000, clock),
    tally: new InsightTally(),
    isPublic: (id) => id !== 99,
    now: clock,
  };
}

describe('counting a beacon (issue 32, docs/decisions/040)', () => {
  it('adds up per advert, Copenhagen day and place: impressions with their ranks, views, reveals and taps', () => {
    const now = { ms: Date.parse('2026-12-02T23:30:00Z') }; // 00:30 on 3 December in Copenhagen
    const c = counting(now);
    expect(countBeacon(c, { body: 'i 12 front 3\nv 12\np 12\nc 12 tel\ni 7 front 1', address: '203.0.113.7', userAgent: PHONE })).toBe(5);
    expect(countBeacon(c, { body: 'i 12 front 5', address: '203.0.113.8', userAgent: PHONE })).toBe(1);
    expect(c.tally.drain().sort((a, b) => a.advertId - b.advertId || a.place.localeCompare(b.place))).toEqual([
      { advertId: 7, day: '2026-12-03', place: 'front', impressions: 1, rankSum: 1, views: 0, phoneReveals: 0, contactTaps: 0 },
      { advertId: 12, day: '2026-12-03', place: 'advert', impressions: 0, rankSum: 0, views: 1, phoneReveals: 1, contactTaps: 1 },
      { advertId: 12, day: '2026-12-03', place: 'front', impressions: 2, rankSum: 8, views: 0, phoneReveals: 0, contactTaps: 0 },
    ]);
    expect(c.tally.size).toBe(0);
  });

  it('counts a visitor once per advert, figure and place within 30 minutes, and again after', () => {
    const now = { ms: Date.parse('2026-12-02T12:00:00Z') };
    const c = counting(now);
    expect(countBeacon(c, { body: 'v 12\nv 12\ni 12 front 1\ni 12 search 4', address: '203.0.113.7', userAgent: PHONE })).toBe(3);
    now.ms += 10 * 60_000;
    expect(countBeacon(c, { body: 'v 12\ni 12 front 2', address: '203.0.113.7', userAgent: PHONE })).toBe(0);
    now.ms += 21 * 60_000;
    expect(countBeacon(c, { body: 'v 12', address: '203.0.113.7', userAgent: PHONE })).toBe(1);
  });

  it('counts no bot, no advert that is not public, and nothing beyond an address’s hourly budget', () => {
    const now = { ms: Date.parse('2026-12-02T12:00:00Z') };
    const c = counting(now, 3);
    expect(countBeacon(c, { body: 'v 12', address: '203.0.113.7', userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })).toBe(0);
    expect(countBeacon(c, { body: 'v 12', address: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36' })).toBe(0);
    expect(countBeacon(c, { body: 'v 12', address: '203.0.113.7', userAgent: undefined })).toBe(0);
    expect(countBeacon(c, { body: 'v 99', address: '203.0.113.7', userAgent: PHONE })).toBe(0);
    // Many adverts from one address: three an hour here.
    expect(countBeacon(c, { body: 'v 1\nv 2\nv 3\nv 4\nv 5', address: '203.0.113.7', userAgent: PHONE })).toBe(3);
    expect(countBeacon(c, { body: 'v 6', address: '203.0.113.9', userAgent: PHONE })).toBe(1);
  });
});
