import { describe, expect, it } from 'vitest';
import { addDays, compareBoost, type DayFigures } from '#server/domain/insights/boost-comparison.ts';

/** Days from `from` on, each with `impressions` (views a tenth), public unless listed in `hidden`. */
function days(from: string, count: number, impressions: (day: string, index: number) => number, hidden: string[] = []): Map<string, DayFigures> {
  const map = new Map<string, DayFigures>();
  for (let i = 0; i < count; i += 1) {
    const day = addDays(from, i);
    const shown = impressions(day, i);
    map.set(day, { day, public: !hidden.includes(day), impressions: shown, views: Math.floor(shown / 10), phoneReveals: 1, contactTaps: 0 });
  }
  return map;
}

describe('what a boost brought (issue 32, docs/decisions/040)', () => {
  // 1-28 November: 100 impressions a day; 29 November to 5 December (the boost): 400 a day.
  const boost = { from: '2026-11-29', to: '2026-12-05' };
  const figures = days('2026-11-01', 40, (day) => (day >= boost.from && day <= boost.to ? 400 : 100));

  it('compares each boost day with the same weekday of the week before', () => {
    const result = compareBoost(figures, boost, [boost], '2026-12-10');
    expect(result).toMatchObject({ verdict: 'compared', during: { impressions: 2800, views: 280, phoneReveals: 7 }, before: { impressions: 700, views: 70, phoneReveals: 7 } });
    if (result.verdict !== 'compared') throw new Error('not compared');
    expect(result.pairs[0]).toEqual({ day: '2026-11-29', before: '2026-11-22' });
    expect(result.pairs).toHaveLength(7);
  });

  it('leaves out today (not over) and the days the advert was not public, on either side', () => {
    const hidden = days('2026-11-01', 40, (day) => (day >= boost.from ? 400 : 100), ['2026-11-30', '2026-11-24']);
    const result = compareBoost(hidden, boost, [boost], '2026-12-03');
    if (result.verdict !== 'compared') throw new Error('not compared');
    // 29 Nov - 2 Dec are over; 30 Nov was hidden; 1 Dec's week before (24 Nov) was hidden: 17 Nov instead.
    expect(result.pairs).toEqual([
      { day: '2026-11-29', before: '2026-11-22' },
      { day: '2026-12-01', before: '2026-11-17' },
      { day: '2026-12-02', before: '2026-11-25' },
    ]);
  });

  it('never takes days of another boost of the same kind as days before', () => {
    const earlier = { from: '2026-11-20', to: '2026-11-26' };
    const result = compareBoost(figures, boost, [earlier, boost], '2026-12-10');
    if (result.verdict !== 'compared') throw new Error('not compared');
    expect(result.pairs.map((pair) => pair.before)).toEqual(['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-27', '2026-11-28']);
  });

  it('says there is too little to compare rather than claim anything', () => {
    expect(compareBoost(figures, boost, [boost], '2026-11-29')).toEqual({ verdict: 'tooLittle', reason: 'notStarted', pairs: 0 });
    expect(compareBoost(figures, boost, [boost], '2026-12-01')).toEqual({ verdict: 'tooLittle', reason: 'tooFewDays', pairs: 2 });
    // A new advert: no week before it at all.
    const fresh = days('2026-11-29', 10, () => 400);
    expect(compareBoost(fresh, boost, [boost], '2026-12-10')).toEqual({ verdict: 'tooLittle', reason: 'tooFewDays', pairs: 0 });
    const quiet = days('2026-11-01', 40, () => 5);
    expect(compareBoost(quiet, boost, [boost], '2026-12-10')).toEqual({ verdict: 'tooLittle', reason: 'tooFewImpressions', pairs: 7 });
  });

  it('counts calendar days across the change to winter time', () => {
    expect(addDays('2026-10-24', 1)).toBe('2026-10-25');
    expect(addDays('2026-10-25', 1)).toBe('2026-10-26');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
