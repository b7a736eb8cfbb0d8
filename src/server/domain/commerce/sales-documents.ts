/**
 * Receipts, full invoices and credit notes (docs/decisions/025-commerce.md). Numbers come from one
 * sequence without gaps: the counter row is incremented at the COMMIT of the transaction that issues the
 * document (a deferred trigger, migration 0025), so a rolled-back transaction takes no number and two
 * transactions never share one (the row lock makes the second wait, inside its own COMMIT). Documents are never edited or deleted (a trigger refuses it); a correction is a
 * new document that refers to the old one.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, salesDocuments, siteSettings, type SalesDocumentLine, type SalesDocumentParty } from '../../db/schema.ts';
import { auditRow, type AuditEntry } from '../audit.ts';
import type { DomainContext } from '../context.ts';
import { splitGross, sumOre, VAT_RATE_BP } from '#lib/money.ts';

export type SalesDocumentKind = 'receipt' | 'credit_note' | 'invoice';
export type SalesDocumentRow = typeof salesDocuments.$inferSelect;

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

/** A document as its issuing transaction sees it: its number is given at that transaction's COMMIT. */
export type IssuedDocument = Omit<SalesDocumentRow, 'number'>;

/**
 * Issues a document inside `tx` (call it within the transaction that caused it: the move to Paid, a
 * refund), with the seller copied from the website config and totals summed from the lines, and, when
 * given, the audit entry of what caused it (on the document's order). Its number, and the audit entry's
 * `audit.numberAs`, are filled at COMMIT by the database (migration 0025, docs/decisions/027): the series'
 * counter row is then locked only inside the COMMIT, not from a statement to the commit's round trip, so
 * postbacks paid at once do not wait on each other's network and event loop. Read the number after the
 * commit; two documents of one transaction are numbered in the order they were issued.
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
  audit?: { ctx: Pick<DomainContext, 'actor' | 'ip'>; entry: Omit<AuditEntry, 'targetType' | 'targetId'> & { after: Record<string, unknown> }; numberAs: string },
): Promise<IssuedDocument> {
  const [row] = await tx
    .insert(salesDocuments)
    .values({
      kind: input.kind,
      // Provisional (minus the id, set by the database) until the COMMIT numbers it.
      number: sql`null`,
      orderId: input.orderId,
      refersTo: input.refersTo ?? null,
      issuedAt: input.now,
      locale: input.locale,
      // No website config (the reference seed has not run): null, which the column refuses.
      seller: sql`(select jsonb_build_object('name', ${siteSettings.companyName}, 'address', ${siteSettings.companyAddress},
        'zipCity', ${siteSettings.companyZipCity}, 'vat', ${siteSettings.companyVat}, 'email', ${siteSettings.companyEmail})
        from ${siteSettings} where ${siteSettings.id} = 1)`,
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
  const { number: _provisional, ...document } = row!;
  if (audit) {
    // The number's place holds the document until the COMMIT puts the number there.
    const after = { ...audit.entry.after, [audit.numberAs]: `${DOCUMENT_MARK}${document.id}` };
    await tx.insert(auditLog).values(auditRow(audit.ctx, { ...audit.entry, targetType: 'order', targetId: input.orderId, after }));
  }
  return document;
}

/** What an audit entry holds where its document's number goes, until the COMMIT (migration 0025). */
const DOCUMENT_MARK = 'document:';
