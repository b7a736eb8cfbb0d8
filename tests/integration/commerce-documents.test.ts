/**
 * Sales documents as advertisers and support read them (issue 16): purchasehistoryreceipt (JSON and PDF),
 * the full invoice on request, support's orders with their history and documents, the bookkeeper's CSV
 * files, and Administration's products (an order keeps its price). Orders come from commerce-helpers.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, createAdvert } from '#tests/support/fixtures.ts';
import { pdfText } from '#tests/support/pdf-text.ts';
import { auditLog, orders, products, salesDocuments } from '#server/db/schema.ts';
import { call, fieldErrors } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInAdmin, signInSupport } from './support-helpers.ts';
import { createPaidOrder, refundOrder, type PaidOrder } from './commerce-helpers.ts';
import { isoDayOf } from '#lib/format.ts';
import { oneCopenhagenDay } from '#tests/support/days.ts';

let server: TestServer;
let owner: { id: number; accountId: number; cookie: string };
let other: { id: number; accountId: number; cookie: string };
let supportCookie: string;

async function advertiser() {
  const advert = await createAdvert(server.db);
  return { ...advert, cookie: await advertiserSessionCookie(server.db, advert.accountId) };
}

const receiptOf = (orderId: number, cookie: string | undefined, query: Record<string, string | number> = {}) =>
  call(server, '/api/backend/purchasehistoryreceipt', { query: { Id: orderId, ...query }, cookie });

beforeAll(async () => {
  // The file compares days it computes with days the server computes: both within one Copenhagen day.
  await oneCopenhagenDay(60_000);
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  owner = await advertiser();
  other = await advertiser();
  const user = await createSupportUserOverHttp(server, { permissions: ['Support'] });
  supportCookie = await signInSupport(server, user);
});
afterAll(async () => {
  await server?.close();
});

describe('purchasehistoryreceipt (the advertiser)', () => {
  let paid: PaidOrder;
  beforeAll(async () => {
    paid = await createPaidOrder(server.db, { accountId: owner.accountId, advertId: owner.id, productCode: 'search-boost-7' });
  });

  it('answers the own order with its receipt as JSON', async () => {
    const response = await receiptOf(paid.order.id, owner.cookie);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.order).toMatchObject({ id: paid.order.id, productDescription: 'Søgepromovering i 7 dage', totalPriceOre: 14_900, status: 1, paymentMethod: 'card' });
    expect(body.documents).toHaveLength(1);
    expect(body.documents[0]).toMatchObject({
      kind: 'receipt',
      number: paid.receipt.number,
      netOre: 11_920,
      vatOre: 2_980,
      totalOre: 14_900,
      vatRateBp: 2500,
      refersTo: null,
      seller: { name: 'Annoncekatalog ApS', zipCity: '1234 København K', vat: 'DK12345678' },
      pdfUrl: `/api/backend/purchasehistoryreceipt?Id=${paid.order.id}&DocumentId=${paid.receipt.id}&Format=pdf`,
    });
    expect(body.canRequestInvoice).toBe(true);
  });

  it("answers another advertiser's order as a missing one, and an anonymous caller 401", async () => {
    const theirs = await receiptOf(paid.order.id, other.cookie);
    const missing = await receiptOf(987_654, other.cookie);
    expect(theirs.status).toBe(404);
    expect(missing.status).toBe(404);
    const same = ({ status, title, detail }: { status: number; title: string; detail: string }) => ({ status, title, detail });
    expect(same(await theirs.json())).toEqual(same(await missing.json()));
    expect((await receiptOf(paid.order.id, other.cookie, { Format: 'pdf' })).status).toBe(404);
    expect((await receiptOf(paid.order.id, undefined)).status).toBe(401);
  });

  it('downloads the receipt as a PDF in the order language, or in English when asked', async () => {
    const response = await receiptOf(paid.order.id, owner.cookie, { Format: 'pdf' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const number = String(paid.receipt.number).padStart(6, '0');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="kvittering-${number}.pdf"`);
    const text = pdfText(Buffer.from(await response.arrayBuffer()));
    expect(text).toContain('Kvittering');
    expect(text).toContain(`Nummer: ${number}`);
    expect(text).toContain('1234 København K');
    expect(text).toContain('Søgepromovering i 7 dage');
    expect(text).toContain('119,20 DKK');
    expect(text).toContain('29,80 DKK');
    expect(text).toContain('149,00 DKK');
    expect(text).toContain(`Transaktions-id: ${paid.order.transactionId}`);

    const english = await receiptOf(paid.order.id, owner.cookie, { Format: 'pdf', Locale: 'en' });
    expect(english.headers.get('content-disposition')).toBe(`attachment; filename="receipt-${number}.pdf"`);
    const englishText = pdfText(Buffer.from(await english.arrayBuffer()));
    expect(englishText).toContain('Receipt');
    // The product named in the PDF's language (issue 29), not in the language of the purchase.
    expect(englishText).toContain('Search promotion for 7 days');
    expect(englishText).not.toContain('Søgepromovering i 7 dage');
  });
});

describe('purchasehistoryinvoice (a full invoice on request)', () => {
  const buyer = { Name: 'Søren Æbelø', Address: 'Åboulevarden 7, 2. th.', ZipCity: '8000 Aarhus C' };

  it('makes a new invoice that refers to the receipt, once; the receipt is unchanged', async () => {
    const paid = await createPaidOrder(server.db, { accountId: owner.accountId, advertId: owner.id });
    const first = await call(server, '/api/backend/purchasehistoryinvoice', { body: { Id: paid.order.id, ...buyer }, cookie: owner.cookie });
    expect(first.status).toBe(201);
    const made = await first.json();
    expect(made.created).toBe(true);
    expect(made.document).toMatchObject({
      kind: 'invoice',
      refersTo: { id: paid.receipt.id, number: paid.receipt.number },
      buyer: { name: 'Søren Æbelø', address: 'Åboulevarden 7, 2. th.', zipCity: '8000 Aarhus C' },
      totalOre: 49_900,
    });
    expect(made.document.number).toBeGreaterThan(paid.receipt.number);

    const again = await call(server, '/api/backend/purchasehistoryinvoice', { body: { Id: paid.order.id, ...buyer, Name: 'Another Name' }, cookie: owner.cookie });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ created: false, document: made.document });

    const [receipt] = await server.db.select().from(salesDocuments).where(eq(salesDocuments.id, paid.receipt.id));
    expect(receipt).toEqual(paid.receipt);
    const page = await (await receiptOf(paid.order.id, owner.cookie)).json();
    expect(page.documents.map((d: { kind: string }) => d.kind)).toEqual(['receipt', 'invoice']);
    expect(page.canRequestInvoice).toBe(false);

    const pdf = await receiptOf(paid.order.id, owner.cookie, { Format: 'pdf', DocumentId: made.document.id });
    expect(pdf.headers.get('content-disposition')).toContain(`faktura-${made.document.numberText}.pdf`);
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Faktura');
    expect(text).toContain(`Faktura for kvittering nr. ${String(paid.receipt.number).padStart(6, '0')}`);
    expect(text).toContain('Søren Æbelø');
    expect(text).toContain('Åboulevarden 7, 2. th.');
  });

  it('makes one invoice when asked twice at once; a later credit note shows on the receipt page', async () => {
    const paid = await createPaidOrder(server.db, { accountId: owner.accountId, advertId: owner.id, locale: 'en' });
    const ask = () => call(server, '/api/backend/purchasehistoryinvoice', { body: { Id: paid.order.id, ...buyer }, cookie: owner.cookie });
    const answers = await Promise.all([ask(), ask()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    const invoices = await server.db.select().from(salesDocuments).where(eq(salesDocuments.orderId, paid.order.id));
    expect(invoices.filter((d) => d.kind === 'invoice')).toHaveLength(1);
    expect(invoices.find((d) => d.kind === 'invoice')!.locale).toBe('en');

    const credit = await refundOrder(server.db, paid, { reason: 'Refund on request' });
    const page = await (await receiptOf(paid.order.id, owner.cookie)).json();
    expect(page.order.status).toBe(4);
    expect(page.documents.map((d: { kind: string }) => d.kind)).toEqual(['receipt', 'invoice', 'credit_note']);
    expect(page.documents[2]).toMatchObject({ id: credit.id, refersTo: { id: paid.receipt.id, number: paid.receipt.number }, reason: 'Refund on request' });
    const pdf = await receiptOf(paid.order.id, owner.cookie, { Format: 'pdf', DocumentId: credit.id });
    expect(pdf.headers.get('content-disposition')).toContain('credit-note-');
    expect(pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain(`Credits receipt no. ${String(paid.receipt.number).padStart(6, '0')}`);
    expect((await receiptOf(paid.order.id, owner.cookie, { Format: 'pdf', DocumentId: 987_654 })).status).toBe(404);
  });

  it('refuses a missing field, an order without a receipt, and another advertiser', async () => {
    const paid = await createPaidOrder(server.db, { accountId: owner.accountId, advertId: owner.id });
    const bad = await call(server, '/api/backend/purchasehistoryinvoice', { body: { Id: paid.order.id, Name: ' ', Address: 'Vej 1', ZipCity: 'Aarhus' }, cookie: owner.cookie });
    expect(bad.status).toBe(400);
    expect(await fieldErrors(bad)).toEqual({ Name: 'required', ZipCity: 'zipCity' });

    const theirs = await call(server, '/api/backend/purchasehistoryinvoice', { body: { Id: paid.order.id, ...buyer }, cookie: other.cookie });
    expect(theirs.status).toBe(404);

    const [unpaid] = await server.db
      .insert(orders)
      .values({ accountId: owner.accountId, advertId: owner.id, productDescription: 'Annonce i 30 dage', totalPriceOre: 49_900, vatOre: 9_980, status: 0 })
      .returning();
    const noReceipt = await call(server, '/api/backend/purchasehistoryinvoice', { body: { Id: unpaid!.id, ...buyer }, cookie: owner.cookie });
    expect(noReceipt.status).toBe(409);
    expect(await fieldErrors(noReceipt)).toEqual({ Id: 'noReceipt' });
    expect((await call(server, '/api/backend/purchasehistoryinvoice', { body: { Id: paid.order.id, ...buyer } })).status).toBe(401);
  });
});

describe("support's orders", () => {
  let paid: PaidOrder;
  let creditNote: Awaited<ReturnType<typeof refundOrder>>;
  beforeAll(async () => {
    paid = await createPaidOrder(server.db, { accountId: other.accountId, advertId: other.id, productCode: 'frontpage-boost-7', transactionId: 'TX-SUPPORT-FIND-1' });
    creditNote = await refundOrder(server.db, paid, { reason: 'Dobbeltkøb – refunderet' });
  });
  const orders = (query: Record<string, string | number>) => call(server, '/api/support/orders', { query, cookie: supportCookie });

  it('finds an order by each of the spec fields, status and period', async () => {
    const expectOnly = async (query: Record<string, string | number>) => {
      const response = await orders(query);
      expect(response.status, JSON.stringify(query)).toBe(200);
      const body = await response.json();
      expect(body.items.map((o: { id: number }) => o.id), JSON.stringify(query)).toContain(paid.order.id);
      return body;
    };
    const found = await expectOnly({ TransactionId: 'TX-SUPPORT-FIND-1' });
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({ id: paid.order.id, profileId: other.id, totalPriceOre: 19_900, status: 4, receiptNumber: paid.receipt.number, transactionId: 'TX-SUPPORT-FIND-1' });
    await expectOnly({ Id: paid.order.id });
    await expectOnly({ ProfileId: other.id });
    await expectOnly({ ProductDescription: 'forsidePROMO' });
    await expectOnly({ TotalPrice: '199,00' });
    await expectOnly({ TotalPrice: '199' });
    await expectOnly({ Status: 4 });
    // Today in Copenhagen (the days the search filters by); UTC's date differs after 23:00 in winter.
    const today = isoDayOf(new Date());
    await expectOnly({ From: today, To: today });
    expect((await (await orders({ TransactionId: 'TX-SUPPORT-FIND-1', Status: 1 })).json()).total).toBe(0);
    expect((await (await orders({ ProfileId: other.id, From: '2020-01-01', To: '2020-01-31' })).json()).total).toBe(0);
    // Days as the screens' fields take them (dd-mm-yyyy) read as the same days (issue 31, item 9).
    await expectOnly({ From: today.split('-').reverse().join('-'), To: today });
    const bad = await orders({ TotalPrice: 'abc', From: '31-02-2026' });
    expect(bad.status).toBe(400);
    expect(await fieldErrors(bad)).toEqual({ TotalPrice: 'number', From: 'date' });
  });

  it('opens one order with its moves, raw postbacks and documents; a credit note as PDF', async () => {
    const response = await call(server, '/api/support/order', { query: { Id: paid.order.id }, cookie: supportCookie });
    expect(response.status).toBe(200);
    const order = await response.json();
    expect(order.events.map((e: { toStatus: number }) => e.toStatus)).toEqual([1, 4]);
    expect(order.paymentEvents).toHaveLength(1);
    expect(order.paymentEvents[0].rawQuery).toContain('saleID=TX-SUPPORT-FIND-1');
    expect(order.documents.map((d: { kind: string }) => d.kind)).toEqual(['receipt', 'credit_note']);
    expect(order.documents[1]).toMatchObject({ refersTo: { id: paid.receipt.id, number: paid.receipt.number }, reason: 'Dobbeltkøb – refunderet', pdfUrl: `/api/support/orderdocument?Id=${creditNote.id}` });

    const pdf = await call(server, '/api/support/orderdocument', { query: { Id: creditNote.id }, cookie: supportCookie });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toContain('kreditnota-');
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Kreditnota');
    expect(text).toContain(`Krediterer kvittering nr. ${String(paid.receipt.number).padStart(6, '0')}`);
    expect(text).toContain('-199,00 DKK');
    expect(text).toContain('Årsag: Dobbeltkøb – refunderet');
    expect((await call(server, '/api/support/order', { query: { Id: 987_654 }, cookie: supportCookie })).status).toBe(404);
  });
});

describe("the bookkeeper's CSV files", () => {
  beforeAll(async () => {
    const advert = await createAdvert(server.db);
    await createPaidOrder(server.db, { accountId: advert.accountId, advertId: advert.id, paidAt: new Date('2025-01-15T12:00:00Z') });
    const february = await createPaidOrder(server.db, { accountId: advert.accountId, advertId: advert.id, productCode: 'search-boost-7', paidAt: new Date('2025-02-10T12:00:00Z') });
    // 31 January 23:30 UTC is 1 February in Copenhagen.
    await createPaidOrder(server.db, { accountId: advert.accountId, advertId: advert.id, productCode: 'frontpage-boost-7', paidAt: new Date('2025-01-31T23:30:00Z') });
    await refundOrder(server.db, february, { at: new Date('2025-02-20T12:00:00Z'), reason: 'Fortrudt; inden for "14 dage"' });
  });
  const csv = async (path: string, query: Record<string, string>) => {
    const response = await call(server, `/api/support/${path}`, { query, cookie: supportCookie });
    expect(response.status, await response.clone().text()).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    return { response, bytes, lines: bytes.toString('utf8').replace(/^\uFEFF/, '').split('\r\n') };
  };

  it('sales and VAT by month: UTF-8 with BOM, semicolons, decimal commas, credit notes negative', async () => {
    const { response, bytes, lines } = await csv('ordersvatcsv', { From: '2025-01-01', To: '2025-03-31' });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="moms-pr-maaned-2025-01-01-2025-03-31.csv"');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(lines).toEqual([
      'Måned;Kvitteringer;Kreditnotaer;Salg inkl. moms;Krediteret inkl. moms;Omsætning inkl. moms;Netto;Moms',
      '2025-01;1;0;499,00;0,00;499,00;399,20;99,80',
      '2025-02;2;1;348,00;-149,00;199,00;159,20;39,80',
      '2025-03;0;0;0,00;0,00;0,00;0,00;0,00',
      'I alt;3;1;847,00;-149,00;698,00;558,40;139,60',
      '',
    ]);
  });

  it('every document of a period, by number; invoices listed but not counted', async () => {
    const { lines } = await csv('orderdocumentscsv', { From: '2025-02-01', To: '2025-02-28' });
    expect(lines[0]).toBe('Nummer;Dato;Type;Ordre;Henviser til;Netto;Moms;I alt;Medregnes;Betaling;Transaktions-id');
    const rows = lines.slice(1, -1).map((line) => line.split(';'));
    expect(rows.map((row) => [row[1], row[2], row[7]])).toEqual([
      ['10-02-2025', 'Kvittering', '149,00'],
      ['01-02-2025', 'Kvittering', '199,00'],
      ['20-02-2025', 'Kreditnota', '-149,00'],
    ]);
    expect(rows[2]![4]).toBe(rows[0]![0]);
  });

  it('refuses a period that ends before it starts', async () => {
    const response = await call(server, '/api/support/ordersvatcsv', { query: { From: '2025-03-01', To: '2025-02-01' }, cookie: supportCookie });
    expect(response.status).toBe(400);
    expect(await fieldErrors(response)).toEqual({ To: 'dateOrder' });
  });
});

describe("Administration's products", () => {
  const offered = async () => {
    const answer = await call(server, '/api/backend/promotions', { query: { TypeId: 1 }, cookie: owner.cookie });
    return ((await answer.json()) as { products: { code: string; name: string; days: number; priceOre: number; vatOre: number }[] }).products;
  };

  it('changes names, price and days and retires a product, audited; an order keeps what it was bought as; a retired product is not sold', async () => {
    const admin = await signInAdmin(server);
    const paid = await createPaidOrder(server.db, { accountId: owner.accountId, advertId: owner.id, productCode: 'membership-90' });
    const list = await (await call(server, '/api/support/products', { cookie: admin })).json();
    const product = list.find((p: { code: string }) => p.code === 'membership-90');
    expect(product).toMatchObject({ nameDa: 'Annonce i 90 dage', nameEn: 'Advert for 90 days', priceOre: 119_900, vatOre: 23_980, days: 90, active: true });
    const original = { Id: product.id, NameDa: 'Annonce i 90 dage', NameEn: 'Advert for 90 days', PriceOre: 119_900, Days: 90, Active: true };

    const change = { ...original, NameDa: 'Annonce i et kvartal', NameEn: 'Advert for a quarter', PriceOre: 129_900, Days: 91 };
    const changed = await call(server, '/api/support/product', { body: change, cookie: admin });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ nameDa: 'Annonce i et kvartal', nameEn: 'Advert for a quarter', priceOre: 129_900, vatOre: 25_980, days: 91, active: true });
    expect((await offered()).find((offer) => offer.code === 'membership-90')).toMatchObject({ nameDa: 'Annonce i et kvartal', days: 91, priceOre: 129_900, vatOre: 25_980 });

    const retired = await call(server, '/api/support/product', { body: { ...change, Active: false }, cookie: admin });
    expect(await retired.json()).toMatchObject({ active: false });
    const [row] = await server.db.select().from(products).where(eq(products.id, product.id));
    expect(row).toMatchObject({ nameDa: 'Annonce i et kvartal', nameEn: 'Advert for a quarter', priceOre: 129_900, days: 91, active: false });
    const audit = await server.db.select().from(auditLog).where(eq(auditLog.action, 'product.changed'));
    expect(audit.at(-2)).toMatchObject({
      targetId: String(product.id),
      before: { nameDa: 'Annonce i 90 dage', nameEn: 'Advert for 90 days', priceOre: 119_900, days: 90, active: true },
      after: { nameDa: 'Annonce i et kvartal', nameEn: 'Advert for a quarter', priceOre: 129_900, days: 91, active: true },
    });
    expect(audit.at(-1)).toMatchObject({ before: { active: true }, after: { active: false } });
    expect((await offered()).map((offer) => offer.code)).not.toContain('membership-90');
    const buy = await call(server, '/api/backend/buyproduct', { body: { ProductId: product.id, PaymentMethod: 'card' }, cookie: owner.cookie });
    expect(buy.status).toBe(409);
    expect(await fieldErrors(buy)).toEqual({ ProductId: 'productRetired' });

    // The order bought before keeps its name, days and price, and so does its receipt.
    const page = await (await receiptOf(paid.order.id, owner.cookie)).json();
    expect(page.order).toMatchObject({ productDescription: 'Annonce i 90 dage', totalPriceOre: 119_900, days: 90 });
    expect(page.documents[0]).toMatchObject({ totalOre: 119_900, lines: [expect.objectContaining({ description: 'Annonce i 90 dage' })] });

    const reactivated = await call(server, '/api/support/product', { body: original, cookie: admin });
    expect(await reactivated.json()).toMatchObject({ nameDa: 'Annonce i 90 dage', priceOre: 119_900, active: true });
    const refused = await call(server, '/api/support/product', { body: { ...original, PriceOre: 0, NameEn: ' ', NameDa: 'x'.repeat(101) }, cookie: admin });
    expect(refused.status).toBe(400);
    expect(await fieldErrors(refused)).toEqual({ PriceOre: 'range', NameEn: 'required', NameDa: 'tooLong' });
    expect((await server.db.select().from(products).where(eq(products.id, product.id)))[0]).toMatchObject({ nameDa: 'Annonce i 90 dage', priceOre: 119_900 });
  });
});
