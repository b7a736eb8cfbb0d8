import { randomBytes } from 'node:crypto';
import { XMLBuilder } from 'fast-xml-parser';
import { dimocoDigest, dimocoHmac, dimocoRequestId, referenceOfRequestId, type DimocoContract } from './dimoco.ts';
import { oreOfDecimal } from './flexpay.ts';

/**
 * The built-in TEST stand-in of DIMOCO pay:smart (PAYMENT_CARRIER=test: the default in development and
 * tests; with NODE_ENV=production only with ALLOW_TEST_PROVIDERS). NO MONEY MOVES. The server runs the live
 * adapter (./dimoco.ts, `createDimocoProvider` with `test: true`) against it, with a test merchant whose
 * password is PAYMENT_TEST_SECRET; this file plays DIMOCO's side only and has no parser or digest of its own:
 *
 * - `receiveStart` takes the browser's start form as pay:smart does (action `start`, this contract's merchant
 *   and order, the mandatory parameters, the digest over the others): anything else is refused.
 * - its hosted page (src/server/api/test-carrier-provider.ts) lets a person approve, decline or abandon;
 * - `notify` sends a callback as pay:smart does: a form POST of `data` (the XML result) and `digest` to the
 *   `url_callback` it received (which must be this site's: the stand-in calls back no one else; it reaches
 *   this server at its own listening address, as the site address may be a proxy's);
 * - the buyer is sent back to `url_return` as received.
 */

export const TEST_CARRIER_MERCHANT = 'test-merchant';
export const TEST_CARRIER_ORDER = 'test-order';
/** What the test contract bills in (a real order's currency is set up by DIMOCO with the contract). */
export const TEST_CARRIER_CURRENCY = 'DKK';

/** The callbacks the stand-in can send: pay:smart's action_result statuses of action start, and a refund. */
export const TEST_CARRIER_STATUSES = ['pending', 'success', 'failure', 'refund'] as const;
export type TestCarrierStatus = (typeof TEST_CARRIER_STATUSES)[number];
export type TestCarrierOutcome = 'approve' | 'decline' | 'abandon';

export type TestCarrierSession = {
  sessionId: string;
  /** The start form as the browser posted it. */
  fields: Record<string, string>;
  createdAt: number;
  decided: boolean;
  /** DIMOCO's reference of the process and the transaction's id, once billed. */
  dimocoReference: string;
  transactionId: string | null;
};

export type DimocoStandIn = {
  contract: DimocoContract;
  /** The session of a start form pay:smart would take, or why it refuses it. */
  receiveStart: (fields: Record<string, string>) => TestCarrierSession | { refused: string };
  findSession: (sessionId: string) => TestCarrierSession | null;
  decide: (sessionId: string, outcome: TestCarrierOutcome) => TestCarrierStatus[] | null;
  /** Sends the callback of a status over HTTP; answers our server's HTTP status. */
  notify: (session: TestCarrierSession, status: TestCarrierStatus) => Promise<number>;
  /** Where the buyer goes back to: the form's `url_return`, as received. */
  returnUrlOf: (session: TestCarrierSession) => string;
};

/** The parameters pay:smart's action start cannot do without (service_name since v1.14). */
const MANDATORY = ['action', 'merchant', 'order', 'request_id', 'amount', 'service_name', 'url_callback', 'url_return', 'digest'] as const;

const STATUS_CODE: Record<Exclude<TestCarrierStatus, 'refund'>, string> = { success: '0', failure: '1', pending: '5' };

const xml = new XMLBuilder({ ignoreAttributes: false, format: false, suppressEmptyNode: true });

export function createDimocoStandIn(options: DimocoContract & { siteUrl: string; postbackBase: () => string }): DimocoStandIn {
  const contract: DimocoContract = { merchant: options.merchant, order: options.order, password: options.password };
  const sessions = new Map<string, TestCarrierSession>();
  const site = new URL(options.siteUrl).origin;
  const forgetOld = () => {
    const oldest = Date.now() - 24 * 3_600_000;
    for (const [id, session] of sessions) {
      if (session.createdAt >= oldest && sessions.size <= 10_000) break;
      sessions.delete(id);
    }
  };
  /** The XML result of a callback, in pay:smart's order of elements. */
  const resultXml = (session: TestCarrierSession, status: TestCarrierStatus): string => {
    const refund = status === 'refund';
    const billed = status === 'success' || refund;
    const amount = session.fields['amount']!;
    const result = {
      action: refund ? 'refund' : 'start',
      action_result: { status: refund ? '0' : STATUS_CODE[status], detail: status === 'failure' ? 'The end user declined the payment (TEST).' : undefined },
      reference: session.dimocoReference,
      // A refund is a request of its own; its request_id names the same order.
      request_id: refund ? dimocoRequestId(referenceOfRequestId(session.fields['request_id']!)) : session.fields['request_id'],
      payment_parameters: { order: session.fields['order'] },
      transactions: billed
        ? { transaction: { id: refund ? `refund-${session.transactionId}` : session.transactionId, amount, billed_amount: amount, currency: TEST_CARRIER_CURRENCY } }
        : undefined,
    };
    return `<?xml version="1.0" encoding="UTF-8"?>${xml.build({ result })}`;
  };
  return {
    contract,
    receiveStart: (fields) => {
      const missing = MANDATORY.filter((name) => !fields[name]);
      if (missing.length > 0) return { refused: `missing ${missing.join(', ')}` };
      if (fields['digest']!.toLowerCase() !== dimocoDigest(contract.password, fields)) return { refused: 'wrong digest' };
      if (fields['action'] !== 'start') return { refused: `unsupported action ${fields['action']}` };
      if (fields['merchant'] !== contract.merchant || fields['order'] !== contract.order) return { refused: 'unknown merchant or order' };
      if (oreOfDecimal(fields['amount']!) === null) return { refused: 'unreadable amount' };
      if (!URL.canParse(fields['url_callback']!) || new URL(fields['url_callback']!).origin !== site) return { refused: "url_callback is not this site's (the TEST stand-in calls back no one else)" };
      forgetOld();
      const session: TestCarrierSession = {
        sessionId: `testcarrier-${randomBytes(16).toString('hex')}`,
        fields: { ...fields },
        createdAt: Date.now(),
        decided: false,
        dimocoReference: randomBytes(10).toString('hex'),
        transactionId: null,
      };
      sessions.set(session.sessionId, session);
      return session;
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
      return outcome === 'decline' ? ['failure'] : [];
    },
    notify: async (session, status) => {
      if (status === 'refund' && !session.transactionId) session.transactionId = randomBytes(8).toString('hex');
      const data = resultXml(session, status);
      const target = new URL(session.fields['url_callback']!);
      const response = await fetch(`${options.postbackBase()}${target.pathname}${target.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ data, digest: dimocoHmac(contract.password, data) }).toString(),
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      return response.status;
    },
    returnUrlOf: (session) => session.fields['url_return']!,
  };
}

/** The amount of a session in øre (its form's decimal amount, checked when it was received). */
export const amountOreOf = (session: TestCarrierSession) => oreOfDecimal(session.fields['amount']!) ?? 0;