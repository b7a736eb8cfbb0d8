import type { FastifyInstance } from 'fastify';
import { formatDkk } from '#lib/format.ts';
import type { TestCardOutcome, TestCardProvider, TestCardSaleAction, TestCardSession } from '../adapters/payments/test-card-provider.ts';
import { escapeHtml, testProviderPage } from './test-age-provider.ts';
import { TEST_NOTE, decisionRoute, hostedPageRoute, laterEventRoute, productionNote, testPostbackSender, textReply, timingOptions } from './test-payment-pages.ts';

/**
 * /test-payments/card: the built-in TEST card provider's pages (registered only with PAYMENT_CARD=test),
 * a stand-in of Verotel FlexPay (../adapters/payments/test-card-provider.ts), plain server-rendered HTML
 * that says clearly it is a TEST and no money moves.
 *
 * - GET /startorder?… : the start URL the live adapter made, checked as FlexPay checks it (a bad signature,
 *   another shop or a missing field: 400 with the reason), then on (303) to the session's hosted page.
 * - GET /{sessionId}: Approve / Decline / Abandon record the outcome, send the signed postback (approve:
 *   the sale; decline and abandon: none, as FlexPay) before the buyer returns (default), right after, after
 *   a delay, or never, once or twice, and send the buyer back (success URL, or the decline URL). For an
 *   approved sale the page then offers a rebill, a cancellation, an expiry, a refund (credit) and a
 *   chargeback, each sent as the provider's postback.
 * - GET /cancel-subscription?… : the buyer's signed cancel page; confirming sends the `cancel` postback.
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

function cancelPage(session: TestCardSession, url: string, production: boolean): string {
  return testProviderPage(
    'Opsig abonnement (TEST) · Cancel subscription (TEST)',
    `${TEST_NOTE}${production ? `\n${PRODUCTION_NOTE}` : ''}
<h1>Opsig abonnement <span lang="en">· Cancel subscription</span> (TEST)</h1>
<p>${escapeHtml(session.order.description)} · <strong>${escapeHtml(formatDkk(session.order.amountOre))}</strong> · sale ${escapeHtml(session.saleId ?? '')}${session.cancelled ? ' · <strong>opsagt / cancelled</strong>' : ''}</p>
<form method="post" action="${escapeHtml(url)}">
<button type="submit">Opsig abonnementet · <span lang="en">Cancel the subscription</span></button>
</form>`,
  );
}

function sessionPage(session: TestCardSession, production: boolean): string {
  const action = `/test-payments/card/${encodeURIComponent(session.sessionId)}`;
  const order = session.order;
  const decided = session.state !== 'open';
  const timing = timingOptions();
  return testProviderPage(
    'Kortbetaling (TEST) · Card payment (TEST)',
    `${TEST_NOTE}${production ? `\n${PRODUCTION_NOTE}` : ''}
<h1>Kortbetaling <span lang="en">· Card payment</span> (TEST)</h1>
<p>${escapeHtml(order.description)} · <strong>${escapeHtml(formatDkk(order.amountOre))}</strong>${order.periodDays ? ` · fornyes hver ${order.periodDays}. dag / renews every ${order.periodDays} days` : ''}</p>
<p>Reference: <code>${escapeHtml(order.reference)}</code> · state: <strong data-state="${session.state}">${session.state}</strong></p>
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

export function testCardProviderRoutes(provider: TestCardProvider, options: { production: boolean; /** Where the cancel page links back to (the advertiser's package page). */ backUrl: string }) {
  return async (app: FastifyInstance): Promise<void> => {
    const sender = testPostbackSender(app, 'card');
    const send = (query: string, twice: boolean) => sender.send(() => provider.sendPostback(query), twice);

    const queryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');

    app.get('/startorder', async (request, reply) => {
      const opened = provider.open(queryOf(request.url));
      if ('refused' in opened) return textReply(reply, 400, `FlexPay (TEST) refuses this start URL: ${opened.refused}`);
      return reply.header('Cache-Control', 'no-store').redirect(`/test-payments/card/${encodeURIComponent(opened.sessionId)}`, 303);
    });

    app.get('/cancel-subscription', async (request, reply) => {
      const sale = provider.saleToCancel(queryOf(request.url));
      if ('refused' in sale) return textReply(reply, 400, `FlexPay (TEST) refuses this cancel URL: ${sale.refused}`);
      reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
      return reply.send(cancelPage(sale, request.url, options.production));
    });

    app.post('/cancel-subscription', async (request, reply) => {
      const sale = provider.saleToCancel(queryOf(request.url));
      if ('refused' in sale) return textReply(reply, 400, `FlexPay (TEST) refuses this cancel URL: ${sale.refused}`);
      const statuses = sale.cancelled ? [] : await send(provider.salePostback(sale, 'cancel'), false);
      reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
      return reply.send(
        testProviderPage(
          'Abonnement opsagt (TEST) · Subscription cancelled (TEST)',
          `${TEST_NOTE}<h1 data-cancelled>Abonnementet er opsagt <span lang="en">· The subscription is cancelled</span></h1>
<p>Der trækkes ikke flere betalinger. <span lang="en">No further charges will be made.</span> <span data-statuses="${statuses.join(',')}"></span></p>
<p><a href="${escapeHtml(options.backUrl)}">Tilbage til siden · <span lang="en">Back to the site</span></a></p>`,
        ),
      );
    });

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
