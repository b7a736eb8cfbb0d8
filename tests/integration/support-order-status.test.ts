/**
 * Support changes an order's status (issue 16, spec §4 and §7 order status change): POST
 * /api/support/orderstatus moves a paid order to Refunded or ChargedBack with a reason, through the same
 * reverse path as the provider's refund (order_events row with the support user, a credit note referring to
 * the receipt, the unused time taken back, the audit, the advertiser told), never twice, and nothing else;
 * the advertiser then reads the credit note in purchasehistoryreceipt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, createAdvert } from '#tests/support/fixtures.ts';
import { pdfText } from '#tests/support/pdf-text.ts';
import { accounts, adverts, auditLog, notifications, orderEvents, orders, salesDocuments } from '#server/db/schema.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { call, fieldErrors, outboxFor } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInAdmin, signInSupport } from './support-helpers.ts';
import { createPaidOrder } from './commerce-helpers.ts';

const DAY = 86_400_000;

let server: TestServer;
let owner: { id: number; accountId: number; cookie: string; email: string };
let supportUser: { id: number };
let supportCookie: string;
let seoCookie: string;

const changeStatus = (body: Record<string, unknown>, cookie: string | undefined = supportCookie) =>
  call(server, '/api/support/orderstatus', { method: 'POST', body, cookie });
const changeStatusAnonymously = (body: Record<string, unknown>) => call(server, '/api/support/orderstatus', { method: 'POST', body });

/** A paid membership whose period runs 20 more days, and the advert paid until then. */
async function paidMembership(locale = 'da') {
  const paidAt = new Date(Date.now() - 10 * DAY);
  const paid = await createPaidOrder(server.db, { accountId: owner.accountId, advertId: owner.id, paidAt, locale });
  await server.db.update(adverts).set({ expirationDate: paid.order.periodEnd }).where(eq(adverts.id, owner.id));
  return paid;
}

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  const advert = await createAdvert(server.db);
  const [account] = await server.db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, advert.accountId));
  owner = { ...advert, email: account!.email, cookie: await advertiserSessionCookie(server.db, advert.accountId) };
  const adminCookie = await signInAdmin(server);
  const user = await createSupportUserOverHttp(server, { permissions: ['Support'] }, adminCookie);
  supportUser = user;
  supportCookie = await signInSupport(server, user);
  seoCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['SEO'] }, adminCookie));
});
afterAll(async () => {
  await server?.close();
});

describe('orderstatus (support)', () => {
  it('refunds a paid order: its history names the support user, a credit note refers to the receipt, the time left is taken back, audited, the advertiser told', async () => {
    const paid = await paidMembership();
    const response = await changeStatus({ Id: paid.order.id, Status: 'refunded', Reason: 'Kunden fortrød købet inden for 14 dage.' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ id: paid.order.id, status: ORDER_STATUS.Refunded });
    const creditNote = body.documents.find((document: { kind: string }) => document.kind === 'credit_note');
    expect(creditNote).toMatchObject({ refersTo: { id: paid.receipt.id, number: paid.receipt.number }, totalOre: paid.receipt.totalOre, reason: 'Kunden fortrød købet inden for 14 dage.' });
    expect(creditNote.pdfUrl).toBe(`/api/support/orderdocument?Id=${creditNote.id}`);
    expect(body.events.at(-1)).toMatchObject({ fromStatus: ORDER_STATUS.Paid, toStatus: ORDER_STATUS.Refunded, actorType: 'support', actorId: supportUser.id, reason: 'Kunden fortrød købet inden for 14 dage.' });

    // The unused 20 days are taken back from the advert.
    const [advert] = await server.db.select({ expirationDate: adverts.expirationDate }).from(adverts).where(eq(adverts.id, owner.id));
    expect(advert!.expirationDate!.getTime()).toBeLessThan(paid.order.periodEnd!.getTime() - 19 * DAY);

    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'order.refund'), eq(auditLog.targetId, String(paid.order.id))));
    expect(audit).toMatchObject({ actorType: 'support', actorId: supportUser.id, reason: 'Kunden fortrød købet inden for 14 dage.' });
    expect(audit!.after).toMatchObject({ status: ORDER_STATUS.Refunded, creditNote: creditNote.number });

    const notices = await server.db.select().from(notifications).where(eq(notifications.accountId, owner.accountId));
    expect(notices.at(-1)).toMatchObject({ titleDa: 'Dit køb er refunderet', titleEn: 'Your purchase was refunded', link: `/backend/purchase-history/${paid.order.id}/` });
    const mail = await outboxFor(server, owner.email);
    expect(mail.at(-1)?.body).toContain('refunderet');

    // The advertiser reads the credit note with the receipt, as JSON and as a PDF.
    const receipt = await call(server, '/api/backend/purchasehistoryreceipt', { query: { Id: paid.order.id }, cookie: owner.cookie });
    expect(receipt.status).toBe(200);
    const documents = (await receipt.json()).documents as { id: number; kind: string; number: number; refersTo: { id: number } | null; pdfUrl: string }[];
    const theirs = documents.find((document) => document.kind === 'credit_note');
    expect(theirs).toMatchObject({ number: creditNote.number, refersTo: { id: paid.receipt.id } });
    const pdf = await call(server, theirs!.pdfUrl, { cookie: owner.cookie });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain(String(creditNote.number).padStart(6, '0'));
  });

  it('marks a paid order charged back, in English for an English order', async () => {
    const paid = await paidMembership('en');
    const response = await changeStatus({ Id: paid.order.id, Status: 'chargedBack', Reason: 'The bank reported a chargeback by letter.' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: ORDER_STATUS.ChargedBack });
    const [creditNote] = await server.db.select().from(salesDocuments).where(and(eq(salesDocuments.orderId, paid.order.id), eq(salesDocuments.kind, 'credit_note')));
    expect(creditNote).toMatchObject({ locale: 'en', refersTo: paid.receipt.id, reason: 'The bank reported a chargeback by letter.' });
    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'order.chargeback'), eq(auditLog.targetId, String(paid.order.id))));
    expect(audit).toBeDefined();
  });

  it('never twice: a second refund (or a chargeback after it) is 409 alreadyDecided and changes nothing', async () => {
    const paid = await paidMembership();
    expect((await changeStatus({ Id: paid.order.id, Status: 'refunded', Reason: 'Første gang.' })).status).toBe(200);
    const [again, other] = [await changeStatus({ Id: paid.order.id, Status: 'refunded', Reason: 'Anden gang.' }), await changeStatus({ Id: paid.order.id, Status: 'chargedBack', Reason: 'Tredje gang.' })];
    expect(again.status).toBe(409);
    const problem = await again.clone().json();
    expect(problem.detail).toContain('Refunded already');
    expect(await fieldErrors(again)).toEqual({ Id: 'alreadyDecided' });
    expect(other.status).toBe(409);
    const creditNotes = await server.db.select().from(salesDocuments).where(and(eq(salesDocuments.orderId, paid.order.id), eq(salesDocuments.kind, 'credit_note')));
    expect(creditNotes).toHaveLength(1);
    const events = await server.db.select().from(orderEvents).where(eq(orderEvents.orderId, paid.order.id));
    expect(events.filter((event) => event.toStatus === ORDER_STATUS.Refunded)).toHaveLength(1);
  });

  it('two refunds at the same moment: one credit note', async () => {
    const paid = await paidMembership();
    const answers = await Promise.all([1, 2, 3].map((n) => changeStatus({ Id: paid.order.id, Status: 'refunded', Reason: `Samtidig ${n}.` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    const creditNotes = await server.db.select().from(salesDocuments).where(and(eq(salesDocuments.orderId, paid.order.id), eq(salesDocuments.kind, 'credit_note')));
    expect(creditNotes).toHaveLength(1);
  });

  it.each([
    ['Created', ORDER_STATUS.Created],
    ['Failed', ORDER_STATUS.Failed],
    ['Pending', ORDER_STATUS.Pending],
    ['Expired', ORDER_STATUS.Expired],
  ])('refuses to refund an order that is %s (409 notPaid, nothing issued)', async (_name, status) => {
    const paid = await paidMembership();
    // A test stand-in for an order that was never paid: the same row with another status and no receipt's effect.
    await server.db.update(orders).set({ status }).where(eq(orders.id, paid.order.id));
    const response = await changeStatus({ Id: paid.order.id, Status: 'refunded', Reason: 'Forsøg.' });
    expect(response.status).toBe(409);
    expect(await fieldErrors(response)).toEqual({ Status: 'notPaid' });
    const creditNotes = await server.db.select().from(salesDocuments).where(and(eq(salesDocuments.orderId, paid.order.id), eq(salesDocuments.kind, 'credit_note')));
    expect(creditNotes).toHaveLength(0);
    const [order] = await server.db.select({ status: orders.status }).from(orders).where(eq(orders.id, paid.order.id));
    expect(order!.status).toBe(status);
  });

  it('validates: a reason is required, the status must be one support may set, the order must exist', async () => {
    const paid = await paidMembership();
    const blank = await changeStatus({ Id: paid.order.id, Status: 'refunded', Reason: '   ' });
    expect(blank.status).toBe(400);
    expect(await fieldErrors(blank)).toMatchObject({ Reason: 'required' });
    const paidAgain = await changeStatus({ Id: paid.order.id, Status: 'paid', Reason: 'Forsøg.' });
    expect(paidAgain.status).toBe(400);
    expect(await fieldErrors(paidAgain)).toMatchObject({ Status: 'required' });
    expect((await changeStatus({ Id: 987_654, Status: 'refunded', Reason: 'Forsøg.' })).status).toBe(404);
    const [order] = await server.db.select({ status: orders.status }).from(orders).where(eq(orders.id, paid.order.id));
    expect(order!.status).toBe(ORDER_STATUS.Paid);
  });

  it('refuses an anonymous caller (401) and a support user without the orders permission (403)', async () => {
    const paid = await paidMembership();
    const body = { Id: paid.order.id, Status: 'refunded', Reason: 'Forsøg.' };
    expect((await changeStatusAnonymously(body)).status).toBe(401);
    expect((await changeStatus(body, seoCookie)).status).toBe(403);
    expect((await changeStatus(body, owner.cookie)).status).toBe(401);
    const [order] = await server.db.select({ status: orders.status }).from(orders).where(eq(orders.id, paid.order.id));
    expect(order!.status).toBe(ORDER_STATUS.Paid);
  });
});
