import { describe, expect, it } from 'vitest';
import { boostedFirst, rotateBoosted, secondsOfThisOrder, shuffleMinute, shufflePosition } from '#server/domain/search/ranking.ts';

/** A minute of 26-11-2026, far from zero like every real one. */
const START = shuffleMinute(new Date('2026-11-26T10:00:00Z'));

/** How often each advert is at each position over `minutes` minutes from `from`. */
function tally(ids: number[], from: number, minutes: number): Map<number, number[]> {
  const counts = new Map(ids.map((id) => [id, ids.map(() => 0)]));
  for (let minute = from; minute < from + minutes; minute++) {
    rotateBoosted(ids, minute).forEach((id, position) => counts.get(id)![position]! += 1);
  }
  return counts;
}

describe('boosted adverts turn fairly every minute (docs/decisions/026)', () => {
  it.each([2, 3, 5, 7, 12])('over N minutes each of %i boosted adverts is first about N/k times', (k) => {
    const ids = Array.from({ length: k }, (_, n) => 1000 + n * 37);
    const minutes = 600;
    const counts = tally(ids, START + 11, minutes);
    for (const [, positions] of counts) {
      // Whole rounds give exactly one turn at every position each; the two partial rounds at the ends at most one more.
      for (const times of positions) expect(Math.abs(times - minutes / k)).toBeLessThanOrEqual(2);
    }
  });

  it('gives each advert every position exactly once in k minutes from a round start', () => {
    const ids = [5, 9, 14, 30];
    const counts = tally(ids, START - (START % ids.length), ids.length);
    for (const [, positions] of counts) expect(positions).toEqual([1, 1, 1, 1]);
  });

  it('is the same for the same minute whatever order the ids come in, and changes between minutes', () => {
    const ids = [41, 7, 300, 12, 99];
    expect(rotateBoosted(ids, START)).toEqual(rotateBoosted([...ids].reverse(), START));
    expect(rotateBoosted(ids, START).toSorted((a, b) => a - b)).toEqual([7, 12, 41, 99, 300]);
    for (let minute = START; minute < START + 20; minute++) {
      expect(rotateBoosted(ids, minute + 1)[0]).not.toBe(rotateBoosted(ids, minute)[0]);
    }
  });

  it('does not follow one fixed cycle: which advert follows which changes between rounds', () => {
    const ids = [1, 2, 3, 4, 5, 6];
    const successorsOf1 = new Set<number>();
    for (let round = 0; round < 30; round++) {
      const order = rotateBoosted(ids, (START - (START % 6)) + round * 6);
      successorsOf1.add(order[(order.indexOf(1) + 1) % 6]!);
    }
    expect(successorsOf1.size).toBeGreaterThan(2);
  });

  it('puts the boosted ones before the rest, the rest in the order given', () => {
    expect(boostedFirst([8], [3, 1, 2], START)).toEqual([8, 3, 1, 2]);
    expect(boostedFirst([], [3, 1], START)).toEqual([3, 1]);
    expect(boostedFirst([4, 8], [3], START).slice(0, 2).toSorted()).toEqual([4, 8]);
  });

  it('reshuffles the unboosted front page every minute, each advert first about equally often', () => {
    const ids = Array.from({ length: 10 }, (_, n) => 500 + n);
    const firsts = new Map<number, number>();
    const orders = new Set<string>();
    for (let minute = START; minute < START + 1000; minute++) {
      const order = ids.toSorted((a, b) => shufflePosition(a, minute) - shufflePosition(b, minute));
      firsts.set(order[0]!, (firsts.get(order[0]!) ?? 0) + 1);
      orders.add(order.join());
    }
    // About 100 each (a binomial's standard deviation is about 9.5).
    for (const id of ids) expect(Math.abs((firsts.get(id) ?? 0) - 100)).toBeLessThan(40);
    expect(orders.size).toBeGreaterThan(990);
  });

  it('keeps an answer no longer than its minute', () => {
    expect(secondsOfThisOrder(new Date('2026-11-26T10:00:00Z'))).toBe(60);
    expect(secondsOfThisOrder(new Date('2026-11-26T10:00:59.500Z'))).toBe(1);
    expect(shuffleMinute(new Date('2026-11-26T10:00:59.999Z'))).toBe(shuffleMinute(new Date('2026-11-26T10:00:00Z')));
  });
});
