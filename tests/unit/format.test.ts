import { describe, expect, it } from 'vitest';
import { dayFieldText, dayFieldValue, formatDate, formatDkk, formatKroner, maskPhone, normalisePlaceName, readingMinutes, slugify, thisMonthSoFar } from '#lib/format.ts';
import { differenceOre, kronerToOre, splitGross, sumOre, timesOre, vatOf } from '#lib/money.ts';

describe('slugs (spec §2)', () => {
  it('lower-cases and turns æ, ø, å into ae, oe, aa; spaces and slashes into hyphens', () => {
    expect(slugify('København')).toBe('koebenhavn');
    expect(slugify('Ærø Skøbing/Århus')).toBe('aeroe-skoebing-aarhus');
    expect(slugify('Region Hovedstaden')).toBe('region-hovedstaden');
    expect(slugify('  Sofie & Malee  ')).toBe('sofie-malee');
  });
  it('compares place names folded', () => {
    expect(normalisePlaceName('Aarhus')).toBe(normalisePlaceName('Århus'));
    expect(normalisePlaceName('KØBENHAVN')).toBe(normalisePlaceName('koebenhavn'));
  });
});

describe('dates and money', () => {
  it('shows dates as dd-MM-yyyy in Copenhagen time', () => {
    expect(formatDate('2026-02-01T23:30:00Z')).toBe('02-02-2026');
    expect(formatDate(new Date('2026-07-15T10:00:00Z'))).toBe('15-07-2026');
  });
  it('shows money in DKK with two decimals and Danish separators', () => {
    expect(formatDkk(123400)).toBe('1.234,00 DKK');
    expect(formatDkk(49900)).toBe('499,00 DKK');
    expect(formatDkk(5)).toBe('0,05 DKK');
    expect(formatDkk(123456789)).toBe('1.234.567,89 DKK');
  });
  it('finds the 25% VAT inside a VAT-inclusive price', () => {
    expect(vatOf(49900)).toBe(9980);
    expect(splitGross(119900)).toEqual({ netOre: 95920, vatOre: 23980, grossOre: 119900 });
  });
  it('rounds the VAT of a gross amount to the nearest øre, half up (Danish practice; issue 29)', () => {
    // gross × 20 %: 0,2 øre → 0; 0,6 øre → 1; 20,6 øre → 21; 399,8 øre → 400 (a fifth of whole øre never ends in exactly a half).
    expect(splitGross(1)).toEqual({ netOre: 1, vatOre: 0, grossOre: 1 });
    expect(splitGross(3)).toEqual({ netOre: 2, vatOre: 1, grossOre: 3 });
    expect(splitGross(103)).toEqual({ netOre: 82, vatOre: 21, grossOre: 103 });
    expect(splitGross(1999)).toEqual({ netOre: 1599, vatOre: 400, grossOre: 1999 });
    expect(vatOf(2) + vatOf(8)).toBe(0 + 2);
    expect(vatOf(13)).toBe(3);
    expect(vatOf(12)).toBe(2);
    expect(vatOf(10_000_000_003)).toBe(2_000_000_001);
    // The reference prices: 499, 1.199, 199 and 149 kroner.
    expect([49_900, 119_900, 19_900, 14_900].map(vatOf)).toEqual([9_980, 23_980, 3_980, 2_980]);
  });
  it('splits any amount into net and VAT that add up to it exactly, in whole øre', () => {
    for (const gross of [0, 1, 3, 7, 99, 12345, 49901, 2_000_000_003]) {
      const { netOre, vatOre } = splitGross(gross);
      expect(Number.isInteger(netOre) && Number.isInteger(vatOre)).toBe(true);
      expect(netOre + vatOre).toBe(gross);
      expect(Math.abs(vatOre * 5 - gross)).toBeLessThanOrEqual(4);
    }
  });
  it('adds, subtracts and multiplies øre without floats, and refuses fractions of an øre', () => {
    expect(sumOre([10, 20, 30])).toBe(60);
    expect(differenceOre(49900, 9980)).toBe(39920);
    expect(timesOre(4990, 3)).toBe(14970);
    expect(() => splitGross(0.1 + 0.2)).toThrow(RangeError);
  });
  it('reads kroner as typed into øre exactly, and shows øre as kroner to be edited', () => {
    expect(kronerToOre('499,00')).toBe(49_900);
    expect(kronerToOre(' 1.199,00 ')).toBe(119_900);
    expect(kronerToOre('1.199')).toBe(119_900);
    expect(kronerToOre('1199,5')).toBe(119_950);
    expect(kronerToOre('299.50')).toBe(29_950);
    expect(kronerToOre('0,05')).toBe(5);
    // parseFloat('19.99') * 100 is 1998.9999999999998.
    expect(kronerToOre('19,99')).toBe(1999);
    expect(kronerToOre('9.999.999,99')).toBe(999_999_999);
    for (const text of ['', 'abc', '499,005', '-5', '12345678', '1.19,00', '499,']) expect(kronerToOre(text), text).toBeNull();
    expect(formatKroner(119_900)).toBe('1.199,00');
    expect(kronerToOre(formatKroner(123_456_789))).toBe(123_456_789);
  });
});

describe('days typed into a field (issue 31, item 9)', () => {
  it('shows a day as dd-mm-yyyy and carries it as yyyy-MM-dd; what is not a day stays as typed', () => {
    expect(dayFieldText('2026-12-01')).toBe('01-12-2026');
    expect(dayFieldText('1-12-2026')).toBe('1-12-2026');
    expect(dayFieldText('')).toBe('');
    expect(dayFieldValue('1-12-2026')).toBe('2026-12-01');
    expect(dayFieldValue(' 01.12.2026 ')).toBe('2026-12-01');
    expect(dayFieldValue('2026-12-01')).toBe('2026-12-01');
    expect(dayFieldValue('31-11-2026')).toBe('31-11-2026');
    expect(dayFieldValue('i går')).toBe('i går');
  });
  it("defaults a period to this month so far on the Copenhagen calendar, also just after Danish midnight", () => {
    // 23:30 UTC on 30 November is already 1 December in Copenhagen.
    expect(thisMonthSoFar(new Date('2026-11-30T23:30:00Z'))).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    expect(thisMonthSoFar(new Date('2026-12-02T12:00:00Z'))).toEqual({ from: '2026-12-01', to: '2026-12-02' });
  });
});

describe('texts', () => {
  it('estimates reading time at 200 words per minute', () => {
    expect(readingMinutes('ord '.repeat(200))).toBe(1);
    expect(readingMinutes('ord '.repeat(201))).toBe(2);
    expect(readingMinutes('')).toBe(1);
  });
  it('masks the last digits of an 8-digit phone number', () => {
    expect(maskPhone('+45 12 34 56 78', 4)).toBe('1234xxxx');
  });
});
