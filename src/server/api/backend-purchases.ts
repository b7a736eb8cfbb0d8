import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FullInvoiceRequestSchema, PurchaseReceiptQuerySchema } from '#lib/schemas/orders.ts';
import { getPurchaseDocumentPdf, getPurchaseReceipt, requestFullInvoice } from '../domain/commerce/purchase-receipt.ts';
import { advertiserOf } from './backend.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';
import { sendPdf } from './order-files.ts';

/**
 * /api/backend/...: the advertiser's own order's sales documents (spec §7 purchasehistoryreceipt) and a
 * full invoice on request (purchasehistoryinvoice). Another advertiser's order is answered 404.
 */
export function backendPurchaseRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, advertiserOf(request));

    /** JSON: the order and its documents; `Format=pdf`: one document (`DocumentId`, else the receipt) as a PDF. */
    app.get('/purchasehistoryreceipt', async (request, reply) => {
      const input = readInput(request, PurchaseReceiptQuerySchema);
      if (input.Format === 'json') return getPurchaseReceipt(ctxOf(request), input.Id);
      const file = await getPurchaseDocumentPdf(ctxOf(request), {
        orderId: input.Id,
        documentId: input.DocumentId === '' ? null : input.DocumentId,
        locale: input.Locale,
      });
      return sendPdf(reply, file);
    });

    /** A full invoice for the order's receipt: 201 when made now, 200 with the one made before. */
    app.post('/purchasehistoryinvoice', async (request, reply) => {
      const answer = await requestFullInvoice(ctxOf(request), readInput(request, FullInvoiceRequestSchema));
      return reply.code(answer.created ? 201 : 200).send(answer);
    });
  };
}
