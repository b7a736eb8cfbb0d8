import { describe, expect, it } from 'vitest';
import { SearchMemory, type MemoryRow } from '#server/domain/search/search-memory.ts';
import { mulberry32 } from '#server/seeded-random.ts';

/** A row as the search index holds one; `rank` decides its place (higher first, then higher id). */
function row(id: number, rank: number, change: Partial<MemoryRow> = {}): MemoryRow {
  return {
    id,
    kind: id % 3,
    regionId: id % 5,
    cityId: id % 11,
    age: 20 + (id % 30),
    height: null,
    weight: null,
    breastType: null,
    nationalityId: null,
    incall: id % 2 === 0,
    outcall: id % 3 === 0,
    validated: true,
    hasVideo: false,
    hasReview: false,
    languageIds: [1 + (id % 4)],
    serviceIds: id % 2 === 0 ? [2, 5] : [],
    frontPageBoosted: false,
    rank,
    ...change,
  };
}

describe('the search memory after changes (SearchMemory.patch)', () => {
  it('holds, in result order and as columns, exactly what a memory loaded afresh would, after any mix of changes', () => {
    const random = mulberry32(7);
    const pick = (n: number) => Math.floor(random() * n);
    let current = new Map<number, MemoryRow>(Array.from({ length: 400 }, (_, i) => [i + 1, row(i + 1, pick(50))]));
    const memory = new SearchMemory(1, [...current.values()]);
    memory.columns();
    for (let version = 2; version < 300; version += 1) {
      const changed = Array.from({ length: 1 + pick(4) }, () => 1 + pick(450));
      const next = new Map(current);
      for (const id of changed) {
        const was = current.get(id);
        const what = pick(4);
        if (what === 0) next.delete(id); // no longer public
        else if (what === 1 && was) next.set(id, was); // the same row again (a package for a public advert)
        else if (what === 2) next.set(id, row(id, pick(50))); // a new place in the order (a boost), or a new advert
        else next.set(id, row(id, was?.rank ?? pick(50), { age: 18 + pick(40), serviceIds: [pick(9)] })); // same place, new filters
      }
      memory.patch(changed, changed.flatMap((id) => (next.has(id) ? [next.get(id)!] : [])), version);
      current = next;
      if (version % 25 === 0) {
        const fresh = new SearchMemory(version, [...current.values()]);
        expect(memory.rows).toEqual(fresh.rows);
        expect(memory.columns()).toEqual(fresh.columns());
      }
    }
  });

  it('keeps its columns when the rows come back as it holds them, and rebuilds them when one differs', () => {
    const memory = new SearchMemory(1, [row(1, 5), row(2, 7), row(3, 1)]);
    const columns = memory.columns();
    memory.patch([2], [row(2, 7)], 2);
    expect(memory.columns()).toBe(columns);
    expect(memory.version).toBe(2);
    memory.patch([3], [row(3, 9)], 3);
    expect(memory.columns()).not.toBe(columns);
    expect(memory.rows.map((r) => r.id)).toEqual([3, 2, 1]);
  });
});
