import { randomBytes } from 'node:crypto';
import type { PaymentProvider, PaymentRequest } from '../types.ts';
import { FLEXPAY_POSTBACK_ANSWER, decimalAmount, parseFlexPayPostback, signedPostbackQuery } from './flexpay.ts';

/**
 * The built-in TEST card provider (PAYMENT_CARD=test: the default in development and tests; with
 * NODE_ENV=production only with ALLOW_TEST_PROVIDERS). NO MONEY MOVES. It behaves like the real card
 * provider (./cardbilling.ts): `start` answers a hosted page of ours, `/test-payments/card/{sessionId}`
 * (src/server/api/test-card-provider.ts), where a person approves, declines or abandons; the provider
 * then sends GET postbacks to /api/backend/cardbillingpostback signed exactly as FlexPay signs them (with
 * the test key, PAYMENT_TEST_SECRET), over real HTTP to this server's own listening address, and sends the
 * buyer back to the callback screen with the spec's query (type, referenceID, saleID, sessionId). The
 * page can delay the postback, send it twice, or send it before the buyer returns, and trigger a rebill,
 * a cancellation, an expiry, a refund (credit) or a chargeback of a sale. Sessions live in this process's
 * memory (a restart forgets them, as a provider's unpaid sessions expire).
 */

export const TEST_CARD_SHOP_ID = '999999';

export type TestCardOutcome = 'approve' | 'decline' | 'abandon';
export type TestCardSaleAction = 'rebill' | 'cancel' | 'expiry' | 'credit' | 'chargeback';

export type TestCardSession = {
  sessionId: string;
  request: PaymentRequest;
  createdAt: number;
  state: 'open' | 'approved' | 'declined' | 'abandoned';
  saleId: string | null;
  /** Every charge of the sale (the first, then each rebill), newest last. */
  transactionIds: string[];
  nextChargeOn: Date | null;
  cancelled: boolean;
};

export type TestCardProvider = PaymentProvider & {
  findSession: (sessionId: string) => TestCardSession | null;
  /** Records the person's choice once (a second choice changes nothing); null for an unknown session. */
  decide: (sessionId: string, outcome: TestCardOutcome) => TestCardSession | null;
  /** The signed postback query of the session's decision (approve: initial; decline: decline); null when abandoned. */
  decisionPostback: (session: TestCardSession) => string | null;
  /** A later event of an approved sale, as its signed postback query (a rebill adds a charge). */
  salePostback: (session: TestCardSession, action: TestCardSaleAction) => string;
  /** Where the buyer goes back to after the decision (the callback screen with the spec's query). */
  returnUrlOf: (session: TestCardSession) => string;
  /** Sends a postback query to our postback route over HTTP; answers the status. */
  sendPostback: (query: string) => Promise<number>;
};

const SESSION_HOURS = 24;
const MAX_SESSIONS = 10_000;
const DAY = 86_400_000;

const day = (date: Date) => date.toISOString().slice(0, 10);
const randomId = (digits: number) => String(Number.parseInt(randomBytes(6).toString('hex'), 16)).padStart(digits, '0').slice(-digits);

export function createTestCardProvider(options: {
  siteUrl: string;
  secret: string;
  /** This server's own address (http://127.0.0.1:port), known once it listens. */
  postbackBase: () => string;
  now?: () => Date;
}): TestCardProvider {
  const sessions = new Map<string, TestCardSession>();
  const base = options.siteUrl.replace(/\/$/, '');
  const now = options.now ?? (() => new Date());

  const forgetOld = () => {
    const oldest = Date.now() - SESSION_HOURS * 3_600_000;
    for (const [id, session] of sessions) {
      if (session.createdAt >= oldest && sessions.size <= MAX_SESSIONS) break;
      sessions.delete(id);
    }
  };

  const typeOf = (session: TestCardSession) => (session.request.recurringDays === undefined ? 'purchase' : 'subscription');

  const common = (session: TestCardSession): Record<string, string> => ({
    shopID: TEST_CARD_SHOP_ID,
    referenceID: session.request.reference,
    type: typeOf(session),
    paymentMethod: 'CC',
  });

  const charged = (session: TestCardSession, transactionId: string): Record<string, string> => ({
    ...common(session),
    saleID: session.saleId!,
    transactionID: transactionId,
    priceAmount: decimalAmount(session.request.amountOre),
    priceCurrency: session.request.currency,
    truncatedPAN: '411111XXXXXX1111',
    ...(session.nextChargeOn && !session.cancelled ? { nextChargeOn: day(session.nextChargeOn) } : {}),
  });

  const provider: TestCardProvider = {
    name: 'cardbilling',
    method: 'card',
    test: true,
    start: async (request) => {
      forgetOld();
      const sessionId = `testcard-${randomBytes(16).toString('hex')}`;
      sessions.set(sessionId, { sessionId, request, createdAt: Date.now(), state: 'open', saleId: null, transactionIds: [], nextChargeOn: null, cancelled: false });
      return { kind: 'redirect', url: `${base}/test-payments/card/${sessionId}`, providerSessionId: sessionId };
    },
    parsePostback: async (postback) => parseFlexPayPostback(postback, { shopId: TEST_CARD_SHOP_ID, key: options.secret }),
    postbackAnswer: FLEXPAY_POSTBACK_ANSWER,
    cancelSubscription: async (saleId) => {
      for (const session of sessions.values()) if (session.saleId === saleId) session.cancelled = true;
    },
    findSession: (sessionId) => sessions.get(sessionId) ?? null,
    decide: (sessionId, outcome) => {
      const session = sessions.get(sessionId);
      if (!session) return null;
      if (session.state !== 'open') return session;
      session.state = outcome === 'approve' ? 'approved' : outcome === 'decline' ? 'declined' : 'abandoned';
      if (outcome === 'approve') {
        session.saleId = randomId(9);
        session.transactionIds.push(randomId(10));
        const days = session.request.recurringDays;
        if (days !== undefined) session.nextChargeOn = new Date(now().getTime() + days * DAY);
      }
      return session;
    },
    decisionPostback: (session) => {
      if (session.state === 'approved') {
        return signedPostbackQuery(options.secret, { ...charged(session, session.transactionIds[0]!), ...(typeOf(session) === 'subscription' ? { event: 'initial' } : {}) });
      }
      if (session.state === 'declined') return signedPostbackQuery(options.secret, { ...common(session), event: 'decline' });
      return null;
    },
    salePostback: (session, action) => {
      const last = session.transactionIds.at(-1)!;
      if (action === 'rebill') {
        const days = session.request.recurringDays ?? 30;
        session.nextChargeOn = new Date(Math.max(now().getTime(), session.nextChargeOn?.getTime() ?? 0) + days * DAY);
        const transactionId = randomId(10);
        session.transactionIds.push(transactionId);
        return signedPostbackQuery(options.secret, { ...charged(session, transactionId), event: 'rebill' });
      }
      if (action === 'cancel' || action === 'expiry') {
        if (action === 'cancel') session.cancelled = true;
        return signedPostbackQuery(options.secret, { ...common(session), saleID: session.saleId!, event: action });
      }
      return signedPostbackQuery(options.secret, { ...charged(session, last), event: action });
    },
    returnUrlOf: (session) => {
      const query = new URLSearchParams({ type: typeOf(session), referenceID: session.request.reference });
      if (session.saleId) query.set('saleID', session.saleId);
      query.set('sessionId', session.sessionId);
      const returnUrl = session.request.returnUrl;
      return `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}${query.toString()}`;
    },
    sendPostback: async (query) => {
      const response = await fetch(`${options.postbackBase()}/api/backend/cardbillingpostback?${query}`, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      return response.status;
    },
  };
  return provider;
}
