import type { FastifyInstance } from 'fastify';
import { formatDkk } from '#lib/format.ts';
import {
  TEST_CARRIER_STATUSES,
  amountOreOf,
  type DimocoStandIn,
  type TestCarrierOutcome,
  type TestCarrierSession,
  type TestCarrierStatus,
} from '../adapters/payments/test-carrier-provider.ts';
import { escapeHtml, testProviderPage } from './test-age-provider.ts';
import { TEST_NOTE, decisionRoute, hostedPageRoute, laterEventRoute, productionNote, testPostbackSender, textReply as text, timingOptions } from './test-payment-pages.ts';

/**
 * /test-payments/carrier/...: the built-in TEST stand-in of DIMOCO pay:smart (registered only with
 * PAYMENT_CARRIER=test; ../adapters/payments/test-carrier-provider.ts). `POST /start` takes the browser's
 * start form as pay:smart does (a wrong digest, merchant or order, or a missing parameter: 400) and sends the
 * browser to `GET /{sessionId}`, plain HTML that says clearly it is a TEST and no money moves: Approve,
 * Decline, Abandon, with the callback before the buyer returns (default), right after, after a delay, or
 * never, once or twice; then the buyer goes to the form's `url_return`. `POST /{sessionId}/callback`
 * (`status`) sends any later callback, a refund included.
 */

const OUTCOMES: readonly TestCarrierOutcome[] = ['approve', 'decline', 'abandon'];

function laterPanel(session: TestCarrierSession): string {
  if (!session.decided) return '';
  const buttons = TEST_CARRIER_STATUSES.map((name) => `<button type="submit" name="status" value="${name}">${name}</button>`).join('\n');
  return `<h2>Callback</h2>
<form method="post" action="${escapeHtml(`/test-payments/carrier/${encodeURIComponent(session.sessionId)}/callback`)}">
${buttons}
<label><input type="checkbox" name="twice" value="1"> send twice</label>
</form>`;
}

function sessionPage(session: TestCarrierSession, production: boolean): string {
  return testProviderPage(
    'Betaling over telefonregning (TEST) · Carrier billing (TEST)',
    `${TEST_NOTE}${production ? `\n${productionNote('carrier')}` : ''}
<h1>Betaling over telefonregning <span lang="en">· Carrier billing</span> (TEST)</h1>
<p>${escapeHtml(session.fields['service_name'] ?? '')} · <strong>${escapeHtml(formatDkk(amountOreOf(session)))}</strong></p>
<p>request_id: <code>${escapeHtml(session.fields['request_id'] ?? '')}</code></p>
${
  session.decided
    ? ''
    : `<form method="post" action="${escapeHtml(`/test-payments/carrier/${encodeURIComponent(session.sessionId)}`)}">
<p><label>Callback <select name="timing">${timingOptions()}</select></label>
<label>delay (s) <input name="delaySeconds" type="number" min="1" max="600" value="10"></label>
<label><input type="checkbox" name="twice" value="1"> send twice</label></p>
<button type="submit" name="outcome" value="approve">Godkend · <span lang="en">Approve</span></button>
<button type="submit" name="outcome" value="decline">Afvis · <span lang="en">Decline</span></button>
<button type="submit" name="outcome" value="abandon">Afbryd · <span lang="en">Abandon</span></button>
</form>`
}
${laterPanel(session)}`,
  );
}

export function testCarrierProviderRoutes(provider: DimocoStandIn, options: { production: boolean }) {
  return async (app: FastifyInstance): Promise<void> => {
    const sender = testPostbackSender(app, 'carrier');
    const notify = (session: TestCarrierSession, status: TestCarrierStatus, twice: boolean) => sender.send(() => provider.notify(session, status), twice);

    app.post('/start', async (request, reply) => {
      const session = provider.receiveStart((request.body ?? {}) as Record<string, string>);
      if ('refused' in session) return text(reply, 400, `Refused: ${session.refused}`);
      return reply.redirect(`/test-payments/carrier/${encodeURIComponent(session.sessionId)}`, 303);
    });

    hostedPageRoute(app, (id) => provider.findSession(id), (session) => sessionPage(session, options.production));

    decisionRoute(app, sender, {
      outcomes: OUTCOMES,
      find: (id) => provider.findSession(id),
      decide: (session, outcome, twice) => {
        const statuses = provider.decide(session.sessionId, outcome)!;
        const postbacks = async () => {
          for (const status of statuses) await notify(session, status, twice);
        };
        return { postbacks: statuses.length > 0 ? postbacks : null, returnUrl: provider.returnUrlOf(session) };
      },
    });

    laterEventRoute(app, {
      path: 'callback',
      field: 'status',
      events: TEST_CARRIER_STATUSES,
      find: (id) => provider.findSession(id),
      refusal: (session) => (session.decided ? null : 'Decide on the payment first'),
      send: notify,
      page: { title: 'Betaling over telefonregning (TEST) · Carrier billing (TEST)', sent: 'Callback', panel: laterPanel },
    });
  };
}
