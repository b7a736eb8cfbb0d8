import { describe, expect, it } from 'vitest';
import { MAX_LINES, readBeacon, readPlace } from '#server/domain/insights/beacon.ts';
import { AddressBudget, RepeatWindow } from '#server/domain/insights/repeat-window.ts';
import { DayKeys } from '#server/domain/visitors.ts';

describe("the insights beacon's body (issue 32, docs/decisions/040)", () => {
  it('reads impressions with their place and rank, views, phone reveals and contact taps', () => {
    expect(readBeacon('i 12 front 3\ni 12 landing:escort/region-hovedstaden/koebenhavn 25\nv 12\np 12\nc 12 whatsapp\ni 7 search 1')).toEqual([
      { figure: 'impression', advertId: 12, place: 'front', rank: 3 },
      { figure: 'impression', advertId: 12, place: 'landing:escort/region-hovedstaden/koebenhavn', rank: 25 },
      { figure: 'view', advertId: 12, place: 'advert' },
      { figure: 'phoneReveal', advertId: 12, place: 'advert' },
      { figure: 'contactTap', advertId: 12, place: 'advert', channel: 'whatsapp' },
      { figure: 'impression', advertId: 7, place: 'search', rank: 1 },
    ]);
  });

  it('drops what it cannot read, line by line, and reads at most MAX_LINES lines', () => {
    const bad = [
      'i 0 front 1', // no advert 0
      'i 12 front 0', // ranks start at 1
      'i 12 elsewhere 1',
      'i 12 landing:escort/a/b/c 1', // deeper than a city
      'i 12 landing:dating 1', // not a kind of ours
      'i 12 landing:escort/Region 1', // not a slug
      'i 99999999999 front 1', // larger than a database id
      'v 12 extra',
      'c 12 fax',
      'x 12',
      '',
      'i 12 front 1 more',
    ];
    expect(readBeacon(bad.join('\n'))).toEqual([]);
    expect(readBeacon(Array.from({ length: MAX_LINES + 50 }, () => 'v 5').join('\n'))).toHaveLength(MAX_LINES);
    expect(readPlace('landing:thaimassage/region-syddanmark')).toBe('landing:thaimassage/region-syddanmark');
  });
});

describe('one count per visitor, advert, figure and place per window; a budget per address', () => {
  it('keys a visitor under a salt of the day, and a new salt the next day', () => {
    const keys = new DayKeys();
    const first = keys.key('2026-12-02', '203.0.113.7', 12, 'view', 'advert');
    expect(keys.key('2026-12-02', '203.0.113.7', 12, 'view', 'advert')).toBe(first);
    expect(keys.key('2026-12-02', '203.0.113.8', 12, 'view', 'advert')).not.toBe(first);
    expect(keys.key('2026-12-02', '203.0.113.7', 12, 'phoneReveal', 'advert')).not.toBe(first);
    expect(first).not.toContain('203.0.113.7');
    expect(keys.key('2026-12-03', '203.0.113.7', 12, 'view', 'advert')).not.toBe(first);
  });

  it('says a key seen within the window is a repeat, and forgets it after the window or when full', () => {
    let now = 0;
    const window = new RepeatWindow(30 * 60_000, 3, () => now);
    expect(window.repeat('a')).toBe(false);
    now = 29 * 60_000;
    expect(window.repeat('a')).toBe(true);
    now = 30 * 60_000;
    expect(window.repeat('a')).toBe(false);
    for (const key of ['b', 'c', 'd']) expect(window.repeat(key)).toBe(false);
    expect(window.size).toBe(3);
    expect(window.repeat('a')).toBe(false); // the oldest was forgotten to keep at most 3
  });

  it('gives an address its hourly budget, refilled evenly', () => {
    let now = 0;
    const budget = new AddressBudget(600, 1000, () => now);
    for (let i = 0; i < 600; i += 1) expect(budget.take('k')).toBe(true);
    expect(budget.take('k')).toBe(false);
    expect(budget.take('other')).toBe(true);
    now = 6_000; // a tenth of a minute: one event back (600 an hour)
    expect(budget.take('k')).toBe(true);
    expect(budget.take('k')).toBe(false);
  });
});
