import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PaymentProvider } from '../adapters/types.ts';
import { SYSTEM } from '../domain/context.ts';
import { applyPaymentEvent } from '../domain/commerce/apply-payment-event.ts';
import { contextFor, noStore, type ApiDeps } from './http.ts';

/**
 * The payment providers' postbacks (docs/decisions/025-commerce.md, docs/security.md): server-to-server
 * calls outside the advertiser's session, authenticated by the provider's signature (each provider checks
 * its own), every one going through `applyPaymentEvent`. Accepted events and copies of them are answered
 * as the provider expects (card: plain `OK`), so it stops sending; refused ones (a bad signature, an
 * unknown reference, a wrong amount or currency, a test reference in live mode) get a 400 without detail
 * and are logged with the reason only (no personal data: the URL is logged redacted); those the provider
 * did not vouch for are kept capped in the pruned refused_postbacks log, the others raw in payment_events.
 *
 * - GET /api/backend/cardbillingpostback (spec §7: SaleId, Type, NextChargeOn, ReferenceId, TruncatedPAN,
 *   Event, TransactionId): the card provider's. A GET, so the cross-site guard (which looks at
 *   state-changing methods) does not apply; the signature is the only authority.
 * - POST /api/backend/confirmopostback (spec §7): the crypto provider's notification, the invoice as JSON
 *   with `BP-Signature`; read as the raw body (the signature is over its bytes) and trusted only once the
 *   invoice read back from the provider agrees. `signedCallback`: the Origin check does not apply.
 * - POST /api/backend/dimocopostback (spec §7): the carrier provider's callback, a form (`data` + `digest`,
 *   HMAC-SHA256 over data) as DIMOCO sends it: `formCallback` lets the cross-site guard take its urlencoded body.
 */
/** A provider's notification is a few kilobytes (Confirmo's invoice, DIMOCO's XML result): 16 KB is ample. */
const POSTBACK_BODY_LIMIT = 16 * 1024;

export function paymentPostbackRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const commerce = { messaging: deps.messaging, providers: deps.payments, siteUrl: deps.siteUrl };
    // What a provider sends from one address: 10 a second at most (a burst of retries after an outage
    // included; RATE_LIMIT_SCALE multiplies it, as every per-address limit). A provider that is refused
    // retries later, so nothing is lost; anyone else gets little through.
    const postbackLimit = { max: 600 * deps.rateLimitScale, timeWindow: '1 minute' };

    const handle = async (request: FastifyRequest, reply: FastifyReply, provider: PaymentProvider | null) => {
      noStore(reply);
      if (!provider) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
      const queryAt = request.url.indexOf('?');
      const result = await applyPaymentEvent(contextFor(deps, request, SYSTEM), commerce, provider, {
        method: request.method === 'POST' ? 'POST' : 'GET',
        query: queryAt === -1 ? '' : request.url.slice(queryAt + 1),
        headers: request.headers,
        body: typeof request.body === 'string' ? request.body : '',
      });
      if (!result.accepted) {
        request.log.warn({ provider: provider.name, reason: result.reason }, 'payment postback refused');
        return reply.code(400).type('text/plain; charset=utf-8').send('Refused');
      }
      if (result.afterCommitError) {
        request.log.error({ err: result.afterCommitError, orderId: result.orderId ?? null }, 'payment postback applied, but publishing or telling the advertiser failed');
      }
      request.log.info({ provider: provider.name, outcome: result.outcome, orderId: result.orderId ?? null, reason: result.reason }, 'payment postback');
      const answer = provider.postbackAnswer;
      return reply.code(answer.status).type(answer.contentType).send(answer.body);
    };

    app.get('/cardbillingpostback', { config: { rateLimit: postbackLimit } }, async (request, reply) =>
      handle(request, reply, deps.payments.byMethod('card')),
    );

    await app.register(async (signed) => {
      signed.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: POSTBACK_BODY_LIMIT }, (_request, body, done) => done(null, body));
      signed.post('/confirmopostback', { config: { signedCallback: true, rateLimit: postbackLimit } }, async (request, reply) =>
        handle(request, reply, deps.payments.byMethod('crypto')),
      );
    });

    await app.register(async (signed) => {
      signed.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: POSTBACK_BODY_LIMIT }, (_request, body, done) => done(null, body));
      signed.post('/dimocopostback', { config: { signedCallback: true, formCallback: true, rateLimit: postbackLimit } }, async (request, reply) =>
        handle(request, reply, deps.payments.byMethod('carrier')),
      );
    });
  };
}
