import { createHmac, randomBytes } from 'node:crypto';
import { confirmoDecimal, confirmoSignature, oreOfConfirmoAmount, type ConfirmoStatus } from './confirmo.ts';

/**
 * The built-in TEST crypto provider (PAYMENT_CRYPTO=test: the default in development and tests; with
 * NODE_ENV=production only with ALLOW_TEST_PROVIDERS) is a stand-in of Confirmo on this server, at
 * /test-payments/crypto (docs/payments/confirmo.md). NO MONEY MOVES. The server runs the LIVE adapter
 * (./confirmo.ts, `test: true`) against it, with an API key and a callback password derived from
 * PAYMENT_TEST_SECRET (`testConfirmoCredentials`): there is no parser or signer of its own.
 *
 * It speaks Confirmo's API v3 (src/server/api/test-crypto-provider.ts has the routes):
 * - `POST /api/v3/invoices` (Bearer the key): a new invoice from Confirmo's request (`invoice.amount` a
 *   number or a decimal string, `invoice.currencyFrom`, `settlement`, `product`, `reference`, `returnUrl`,
 *   `notifyUrl`), answered with the invoice model; it starts `prepared` (no `currencyTo`: the buyer picks
 *   the coin) and its creation is notified.
 * - `GET /api/v3/invoices/{id}` (Bearer the key): the invoice model; 404 when unknown.
 * - notifications: the invoice model as JSON, POSTed to `notifyUrl` with `BP-Signature` = sha256(body +
 *   callback password), at creation and at every status change. A `notifyUrl` must be on this site
 *   (SITE_URL): it is reached at this server's own listening address, never elsewhere.
 * - the invoice's `url` is the hosted TEST page on SITE_URL, `/test-payments/crypto/{invoiceId}`, where a
 *   person pays (active, confirming, then paid), lets it fail (active, confirming, error), expire, or
 *   abandons it; the page then sends the buyer to `returnUrl`, as Confirmo's page does.
 *
 * Invoices live in this process's memory (a restart forgets them; a day-old one is forgotten). Crypto
 * refunds are manual at Confirmo, so none here.
 */

export const TEST_CRYPTO_PREFIX = '/test-payments/crypto';

/** The stand-in's API key and callback password: derived from PAYMENT_TEST_SECRET, given to the live adapter. */
export function testConfirmoCredentials(secret: string): { apiKey: string; callbackPassword: string } {
  const derive = (label: string) => createHmac('sha256', secret).update(`test confirmo ${label}`).digest('base64url');
  return { apiKey: derive('api key'), callbackPassword: derive('callback password') };
}

export type TestCryptoOutcome = 'approve' | 'decline' | 'expire' | 'abandon';

export type TestCryptoInvoice = {
  id: string;
  status: ConfirmoStatus;
  reference: string | null;
  amountOre: number;
  currency: string;
  settlementCurrency: string | null;
  product: { name: string; description: string };
  returnUrl: string | null;
  notifyUrl: string | null;
  createdAt: number;
  /** When it reached each status (Unix seconds), as the model's `{status}Since`. */
  since: Partial<Record<ConfirmoStatus, number>>;
  /** Whether the person has decided on the page (a second decision changes nothing). */
  decided: boolean;
};

export type TestCryptoProvider = {
  /** A new invoice from Confirmo's create request (parsed JSON); the reason when Confirmo would refuse it (400). */
  create: (body: unknown) => TestCryptoInvoice | { refused: string };
  find: (id: string) => TestCryptoInvoice | null;
  /** The invoice as Confirmo's API writes it (the answers and the notification body). */
  invoiceJson: (invoice: TestCryptoInvoice) => Record<string, unknown>;
  /** Records the person's choice once: the statuses to notify, in order (approve: active, confirming, paid). */
  decide: (id: string, outcome: TestCryptoOutcome) => ConfirmoStatus[] | null;
  /** Moves the invoice to a status and notifies it (a later event may come in any order, as a blockchain may give). */
  notify: (invoice: TestCryptoInvoice, status: ConfirmoStatus) => Promise<number>;
  /** Sends the invoice as it is now as a notification; answers our postback route's status (0: no notifyUrl). */
  sendNotification: (invoice: TestCryptoInvoice) => Promise<number>;
  /** Where the page sends the buyer back (the invoice's returnUrl, as given). */
  returnUrlOf: (invoice: TestCryptoInvoice) => string;
  apiKey: string;
};

const INVOICE_HOURS = 24;
const MAX_INVOICES = 10_000;
/** Confirmo's default: an invoice is payable for 15 minutes (https://docs.confirmo.net/docs/invoice-lifecycle). */
const PAYABLE_SECONDS = 15 * 60;

const text = (value: unknown, max: number) => (typeof value === 'string' && value.length <= max ? value : null);

export function createTestCryptoProvider(options: {
  siteUrl: string;
  secret: string;
  /** This server's own address (http://127.0.0.1:port), known once it listens: notifications go there. */
  ownBase: () => string;
}): TestCryptoProvider {
  const invoices = new Map<string, TestCryptoInvoice>();
  const site = options.siteUrl.replace(/\/$/, '');
  const siteOrigin = new URL(site).origin;
  const { apiKey, callbackPassword } = testConfirmoCredentials(options.secret);

  const forgetOld = () => {
    const oldest = Date.now() - INVOICE_HOURS * 3_600_000;
    for (const [id, invoice] of invoices) {
      if (invoice.createdAt >= oldest && invoices.size <= MAX_INVOICES) break;
      invoices.delete(id);
    }
  };

  const seconds = (ms: number) => Math.floor(ms / 1000);
  const sinceOf = (invoice: TestCryptoInvoice, status: ConfirmoStatus) => invoice.since[status] ?? null;

  const invoiceJson = (invoice: TestCryptoInvoice): Record<string, unknown> => ({
    id: invoice.id,
    address: null,
    confirmations: 0,
    createdAt: seconds(invoice.createdAt),
    customerAmount: null,
    cryptoUri: null,
    merchantAmount: { amount: confirmoDecimal(invoice.amountOre), currency: invoice.currency },
    notifyUrl: invoice.notifyUrl,
    paid: null,
    preparedSince: sinceOf(invoice, 'prepared'),
    activeSince: sinceOf(invoice, 'active'),
    confirmingSince: sinceOf(invoice, 'confirming'),
    paidSince: sinceOf(invoice, 'paid'),
    expiredSince: sinceOf(invoice, 'expired'),
    errorSince: sinceOf(invoice, 'error'),
    product: invoice.product,
    rate: null,
    reference: invoice.reference,
    refunds: [],
    requiredConfirmations: null,
    returnUrl: invoice.returnUrl,
    settlement: null,
    status: invoice.status,
    timeoutTime: seconds(invoice.createdAt) + PAYABLE_SECONDS,
    cryptoTransactions: [],
    unhandledExceptions: false,
    url: `${site}${TEST_CRYPTO_PREFIX}/${invoice.id}`,
  });

  const sendNotification = async (invoice: TestCryptoInvoice) => {
    if (!invoice.notifyUrl) return 0;
    const target = new URL(invoice.notifyUrl);
    const body = JSON.stringify(invoiceJson(invoice));
    const response = await fetch(`${options.ownBase()}${target.pathname}${target.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'bp-signature': confirmoSignature(body, callbackPassword) },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    return response.status;
  };

  const moveTo = (invoice: TestCryptoInvoice, status: ConfirmoStatus) => {
    invoice.status = status;
    invoice.since[status] ??= seconds(Date.now());
  };

  return {
    apiKey,
    create: (body) => {
      if (typeof body !== 'object' || body === null) return { refused: 'The request body must be a JSON object' };
      const request = body as Record<string, unknown>;
      const invoice = request['invoice'] as Record<string, unknown> | null | undefined;
      if (typeof invoice !== 'object' || invoice === null) return { refused: 'invoice is required' };
      const amountOre = oreOfConfirmoAmount(invoice['amount']);
      if (amountOre === null || amountOre <= 0) return { refused: 'invoice.amount must be a positive amount with at most 2 decimals' };
      const currency = text(invoice['currencyFrom'], 10);
      if (!currency || !/^[A-Z]{3,10}$/.test(currency)) return { refused: 'invoice.currencyFrom must be an asset code' };
      if (invoice['currencyTo'] !== undefined && invoice['currencyTo'] !== null) return { refused: 'the TEST provider takes invoice.currencyTo null only' };
      const settlement = request['settlement'];
      if (settlement === undefined || (settlement !== null && typeof settlement !== 'object')) return { refused: 'settlement is required' };
      const settlementCurrency = settlement === null ? null : text((settlement as Record<string, unknown>)['currency'], 10);
      const product = (request['product'] ?? {}) as Record<string, unknown>;
      const urls: (string | null)[] = [];
      for (const name of ['returnUrl', 'notifyUrl'] as const) {
        const value = request[name];
        if (value === undefined || value === null) {
          urls.push(null);
          continue;
        }
        const url = text(value, 512);
        if (!url || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) return { refused: `${name} must be a URL of at most 512 characters` };
        // The stand-in notifies this site only (reached at this server's own address), never another host.
        if (name === 'notifyUrl' && new URL(url).origin !== siteOrigin) return { refused: `the TEST provider notifies ${siteOrigin} only` };
        urls.push(url);
      }
      const given = request['reference'];
      if (given !== undefined && given !== null && text(given, 512) === null) return { refused: 'reference must be a string of at most 512 characters' };
      const reference = typeof given === 'string' ? given : null;
      forgetOld();
      const created: TestCryptoInvoice = {
        id: `testinv${randomBytes(16).toString('hex')}`,
        status: 'prepared',
        reference,
        amountOre,
        currency,
        settlementCurrency,
        product: { name: text(product['name'], 255) ?? '', description: text(product['description'], 1024) ?? '' },
        returnUrl: urls[0] ?? null,
        notifyUrl: urls[1] ?? null,
        createdAt: Date.now(),
        since: {},
        decided: false,
      };
      moveTo(created, 'prepared');
      invoices.set(created.id, created);
      return created;
    },
    find: (id) => invoices.get(id) ?? null,
    invoiceJson,
    decide: (id, outcome) => {
      const invoice = invoices.get(id);
      if (!invoice) return null;
      if (invoice.decided) return [];
      invoice.decided = true;
      if (outcome === 'approve') return ['active', 'confirming', 'paid'];
      // A payment whose confirmations did not come in time (https://docs.confirmo.net/docs/invoice-lifecycle).
      if (outcome === 'decline') return ['active', 'confirming', 'error'];
      if (outcome === 'expire') return ['expired'];
      return [];
    },
    notify: async (invoice, status) => {
      moveTo(invoice, status);
      return sendNotification(invoice);
    },
    sendNotification,
    returnUrlOf: (invoice) => invoice.returnUrl ?? `${site}/`,
  };
}
