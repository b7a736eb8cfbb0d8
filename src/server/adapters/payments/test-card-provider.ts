import { randomBytes } from 'node:crypto';
import type { PaymentProvider } from '../types.ts';
import { createCardBillingProvider } from './cardbilling.ts';
import { decimalAmount, oreOfDecimal, readSignedFlexPayUrl, signedPostbackQuery } from './flexpay.ts';

/**
 * The built-in TEST card provider (PAYMENT_CARD=test: the default in development and tests; with
 * NODE_ENV=production only with ALLOW_TEST_PROVIDERS). NO MONEY MOVES. It is a stand-in of Verotel
 * FlexPay: the server runs the LIVE adapter (./cardbilling.ts) with the test shop and key and this site's
 * `/test-payments/card` as the provider's address, and this module plays the provider's side:
 *
 * - `/startorder?…` (the start URL the live adapter made) is checked as FlexPay checks it (signature over
 *   the signed parameters, our shop, amount, currency, type) and opens a session, the hosted page
 *   (src/server/api/test-card-provider.ts), where a person approves, declines or abandons.
 * - Approved: the postbacks FlexPay sends (the vectors' shapes: a purchase's sale without `event`, a
 *   subscription's `initial`, later `rebill`, `cancel`, `expiry`, `credit`, `chargeback`), signed with the
 *   shop's key over every parameter, sent over real HTTP to this server's postback route; the buyer goes
 *   to the successURL with the sale's data. Declined: no postback (as FlexPay), the buyer goes to the
 *   declineURL. Postbacks can be delayed, sent twice or before the buyer returns.
 * - `/cancel-subscription?…` (the buyer's signed cancel page) asks the buyer, then sends the `cancel`
 *   postback.
 *
 * Sessions live in this process's memory (a restart forgets them, as a provider's unpaid sessions expire).
 */

export const TEST_CARD_SHOP_ID = '999999';

export type TestCardOutcome = 'approve' | 'decline' | 'abandon';
export type TestCardSaleAction = 'rebill' | 'cancel' | 'expiry' | 'credit' | 'chargeback';

/** What a start URL asked for, as the provider read it. */
export type TestCardOrder = {
  reference: string;
  amountOre: number;
  currency: string;
  description: string;
  type: 'purchase' | 'subscription';
  /** A subscription's period in days (P30D → 30). */
  periodDays: number | null;
  successUrl: string;
  declineUrl: string | null;
};

export type TestCardSession = {
  sessionId: string;
  order: TestCardOrder;
  createdAt: number;
  state: 'open' | 'approved' | 'declined' | 'abandoned';
  saleId: string | null;
  /** Every charge of the sale (the first, then each rebill), newest last. */
  transactionIds: string[];
  nextChargeOn: Date | null;
  cancelled: boolean;
};

export type TestCardProvider = {
  /** The live adapter, pointed at the stand-in. */
  provider: PaymentProvider;
  /** Reads a start URL's query as FlexPay does and opens a session; or why it is refused. */
  open: (query: string) => TestCardSession | { refused: string };
  findSession: (sessionId: string) => TestCardSession | null;
  /** The approved sale of a signed cancel page's query (saleID), or why not. */
  saleToCancel: (query: string) => TestCardSession | { refused: string };
  /** Records the person's choice once (a second choice changes nothing); null for an unknown session. */
  decide: (sessionId: string, outcome: TestCardOutcome) => TestCardSession | null;
  /** The signed postback query of the session's decision (approve: the sale); null otherwise (FlexPay sends none). */
  decisionPostback: (session: TestCardSession) => string | null;
  /** A later event of an approved sale, as its signed postback query (a rebill adds a charge). */
  salePostback: (session: TestCardSession, action: TestCardSaleAction) => string;
  /** Where the buyer goes back to after the decision (success URL with the sale's data, or the decline URL). */
  returnUrlOf: (session: TestCardSession) => string;
  /** Sends a postback query to our postback route over HTTP; answers the status. */
  sendPostback: (query: string) => Promise<number>;
};

const SESSION_HOURS = 24;
const MAX_SESSIONS = 10_000;
const DAY = 86_400_000;

const day = (date: Date) => date.toISOString().slice(0, 10);
const randomId = (digits: number) => String(Number.parseInt(randomBytes(6).toString('hex'), 16)).padStart(digits, '0').slice(-digits);

/** Reads what FlexPay requires of a start URL; a reason when it would refuse it. */
function orderOf(params: Record<string, string>): TestCardOrder | { refused: string } {
  if (params['version'] !== '4') return { refused: 'version must be 4' };
  const type = params['type'];
  if (type !== 'purchase' && type !== 'subscription') return { refused: 'type must be purchase or subscription' };
  const amountOre = oreOfDecimal(params['priceAmount'] ?? '');
  if (amountOre === null || amountOre <= 0) return { refused: 'priceAmount must be an amount in nnn.nn format' };
  if (!/^[A-Z]{3}$/.test(params['priceCurrency'] ?? '')) return { refused: 'priceCurrency must be a 3-letter code' };
  const description = params['description'] ?? '';
  if (!description || description.length > 100) return { refused: 'description is required (at most 100 characters)' };
  let periodDays: number | null = null;
  if (type === 'subscription') {
    const period = /^P(\d{1,3})D$/.exec(params['period'] ?? '');
    if (params['subscriptionType'] !== 'recurring' || !period) return { refused: 'a subscription needs subscriptionType=recurring and period PnD' };
    periodDays = Number(period[1]);
  }
  const successUrl = params['successURL'];
  if (!successUrl) return { refused: 'successURL is required here' };
  return {
    reference: params['referenceID'] ?? '',
    amountOre,
    currency: params['priceCurrency']!,
    description,
    type,
    periodDays,
    successUrl,
    declineUrl: params['declineURL'] ?? null,
  };
}

export function createTestCardProvider(options: {
  siteUrl: string;
  secret: string;
  /** This server's own address (http://127.0.0.1:port), known once it listens. */
  postbackBase: () => string;
  now?: () => Date;
}): TestCardProvider {
  const sessions = new Map<string, TestCardSession>();
  const sign = { shopId: TEST_CARD_SHOP_ID, key: options.secret };
  const now = options.now ?? (() => new Date());
  const provider = createCardBillingProvider({ shopId: TEST_CARD_SHOP_ID, signatureKey: options.secret, url: `${options.siteUrl.replace(/\/$/, '')}/test-payments/card`, test: true });

  const forgetOld = () => {
    const oldest = Date.now() - SESSION_HOURS * 3_600_000;
    for (const [id, session] of sessions) {
      if (session.createdAt >= oldest && sessions.size <= MAX_SESSIONS) break;
      sessions.delete(id);
    }
  };

  const amount = (session: TestCardSession) => ({ priceAmount: decimalAmount(session.order.amountOre), priceCurrency: session.order.currency });
  const signed = (params: Record<string, string>) => signedPostbackQuery(options.secret, { shopID: TEST_CARD_SHOP_ID, ...params });

  return {
    provider,
    open: (query) => {
      const read = readSignedFlexPayUrl(query, sign);
      if ('refused' in read) return read;
      const order = orderOf(read.params);
      if ('refused' in order) return order;
      forgetOld();
      const sessionId = `testcard-${randomBytes(16).toString('hex')}`;
      const session: TestCardSession = { sessionId, order, createdAt: Date.now(), state: 'open', saleId: null, transactionIds: [], nextChargeOn: null, cancelled: false };
      sessions.set(sessionId, session);
      return session;
    },
    findSession: (sessionId) => sessions.get(sessionId) ?? null,
    saleToCancel: (query) => {
      const read = readSignedFlexPayUrl(query, sign);
      if ('refused' in read) return read;
      const saleId = read.params['saleID'];
      if (read.params['version'] !== '4' || !saleId) return { refused: 'version 4 and a saleID are required' };
      for (const session of sessions.values()) if (session.saleId === saleId && session.order.type === 'subscription') return session;
      return { refused: 'no such subscription' };
    },
    decide: (sessionId, outcome) => {
      const session = sessions.get(sessionId);
      if (!session) return null;
      if (session.state !== 'open') return session;
      session.state = outcome === 'approve' ? 'approved' : outcome === 'decline' ? 'declined' : 'abandoned';
      if (outcome === 'approve') {
        session.saleId = randomId(9);
        session.transactionIds.push(randomId(10));
        if (session.order.periodDays !== null) session.nextChargeOn = new Date(now().getTime() + session.order.periodDays * DAY);
      }
      return session;
    },
    decisionPostback: (session) => {
      if (session.state !== 'approved') return null;
      const sale = { saleID: session.saleId!, referenceID: session.order.reference, ...amount(session), paymentMethod: 'CC' };
      if (session.order.type === 'purchase') return signed({ ...sale, type: 'purchase', truncatedPAN: 'XXXXXXXXXXXX1111', transactionID: session.transactionIds[0]! });
      return signed({
        ...sale,
        type: 'subscription',
        event: 'initial',
        subscriptionType: 'recurring',
        period: `P${session.order.periodDays}D`,
        nextChargeOn: day(session.nextChargeOn!),
        truncatedPAN: 'XXXXXXXXXXXX1111',
        transactionID: session.transactionIds[0]!,
      });
    },
    salePostback: (session, action) => {
      const saleID = session.saleId!;
      const type = session.order.type;
      if (action === 'rebill') {
        const days = session.order.periodDays ?? 30;
        session.nextChargeOn = new Date(Math.max(now().getTime(), session.nextChargeOn?.getTime() ?? 0) + days * DAY);
        const transactionID = randomId(10);
        session.transactionIds.push(transactionID);
        return signed({ saleID, referenceID: session.order.reference, ...amount(session), type, event: 'rebill', nextChargeOn: day(session.nextChargeOn), transactionID });
      }
      if (action === 'cancel') {
        session.cancelled = true;
        return signed({ saleID, type, event: 'cancel', cancelledBy: 'buyer' });
      }
      if (action === 'expiry') return signed({ saleID, type, event: 'expiry' });
      // A credit or chargeback of the newest charge: a transaction of its own naming its parent.
      return signed({ saleID, type, event: action, ...amount(session), transactionID: randomId(10), parentID: session.transactionIds.at(-1)! });
    },
    returnUrlOf: (session) => {
      if (session.state === 'declined' && session.order.declineUrl) return session.order.declineUrl;
      const query = new URLSearchParams({ type: session.order.type, referenceID: session.order.reference });
      if (session.saleId) query.set('saleID', session.saleId);
      const url = session.order.successUrl;
      return `${url}${url.includes('?') ? '&' : '?'}${query.toString()}`;
    },
    sendPostback: async (query) => {
      const response = await fetch(`${options.postbackBase()}/api/backend/cardbillingpostback?${query}`, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      return response.status;
    },
  };
}
