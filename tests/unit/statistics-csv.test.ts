/**
 * The CSV the product writes (src/server/domain/csv.ts, RFC 4180; the statistics files' separator): commas and CRLF, a field with a
 * comma, a quote or a line break quoted with its quotes doubled, null as an empty field, numbers as they are,
 * and text a spreadsheet would run as a formula defused.
 */
import { describe, expect, it } from 'vitest';
import { csvField, csvOf } from '#server/domain/csv.ts';

describe('statistics CSV', () => {
  it('quotes only the fields that need it', () => {
    expect(csvField('2026-11-27')).toBe('2026-11-27');
    expect(csvField('public.escort')).toBe('public.escort');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('sagde "nej"')).toBe('"sagde ""nej"""');
    expect(csvField('to\nlinjer')).toBe('"to\nlinjer"');
    expect(csvField('to\r\nlinjer')).toBe('"to\r\nlinjer"');
  });

  it('writes numbers as they are, null as an empty field, and defuses formulas', () => {
    expect(csvField(0)).toBe('0');
    expect(csvField(-1250)).toBe('-1250');
    expect(csvField(0.3333)).toBe('0.3333');
    expect(csvField(null)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvField('@cmd,x')).toBe(`"'@cmd,x"`);
  });

  it('joins fields with commas and lines with CRLF, ending with one', () => {
    expect(csvOf([['period', 'searches'], ['2026-11-26', 40], ['2026-11-27', null]])).toBe('period,searches\r\n2026-11-26,40\r\n2026-11-27,\r\n');
  });
});
