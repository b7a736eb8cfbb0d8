import { describe, expect, it } from 'vitest';
import { dkkToOre, normaliseDanishPhone, BasicInformationSchema, PriceItemSchema, ScheduleSchema } from '#lib/schemas/advert-edit.ts';
import { planModeratedChange, sameValue } from '#server/domain/adverts/pending-changes.ts';
import { holidayEndOf, shiftPaidPeriods } from '#server/domain/adverts/holiday.ts';
import { buildChecklist, describeStatus, type ChecklistKey } from '#server/domain/adverts/dashboard.ts';
import * as v from 'valibot';

const DAY = 86_400_000;
const now = new Date('2026-11-22T10:00:00Z');
const at = (days: number) => new Date(now.getTime() + days * DAY);

describe('Danish phone numbers', () => {
  it('normalises the ways people write them to 8 digits', () => {
    for (const written of ['20304050', '20 30 40 50', '+45 20 30 40 50', '004520304050', '20-30-40-50']) {
      expect(normaliseDanishPhone(written)).toBe('20304050');
    }
  });
  it('refuses what is not a Danish subscriber number', () => {
    for (const written of ['2030405', '203040501', '10304050', '+46 20304050', 'abc', '']) expect(normaliseDanishPhone(written)).toBeNull();
  });
});

describe('prices in DKK → øre', () => {
  it('reads whole and decimal amounts with comma or point', () => {
    expect(dkkToOre(1500)).toBe(150_000);
    expect(dkkToOre('1500,50')).toBe(150_050);
    expect(dkkToOre('99.5')).toBe(9_950);
    expect(dkkToOre('1.500,00')).toBeNull();
    expect(dkkToOre('-5')).toBeNull();
  });
  it('a price item needs an incall or an outcall price', () => {
    const result = v.safeParse(PriceItemSchema, { durationminutes: 60 });
    expect(result.success).toBe(false);
    expect(v.safeParse(PriceItemSchema, { DurationMinutes: 60, OutcallPrice: '2000' }).output).toMatchObject({ OutcallPrice: 200_000, IncallPrice: null });
  });
});

describe('basic information limits', () => {
  const valid = { Name: 'Anna', Phone: '20304050', RegionId: 1, CityId: 1 };
  it('accepts a full form and defaults the optional texts', () => {
    expect(v.parse(BasicInformationSchema, valid)).toMatchObject({ Name: 'Anna', Title: '', Website: null, HasWhatsapp: false });
  });
  it('names each bad field', () => {
    const result = v.safeParse(BasicInformationSchema, { ...valid, Name: 'A', Title: 'x'.repeat(81), Website: 'ftp://x.dk', Phone: '123' });
    const fields = result.issues?.map((issue) => issue.path?.[0]?.key);
    expect(fields).toEqual(expect.arrayContaining(['Name', 'Title', 'Website', 'Phone']));
  });
  it('refuses a week with the same day twice', () => {
    const day = { Weekday: 1, From: '10:00', To: '18:00' };
    expect(v.safeParse(ScheduleSchema, { Days: [day, day] }).success).toBe(false);
    expect(v.safeParse(ScheduleSchema, { Days: [day, { ...day, Weekday: 7, To: '02:00' }] }).success).toBe(true);
  });
});

describe('pending changes (docs/decisions/011)', () => {
  const approved = { title: 'Gammel titel', location: { regionId: 1, cityId: 2 }, languageIds: [1, 2] };
  it('applies everything at once on an advert never approved', () => {
    const plan = planModeratedChange(approved, { title: 'Ny titel' }, { title: 'old pending' }, false);
    expect(plan).toEqual({ apply: { title: 'Ny titel' }, pending: null, pendingFields: [] });
  });
  it('keeps changed values pending on an approved advert, and nothing for unchanged ones', () => {
    const plan = planModeratedChange(approved, { title: 'Ny titel', location: { cityId: 2, regionId: 1 }, languageIds: [2, 1] }, null, true);
    expect(plan).toEqual({ apply: {}, pending: { title: 'Ny titel' }, pendingFields: ['title'] });
  });
  it('withdraws a pending value when the approved one is sent again, and keeps other pending fields', () => {
    const plan = planModeratedChange(approved, { title: 'Gammel titel' }, { title: 'Ny titel', description: 'x' }, true);
    expect(plan.pending).toEqual({ description: 'x' });
  });
  it('compares id lists as sets', () => {
    expect(sameValue([3, 1, 2], [1, 2, 3])).toBe(true);
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue('a', 'b')).toBe(false);
  });
});

describe('holiday keeps paid days', () => {
  const periods = { expirationDate: at(20), frontPageBoostUntil: at(2), searchBoostUntil: at(-1) };
  it('moves running paid periods later by the holiday length', () => {
    const shifted = shiftPaidPeriods(periods, null, at(7), now);
    expect(shifted.expirationDate).toEqual(at(27));
    expect(shifted.frontPageBoostUntil).toEqual(at(9));
    expect(shifted.searchBoostUntil).toEqual(at(-1));
  });
  it('ending early takes back only what is left of the holiday', () => {
    const onHoliday = shiftPaidPeriods(periods, null, at(7), now);
    const threeDaysLater = at(3);
    const back = shiftPaidPeriods(onHoliday, at(7), null, threeDaysLater);
    expect(back.expirationDate).toEqual(at(23));
  });
  it('moving the return date re-counts from now', () => {
    const onHoliday = shiftPaidPeriods(periods, null, at(7), now);
    expect(shiftPaidPeriods(onHoliday, at(7), at(10), now).expirationDate).toEqual(at(30));
  });
  it('an expired package is not extended', () => {
    expect(shiftPaidPeriods({ expirationDate: at(-2), frontPageBoostUntil: null, searchBoostUntil: null }, null, at(5), now).expirationDate).toEqual(at(-2));
  });
  it('a date means the start of that day in Copenhagen (winter and summer time)', () => {
    expect(holidayEndOf('2026-12-24').toISOString()).toBe('2026-12-23T23:00:00.000Z');
    expect(holidayEndOf('2027-07-01').toISOString()).toBe('2027-06-30T22:00:00.000Z');
  });
});

describe('dashboard status in plain words', () => {
  const facts = (done: Partial<Record<ChecklistKey, boolean>>) =>
    buildChecklist(
      { emailVerified: false, phoneVerified: false, pictures: false, priceList: false, schedule: false, identityVerification: false, approval: false, package: false, ...done },
      [],
    );
  const base = { status: 0, expirationDate: null, holidayUntil: null, approvedAt: null, ageVerifiedAt: null, pendingChanges: null };
  it('New with things to do, Pending when only support is left', () => {
    expect(describeStatus(base, facts({}), now)).toEqual({ word: 'New', nextStep: 'completeChecklist' });
    const ready = facts({ emailVerified: true, phoneVerified: true, pictures: true, identityVerification: true });
    expect(describeStatus(base, ready, now)).toEqual({ word: 'Pending', nextStep: 'waitForApproval' });
  });
  it('Active, Expired, on holiday, Deactivated, Locked, Deleted', () => {
    const live = { ...base, status: 1, approvedAt: at(-9), ageVerifiedAt: at(-9), expirationDate: at(9) };
    expect(describeStatus(live, facts({}), now).word).toBe('Active');
    // Live with changes waiting for support.
    expect(describeStatus({ ...live, pendingChanges: { title: 'Ny titel' } }, facts({}), now)).toEqual({ word: 'Pending', nextStep: 'waitForChanges' });
    expect(describeStatus({ ...live, expirationDate: at(-1) }, facts({}), now)).toEqual({ word: 'Expired', nextStep: 'buyPackage' });
    expect(describeStatus({ ...live, holidayUntil: at(3) }, facts({}), now).word).toBe('Holiday');
    expect(describeStatus({ ...live, status: 5 }, facts({}), now).word).toBe('Deactivated');
    expect(describeStatus({ ...live, status: 2 }, facts({}), now).word).toBe('Locked');
    expect(describeStatus({ ...live, status: 3 }, facts({}), now).word).toBe('Deleted');
  });
  it('a verification waiting for support is not asked for again (issue 31, item 6)', () => {
    const submitted = at(-1);
    const waiting = (done: Partial<Record<ChecklistKey, boolean>>) =>
      buildChecklist(
        { emailVerified: true, phoneVerified: true, pictures: true, priceList: false, schedule: false, identityVerification: false, approval: false, package: false, ...done },
        [],
        { identityVerification: submitted },
      );
    const item = waiting({}).find((i) => i.key === 'identityVerification')!;
    expect(item).toMatchObject({ done: false, waitingSince: submitted.toISOString() });
    // Everything else done: the advert waits for support's decision on the verification, then its review.
    expect(describeStatus(base, waiting({}), now)).toEqual({ word: 'Pending', nextStep: 'waitForVerification' });
    // Something else to do: that comes first.
    expect(describeStatus(base, waiting({ pictures: false }), now)).toEqual({ word: 'New', nextStep: 'completeChecklist' });
    // Live without a verified age: waiting, not "verify your age".
    const live = { ...base, status: 1, approvedAt: at(-9), expirationDate: at(9) };
    expect(describeStatus(live, waiting({}), now)).toEqual({ word: 'Active', nextStep: 'waitForVerification' });
    expect(describeStatus(live, facts({}), now)).toEqual({ word: 'Active', nextStep: 'verifyAge' });
    // Once verified, nothing waits.
    expect(waiting({ identityVerification: true }).find((i) => i.key === 'identityVerification')!.waitingSince).toBeNull();
  });
  it('only price list and schedule can be skipped', () => {
    const items = buildChecklist(
      { emailVerified: true, phoneVerified: true, pictures: true, priceList: false, schedule: false, identityVerification: true, approval: true, package: true },
      ['schedule', 'approval'],
    );
    expect(items.filter((i) => i.skipped).map((i) => i.key)).toEqual(['schedule']);
    expect(items.filter((i) => i.skippable).map((i) => i.key)).toEqual(['priceList', 'schedule']);
  });
});
