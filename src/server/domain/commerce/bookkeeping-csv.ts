/**
 * The bookkeeper's CSV files (issue 16; docs/decisions/025-commerce.md "CSV for the bookkeeper"): sales and
 * VAT by month, and every sales document of a period. Danish Excel opens them as they are: UTF-8 with a
 * byte order mark, semicolons between fields, CRLF between rows, amounts in kroner with a decimal comma
 * and no thousands separator (1234,50), dates dd-MM-yyyy, months yyyy-MM, all in Europe/Copenhagen.
 * Receipts count as sales and credit notes as negative sales; a full invoice restates its receipt's sale,
 * so it is listed but never counted twice. Permission: Support (`orders:manage:any`).
 */
import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { BookkeepingPeriodInput } from '#lib/schemas/orders.ts';
import { formatDate } from '#lib/format.ts';
import { sumOre } from '#lib/money.ts';
import { orders, salesDocuments } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { copenhagenMonthOf, dayAfter, monthsBetween, startOfCopenhagenDay } from './copenhagen-days.ts';
import { documentNumberText } from './receipt-pdf.ts';
import { csvOf, type CsvCell, type CsvFile } from '../csv.ts';

/** A period longer than this is refused (a file a spreadsheet still opens). */
const MAX_DAYS = 3 * 366;

/** Øre as kroner with a decimal comma: -29950 → "-299,50". */
export function csvAmount(ore: number): string {
  const sign = ore < 0 ? '-' : '';
  const abs = Math.abs(ore);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** Raw (already formatted) cells are left as they are by the CSV writer. */
const amount = (ore: number) => ({ raw: csvAmount(ore) });
type Cell = CsvCell;
/** Semicolons and a byte order mark: what Danish Excel opens as it is. */
const csvOfCells = (rows: Cell[][]): string => csvOf(rows, { separator: ';', bom: true });

/** The period's documents (receipts, invoices, credit notes) with their orders' payment, by number. */
async function documentsOf(ctx: DomainContext, period: BookkeepingPeriodInput) {
  requirePermission(ctx.actor, 'orders:manage:any');
  if (period.To < period.From) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'To', message: 'dateOrder' }]);
  const from = startOfCopenhagenDay(period.From);
  const to = startOfCopenhagenDay(dayAfter(period.To));
  if (to.getTime() - from.getTime() > MAX_DAYS * 86_400_000) {
    throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'To', message: 'periodTooLong' }]);
  }
  return ctx.db
    .select({ document: salesDocuments, paymentMethod: orders.paymentMethod, transactionId: orders.transactionId })
    .from(salesDocuments)
    .innerJoin(orders, eq(orders.id, salesDocuments.orderId))
    .where(and(gte(salesDocuments.issuedAt, from), lt(salesDocuments.issuedAt, to), inArray(salesDocuments.kind, ['receipt', 'credit_note', 'invoice'])))
    .orderBy(asc(salesDocuments.number));
}

type MonthSums = { receipts: number; creditNotes: number; sold: number[]; credited: number[]; net: number[]; vat: number[] };

/** ordersvatcsv: per month of the period, receipts and credit notes, gross sold and credited, net and VAT. */
export async function salesByMonthCsv(ctx: DomainContext, period: BookkeepingPeriodInput): Promise<CsvFile> {
  const rows = await documentsOf(ctx, period);
  const months = new Map<string, MonthSums>(monthsBetween(period.From, period.To).map((month) => [month, { receipts: 0, creditNotes: 0, sold: [], credited: [], net: [], vat: [] }]));
  for (const { document } of rows) {
    const sums = months.get(copenhagenMonthOf(document.issuedAt));
    if (!sums) continue;
    if (document.kind === 'receipt') {
      sums.receipts += 1;
      sums.sold.push(document.totalOre);
      sums.net.push(document.netOre);
      sums.vat.push(document.vatOre);
    } else if (document.kind === 'credit_note') {
      sums.creditNotes += 1;
      sums.credited.push(-document.totalOre);
      sums.net.push(-document.netOre);
      sums.vat.push(-document.vatOre);
    }
  }
  const header: Cell[] = ['Måned', 'Kvitteringer', 'Kreditnotaer', 'Salg inkl. moms', 'Krediteret inkl. moms', 'Omsætning inkl. moms', 'Netto', 'Moms'];
  const lineOf = (label: string, sums: MonthSums): Cell[] => {
    const sold = sumOre(sums.sold);
    const credited = sumOre(sums.credited);
    return [label, sums.receipts, sums.creditNotes, amount(sold), amount(credited), amount(sumOre([sold, credited])), amount(sumOre(sums.net)), amount(sumOre(sums.vat))];
  };
  const all = [...months.values()];
  const totals: MonthSums = {
    receipts: all.reduce((n, s) => n + s.receipts, 0),
    creditNotes: all.reduce((n, s) => n + s.creditNotes, 0),
    sold: all.flatMap((s) => s.sold),
    credited: all.flatMap((s) => s.credited),
    net: all.flatMap((s) => s.net),
    vat: all.flatMap((s) => s.vat),
  };
  const csv = csvOfCells([header, ...[...months].map(([month, sums]) => lineOf(month, sums)), lineOf('I alt', totals)]);
  return { fileName: `moms-pr-maaned-${period.From}-${period.To}.csv`, csv };
}

const KIND_NAMES: Record<string, string> = { receipt: 'Kvittering', invoice: 'Faktura', credit_note: 'Kreditnota' };

/** orderdocumentscsv: every document of the period, by number; credit notes negative, invoices not counted. */
export async function documentsCsv(ctx: DomainContext, period: BookkeepingPeriodInput): Promise<CsvFile> {
  const rows = await documentsOf(ctx, period);
  const numbers = new Map(rows.map(({ document }) => [document.id, document.number]));
  const header: Cell[] = ['Nummer', 'Dato', 'Type', 'Ordre', 'Henviser til', 'Netto', 'Moms', 'I alt', 'Medregnes', 'Betaling', 'Transaktions-id'];
  const lines = rows.map(({ document, paymentMethod, transactionId }): Cell[] => {
    const sign = document.kind === 'credit_note' ? -1 : 1;
    const referred = document.refersTo === null ? null : numbers.get(document.refersTo);
    return [
      documentNumberText(document.number),
      formatDate(document.issuedAt),
      KIND_NAMES[document.kind] ?? document.kind,
      document.orderId,
      referred ? documentNumberText(referred) : document.refersTo === null ? '' : `id ${document.refersTo}`,
      amount(sign * document.netOre),
      amount(sign * document.vatOre),
      amount(sign * document.totalOre),
      document.kind === 'invoice' ? 'Nej (samme salg som kvitteringen)' : 'Ja',
      paymentMethod ?? '',
      transactionId ?? '',
    ];
  });
  return { fileName: `bilag-${period.From}-${period.To}.csv`, csv: csvOfCells([header, ...lines]) };
}
