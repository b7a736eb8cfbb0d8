import type { FastifyInstance } from 'fastify';
import { formatDkk } from '#lib/format.ts';
import {
  TEST_CARRIER_STATUSES,
  type TestCarrierOutcome,
  type TestCarrierProvider,
  type TestCarrierSession,
  type TestCarrierStatus,
} from '../adapters/payments/test-carrier-provider.ts';
import { escapeHtml, testProviderPage } from './test-age-provider.ts';
import { TEST_NOTE, decisionRoute, hostedPageRoute, laterEventRoute, productionNote, testPostbackSender, textReply as text, timingOptions } from './test-payment-pages.ts';

/**
 * /test-payments/carrier/...: the built-in TEST carrier-billing provider (registered only with
 * PAYMENT_CARRIER=test). `POST /start` takes the signed start form as DIMOCO would (a wrong digest: 400) and
 * sends the browser to `GET /{sessionId}`, plain HTML that says clearly it is a TEST and no money moves:
 * Approve, Decline, Expire, Abandon, with the callback before the buyer returns (default), right after, after
 * a delay, or never, once or twice. `POST /{sessionId}/callback` (`status`) sends any later callback,
 * a refund included.
 */

const OUTCOMES: readonly TestCarrierOutcome[] = ['approve', 'decline', 'expire', 'abandon'];

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
<p>${escapeHtml(session.request.description)} · <strong>${escapeHtml(formatDkk(session.request.amountOre))}</strong></p>
<p>Reference: <code>${escapeHtml(session.request.reference)}</code></p>
${
  session.decided
    ? ''
    : `<form method="post" action="${escapeHtml(`/test-payments/carrier/${encodeURIComponent(session.sessionId)}`)}">
<p><label>Callback <select name="timing">${timingOptions()}</select></label>
<label>delay (s) <input name="delaySeconds" type="number" min="1" max="600" value="10"></label>
<label><input type="checkbox" name="twice" value="1"> send twice</label></p>
<button type="submit" name="outcome" value="approve">Godkend · <span lang="en">Approve</span></button>
<button type="submit" name="outcome" value="decline">Afvis · <span lang="en">Decline</span></button>
<button type="submit" name="outcome" value="expire">Udløb · <span lang="en">Expire</span></button>
<button type="submit" name="outcome" value="abandon">Afbryd · <span lang="en">Abandon</span></button>
</form>`
}
${laterPanel(session)}`,
  );
}

export function testCarrierProviderRoutes(provider: TestCarrierProvider, options: { production: boolean }) {
  return async (app: FastifyInstance): Promise<void> => {
    const sender = testPostbackSender(app, 'carrier');
    const notify = (session: TestCarrierSession, status: TestCarrierStatus, twice: boolean) => sender.send(() => provider.notify(session, status), twice);

    app.post('/start', async (request, reply) => {
      const session = provider.sessionOfForm((request.body ?? {}) as Record<string, string>);
      if (!session) return text(reply, 400, 'Unknown payment or wrong digest');
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
