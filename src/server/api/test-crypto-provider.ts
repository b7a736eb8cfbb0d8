import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatDkk } from '#lib/format.ts';
import { CONFIRMO_STATUSES, confirmoDecimal, parseConfirmoJson, type ConfirmoStatus } from '../adapters/payments/confirmo.ts';
import type { TestCryptoInvoice, TestCryptoOutcome, TestCryptoProvider } from '../adapters/payments/test-crypto-provider.ts';
import { escapeHtml, testProviderPage } from './test-age-provider.ts';
import { TEST_NOTE, decisionRoute, hostedPageRoute, laterEventRoute, productionNote, testPostbackSender, timingOptions } from './test-payment-pages.ts';

/**
 * /test-payments/crypto/...: the built-in TEST stand-in of Confirmo (registered only with PAYMENT_CRYPTO=test;
 * src/server/adapters/payments/test-crypto-provider.ts), which the live adapter talks to.
 *
 * Confirmo's API v3, as Confirmo answers it (Bearer the stand-in's API key, else 401):
 * - `POST /api/v3/invoices`: a new invoice (400 with `message` when Confirmo would refuse the request); its
 *   creation is notified before the answer, then the invoice model is answered.
 * - `GET /api/v3/invoices/{id}`: the invoice model, 404 when unknown.
 *
 * The invoice's page, plain HTML that says clearly it is a TEST and no money moves:
 * - `GET /{invoiceId}`: Pay (active, confirming, then paid), Fail (active, confirming, error), Expire,
 *   Abandon; the notifications go out before the buyer returns (default), right after, after a delay, or
 *   never, once or twice. Then the buyer goes to the invoice's returnUrl.
 * - `POST /{invoiceId}/invoice` (`status`): moves the invoice to any status later and notifies it (a paid
 *   after expiry, a paid before confirming: the orders a blockchain may give).
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

const amountOf = (invoice: TestCryptoInvoice) => (invoice.currency === 'DKK' ? formatDkk(invoice.amountOre) : `${confirmoDecimal(invoice.amountOre)} ${invoice.currency}`);

function invoicePage(invoice: TestCryptoInvoice, production: boolean): string {
  const action = `/test-payments/crypto/${encodeURIComponent(invoice.id)}`;
  return testProviderPage(
    'Kryptobetaling (TEST) · Crypto payment (TEST)',
    `${TEST_NOTE}${production ? `\n${productionNote('crypto')}` : ''}
<h1>Kryptobetaling <span lang="en">· Crypto payment</span> (TEST)</h1>
<p>${escapeHtml(invoice.product.name)} · <strong>${escapeHtml(amountOf(invoice))}</strong></p>
<p>Reference: <code>${escapeHtml(invoice.reference ?? '')}</code> · status: <strong data-state="${invoice.status}">${invoice.status}</strong></p>
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

export function testCryptoProviderRoutes(provider: TestCryptoProvider, options: { production: boolean }) {
  const expected = Buffer.from(`Bearer ${provider.apiKey}`, 'utf8');
  const authorized = (request: FastifyRequest) => {
    const given = Buffer.from(request.headers.authorization ?? '', 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const api = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(body);

  return async (app: FastifyInstance): Promise<void> => {
    const sender = testPostbackSender(app, 'crypto');
    const notify = (invoice: TestCryptoInvoice, status: ConfirmoStatus, twice: boolean) => sender.send(() => provider.notify(invoice, status), twice);

    // Confirmo's requests are JSON; read as Confirmo's bodies are (an amount's text as sent).
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
      try {
        done(null, parseConfirmoJson(String(body)));
      } catch {
        done(Object.assign(new Error('The request body is not JSON'), { statusCode: 400 }), undefined);
      }
    });

    app.post('/api/v3/invoices', async (request, reply) => {
      if (!authorized(request)) return api(reply, 401, { message: 'Unauthorized' });
      const created = provider.create(request.body);
      if ('refused' in created) return api(reply, 400, { message: created.refused });
      // Confirmo notifies an invoice's creation (https://docs.confirmo.net/reference/notifications).
      if (created.notifyUrl) await sender.send(() => provider.sendNotification(created), false);
      return api(reply, 200, provider.invoiceJson(created));
    });

    app.get('/api/v3/invoices/:id', async (request, reply) => {
      if (!authorized(request)) return api(reply, 401, { message: 'Unauthorized' });
      const invoice = provider.find((request.params as { id: string }).id);
      if (!invoice) return api(reply, 404, { message: 'Invoice not found' });
      return api(reply, 200, provider.invoiceJson(invoice));
    });

    hostedPageRoute(app, (id) => provider.find(id), (invoice) => invoicePage(invoice, options.production));

    decisionRoute(app, sender, {
      outcomes: OUTCOMES,
      find: (id) => provider.find(id),
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
      find: (id) => provider.find(id),
      refusal: (invoice) => (invoice.decided ? null : 'Decide on the invoice first'),
      send: notify,
      page: { title: 'Kryptobetaling (TEST) · Crypto payment (TEST)', sent: 'Notification', panel: invoicePanel },
    });
  };
}
