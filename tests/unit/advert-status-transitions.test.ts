import { describe, expect, it } from 'vitest';
import { PROFILE_STATUS, STATUS_TRANSITIONS, canChangeStatus, type StatusChanger } from '#server/domain/adverts/statuses.ts';
import { requireStatusChange } from '#server/domain/adverts/change-status.ts';

const { New, Active, Locked, Deleted, Deactivated } = PROFILE_STATUS;
const STATUSES = [New, Active, Locked, Deleted, Deactivated] as const;
const CHANGERS: StatusChanger[] = ['advertiser', 'support', 'system'];

/**
 * The expected table, written out independently of the domain's: for every (from, to) pair, who may
 * make it. Every pair not listed is refused to everyone.
 */
const EXPECTED: Record<string, StatusChanger[]> = {
  [`${New}->${Active}`]: ['support', 'system'],
  [`${New}->${Locked}`]: ['support', 'system'],
  [`${New}->${Deleted}`]: ['advertiser', 'support'],
  [`${Active}->${Deactivated}`]: ['advertiser', 'support'],
  [`${Active}->${Locked}`]: ['support', 'system'],
  [`${Active}->${Deleted}`]: ['advertiser', 'support'],
  [`${Deactivated}->${Active}`]: ['advertiser', 'support'],
  [`${Deactivated}->${Locked}`]: ['support', 'system'],
  [`${Deactivated}->${Deleted}`]: ['advertiser', 'support'],
  [`${Locked}->${Active}`]: ['support'],
  [`${Locked}->${New}`]: ['support'],
  [`${Locked}->${Deleted}`]: ['advertiser', 'support'],
  [`${Deleted}->${New}`]: ['advertiser', 'support'],
  [`${Deleted}->${Active}`]: ['advertiser', 'support'],
  [`${Deleted}->${Locked}`]: ['advertiser', 'support'],
  [`${Deleted}->${Deactivated}`]: ['advertiser', 'support'],
};

describe('profile status transitions (one table in the domain; spec §4)', () => {
  for (const from of STATUSES) {
    for (const to of STATUSES) {
      for (const by of CHANGERS) {
        const allowed = (EXPECTED[`${from}->${to}`] ?? []).includes(by);
        it(`${by}: ${from} → ${to} is ${allowed ? 'allowed' : 'refused'}`, () => {
          expect(canChangeStatus(from, to, by)).toBe(allowed);
          if (allowed) expect(() => requireStatusChange(from, to, by)).not.toThrow();
          else {
            const someoneMay = (EXPECTED[`${from}->${to}`] ?? []).length > 0;
            expect(() => requireStatusChange(from, to, by)).toThrow(
              expect.objectContaining({ code: someoneMay ? 'FORBIDDEN' : 'CONFLICT' }),
            );
          }
        });
      }
    }
  }

  it('lists no transition twice and none to the same status', () => {
    const keys = STATUS_TRANSITIONS.map((t) => `${t.from}->${t.to}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(STATUS_TRANSITIONS.every((t) => t.from !== t.to)).toBe(true);
  });

  it('never lets an advertiser approve, lock or unlock', () => {
    for (const from of STATUSES) {
      expect(canChangeStatus(from, Locked, 'advertiser')).toBe(from === Deleted);
      if (from !== Deleted && from !== Deactivated) expect(canChangeStatus(from, Active, 'advertiser')).toBe(false);
    }
  });

  it('knows no status 4 (Pending is a label, not a status)', () => {
    expect(canChangeStatus(Active, 4, 'support')).toBe(false);
    expect(() => requireStatusChange(Active, 4, 'support')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });
});
