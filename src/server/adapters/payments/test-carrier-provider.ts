import type { PaymentProvider, PaymentRequest } from '../types.ts';
import { randomBytes } from 'node:crypto';
import { decimalAmount } from './flexpay.ts';
import { DIMOCO_POSTBACK_ANSWER, dimocoFormDigest, dimocoStartForm, parseDimocoCallback, signedDimocoCallback } from './dimoco.ts';

/**
 * The built-in TEST carrier-billing provider (PAYMENT_CARRIER=test: the default in development and tests;
 * with NODE_ENV=production only with ALLOW_TEST_PROVIDERS). NO MONEY MOVES. It behaves like DIMOCO
 * (./dimoco.ts): `start` answers the same signed form, posted to `/test-payments/carrier/start`, which checks
 * the digest and sends the browser to our hosted page `/test-payments/carrier/{sessionId}`
 * (src/server/api/test-carrier-provider.ts); there a person approves, declines, lets it expire or abandons,
 * and later a refund can be sent. Callbacks are form POSTs of `data` (JSON) + `digest` signed with
 * PAYMENT_TEST_SECRET, over real HTTP to /api/backend/dimocopostback on this server's own address.
 */

export const TEST_CARRIER_MERCHANT = 'test-merchant';
export const TEST_CARRIER_STATUSES = ['pending', 'success', 'failure', 'expired', 'refund'] as const;
export type TestCarrierStatus = (typeof TEST_CARRIER_STATUSES)[number];
export type TestCarrierOutcome = 'approve' | 'decline' | 'expire' | 'abandon';

export type TestCarrierSession = { sessionId: string; requestId: string; request: PaymentRequest; createdAt: number; decided: boolean; transactionId: string | null };

export type TestCarrierProvider = PaymentProvider & {
  /** The session of a posted start form whose digest is right; null otherwise. */
  sessionOfForm: (fields: Record<string, string>) => TestCarrierSession | null;
  findSession: (sessionId: string) => TestCarrierSession | null;
  decide: (sessionId: string, outcome: TestCarrierOutcome) => TestCarrierStatus[] | null;
  /** Sends the callback of a status (refund: the refund action) over HTTP; answers the HTTP status. */
  notify: (session: TestCarrierSession, status: TestCarrierStatus) => Promise<number>;
  returnUrlOf: (session: TestCarrierSession) => string;
};

export function createTestCarrierProvider(options: { siteUrl: string; secret: string; postbackBase: () => string }): TestCarrierProvider {
  const sessions = new Map<string, TestCarrierSession>();
  const base = options.siteUrl.replace(/\/$/, '');
  const forgetOld = () => {
    const oldest = Date.now() - 24 * 3_600_000;
    for (const [id, session] of sessions) {
      if (session.createdAt >= oldest && sessions.size <= 10_000) break;
      sessions.delete(id);
    }
  };
  return {
    name: 'dimoco',
    method: 'carrier',
    test: true,
    start: async (request) => {
      forgetOld();
      const sessionId = `testcarrier-${randomBytes(16).toString('hex')}`;
      const form = dimocoStartForm(request, { merchant: TEST_CARRIER_MERCHANT, password: options.secret, action: `${base}/test-payments/carrier/start` });
      sessions.set(sessionId, { sessionId, requestId: form.fields['request_id']!, request, createdAt: Date.now(), decided: false, transactionId: null });
      return form;
    },
    parsePostback: async (postback) => parseDimocoCallback(postback, { merchant: TEST_CARRIER_MERCHANT, password: options.secret }),
    postbackAnswer: DIMOCO_POSTBACK_ANSWER,
    sessionOfForm: (fields) => {
      if (fields['merchant'] !== TEST_CARRIER_MERCHANT || fields['digest'] !== dimocoFormDigest(options.secret, fields)) return null;
      for (const session of sessions.values()) if (session.requestId === fields['request_id']) return session;
      return null;
    },
    findSession: (sessionId) => sessions.get(sessionId) ?? null,
    decide: (sessionId, outcome) => {
      const session = sessions.get(sessionId);
      if (!session) return null;
      if (session.decided) return [];
      session.decided = true;
      if (outcome === 'approve') {
        session.transactionId = randomBytes(8).toString('hex');
        return ['success'];
      }
      return outcome === 'decline' ? ['failure'] : outcome === 'expire' ? ['expired'] : [];
    },
    notify: async (session, status) => {
      const refund = status === 'refund';
      const body = signedDimocoCallback(options.secret, {
        action: refund ? 'refund' : 'payment',
        merchant: TEST_CARRIER_MERCHANT,
        order: session.request.reference,
        request_id: session.requestId,
        status: refund ? 'success' : status,
        amount: decimalAmount(session.request.amountOre),
        currency: session.request.currency,
        ...(session.transactionId ? { transaction_id: session.transactionId } : {}),
      });
      const response = await fetch(`${options.postbackBase()}/api/backend/dimocopostback`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      return response.status;
    },
    returnUrlOf: (session) => {
      const query = new URLSearchParams({ type: 'carrier', referenceID: session.request.reference, sessionId: session.sessionId });
      return `${session.request.returnUrl}${session.request.returnUrl.includes('?') ? '&' : '?'}${query.toString()}`;
    },
  };
}
