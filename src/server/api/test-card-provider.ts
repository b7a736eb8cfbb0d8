import type { FastifyInstance } from 'fastify';
import { formatDkk } from '#lib/format.ts';
import type { TestCardOutcome, TestCardProvider, TestCardSaleAction, TestCardSession } from '../adapters/payments/test-card-provider.ts';
import { escapeHtml, testProviderPage } from './test-age-provider.ts';
import { TEST_NOTE, decisionRoute, hostedPageRoute, laterEventRoute, productionNote, testPostbackSender, timingOptions } from './test-payment-pages.ts';

/**
 * /test-payments/card/{sessionId}: the hosted page of the built-in TEST card provider (registered only with
 * PAYMENT_CARD=test), plain server-rendered HTML that says clearly it is a TEST and no money moves.
 * Approve / Decline / Abandon record the outcome, send the signed postback (approve: the sale; decline: a
 * decline; abandon: none) before the buyer returns (default), right after, after a delay, or never, once
 * or twice, and send the buyer back to the callback screen. For an approved sale, the page then offers a
 * rebill, a cancellation, an expiry, a refund (credit) and a chargeback, each sent as the provider's postback.
 */

const OUTCOMES: readonly TestCardOutcome[] = ['approve', 'decline', 'abandon'];
const ACTIONS: readonly TestCardSaleAction[] = ['rebill', 'cancel', 'expiry', 'credit', 'chargeback'];
const PRODUCTION_NOTE = productionNote('card');

function salePanel(action: string, session: TestCardSession): string {
  if (session.state !== 'approved') return '';
  const buttons = ACTIONS.map((name) => `<button type="submit" name="action" value="${name}">${name}</button>`).join('\n');
  return `<h2>Sale ${escapeHtml(session.saleId ?? '')}</h2>
<p>Charges: ${session.transactionIds.length}${session.nextChargeOn ? ` · next charge ${session.nextChargeOn.toISOString().slice(0, 10)}` : ''}${session.cancelled ? ' · cancelled' : ''}</p>
<form method="post" action="${escapeHtml(`${action}/sale`)}">
${buttons}
<label><input type="checkbox" name="twice" value="1"> send twice</label>
</form>`;
}

function sessionPage(session: TestCardSession, production: boolean): string {
  const action = `/test-payments/card/${encodeURIComponent(session.sessionId)}`;
  const request = session.request;
  const decided = session.state !== 'open';
  const timing = timingOptions();
  return testProviderPage(
    'Kortbetaling (TEST) · Card payment (TEST)',
    `${TEST_NOTE}${production ? `\n${PRODUCTION_NOTE}` : ''}
<h1>Kortbetaling <span lang="en">· Card payment</span> (TEST)</h1>
<p>${escapeHtml(request.description)} · <strong>${escapeHtml(formatDkk(request.amountOre))}</strong>${request.recurringDays ? ` · fornyes hver ${request.recurringDays}. dag / renews every ${request.recurringDays} days` : ''}</p>
<p>Reference: <code>${escapeHtml(request.reference)}</code> · state: <strong data-state="${session.state}">${session.state}</strong></p>
${
  decided
    ? ''
    : `<form method="post" action="${escapeHtml(action)}">
<p><label>Postback <select name="timing">${timing}</select></label>
<label>delay (s) <input name="delaySeconds" type="number" min="1" max="600" value="10"></label>
<label><input type="checkbox" name="twice" value="1"> send twice</label></p>
<button type="submit" name="outcome" value="approve">Godkend · <span lang="en">Approve</span></button>
<button type="submit" name="outcome" value="decline">Afvis · <span lang="en">Decline</span></button>
<button type="submit" name="outcome" value="abandon">Afbryd · <span lang="en">Abandon</span></button>
</form>`
}
${salePanel(action, session)}`,
  );
}

export function testCardProviderRoutes(provider: TestCardProvider, options: { production: boolean }) {
  return async (app: FastifyInstance): Promise<void> => {
    const sender = testPostbackSender(app, 'card');
    const send = (query: string, twice: boolean) => sender.send(() => provider.sendPostback(query), twice);

    hostedPageRoute(app, (id) => provider.findSession(id), (session) => sessionPage(session, options.production));

    decisionRoute(app, sender, {
      outcomes: OUTCOMES,
      find: (id) => provider.findSession(id),
      decide: (open, outcome, twice) => {
        const firstDecision = open.state === 'open';
        const session = provider.decide(open.sessionId, outcome)!;
        const query = firstDecision ? provider.decisionPostback(session) : null;
        return { postbacks: query ? () => send(query, twice) : null, returnUrl: provider.returnUrlOf(session) };
      },
    });

    laterEventRoute(app, {
      path: 'sale',
      field: 'action',
      events: ACTIONS,
      find: (id) => provider.findSession(id),
      refusal: (session) => (session.state === 'approved' ? null : 'Only an approved sale has later events'),
      send: (session, action, twice) => send(provider.salePostback(session, action), twice),
      page: {
        title: 'Kortbetaling (TEST) · Card payment (TEST)',
        sent: 'Postback',
        panel: (session) => salePanel(`/test-payments/card/${encodeURIComponent(session.sessionId)}`, session),
      },
    });
  };
}
