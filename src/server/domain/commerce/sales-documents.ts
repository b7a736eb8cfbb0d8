/**
 * Receipts, full invoices and credit notes (docs/decisions/025-commerce.md). Numbers come from one
 * sequence without gaps: the counter row is incremented inside the transaction that issues the document,
 * so a rolled-back transaction gives its number back and two transactions never share one (the row lock
 * makes the second wait). Documents are never edited or deleted (a trigger refuses it); a correction is a
 * new document that refers to the old one.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documentCounters, salesDocuments, siteSettings, type SalesDocumentLine, type SalesDocumentParty } from '../../db/schema.ts';
import { splitGross, sumOre, VAT_RATE_BP } from '#lib/money.ts';

export type SalesDocumentKind = 'receipt' | 'credit_note' | 'invoice';
export type SalesDocumentRow = typeof salesDocuments.$inferSelect;

/** The numbering series of every sales document. */
const SERIES = 'sales';

/**
 * The next number of the series, taken inside `tx` (the caller's transaction), with the seller as the
 * website config names it now (copied onto the document), in one statement.
 */
async function takeNumber(tx: Db): Promise<{ number: number; seller: SalesDocumentParty | null }> {
  const [row] = await tx
    .insert(documentCounters)
    .values({ series: SERIES, last: 1 })
    .onConflictDoUpdate({ target: documentCounters.series, set: { last: sql`${documentCounters.last} + 1` } })
    .returning({
      last: documentCounters.last,
      seller: sql<SalesDocumentParty | null>`(select jsonb_build_object('name', ${siteSettings.companyName}, 'address', ${siteSettings.companyAddress},
        'zipCity', ${siteSettings.companyZipCity}, 'vat', ${siteSettings.companyVat}, 'email', ${siteSettings.companyEmail})
        from ${siteSettings} where ${siteSettings.id} = 1)`,
    });
  return { number: row!.last, seller: row!.seller };
}

/** A document line for a VAT-inclusive amount: net and VAT split exactly. */
export function lineOf(description: string, grossOre: number, period: { start: Date | null; end: Date | null }): SalesDocumentLine {
  const { netOre, vatOre } = splitGross(grossOre);
  return {
    description,
    periodStart: period.start?.toISOString() ?? null,
    periodEnd: period.end?.toISOString() ?? null,
    netOre,
    vatOre,
    totalOre: grossOre,
  };
}

/**
 * Issues a document inside `tx` (call it within the transaction that caused it: the move to Paid, a
 * refund): numbered, with the seller copied from the website config, and totals summed from the lines.
 */
export async function issueSalesDocument(
  tx: Db,
  input: {
    kind: SalesDocumentKind;
    orderId: number;
    refersTo?: number | null;
    locale: string;
    buyer?: SalesDocumentParty | null;
    lines: SalesDocumentLine[];
    reason?: string | null;
    now: Date;
  },
): Promise<SalesDocumentRow> {
  const { number, seller } = await takeNumber(tx);
  if (!seller) throw new Error('site_settings has no row: the reference seed has not run');
  const [row] = await tx
    .insert(salesDocuments)
    .values({
      kind: input.kind,
      number,
      orderId: input.orderId,
      refersTo: input.refersTo ?? null,
      issuedAt: input.now,
      locale: input.locale,
      seller,
      buyer: input.buyer ?? null,
      lines: input.lines,
      netOre: sumOre(input.lines.map((line) => line.netOre)),
      vatOre: sumOre(input.lines.map((line) => line.vatOre)),
      totalOre: sumOre(input.lines.map((line) => line.totalOre)),
      vatRateBp: VAT_RATE_BP,
      reason: input.reason ?? null,
      createdAt: input.now,
    })
    .returning();
  return row!;
}
