import type { FastifyInstance } from 'fastify';
import { formatDkk } from '#lib/format.ts';
import { CONFIRMO_STATUSES, type ConfirmoStatus } from '../adapters/payments/confirmo.ts';
import type { TestCryptoInvoice, TestCryptoOutcome, TestCryptoProvider } from '../adapters/payments/test-crypto-provider.ts';
import { escapeHtml, testProviderPage } from './test-age-provider.ts';
import { TEST_NOTE, decisionRoute, hostedPageRoute, laterEventRoute, productionNote, testPostbackSender, timingOptions } from './test-payment-pages.ts';

/**
 * /test-payments/crypto/...: the built-in TEST crypto provider (registered only with PAYMENT_CRYPTO=test).
 *
 * - `GET /{invoiceId}`: the invoice page, plain HTML that says clearly it is a TEST and no money moves:
 *   Pay (confirming, then paid), Fail (error), Expire, Abandon; the notifications go out before the buyer
 *   returns (default), right after, after a delay, or never, once or twice. Then the buyer goes back to the
 *   callback screen.
 * - `POST /{invoiceId}/invoice` (`status`): moves the invoice to any status later and notifies it (a paid
 *   after expiry, a paid before confirming: the orders a blockchain may give).
 * - `GET /api/v3/invoices/{id}`: the invoice read back, shaped like Confirmo's (Bearer the test secret).
 */

const OUTCOMES: readonly TestCryptoOutcome[] = ['approve', 'decline', 'expire', 'abandon'];

function invoicePanel(invoice: TestCryptoInvoice): string {
  if (!invoice.decided) return '';
  const buttons = CONFIRMO_STATUSES.map((name) => `<button type="submit" name="status" value="${name}">${name}</button>`).join('\n');
  return `<h2>Invoice</h2>
<form method="post" action="${escapeHtml(`/test-payments/crypto/${encodeURIComponent(invoice.id)}/invoice`)}">
${buttons}
<label><input type="checkbox" name="twice" value="1"> send twice</label>
</form>`;
}

function invoicePage(invoice: TestCryptoInvoice, production: boolean): string {
  const action = `/test-payments/crypto/${encodeURIComponent(invoice.id)}`;
  return testProviderPage(
    'Kryptobetaling (TEST) · Crypto payment (TEST)',
    `${TEST_NOTE}${production ? `\n${productionNote('crypto')}` : ''}
<h1>Kryptobetaling <span lang="en">· Crypto payment</span> (TEST)</h1>
<p>${escapeHtml(invoice.request.description)} · <strong>${escapeHtml(formatDkk(invoice.request.amountOre))}</strong></p>
<p>Reference: <code>${escapeHtml(invoice.request.reference)}</code> · status: <strong data-state="${invoice.status}">${invoice.status}</strong></p>
${
  invoice.decided
    ? ''
    : `<form method="post" action="${escapeHtml(action)}">
<p><label>Notification <select name="timing">${timingOptions()}</select></label>
<label>delay (s) <input name="delaySeconds" type="number" min="1" max="600" value="10"></label>
<label><input type="checkbox" name="twice" value="1"> send twice</label></p>
<button type="submit" name="outcome" value="approve">Betal · <span lang="en">Pay</span></button>
<button type="submit" name="outcome" value="decline">Fejl · <span lang="en">Fail</span></button>
<button type="submit" name="outcome" value="expire">Udløb · <span lang="en">Expire</span></button>
<button type="submit" name="outcome" value="abandon">Afbryd · <span lang="en">Abandon</span></button>
</form>`
}
${invoicePanel(invoice)}`,
  );
}

export function testCryptoProviderRoutes(provider: TestCryptoProvider, secret: string, options: { production: boolean }) {
  return async (app: FastifyInstance): Promise<void> => {
    const sender = testPostbackSender(app, 'crypto');
    const notify = (invoice: TestCryptoInvoice, status: ConfirmoStatus, twice: boolean) => sender.send(() => provider.notify(invoice, status), twice);

    app.get('/api/v3/invoices/:id', async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (request.headers.authorization !== `Bearer ${secret}`) return reply.code(401).send({ message: 'Unauthorized' });
      const invoice = provider.findInvoice((request.params as { id: string }).id);
      if (!invoice) return reply.code(404).send({ message: 'Invoice not found' });
      return reply.send(provider.invoiceJson(invoice));
    });

    hostedPageRoute(app, (id) => provider.findInvoice(id), (invoice) => invoicePage(invoice, options.production));

    decisionRoute(app, sender, {
      outcomes: OUTCOMES,
      find: (id) => provider.findInvoice(id),
      decide: (invoice, outcome, twice) => {
        const statuses = provider.decide(invoice.id, outcome)!;
        const postbacks = async () => {
          for (const status of statuses) await notify(invoice, status, twice);
        };
        return { postbacks: statuses.length > 0 ? postbacks : null, returnUrl: provider.returnUrlOf(invoice) };
      },
    });

    laterEventRoute(app, {
      path: 'invoice',
      field: 'status',
      events: CONFIRMO_STATUSES,
      find: (id) => provider.findInvoice(id),
      refusal: (invoice) => (invoice.decided ? null : 'Decide on the invoice first'),
      send: notify,
      page: { title: 'Kryptobetaling (TEST) · Crypto payment (TEST)', sent: 'Notification', panel: invoicePanel },
    });
  };
}
