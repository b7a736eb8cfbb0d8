import { randomBytes } from 'node:crypto';
import type { PaymentProvider, PaymentRequest } from '../types.ts';
import { decimalAmount } from './flexpay.ts';
import { CONFIRMO_POSTBACK_ANSWER, confirmoSignature, fetchConfirmoInvoice, parseConfirmoPostback, type ConfirmoStatus } from './confirmo.ts';

/**
 * The built-in TEST crypto provider (PAYMENT_CRYPTO=test: the default in development and tests; with
 * NODE_ENV=production only with ALLOW_TEST_PROVIDERS). NO MONEY MOVES. It behaves like Confirmo
 * (./confirmo.ts): `start` makes an invoice in this process's memory and answers our hosted page,
 * `/test-payments/crypto/{invoiceId}` (src/server/api/test-crypto-provider.ts), where a person pays
 * (confirming, then paid), lets the invoice fail (error), expire, or abandons it. Each status change is
 * POSTed as Confirmo's notification (the invoice as JSON, `BP-Signature` = sha256(body + PAYMENT_TEST_SECRET))
 * over real HTTP to /api/backend/confirmopostback on this server's own listening address, and the invoice
 * is read back, as from Confirmo, from `GET /test-payments/crypto/api/v3/invoices/{id}` (Bearer
 * PAYMENT_TEST_SECRET): the same code reads both. Crypto refunds are manual at Confirmo, so none here.
 */

export type TestCryptoOutcome = 'approve' | 'decline' | 'expire' | 'abandon';

export type TestCryptoInvoice = {
  id: string;
  request: PaymentRequest;
  createdAt: number;
  status: ConfirmoStatus;
  /** Whether the person has decided on the page (a second decision changes nothing). */
  decided: boolean;
};

export type TestCryptoProvider = PaymentProvider & {
  findInvoice: (id: string) => TestCryptoInvoice | null;
  /** The invoice as Confirmo's API writes it (the notification body and the read-back). */
  invoiceJson: (invoice: TestCryptoInvoice) => Record<string, unknown>;
  /** Records the person's choice once: the statuses to notify, in order (approve: confirming, paid). */
  decide: (id: string, outcome: TestCryptoOutcome) => ConfirmoStatus[] | null;
  /** Moves the invoice to a status and notifies it (the page's later events; any order, as a provider might). */
  notify: (invoice: TestCryptoInvoice, status: ConfirmoStatus) => Promise<number>;
  returnUrlOf: (invoice: TestCryptoInvoice) => string;
  /** Posts a notification body, signed with the test secret, to our postback route; answers the status. */
  sendPostback: (body: string) => Promise<number>;
};

const INVOICE_HOURS = 24;
const MAX_INVOICES = 10_000;

export const TEST_CRYPTO_API_PREFIX = '/test-payments/crypto';

export function createTestCryptoProvider(options: { siteUrl: string; secret: string; postbackBase: () => string }): TestCryptoProvider {
  const invoices = new Map<string, TestCryptoInvoice>();
  const base = options.siteUrl.replace(/\/$/, '');

  const forgetOld = () => {
    const oldest = Date.now() - INVOICE_HOURS * 3_600_000;
    for (const [id, invoice] of invoices) {
      if (invoice.createdAt >= oldest && invoices.size <= MAX_INVOICES) break;
      invoices.delete(id);
    }
  };

  const invoiceJson = (invoice: TestCryptoInvoice): Record<string, unknown> => ({
    id: invoice.id,
    status: invoice.status,
    reference: invoice.request.reference,
    merchantAmount: { amount: decimalAmount(invoice.request.amountOre), currency: invoice.request.currency },
    url: `${base}/test-payments/crypto/${invoice.id}`,
    returnUrl: invoice.request.returnUrl,
    notifyUrl: invoice.request.postbackUrl,
    createdAt: Math.floor(invoice.createdAt / 1000),
  });

  const sendPostback = async (body: string) => {
    const response = await fetch(`${options.postbackBase()}/api/backend/confirmopostback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'bp-signature': confirmoSignature(body, options.secret) },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    return response.status;
  };

  return {
    name: 'confirmo',
    method: 'crypto',
    test: true,
    start: async (request) => {
      forgetOld();
      const id = `testinv${randomBytes(16).toString('hex')}`;
      invoices.set(id, { id, request, createdAt: Date.now(), status: 'active', decided: false });
      return { kind: 'redirect', url: `${base}/test-payments/crypto/${id}`, providerSessionId: id };
    },
    parsePostback: async (postback) =>
      parseConfirmoPostback(postback, {
        callbackPassword: options.secret,
        readInvoice: (id) => fetchConfirmoInvoice(`${options.postbackBase()}${TEST_CRYPTO_API_PREFIX}`, options.secret, id),
      }),
    postbackAnswer: CONFIRMO_POSTBACK_ANSWER,
    findInvoice: (id) => invoices.get(id) ?? null,
    invoiceJson,
    decide: (id, outcome) => {
      const invoice = invoices.get(id);
      if (!invoice) return null;
      if (invoice.decided) return [];
      invoice.decided = true;
      if (outcome === 'approve') return ['confirming', 'paid'];
      if (outcome === 'decline') return ['error'];
      if (outcome === 'expire') return ['expired'];
      return [];
    },
    notify: async (invoice, status) => {
      invoice.status = status;
      return sendPostback(JSON.stringify(invoiceJson(invoice)));
    },
    returnUrlOf: (invoice) => {
      const query = new URLSearchParams({ type: 'crypto', referenceID: invoice.request.reference, sessionId: invoice.id });
      const returnUrl = invoice.request.returnUrl;
      return `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}${query.toString()}`;
    },
    sendPostback,
  };
}
