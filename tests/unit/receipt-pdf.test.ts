/** Sales documents as PDF (issue 16): what a reader of the PDF sees, in Danish and English, æøå intact. */
import { describe, expect, it } from 'vitest';
import { documentFileName, renderSalesDocumentPdf, type SalesDocumentPdfInput } from '#server/domain/commerce/receipt-pdf.ts';
import { lineOf } from '#server/domain/commerce/sales-documents.ts';
import { pdfText } from '#tests/support/pdf-text.ts';

const seller = { name: 'Annoncekatalog ApS', address: 'Æblevej 12, 3. sal', zipCity: '1234 København Ø', vat: 'DK12345678', email: 'kontakt@example.test' };
const line = lineOf('Annoncepakke 30 dage – fornyes ikke', 29_900, { start: new Date('2026-03-01T10:00:00Z'), end: new Date('2026-03-31T10:00:00Z') });

function input(overrides: Partial<SalesDocumentPdfInput> & { kind?: string; buyer?: SalesDocumentPdfInput['document']['buyer'] } = {}): SalesDocumentPdfInput {
  const { kind = 'receipt', buyer = null, ...rest } = overrides;
  return {
    document: { kind, number: 123, issuedAt: new Date('2026-03-01T23:30:00Z'), seller, buyer, lines: [line], netOre: 23_920, vatOre: 5_980, totalOre: 29_900, vatRateBp: 2500, reason: null },
    orderId: 77,
    refersToNumber: null,
    payment: { method: 'card', transactionId: 'TX-9981', referenceId: 'TEST-PAY-abc' },
    locale: 'da',
    ...rest,
  };
}

describe('receipt PDF', () => {
  it('a Danish receipt says everything Danish rules ask for, with æ, ø and å', async () => {
    const pdf = await renderSalesDocumentPdf(input());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Kvittering');
    expect(text).toContain('Nummer: 000123');
    // 23:30 UTC on 1 March is 2 March in Copenhagen.
    expect(text).toContain('Dato: 02-03-2026');
    expect(text).toContain('Sælger');
    expect(text).toContain('Æblevej 12, 3. sal');
    expect(text).toContain('1234 København Ø');
    expect(text).toContain('CVR: DK12345678');
    expect(text).toContain('Annoncepakke 30 dage – fornyes ikke');
    expect(text).toContain('Periode: 01-03-2026 – 31-03-2026');
    expect(text).toContain('239,20 DKK');
    expect(text).toContain('25 %');
    expect(text).toContain('59,80 DKK');
    expect(text).toContain('299,00 DKK');
    expect(text).toContain('Betaling: Betalingskort');
    expect(text).toContain('Transaktions-id: TX-9981');
    expect(text).not.toContain('Køber');
  });

  it('an English credit note refers to the receipt and shows the amounts credited', async () => {
    const text = pdfText(await renderSalesDocumentPdf(input({ kind: 'credit_note', locale: 'en', refersToNumber: 122, document: { ...input().document, kind: 'credit_note', reason: 'Refund på grund af fejl' } })));
    expect(text).toContain('Credit note');
    expect(text).toContain('Credits receipt no. 000122');
    expect(text).toContain('-299,00 DKK');
    expect(text).toContain('-59,80 DKK');
    expect(text).toContain('Reason: Refund på grund af fejl');
  });

  it('a full invoice names the buyer; characters outside WinAnsi show as ? rather than vanish', async () => {
    const document = { ...input().document, kind: 'invoice', buyer: { name: 'Søren Ærø Ω', address: 'Åvej 3', zipCity: '8000 Aarhus C' } };
    const text = pdfText(await renderSalesDocumentPdf(input({ document, refersToNumber: 123 })));
    expect(text).toContain('Faktura');
    expect(text).toContain('Faktura for kvittering nr. 000123');
    expect(text).toContain('Køber');
    expect(text).toContain('Søren Ærø ?');
    expect(text).toContain('Åvej 3');
  });

  it('file names follow the kind and the language', () => {
    expect(documentFileName('receipt', 123, 'da')).toBe('kvittering-000123.pdf');
    expect(documentFileName('credit_note', 1_234_567, 'en')).toBe('credit-note-1234567.pdf');
    expect(documentFileName('invoice', 9, 'da')).toBe('faktura-000009.pdf');
  });
});
