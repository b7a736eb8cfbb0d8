/**
 * A sales document (receipt, full invoice, credit note) as a PDF, in Danish or English
 * (docs/decisions/025-commerce.md, "Sales documents as PDF"). pdfkit with its standard Helvetica: the
 * standard fonts are written in WinAnsi encoding, which holds æ, ø, å, Æ, Ø, Å and the en dash, so no font
 * file is embedded and nothing is fetched at run time. Text outside WinAnsi (a buyer's name in another
 * script) would be lost, so such characters are replaced by '?' before they reach pdfkit, visibly.
 */
import PDFDocument from 'pdfkit';
import { formatDate, formatDkk } from '#lib/format.ts';
import type { SalesDocumentLine, SalesDocumentParty } from '../../db/schema.ts';
import type { SalesDocumentKind, SalesDocumentRow } from './sales-documents.ts';

export type DocumentLocale = 'da' | 'en';

const TEXTS = {
  da: {
    title: { receipt: 'Kvittering', invoice: 'Faktura', credit_note: 'Kreditnota' },
    number: 'Nummer',
    date: 'Dato',
    order: 'Ordre',
    seller: 'Sælger',
    buyer: 'Køber',
    cvr: 'CVR',
    description: 'Beskrivelse',
    period: 'Periode',
    net: 'Netto',
    vatRate: 'Momssats',
    vat: 'Moms',
    total: 'I alt',
    totalNet: 'Netto i alt',
    totalVat: 'Moms i alt',
    totalGross: 'Total inkl. moms',
    refersTo: { invoice: 'Faktura for kvittering nr.', credit_note: 'Krediterer kvittering nr.' },
    reason: 'Årsag',
    payment: 'Betaling',
    paymentMethods: { card: 'Betalingskort', crypto: 'Kryptovaluta', carrier: 'Mobilbetaling (teleregning)' } as Record<string, string>,
    transaction: 'Transaktions-id',
    reference: 'Reference',
    pricesInclude: 'Alle beløb i DKK. Priserne er inklusive 25 % moms.',
    creditNoteNote: 'Beløbene krediteres og er derfor vist med minus.',
  },
  en: {
    title: { receipt: 'Receipt', invoice: 'Invoice', credit_note: 'Credit note' },
    number: 'Number',
    date: 'Date',
    order: 'Order',
    seller: 'Seller',
    buyer: 'Buyer',
    cvr: 'CVR (VAT no.)',
    description: 'Description',
    period: 'Period',
    net: 'Net',
    vatRate: 'VAT rate',
    vat: 'VAT',
    total: 'Total',
    totalNet: 'Total net',
    totalVat: 'Total VAT',
    totalGross: 'Total incl. VAT',
    refersTo: { invoice: 'Invoice for receipt no.', credit_note: 'Credits receipt no.' },
    reason: 'Reason',
    payment: 'Payment',
    paymentMethods: { card: 'Card', crypto: 'Cryptocurrency', carrier: 'Carrier billing (phone bill)' } as Record<string, string>,
    transaction: 'Transaction id',
    reference: 'Reference',
    pricesInclude: 'All amounts in DKK. Prices include 25% VAT.',
    creditNoteNote: 'The amounts are credited and therefore shown as negative.',
  },
} as const;

const FILE_NAMES: Record<DocumentLocale, Record<SalesDocumentKind, string>> = {
  da: { receipt: 'kvittering', invoice: 'faktura', credit_note: 'kreditnota' },
  en: { receipt: 'receipt', invoice: 'invoice', credit_note: 'credit-note' },
};

export function asDocumentLocale(value: string | null | undefined): DocumentLocale {
  return value === 'en' ? 'en' : 'da';
}

export function asDocumentKind(value: string): SalesDocumentKind {
  return value === 'invoice' || value === 'credit_note' ? value : 'receipt';
}

/** A document number as printed and in file names: at least six digits (123 → "000123"). */
export function documentNumberText(number: number): string {
  return String(number).padStart(6, '0');
}

/** The PDF's file name, e.g. kvittering-000123.pdf or credit-note-000124.pdf. */
export function documentFileName(kind: string, number: number, locale: DocumentLocale): string {
  return `${FILE_NAMES[locale][asDocumentKind(kind)]}-${documentNumberText(number)}.pdf`;
}

/** The title of a document kind in a language (Kvittering, Receipt, …). */
export function documentTitle(kind: string, locale: DocumentLocale): string {
  return TEXTS[locale].title[asDocumentKind(kind)];
}

/** A period as "dd-MM-yyyy – dd-MM-yyyy" (Europe/Copenhagen), or null without one. */
export function periodText(line: Pick<SalesDocumentLine, 'periodStart' | 'periodEnd'>): string | null {
  if (!line.periodStart && !line.periodEnd) return null;
  return `${line.periodStart ? formatDate(line.periodStart) : ''} – ${line.periodEnd ? formatDate(line.periodEnd) : ''}`.trim();
}

/** The VAT rate in basis points as a percentage: 2500 → "25 %" (da) / "25%" (en). */
function rateText(rateBp: number, locale: DocumentLocale): string {
  const percent = (rateBp / 100).toString().replace('.', locale === 'da' ? ',' : '.');
  return locale === 'da' ? `${percent} %` : `${percent}%`;
}

/** WinAnsi (Windows-1252) holds what Danish and English need; anything else becomes '?'. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
function printable(text: string): string {
  return Array.from(text.normalize('NFC'), (ch) => {
    const code = ch.codePointAt(0)!;
    if (code === 0x0a) return ch;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) return ch;
    return '?';
  }).join('');
}

export type SalesDocumentPdfInput = {
  document: Pick<SalesDocumentRow, 'kind' | 'number' | 'issuedAt' | 'seller' | 'buyer' | 'lines' | 'netOre' | 'vatOre' | 'totalOre' | 'vatRateBp' | 'reason'>;
  orderId: number;
  /** The number of the receipt a credit note credits or a full invoice is made for. */
  refersToNumber: number | null;
  payment: { method: string | null; transactionId: string | null; referenceId: string | null };
  locale: DocumentLocale;
};

const PAGE_MARGIN = 50;
const GREY = '#475569';
/** Space kept between a table cell's text and the next column. */
const CELL_GAP = 6;

/** Renders the document; resolves with the PDF's bytes. */
export function renderSalesDocumentPdf(input: SalesDocumentPdfInput): Promise<Buffer> {
  const { document, locale } = input;
  const text = TEXTS[locale];
  const kind = asDocumentKind(document.kind);
  const title = text.title[kind];
  const sign = kind === 'credit_note' ? -1 : 1;
  const money = (ore: number) => formatDkk(sign * ore);
  const numberText = documentNumberText(document.number);

  const pdf = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    lang: locale === 'da' ? 'da-DK' : 'en-GB',
    info: { Title: `${title} ${numberText}`, Author: printable(document.seller.name), Subject: `${text.order} ${input.orderId}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const left = PAGE_MARGIN;
  const width = pdf.page.width - 2 * PAGE_MARGIN;
  const write = (value: string, options: PDFKit.Mixins.TextOptions = {}) => pdf.text(printable(value), options);

  // Heading: title, number, date; the seller on the right.
  const top = pdf.y;
  pdf.font('Helvetica-Bold').fontSize(22).fillColor('black');
  write(title, { width: width / 2 });
  pdf.font('Helvetica').fontSize(10).moveDown(0.5);
  write(`${text.number}: ${numberText}`);
  write(`${text.date}: ${formatDate(document.issuedAt)}`);
  write(`${text.order}: ${input.orderId}`);
  if (kind !== 'receipt' && input.refersToNumber !== null) {
    write(`${text.refersTo[kind]} ${documentNumberText(input.refersToNumber)}`);
  }
  const afterHeading = pdf.y;

  pdf.y = top;
  partyBlock(pdf, text.seller, document.seller, text.cvr, { x: left + width / 2, width: width / 2 });
  pdf.y = Math.max(afterHeading, pdf.y) + 18;

  if (document.buyer) {
    partyBlock(pdf, text.buyer, document.buyer, text.cvr, { x: left, width });
    pdf.moveDown(1);
  }

  // The lines: description (and period), net, VAT rate, VAT, total.
  const columns = [
    { label: text.description, x: left, width: width * 0.4, align: 'left' as const },
    { label: text.net, x: left + width * 0.4, width: width * 0.16, align: 'right' as const },
    { label: text.vatRate, x: left + width * 0.56, width: width * 0.12, align: 'right' as const },
    { label: text.vat, x: left + width * 0.68, width: width * 0.14, align: 'right' as const },
    { label: text.total, x: left + width * 0.82, width: width * 0.18, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    const y = pdf.y;
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9.5).fillColor('black');
    let bottom = y;
    cells.forEach((cell, index) => {
      const column = columns[index]!;
      pdf.text(printable(cell), column.x, y, { width: column.width - CELL_GAP, align: column.align });
      bottom = Math.max(bottom, pdf.y);
    });
    pdf.x = left;
    pdf.y = bottom + 4;
  };
  const rule = () => {
    pdf.moveTo(left, pdf.y).lineTo(left + width, pdf.y).lineWidth(0.5).strokeColor('#94a3b8').stroke();
    pdf.y += 4;
  };
  row(columns.map((column) => column.label), true);
  rule();
  for (const line of document.lines) {
    const period = periodText(line);
    row([period ? `${line.description}\n${text.period}: ${period}` : line.description, money(line.netOre), rateText(document.vatRateBp, locale), money(line.vatOre), money(line.totalOre)]);
  }
  rule();

  // Totals, right-aligned under the amounts.
  const totalsX = left + width * 0.45;
  const totalsWidth = width * 0.55;
  const total = (label: string, amount: string, bold = false) => {
    const y = pdf.y;
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 10);
    pdf.text(printable(label), totalsX, y, { width: totalsWidth * 0.6 });
    // Right edge as the lines' amounts (their cells keep CELL_GAP from the next column).
    pdf.text(amount, totalsX + totalsWidth * 0.6, y, { width: totalsWidth * 0.4 - CELL_GAP, align: 'right' });
    pdf.x = left;
  };
  total(text.totalNet, money(document.netOre));
  total(`${text.totalVat} (${rateText(document.vatRateBp, locale)})`, money(document.vatOre));
  total(text.totalGross, money(document.totalOre), true);
  pdf.moveDown(1.5);

  // Payment, reason, notes.
  pdf.font('Helvetica').fontSize(10).fillColor('black');
  const { method, transactionId, referenceId } = input.payment;
  if (method) write(`${text.payment}: ${text.paymentMethods[method] ?? method}`, { width });
  if (transactionId) write(`${text.transaction}: ${transactionId}`, { width });
  if (referenceId) write(`${text.reference}: ${referenceId}`, { width });
  if (document.reason) write(`${text.reason}: ${document.reason}`, { width });
  pdf.moveDown(1).fontSize(9).fillColor(GREY);
  write(text.pricesInclude, { width });
  if (kind === 'credit_note') write(text.creditNoteNote, { width });

  pdf.end();
  return done;
}

/** A party's block: heading, name, address, zip and city, CVR, email. */
function partyBlock(pdf: PDFKit.PDFDocument, heading: string, party: SalesDocumentParty, cvrLabel: string, at: { x: number; width: number }): void {
  pdf.font('Helvetica-Bold').fontSize(10).fillColor('black');
  pdf.text(printable(heading), at.x, pdf.y, { width: at.width });
  pdf.font('Helvetica');
  const lines = [party.name, party.address, party.zipCity, party.vat ? `${cvrLabel}: ${party.vat}` : undefined, party.email];
  for (const line of lines) if (line) pdf.text(printable(line), at.x, pdf.y, { width: at.width });
  pdf.x = PAGE_MARGIN;
}
