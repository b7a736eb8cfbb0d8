/**
 * Receipts, full invoices and credit notes (docs/decisions/025-commerce.md). Numbers come from one
 * sequence without gaps: the counter row is incremented inside the transaction that issues the document,
 * so a rolled-back transaction gives its number back and two transactions never share one (the row lock
 * makes the second wait). Documents are never edited or deleted (a trigger refuses it); a correction is a
 * new document that refers to the old one.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, documentCounters, salesDocuments, siteSettings, type SalesDocumentLine, type SalesDocumentParty } from '../../db/schema.ts';
import { auditRow, type AuditEntry } from '../audit.ts';
import type { DomainContext } from '../context.ts';
import { splitGross, sumOre, VAT_RATE_BP } from '#lib/money.ts';

export type SalesDocumentKind = 'receipt' | 'credit_note' | 'invoice';
export type SalesDocumentRow = typeof salesDocuments.$inferSelect;

/** The numbering series of every sales document. */
const SERIES = 'sales';

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
 * One statement takes the next number of the series, copies the seller and writes the document (and, when
 * given, the audit entry of what caused it, with the number under `audit.numberAs`): the counter row's lock
 * is held from that statement to the commit only, so the caller issues the document last.
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
  audit?: { ctx: Pick<DomainContext, 'actor' | 'ip'>; entry: AuditEntry & { after: Record<string, unknown> }; numberAs: string },
): Promise<SalesDocumentRow> {
  const numbered = tx.$with('numbered').as(
    tx
      .insert(documentCounters)
      .values({ series: SERIES, last: 1 })
      .onConflictDoUpdate({ target: documentCounters.series, set: { last: sql`${documentCounters.last} + 1` } })
      .returning({
        number: documentCounters.last,
        seller: sql<SalesDocumentParty | null>`(select jsonb_build_object('name', ${siteSettings.companyName}, 'address', ${siteSettings.companyAddress},
          'zipCity', ${siteSettings.companyZipCity}, 'vat', ${siteSettings.companyVat}, 'email', ${siteSettings.companyEmail})
          from ${siteSettings} where ${siteSettings.id} = 1)`.as('seller'),
      }),
  );
  const values = {
    kind: input.kind,
    number: sql`(select last from numbered)`,
    orderId: input.orderId,
    refersTo: input.refersTo ?? null,
    issuedAt: input.now,
    locale: input.locale,
    // No website config (the reference seed has not run): null, which the column refuses.
    seller: sql`(select seller from numbered)`,
    buyer: input.buyer ?? null,
    lines: input.lines,
    netOre: sumOre(input.lines.map((line) => line.netOre)),
    vatOre: sumOre(input.lines.map((line) => line.vatOre)),
    totalOre: sumOre(input.lines.map((line) => line.totalOre)),
    vatRateBp: VAT_RATE_BP,
    reason: input.reason ?? null,
    createdAt: input.now,
  };
  // The audit entry rides along with the number it names (a data-modifying WITH runs whether or not it is read).
  const withs = audit
    ? [
        numbered,
        tx.$with('audited').as(
          tx
            .insert(auditLog)
            .values({
              ...auditRow(audit.ctx, audit.entry),
              after: sql`${JSON.stringify(audit.entry.after)}::jsonb || jsonb_build_object(${audit.numberAs}::text, (select last from numbered))`,
            })
            .returning({ id: auditLog.id }),
        ),
      ]
    : [numbered];
  const [row] = await tx.with(...withs).insert(salesDocuments).values(values).returning();
  return row!;
}
