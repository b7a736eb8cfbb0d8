/**
 * CSV files the product hands out (the bookkeeper's, decision 025; the statistics, decision 030), written
 * as RFC 4180 says with the separator of each file: CRLF between lines and after the last; a field holding
 * the separator, a quote or a line break is quoted, its quotes doubled; numbers as they are (a point for
 * decimals), null as an empty field; text a spreadsheet would run as a formula (=, +, -, @ first) gets a
 * leading apostrophe. A `{ raw }` cell is already formatted (the bookkeeper's amounts with a decimal comma).
 */
export type CsvFile = { fileName: string; csv: string };
export type CsvValue = string | number | null;
export type CsvCell = CsvValue | { raw: string };

export type CsvOptions = {
  /** ',' (default) or ';' (what Danish Excel opens as columns). */
  separator?: ',' | ';';
  /** A UTF-8 byte order mark first (Excel reads the file as UTF-8 then). */
  bom?: boolean;
};

export function csvField(value: CsvValue, separator: ',' | ';' = ','): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return safe.includes(separator) || /["\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvOf(lines: readonly (readonly CsvCell[])[], options: CsvOptions = {}): string {
  const separator = options.separator ?? ',';
  const cell = (value: CsvCell) => (value !== null && typeof value === 'object' ? value.raw : csvField(value, separator));
  return (options.bom ? '\uFEFF' : '') + lines.map((line) => line.map(cell).join(separator)).join('\r\n') + '\r\n';
}
